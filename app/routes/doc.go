// Package routes registers the pages of Omission with go-app: the
// visualiser at /, the explainer article at /article and its embeds at
// /embed. The same routes serve the browser, the native server and the
// static-site generator, so the program (package main) and the tests that
// build the site (app/browser) call Register alike. It may import
// app/article, app/compute and app/page only.
package routes
