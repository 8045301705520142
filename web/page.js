// Omission: the page's own small script (loaded by every page, before
// app.wasm). The pages run under a Content-Security-Policy that allows no
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
