// Omission's simulation worker. The page (app/worker) starts it with the
// WebAssembly module it compiled for itself (kept by web/page.js) and the
// address of the toolchain's wasm_exec.js; the module's main sees no
// document and serves the page's requests (app/worker.Serve). Messages that
// arrive while it starts wait in omissionPending (the protocol: app/wire).
"use strict";
self.omissionPending = [];
self.onmessage = (e) => {
  const d = e.data;
  if (d && d.type === "init") {
    try {
      importScripts(d.wasmExec);
      const go = new Go();
      go.argv = ["app", "worker"];
      WebAssembly.instantiate(d.module, go.importObject)
        .then((inst) => go.run(inst))
        .catch((err) => self.postMessage(JSON.stringify({ id: -1, err: "the simulation worker could not start: " + err })));
    } catch (err) {
      self.postMessage(JSON.stringify({ id: -1, err: "the simulation worker could not start: " + err }));
    }
    return;
  }
  self.omissionPending.push(d);
};
