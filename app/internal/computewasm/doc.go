// Command computewasm is compute.wasm, the visualiser's simulation worker:
// it runs the page's simulations, formats their results, draws their
// charts, writes their files and what each tool would print (app/worker's
// Serve). web/page.js starts it as the page loads, in a Web Worker through
// web/worker.js (or, where the browser has none, on the page's thread
// behind a stand-in), so that it downloads and compiles on another core
// while the page's own program, app.wasm, starts on the page's thread;
// app.wasm links none of this. It speaks the workers' protocol (app/wire).
// make wasm builds it through app/internal/wasmbuild with app.wasm's flags.
//
// It may import app/compute and app/worker.
package main
