// Omission's fit worker: the page (app/page, fit.go) starts it when the
// reader first asks what a file's test hid, and sends it the toolchain's
// wasm_exec.js and fit.wasm's addresses; fit.wasm (app/internal/fitwasm)
// then answers each request, a JSON string, with a JSON string. Messages
// that arrive while it starts wait in omissionPending (the protocol:
// app/wire).
"use strict";
self.omissionPending = [];
self.onmessage = (e) => {
  const d = e.data;
  if (d && d.type === "init") {
    const fail = (err) => self.postMessage(JSON.stringify({ id: -1, err: "the fit could not start: " + err }));
    try {
      importScripts(d.wasmExec);
      const go = new Go();
      go.argv = ["fit"];
      // Streaming needs the server's application/wasm; without it the
      // bytes are compiled after they all came.
      WebAssembly.instantiateStreaming(fetch(d.wasm), go.importObject)
        .catch(() => fetch(d.wasm).then((r) => {
          if (!r.ok) {
            throw new Error(d.wasm + ": " + r.status);
          }
          return r.arrayBuffer();
        }).then((b) => WebAssembly.instantiate(b, go.importObject)))
        .then((r) => go.run(r.instance))
        .catch(fail);
    } catch (err) {
      fail(err);
    }
    return;
  }
  self.omissionPending.push(d);
};
