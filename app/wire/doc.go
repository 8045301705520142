// Package wire is the one protocol the page's two Web Workers speak: the
// simulation worker (app/worker, web/worker.js) and the fit worker
// (app/internal/fitwasm, web/fitworker.js).
//
//   - Boot: the page starts the worker's script and posts it
//     {"type":"init", …} with what the script needs to start the Go
//     program (the compiled module, or fit.wasm's address, and
//     wasm_exec.js's). Messages that arrive meanwhile wait in the script's
//     self.omissionPending; the program takes them first (Listen).
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
