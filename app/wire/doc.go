// Package wire is the one protocol the page's two Web Workers speak: the
// simulation worker (app.wasm's module run as "worker": app/worker) and the
// fit worker (fit.wasm: app/internal/fitwasm). One script starts either
// (web/worker.js).
//
//   - Boot: the page starts the worker's script and posts it
//     {"type":"init", "module" or "wasm": …, "wasmExec": …, "argv": […],
//     "warm": …}: the Go program (a module the page compiled, or its
//     address), the toolchain's wasm_exec.js's address, the program's
//     arguments and what it may do before the page asks (Warm). Messages
//     that arrive meanwhile wait in the host's queue (Host); the program
//     takes them first (Listen). Where the browser has no Web Workers,
//     web/page.js runs the simulation's program on the page's thread
//     behind a stand-in with a Worker's methods, and the protocol is the
//     same.
//   - Ready: the program posts Ready ({"id":0,"ready":true}) once it
//     listens. A script that could not start the program posts
//     {"id":-1,"err":"…"}, and the page stops using that worker.
//   - Request: a JSON string whose "id" is the page's number for it
//     (positive, increasing); "cancel": true stops the request in progress.
//   - Response: a JSON string (the simulation worker's Export answers carry
//     a Blob beside it) whose "id" is its request's; "err" says why the
//     request could not be answered. Messages with "id" 0 are the worker's
//     own (ready, the fit worker's warm-up).
//
// Each worker's payloads (worker.Request and Response, fitmsg.Request and
// Answer) carry these keys: app's TestWorkerProtocol holds them to Header.
//
// It may import no package of the project.
package wire
