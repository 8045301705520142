// Omission: the page's own small script (loaded by every page, before
// app.wasm).
//
// It keeps the WebAssembly module the page compiles (go-app's app.js calls
// WebAssembly.instantiateStreaming), so that the simulation worker
// (web/worker.js, app/worker) can run the same module without fetching or
// compiling it again.
(() => {
  "use strict";
  const keep = (p) => p.then((r) => { if (r && r.module) window.omissionWasmModule = r.module; return r; });
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) WebAssembly.instantiateStreaming = (src, imports) => keep(streaming.call(WebAssembly, src, imports));
  const plain = WebAssembly.instantiate;
  WebAssembly.instantiate = (src, imports) => {
    const p = plain.call(WebAssembly, src, imports);
    return src instanceof WebAssembly.Module ? p : keep(p);
  };
})();
// The pages run under a Content-Security-Policy that allows no
// inline style attribute, so elements that need a computed position carry it
// as data-left and data-top (percentages) and are placed here, through the
// CSSOM, which the policy allows.
(() => {
  "use strict";
  const place = (el) => {
    const left = parseFloat(el.dataset.left), top = parseFloat(el.dataset.top);
    if (Number.isFinite(left)) el.style.left = left + "%";
    if (Number.isFinite(top)) el.style.top = top + "%";
  };
  const scan = (root) => {
    if (root.nodeType !== 1) return;
    if ("left" in root.dataset || "top" in root.dataset) place(root);
    root.querySelectorAll("[data-left],[data-top]").forEach(place);
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") place(r.target);
      else r.addedNodes.forEach(scan);
    }
  }).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-left", "data-top"],
  });
  if (document.body) scan(document.body);
  else document.addEventListener("DOMContentLoaded", () => scan(document.body));
})();

// The static site's HTML of the visualiser holds the numbers of one query
// (data-query; "" is the bench preset) and, in data-prerender, what the app
// needs to take them over without running again. Before app.wasm has
// started, a page opened at another query must not show those numbers as
// its own: they are hidden, and the page says it is computing.
document.addEventListener("DOMContentLoaded", () => {
  "use strict";
  const root = document.getElementById("omission");
  if (!root || root.dataset.state !== "prerendered") return;
  const srcs = {};
  root.querySelectorAll("section.charts figure[data-chart] img").forEach((img) => {
    srcs[img.closest("figure").dataset.chart] = img.getAttribute("src");
  });
  window.omissionPrerender = { query: root.dataset.query || "", json: root.dataset.prerender || "", srcs };
  const asked = location.search.replace(/^\?/, "");
  if (asked === (root.dataset.query || "")) return;
  root.classList.add("computing");
  const note = document.createElement("p");
  note.className = "computing-note";
  note.setAttribute("role", "status");
  note.textContent = "Computing the numbers of this address… (the simulator is loading)";
  const story = root.querySelector(".story") || root;
  story.insertBefore(note, story.firstChild);
});
