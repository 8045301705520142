// Omission: the page's own small script (loaded by every page, before
// app.wasm).
//
// It keeps the WebAssembly module the page compiles (go-app's app.js calls
// WebAssembly.instantiateStreaming), and starts the visualiser's simulation
// worker (web/worker.js, app/worker) with it as soon as it is compiled: the
// worker runs the same app.wasm without fetching or compiling it again,
// and its start (its Go runtime, and the run of the page's address) is done
// on another core while the page's own program starts on this one. What
// the worker says before the page takes it is held for it (app/worker,
// NewBrowser: omissionStartSim). Where the browser has no Web Workers, a
// stand-in with a Worker's methods runs the same program on this thread
// (omissionStandIn), and the page says so (data-compute).
(() => {
  "use strict";
  // The workers' addresses and the site's root, from go-app's environment
  // (app.js: it has run by the time app.wasm is compiled).
  const env = () => (typeof goappEnv === "object" ? goappEnv : {});
  const root = () => (env().GOAPP_ROOT_PREFIX || "").replace(/\/+$/, "");
  // omissionStandIn is a Worker's stand-in on the page's thread: it loads
  // web/worker.js as a script and runs its program (omissionRun) with a
  // wire of its own; messages go both ways on tasks of their own, as a
  // Worker's do.
  window.omissionStandIn = (script) => {
    const listeners = new Set();
    let wire = null;
    const later = (f) => setTimeout(f, 0);
    const deliver = (data) => later(() => listeners.forEach((f) => f({ type: "message", data })));
    const run = (d) => {
      wire = { pending: wire ? wire.pending : [], onmessage: null, post: deliver, warm: d.warm };
      window.omissionWire = wire;
      // On this thread the program waits for the document: wasm_exec.js
      // (Go) is one of its deferred scripts, and nothing runs in parallel
      // here anyway.
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", () => run(d), { once: true });
        return;
      }
      if (window.omissionRun) { window.omissionRun(d, wire); return; }
      const el = document.createElement("script");
      el.src = script;
      el.onload = () => window.omissionRun(d, wire);
      el.onerror = () => deliver(JSON.stringify({ id: -1, err: "the simulation worker could not start: " + script + " did not load" }));
      document.head.appendChild(el);
    };
    return {
      addEventListener: (type, f) => { if (type === "message") listeners.add(f); },
      removeEventListener: (type, f) => listeners.delete(f),
      postMessage: (d) => {
        if (d && d.type === "init") { run(d); return; }
        if (!wire) wire = { pending: [], onmessage: null, post: deliver };
        later(() => (wire.onmessage ? wire.onmessage(d) : wire.pending.push(d)));
      },
      terminate: () => { listeners.clear(); if (wire) wire.onmessage = () => {}; },
    };
  };
  // omissionWorkerMark marks a time the simulation worker posted of itself
  // (web/worker.js: compiled, idle) on the page's clock, and reports
  // whether msg was one.
  window.omissionWorkerMark = (msg) => {
    if (typeof msg !== "string" || !/^\{"id":0,"(compiled|idle)":/.test(msg)) return false;
    const d = JSON.parse(msg);
    for (const k of ["compiled", "idle"]) {
      if (d[k]) performance.mark("omission:worker-" + k, { startTime: d[k] - performance.timeOrigin });
    }
    return true;
  };
  // omissionStartSim hands the page its simulation worker: {worker, take,
  // where} (take returns the events held since it started, in order, and
  // stops holding them), or null where the site has none. The first call
  // on the visualiser is page.js's own, as soon as app.wasm is compiled;
  // one after the page took its worker starts another.
  let started = null;
  window.omissionStartSim = () => {
    if (started) return started;
    const script = env().OMISSION_WORKER_JS, module = window.omissionWasmModule;
    if (!script || !module) return null;
    const where = window.Worker ? "worker" : "page";
    const w = where === "worker" ? new Worker(script) : window.omissionStandIn(script), held = [];
    const hold = (ev) => {
      if (ev.type === "error" && ev.preventDefault) ev.preventDefault();
      else if (typeof ev.data === "string" && ev.data.startsWith('{"id":0,"ready":true')) performance.mark("omission:worker-ready");
      else if (window.omissionWorkerMark(ev.data)) return;
      held.push(ev);
    };
    w.addEventListener("message", hold);
    w.addEventListener("error", hold);
    performance.mark("omission:worker-start");
    w.postMessage({ type: "init", name: "simulation worker", module, wasmExec: root() + "/wasm_exec.js", argv: ["app", "worker"], warm: location.search.replace(/^\?/, "") });
    started = {
      worker: w,
      where,
      take: () => {
        w.removeEventListener("message", hold);
        w.removeEventListener("error", hold);
        started = null;
        return held;
      },
    };
    return started;
  };
  // The visualiser is the site's root page: its worker starts as soon as
  // app.wasm is compiled. (A worker with a program of its own, started as
  // the document is parsed, compiled it while app.wasm compiled: on this
  // project's 2-core machine that made a shared address some 150 ms slower
  // to answer than one compile shared, in fresh browsers, issue 42's note.)
  const here = location.pathname.replace(/\/index\.html$/, "").replace(/\/+$/, "");
  // The startup's marks (omission:compiled here; the Go side marks its
  // mount, the worker's ready and its first answer) time its parts for
  // make bench (app/browser, TestBrowserBenchSite).
  const mark = (p) => p.then((r) => {
    if (r && r.module) {
      window.omissionWasmModule = r.module;
      performance.mark("omission:compiled");
      if (here === root()) window.omissionStartSim();
    }
    return r;
  });
  // omissionPainted settles once the browser has reported the static
  // page's largest paint (no later than 300 ms after it is asked): app.js
  // waits for it before it starts app.wasm, whose first render replaces
  // the static HTML's elements with equal ones in one long task. Started
  // on the frame the static page was painted, that task held the report
  // back until the painted element was gone, and the browser recorded the
  // page's largest paint only when the program's copy of it was painted:
  // Lighthouse gave 1.9 s in some runs for a page painted at 0.3 s.
  let lastPaint = -1;
  const painted = new Promise((resolve) => {
    const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (!types.includes("largest-contentful-paint")) {
      resolve();
      return;
    }
    new PerformanceObserver(() => {
      lastPaint = performance.now();
      resolve();
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  // A paint reported within the last frames may be followed by a larger
  // one: two more frames go by before the program starts.
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  window.omissionPainted = () => Promise.race([
    painted.then(() => (performance.now() - lastPaint > 50 ? null : frames())),
    new Promise((r) => setTimeout(r, 300)),
  ]);
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) WebAssembly.instantiateStreaming = (src, imports) => mark(streaming.call(WebAssembly, src, imports));
  const plain = WebAssembly.instantiate;
  WebAssembly.instantiate = (src, imports) => {
    const p = plain.call(WebAssembly, src, imports);
    return src instanceof WebAssembly.Module ? p : mark(p);
  };
})();
// The pages run under a Content-Security-Policy that allows no
// inline style attribute, script or event handler, so what needs a computed
// position or a little behaviour of its own is done here, through the CSSOM
// and listeners the policy allows:
//
// - elements that carry data-left and data-top (percentages) are placed;
// - in-page links marked data-jump (the skip links) move the focus to their
//   target, as a browser does, without go-app taking them for navigation;
// - a term's definition (.term .tip) shows on hover, on focus and on a tap,
//   Escape hides it, and it is kept inside the window;
// - a group of number links (data-roving, and a chart's markers) is one stop
//   of the Tab key, moved through with the arrow keys, as is the tools'
//   list of checkboxes (Space ticks one);
// - the article's adjustable numbers answer a spin button's keys and a
//   sideways drag (the article computes the values), and the visualiser's
//   number boxes step with the arrow keys (the page computes the values);
// - an embed tells the page that frames it how tall it is (postMessage
//   {type: "omission:height", height, live, href}), so that page can size its
//   iframe (the README's snippet);
// - the prerendered numbers of the visualiser and the article are hidden,
//   with a note, while the address asks for others the simulator has not
//   computed yet (at the end of this file).
(() => {
  "use strict";

  // Placement.
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

  // Skip links. The capture phase runs before go-app's window click
  // listener, which stopPropagation keeps out.
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[data-jump]");
    if (!a) return;
    const id = decodeURIComponent((a.getAttribute("href") || "").slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    e.preventDefault();
    e.stopPropagation();
    if (!target.hasAttribute("tabindex") && !target.matches("a[href], button, input, select, textarea, summary")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "start" });
  }, true);

  // Terms. A tip shows through CSS (hover, focus-within, .tip-on); here it
  // is pinned by a tap, hidden by Escape (.tip-off) and kept in the window.
  const fit = (term) => {
    const tip = term.querySelector(".tip");
    if (!tip) return;
    tip.style.transform = "";
    requestAnimationFrame(() => {
      const r = tip.getBoundingClientRect(), room = document.documentElement.clientWidth - 8;
      if (r.width === 0) return;
      let dx = 0;
      if (r.right > room) dx = room - r.right;
      if (r.left + dx < 8) dx = 8 - r.left;
      if (dx !== 0) tip.style.transform = "translateX(" + Math.round(dx) + "px)";
    });
  };
  const termOf = (el) => el && el.closest && el.closest(".term, .field");
  document.addEventListener("click", (e) => {
    const btn = e.target.closest && e.target.closest(".term-btn");
    for (const t of document.querySelectorAll(".term.tip-on")) {
      if (!btn || t !== btn.parentElement) t.classList.remove("tip-on");
    }
    if (!btn) return;
    const t = btn.parentElement, on = !t.classList.contains("tip-on");
    t.classList.toggle("tip-on", on);
    t.classList.toggle("tip-off", !on);
    if (on) fit(t);
  });
  document.addEventListener("focusin", (e) => {
    const t = termOf(e.target);
    if (t) fit(t);
  });
  document.addEventListener("mouseover", (e) => {
    const t = termOf(e.target);
    if (t && !t.contains(e.relatedTarget)) fit(t);
  });
  const unhide = (e) => {
    const t = termOf(e.target);
    if (t && !t.contains(e.relatedTarget)) t.classList.remove("tip-off", "tip-on");
  };
  document.addEventListener("focusout", unhide);
  document.addEventListener("mouseout", unhide);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    for (const t of document.querySelectorAll(".term:hover, .term:focus-within, .term.tip-on, .field:focus-within, .field:hover")) {
      t.classList.remove("tip-on");
      t.classList.add("tip-off");
    }
  });

  // Roving groups: one Tab stop per group (the item last focused, else the
  // first), arrows to move. In a table, up and down keep the column.
  const itemSel = "a[data-proof-of], a.marker, input[data-tool]";
  const groups = () => document.querySelectorAll("[data-roving], .chart-svg");
  const itemsOf = (g) => [...g.querySelectorAll(itemSel)];
  const rove = (g) => {
    const items = itemsOf(g);
    if (items.length < 2) return;
    let cur = items.find((el) => el.getAttribute("tabindex") === "0");
    if (!cur) cur = items[0];
    for (const el of items) {
      const want = el === cur ? "0" : "-1";
      if (el.getAttribute("tabindex") !== want) el.setAttribute("tabindex", want);
    }
  };
  const cellOf = (el) => {
    const td = el.closest("td, th"), tr = td && td.parentElement;
    return td && tr ? { row: tr.rowIndex, col: td.cellIndex } : null;
  };
  const next = (items, el, key) => {
    const i = items.indexOf(el);
    const here = cellOf(el);
    if (here && (key === "ArrowUp" || key === "ArrowDown")) {
      const down = key === "ArrowDown";
      let best = null;
      for (const c of items) {
        const p = cellOf(c);
        if (!p || p.col !== here.col || (down ? p.row <= here.row : p.row >= here.row)) continue;
        if (!best || (down ? p.row < cellOf(best).row : p.row > cellOf(best).row)) best = c;
      }
      return best;
    }
    switch (key) {
      case "ArrowRight": case "ArrowDown": return items[i + 1];
      case "ArrowLeft": case "ArrowUp": return items[i - 1];
      case "Home": return items[0];
      case "End": return items[items.length - 1];
    }
    return null;
  };
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !e.target.matches || !e.target.matches(itemSel)) return;
    const g = e.target.closest("[data-roving], .chart-svg");
    if (!g) return;
    const items = itemsOf(g);
    const to = next(items, e.target, e.key);
    if (to === null) return;
    e.preventDefault();
    if (!to) return;
    for (const el of items) el.setAttribute("tabindex", el === to ? "0" : "-1");
    to.focus();
  });
  document.addEventListener("focusin", (e) => {
    if (!e.target.matches || !e.target.matches(itemSel)) return;
    const g = e.target.closest("[data-roving], .chart-svg");
    if (!g) return;
    for (const el of itemsOf(g)) el.setAttribute("tabindex", el === e.target ? "0" : "-1");
  });
  let roveQueued = false;
  const roveAll = () => {
    if (roveQueued) return;
    roveQueued = true;
    requestAnimationFrame(() => { roveQueued = false; groups().forEach(rove); });
  };

  // A page the browser renders is no longer computing (see below).
  const settle = (el) => {
    if (el.dataset.live !== "true" || !el.classList.contains("computing")) return;
    el.classList.remove("computing");
    el.querySelectorAll(":scope > .computing-note, :scope > article > .computing-note").forEach((n) => n.remove());
  };

  // The article's adjustable numbers (role spinbutton, data-key): the keys
  // of a spin button, and a sideways drag of 10 px a step from the value it
  // began at. Each asks the article (app/article, onAdjust) with an event
  // omission-adjust {key, steps, from}; a drag asks once a frame at most.
  const spinSel = "[role=spinbutton][data-key]";
  const spinKeys = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 3, PageDown: -3, Home: -1e6, End: 1e6 };
  const adjust = (el, steps, from) => {
    el.dispatchEvent(new CustomEvent("omission-adjust", { bubbles: true, detail: { key: el.dataset.key, steps, from } }));
  };
  document.addEventListener("keydown", (e) => {
    const el = e.target.closest && e.target.closest(spinSel);
    const steps = spinKeys[e.key];
    if (!el || !steps || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    adjust(el, steps, "");
  });
  let drag = null;
  document.addEventListener("pointerdown", (e) => {
    const el = e.target.closest && e.target.closest(spinSel);
    if (!el || e.button !== 0) return;
    e.preventDefault();
    el.focus();
    el.setPointerCapture(e.pointerId);
    drag = { el, x0: e.clientX, from: el.dataset.ns || el.dataset.value || "", steps: 0, queued: false };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const steps = Math.trunc((e.clientX - drag.x0) / 10);
    if (steps === drag.steps) return;
    drag.steps = steps;
    if (drag.queued) return;
    drag.queued = true;
    const d = drag;
    requestAnimationFrame(() => { d.queued = false; adjust(d.el, d.steps, d.from); });
  });
  const endDrag = () => {
    if (drag && !drag.queued && drag.steps !== 0) adjust(drag.el, drag.steps, drag.from);
    drag = null;
  };
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", endDrag);

  // The visualiser's number boxes (input[data-step]): ArrowUp and
  // ArrowDown step the value, Page Up and Page Down three steps, along the
  // article's ladder of round numbers. The page computes the value (app/page,
  // step.go) from an event omission-step {steps}; every other key, Shift
  // with an arrow included, is the text box's own.
  const boxSteps = { ArrowUp: 1, ArrowDown: -1, PageUp: 3, PageDown: -3 };
  document.addEventListener("keydown", (e) => {
    const el = e.target, steps = boxSteps[e.key];
    if (!steps || !el.matches || !el.matches("input[data-step]") || el.disabled || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    el.dispatchEvent(new CustomEvent("omission-step", { detail: { steps } }));
  });

  // Embeds: report the height of the content to the framing page.
  // live: the page the browser renders, not the prerendered one.
  let last = "", heightQueued = false;
  const reportHeight = () => {
    heightQueued = false;
    const main = document.querySelector("main.embed");
    if (!main || window.parent === window) return;
    const h = Math.ceil(main.getBoundingClientRect().bottom + window.scrollY), live = main.dataset.live === "true";
    if (h <= 0 || last === h + "/" + live) return;
    last = h + "/" + live;
    window.parent.postMessage({ type: "omission:height", height: h, live, href: location.href }, "*");
  };
  const queueHeight = () => {
    if (heightQueued) return;
    heightQueued = true;
    requestAnimationFrame(reportHeight);
  };
  if (window.ResizeObserver) new ResizeObserver(queueHeight).observe(document.documentElement);
  window.addEventListener("load", queueHeight);

  new MutationObserver((records) => {
    let added = false;
    for (const r of records) {
      if (r.type === "attributes") {
        if (r.attributeName === "data-live") { queueHeight(); settle(r.target); }
        else place(r.target);
      } else { r.addedNodes.forEach(scan); added = true; }
    }
    if (added) { roveAll(); queueHeight(); }
  }).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-left", "data-top", "data-live"],
  });
  const start = () => { scan(document.body); roveAll(); queueHeight(); };
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})();

// The static site's HTML of the visualiser and of the article holds the
// numbers of one query (the visualiser's data-query, "" for the bench preset;
// the article's own values). Before app.wasm has started, a page opened at
// another query, or an article at values of the reader's, must not show
// those numbers as its own: they are hidden, and the page says it is
// computing. The visualiser's data-prerender holds what the app needs to take
// its numbers over without running again.
document.addEventListener("DOMContentLoaded", () => {
  "use strict";
  const computing = (el, where, text) => {
    el.classList.add("computing");
    const note = document.createElement("p");
    note.className = "computing-note";
    note.setAttribute("role", "status");
    note.textContent = text;
    where.insertBefore(note, where.firstChild);
  };
  const root = document.getElementById("omission");
  // Until the page's program mounts (go-app then builds the page again),
  // the prerendered page is read, not used: its controls are disabled, so
  // that nothing typed into them is lost, and its status line says the
  // simulator is starting (app/site, loader.go). omissionLoadFailed says
  // why it did not start.
  document.querySelectorAll("#omission, main.article, main.embed").forEach((page) => {
    // A term's button shows its definition through this script: it works.
    page.querySelectorAll("input, select, textarea, button:not(.term-btn)").forEach((el) => { el.disabled = true; });
  });
  const status = root && root.querySelector(".status-line");
  // omissionKeep moves each kept section into the page's holder of it
  // (elements of a tag the page names, n of them, in order) as the page
  // mounts, and reports whether it did; afterPaint calls f after the
  // browser's next paint, when it is idle (within a second): what the
  // reader does meanwhile, and any other work, goes first.
  window.omissionKeep = (tag, n) => {
    const holders = document.querySelectorAll("#omission " + tag), kept = window.omissionKept;
    window.omissionKept = null;
    if (!kept || kept.length !== n || holders.length !== n) return false;
    holders.forEach((h, i) => h.append(kept[i]));
    return true;
  };
  const afterPaint = (f) => requestAnimationFrame(() => (window.requestIdleCallback ? requestIdleCallback(() => f(), { timeout: 1000 }) : setTimeout(f, 0)));
  // omissionNear calls build(i) for each held section (its holder's
  // data-i) once the reader can see any of it, or focuses into it, one
  // section at a time, each after a paint when the browser is idle: a
  // section the reader never reaches is never built (app/page, below.go).
  // omissionNearAll asks for every section still held (a file given to
  // the page needs its import panel; another result replaces them all),
  // each built after a paint without waiting for the browser to be idle;
  // omissionNearStop drops what is asked and not yet built (the page
  // built them all itself).
  let near = null;
  window.omissionNear = (tag, build) => {
    const queue = [], asked = new Set(), holders = [...document.querySelectorAll("#omission " + tag)];
    let busy = false, stopped = false, urgent = false;
    const pump = () => {
      if (busy || stopped || !queue.length) return;
      busy = true;
      const next = () => {
        busy = false;
        if (stopped) return;
        const i = queue.shift();
        build(i);
        refocus(holders[i]);
        pump();
      };
      if (urgent) requestAnimationFrame(() => setTimeout(next, 0));
      else afterPaint(next);
    };
    // The focus in a held section (a skip link's target, a Tab) is moved
    // to the same element of the section built in its place: the one of
    // the same id, else the section.
    const refocus = (h) => {
      const f = document.activeElement;
      if (!h || !f || !h.contains(f)) return;
      const id = f.id || (h.firstElementChild && h.firstElementChild.id);
      let frames = 0;
      const check = () => {
        if (h.isConnected) {
          if (++frames < 60) requestAnimationFrame(check);
          return;
        }
        const t = id && document.getElementById(id);
        if (!t || (document.activeElement && document.activeElement !== document.body)) return;
        if (!t.hasAttribute("tabindex") && !t.matches("a[href], button, input, select, textarea, summary")) t.setAttribute("tabindex", "-1");
        t.focus({ preventScroll: true });
      };
      requestAnimationFrame(check);
    };
    const ask = (i) => {
      if (stopped || asked.has(i)) return;
      asked.add(i);
      queue.push(i);
      queue.sort((a, b) => a - b);
      pump();
      if (asked.size === holders.length) stop(false);
    };
    const seen = "IntersectionObserver" in window ? new IntersectionObserver((es) => es.forEach((e) => {
      if (e.isIntersecting) ask(+e.target.parentElement.dataset.i);
    })) : null;
    const focused = (e) => {
      const h = e.target.closest && e.target.closest(tag);
      if (h) ask(+h.dataset.i);
    };
    const stop = (all) => {
      if (seen) seen.disconnect();
      document.removeEventListener("focusin", focused);
      if (all) {
        stopped = true;
        queue.length = 0;
      }
    };
    document.addEventListener("focusin", focused);
    holders.forEach((h) => {
      if (seen && h.firstElementChild) seen.observe(h.firstElementChild);
      else ask(+h.dataset.i);
    });
    near = {
      all: () => {
        urgent = true;
        holders.forEach((h) => ask(+h.dataset.i));
      },
      stop: () => stop(true),
    };
  };
  window.omissionNearAll = () => { if (near) near.all(); };
  window.omissionNearStop = () => { if (near) near.stop(); near = null; };
  // statusNote is a paragraph of the status line's (class status cls).
  const statusNote = (cls, text) => {
    const p = document.createElement("p");
    p.className = "status " + cls;
    p.textContent = text;
    return p;
  };
  window.omissionLoadFailed = (why) => {
    // Where the address asks for numbers the static HTML does not hold,
    // they are hidden (computing, below): none is shown to vouch for.
    const hidden = !!document.querySelector(".computing");
    const p = statusNote("failed", "The simulator could not start (" + why + "). " + (hidden
      ? "The numbers of this address could not be computed; reload the page to try again."
      : "The numbers shown were computed when this page was built; reload the page to try again."));
    p.setAttribute("role", "alert");
    const at = status || document.querySelector("main") || document.body;
    document.querySelectorAll(".status.loading, .computing-note").forEach((n) => n.remove());
    at.insertBefore(p, at.firstChild);
  };
  if (root && root.dataset.state === "prerendered") {
    const srcs = {};
    root.querySelectorAll("section.charts figure[data-chart] img").forEach((img) => {
      srcs[img.closest("figure").dataset.chart] = img.getAttribute("src");
    });
    // data-prerender is percent-encoded where go-app's quoting would break
    // it (app/page, run.go: attrSafe).
    let json = "";
    try { json = decodeURIComponent(root.dataset.prerender || ""); } catch (e) { json = ""; }
    window.omissionPrerender = { query: root.dataset.query || "", json, srcs };
    const asked = location.search.replace(/^\?/, "");
    if (asked !== (root.dataset.query || "")) {
      computing(root, root.querySelector(".story") || root, "Computing the numbers of this address… (the simulator is loading)");
    } else {
      if (status) status.appendChild(statusNote("loading", "Starting the simulator… the numbers shown are this address's, computed when the page was built."));
      // The sections below the share box, this address's own: the page
      // holds them until it has built its own (app/page, below.go).
      const share = root.querySelector("main > .share");
      if (share) {
        const kept = [];
        for (let n = share.nextElementSibling; n; n = n.nextElementSibling) kept.push(n);
        window.omissionKept = kept;
      }
    }
  }
  // The article's state and its figures' charts, as the static generator
  // wrote them (app/article, takeover.go): the app takes them over instead
  // of computing them again when they are for this address and size.
  const kept = document.querySelector("main.article[data-prerender]");
  if (kept) {
    try { window.omissionArticle = decodeURIComponent(kept.dataset.prerender); } catch (e) { /* computed by the app */ }
  }
  const figures = [];
  document.querySelectorAll("figure[data-chart][data-prerender]").forEach((fig) => {
    const img = fig.querySelector("img");
    if (!img) return;
    try {
      figures.push({ kind: fig.dataset.chart, query: fig.dataset.query || "", json: decodeURIComponent(fig.dataset.prerender), src: img.getAttribute("src") });
    } catch (e) { /* drawn by the app */ }
  });
  if (figures.length) window.omissionFigures = figures;
  // The article's values are slug.field keys (ui.ArticleKeys).
  const article = document.querySelector("main.article");
  const values = [...new URLSearchParams(location.search).keys()].some((k) => /^[a-z][a-z0-9-]*\.[a-z]+$/.test(k));
  if (article && values && article.dataset.live !== "true") {
    computing(article, article.querySelector("article") || article, "Computing the values in this address… (the simulator is loading)");
  }
});
// The fit (issue 23; app/page, fit.go): the text of each file the reader
// gives the import panel is kept here too (the chooser, a drop, the
// pasted text), and a click on a file's "What did this test hide?"
// (button.fit-ask; the rate typed beside it, if any, goes with the file)
// asks the fit worker (web/worker.js running fit.wasm) for its fit. The worker
// starts when the reader first reaches for a file — opens the file chooser,
// drags a file over the page, or opens the paste box — or gives the
// panel one, never when the page loads: fit.wasm is fetched and compiled
// while the reader picks the file and looks at it beside the run, so the
// first fit does not wait for it (the root element's data-fit-worker says
// "started" once it runs). Each file given is checked by the worker at once
// (a check: whether the file is whole, fit.Lacks), since the page's own
// reading shows its numbers without that check: omissionFileChecked(name,
// state, lacks, why), set by the page, gets "checking", then "whole",
// "incomplete" with what it lacks, or "unknown" with why. For each file,
// omissionFitDone(name, answer), set by the page, gets its progress, then
// fit.wasm's answer (a fitmsg.Answer: its panel laid out as nodes, and the
// fitted query) or a failure, each with a panel the page renders (text
// nodes only); the worker answers each fit twice, the fit first (its
// panel's data-fit "shown", the answer's more set) and then the whole fit
// with each tool's p99 (data-fit "done"). When the worker fails, every
// fit asked fails with it, and the next starts a new worker. An answer for a file asked again since is
// dropped.
(() => {
  "use strict";
  const texts = new Map(); // name → text, the last few files given
  const keep = (name, p) => p.then((t) => { texts.delete(name); texts.set(name, t); if (texts.size > 8) texts.delete(texts.keys().next().value); check(name); }, () => {});
  const keepFile = (f) => { if (f && f.size <= 16 << 20) keep(f.name, f.text()); };
  document.addEventListener("change", (e) => { if (e.target.id === "import-file" && e.target.files) keepFile(e.target.files[0]); }, true);
  document.addEventListener("drop", (e) => { if (e.dataTransfer && e.dataTransfer.files) keepFile(e.dataTransfer.files[0]); }, true);
  let w = null, seq = 0;
  const asked = new Map(); // id → name
  const latest = new Map(); // name → id
  const done = (name, a) => { if (window.omissionFitDone) window.omissionFitDone(name, a); };
  const checks = new Map(); // id → name, the checks asked
  const latestCheck = new Map(); // name → id
  const checked = (name, state, lacks, why) => { if (window.omissionFileChecked) window.omissionFileChecked(name, state, lacks || [], why || ""); };
  const answerCheck = (id, d) => {
    const name = checks.get(id);
    checks.delete(id);
    if (name === undefined || latestCheck.get(name) !== id) return;
    if (d.err) checked(name, "unknown", [], "the fit worker could not read it: " + d.err);
    else checked(name, d.lacks && d.lacks.length ? "incomplete" : "whole", d.lacks);
  };
  const note = (name, kind, text) => done(name, { panel: { t: "p",
    a: ["class", kind === "busy" ? "status" : "error", "role", kind === "busy" ? "status" : "alert", "data-fit", kind], k: [{ x: text }] } });
  const answer = (id, d) => {
    const name = asked.get(id);
    if (!d.more) asked.delete(id); // more: the fit, its tools' list to follow
    if (name === undefined || latest.get(name) !== id) return;
    if (d.err || !d.panel) {
      // d.err names the file: a refusal says why, a failure what failed.
      note(name, "error", "Not fitted: " + (d.err || name + ": no fit came back") + ".");
      return;
    }
    // The link that opens the fitted run, a share URL of this site.
    d.panel.k.push({ t: "p", k: [{ t: "a", a: ["class", "fit-open", "href", root() + "/" + (d.query ? "?" + d.query : "")], k: [{ x: "Open the fitted run" }] }] });
    done(name, d);
  };
  const env = () => (typeof goappEnv === "object" ? goappEnv : {});
  const root = () => (env().GOAPP_ROOT_PREFIX || "").replace(/\/+$/, "");
  // start starts the worker unless it runs (it loads fit.wasm), and
  // reports whether this site has one.
  const start = () => {
    const script = env().OMISSION_WORKER_JS, wasm = env().OMISSION_FIT_WASM;
    if (!script || !wasm) return false;
    if (w) return true;
    w = new Worker(script);
    document.documentElement.dataset.fitWorker = "started";
    const fail = (why) => {
      if (w) w.terminate();
      w = null;
      for (const id of [...asked.keys()]) answer(id, { err: why });
      for (const id of [...checks.keys()]) answerCheck(id, { err: why });
    };
    w.onmessage = (e) => {
      const d = JSON.parse(e.data);
      if (d.id < 0) fail(d.err);
      else if (d.id > 0) (d.check ? answerCheck : answer)(d.id, d);
      else if (d.warm) document.documentElement.dataset.fitWarm = d.warm; // how its warm-up ended (tests)
    };
    w.onerror = (e) => { e.preventDefault(); fail("the fit worker stopped: " + (e.message || "an error")); };
    w.postMessage({ type: "init", name: "fit", wasm, wasmExec: root() + "/wasm_exec.js", argv: ["fit"] });
    return true;
  };
  // check asks the worker whether a file given is whole (fit.Lacks): the
  // page shows the file's numbers at once, and its own reading does not
  // check that; until the answer comes the page says it is checking.
  const check = (name) => {
    const id = ++seq;
    latestCheck.set(name, id);
    if (!start()) {
      checked(name, "unknown", [], "this site has no fit worker to check it");
      return;
    }
    checks.set(id, name);
    checked(name, "checking");
    w.postMessage(JSON.stringify({ id, name, data: texts.get(name), check: true }));
  };
  const fit = (name, rate) => {
    const id = ++seq;
    latest.set(name, id);
    asked.set(id, name);
    if (!texts.has(name) || !start()) {
      answer(id, { err: !texts.has(name) ? "the page no longer holds its text: give it again" : "this site has no fit worker (go run ./app report -fit FILE prints the fit)" });
      return;
    }
    note(name, "busy", "Fitting the model to " + name + "…");
    w.postMessage(JSON.stringify({ id, name, data: texts.get(name), rate: rate || "" }));
  };
  // The first screen's "check your own test" (#yours-file): the file goes
  // to the import panel as if chosen there, and once the panel lists it its
  // fit is asked and shown, with no further step.
  const checkFile = (f) => {
    if (!f) return;
    // Before the page's own import panel is built (app.wasm loading, or
    // the static HTML's sections still held: app/page, below.go) the file
    // waits for it.
    const live = () => { const r = document.getElementById("omission"); return !!r && r.dataset.state !== "prerendered" && !document.querySelector("omission-kept"); };
    if (!live()) {
      // The page builds what it holds at once: the file needs its panel.
      window.omissionNearAll();
      const w = new MutationObserver(() => { if (live()) { w.disconnect(); checkFile(f); } else window.omissionNearAll(); });
      w.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
      return;
    }
    const input = document.getElementById("import-file");
    if (!input) return;
    const dt = new DataTransfer();
    dt.items.add(f);
    input.files = dt.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    const found = () => [...document.querySelectorAll("#measured li[data-file] button.fit-ask")].find((b) => b.dataset.file === f.name);
    const ask = () => {
      const b = found();
      if (!b) return false;
      b.closest("li").scrollIntoView({ block: "start" });
      b.click();
      return true;
    };
    if (ask()) return;
    const o = new MutationObserver(() => { if (ask()) o.disconnect(); });
    o.observe(document.getElementById("omission") || document.body, { childList: true, subtree: true });
    setTimeout(() => o.disconnect(), 60000);
  };
  document.addEventListener("change", (e) => { if (e.target.id === "yours-file" && e.target.files) { checkFile(e.target.files[0]); e.target.value = ""; } }, true);
  // A file dropped anywhere on the page is checked as the first screen's
  // chooser checks it: imported, and its fit asked at once.
  document.addEventListener("drop", (e) => {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    e.stopPropagation();
    start();
    checkFile(f);
  }, true);
  // The reader reaching for a file: the worker loads meanwhile.
  document.addEventListener("dragenter", (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes("Files")) start(); }, true);
  document.addEventListener("toggle", (e) => { if (e.target.matches && e.target.matches("#measured details.paste") && e.target.open) start(); }, true);
  document.addEventListener("focusin", (e) => { if (e.target.id === "import-paste") start(); }, true);
  document.addEventListener("click", (e) => {
    if (e.target.id === "import-file" || e.target.id === "yours-file") start();
    const b = e.target.closest && e.target.closest("button.fit-ask");
    if (b) {
      const li = b.closest("li"), r = li && li.querySelector("input.fit-rate");
      fit(b.dataset.file, r ? r.value.trim() : "");
    }
    else if (e.target.id === "import-paste-read") keep("pasted", Promise.resolve(document.getElementById("import-paste").value));
  });
})();
