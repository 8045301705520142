// Omission's workers. One script starts either Go program the page runs
// off its thread: the simulation (app.wasm's module, which the page
// compiled, run with the argument "worker": app/worker; web/page.js starts
// it as soon as app.wasm is compiled) and the fit (fit.wasm,
// app/internal/fitwasm; started when the reader reaches for a file). The
// page posts {type: "init", module or wasm, wasmExec, argv, warm}; the program then talks
// to the page through self.omissionWire (the protocol: app/wire), and
// messages that arrive while it starts wait in its queue.
//
// omissionRun is also what web/page.js's stand-in calls on the page's own
// thread where the browser has no Web Workers: there wasm_exec.js is
// already loaded, and the wire is the stand-in's.
"use strict";
self.omissionRun = (d, wire) => {
  const fail = (err) => wire.post(JSON.stringify({ id: -1, err: "the " + (d.name || "worker") + " could not start: " + err }));
  try {
    if (typeof Go === "undefined") importScripts(d.wasmExec);
    const go = new Go();
    go.argv = d.argv || ["omission"];
    // A module the page compiled is instantiated; an address is fetched
    // and compiled (streaming needs the server's application/wasm; without
    // it the bytes are compiled after they all came).
    const started = d.module
      ? WebAssembly.instantiate(d.module, go.importObject).then((instance) => ({ instance }))
      : WebAssembly.instantiateStreaming(fetch(d.wasm), go.importObject)
        .catch(() => fetch(d.wasm).then((r) => {
          if (!r.ok) {
            throw new Error(d.wasm + ": " + r.status);
          }
          return r.arrayBuffer();
        }).then((b) => WebAssembly.instantiate(b, go.importObject)));
    started
      .then((r) => {
        // When the program was compiled, and when it first waited for the
        // page (its start done, and the run of the page's address with it
        // when that took one slice), as the epoch's ms: web/page.js marks
        // them on the page's clock for make bench.
        const at = () => performance.timeOrigin + performance.now();
        wire.post(JSON.stringify({ id: 0, compiled: at() }));
        const exited = go.run(r.instance);
        wire.post(JSON.stringify({ id: 0, idle: at() }));
        return exited;
      })
      .catch(fail);
  } catch (err) {
    fail(err);
  }
};
if (typeof importScripts === "function") {
  const wire = { pending: [], onmessage: null, post: (m) => self.postMessage(m) };
  self.omissionWire = wire;
  self.onmessage = (e) => {
    const d = e.data;
    if (d && d.type === "init") {
      wire.warm = d.warm; // the page's address, which the program runs before the page asks
      self.omissionRun(d, wire);
    }
    else if (wire.onmessage) wire.onmessage(d);
    else wire.pending.push(d);
  };
}
