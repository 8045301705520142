// Package fitmsg is what the page and the fit worker (fit.wasm,
// app/internal/fitwasm) say to each other, as JSON strings: a Request with
// a measured file, an Answer with the fit formatted for people. The page
// imports this package, never app/fit: the fit stays out of app.wasm.
//
// It may import the standard library only.
package fitmsg
