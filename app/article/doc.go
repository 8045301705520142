// Package article is the explorable article at /article, its figures and
// the embeds at /embed.
//
// The article's prose is article.txt (text.go reads it): plain paragraphs
// with named slots for the numbers the simulator computes, conditional
// sentences bound to claims checked against the simulator (claims.go), and
// adjustable numbers (adjust.go) that the reader drags or steps with the
// keyboard, after which every number, sentence and figure of that section
// follows. The reader's values live in the article's URL, under the keys
// ui.ArticleKeys lists.
//
// It may import go-app, sim, app/ui, app/units, app/view, app/compute,
// app/charts and app/anim; nothing imports it but the program's routes and
// its tests.
package article
