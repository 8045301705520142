// Command fitwasm is fit.wasm, the fit of a measured file (app/fit) for
// the page, loaded only when the reader asks "What did this test hide?":
// app.wasm does not hold the fit. It runs in a Web Worker
// (web/fitworker.js starts it) and answers each request, a
// fitmsg.Request as a JSON string, with a fitmsg.Answer as a JSON string.
// It is plain Go and syscall/js, without go-app, and links no net/http;
// make wasm builds it through app/internal/wasmbuild into web/fit.wasm.
//
// It may import app/fit, app/fitmsg, app/measure and sim.
package main
