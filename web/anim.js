// Omission: the animation's drawing. The Go side (app/anim/frame.go) writes
// each frame into one shared buffer: a Float64 header, the readouts' texts,
// then drawing operations of six Float32 each. This file replays them on one
// canvas per stage, runs the requestAnimationFrame loop (only while the
// animation is on screen and the tab visible), and writes the counters, the
// readouts and the test hooks into the DOM. It allocates nothing per mark.
// Durations come written (by app/units); counts are written here, as
// app/units.Count writes them ("12,345").
(function () {
  "use strict";

  // Must match app/anim/frame.go.
  const HDR = 48, OP = 6, TEXTS = 4, SLOT = 96, OPS = HDR * 8 + TEXTS * SLOT;
  const T_SLOWEST = 0, T_TIME = 3;
  const H_T = 0, H_STALL = 1, H_PLAYING = 2, H_HEIGHT = 3, H_BG = 4, H_FROM = 5, H_TO = 6,
    H_OPS = 8, H_BGOPS = 11, H_COUNT = 16, H_PER = 10, H_MODE = 46;
  const RECT = 1, STROKE = 2, DOT = 3, CROSS = 4, LINE = 5, TEXT = 6, COUNT = 7, HATCH = 9;
  const COUNTERS = ["recorded", "slowest", "above", "synthetic", "waiting", "not-sent", "never-sent", "queued", "serving"];
  // A window drawn by calls (H_MODE 1, app/anim/retryframe.go): each
  // stage's calls per state, then the attempts and retries sent so far, then
  // the attempts a worker serves for a client that gave up on them.
  const RCOUNTERS = ["r-not-sent", "r-queued", "r-serving", "r-backoff", "r-failed", "r-answered", "r-attempts", "r-retries", "r-wasted"];
  const FONT = "11px system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', sans-serif";

  function fmtCount(v) {
    return Math.round(v).toLocaleString("en-US");
  }

  class Anim {
    // root: the element with data-anim; canvases: one per stage; buf: the
    // Uint8Array Go writes frames into; go: {tick(now, width) → flags,
    // shown()}; styles: {light: [...], dark: [...]} colour tables.
    constructor(root, canvases, buf, go, styles) {
      this.root = root;
      this.canvases = Array.from(canvases);
      this.buf = buf;
      this.hdr = new Float64Array(buf.buffer, buf.byteOffset, HDR);
      this.ops = new Float32Array(buf.buffer, buf.byteOffset + OPS, Math.floor((buf.byteLength - OPS) / 4));
      this.decoder = new TextDecoder();
      this.go = go;
      this.styles = styles;
      this.labels = [];
      this.bgOps = new Float32Array(0);
      this.bgCanvas = document.createElement("canvas");
      this.bgKey = "";
      this.frames = 0;
      this.raf = 0;
      this.stats = { n: 0, sum: 0, worst: 0, gaps: 0, gapSum: 0, gapWorst: 0, last: 0 };
      this.samples = new Float64Array(4096); // the last frames' work, for percentiles
      this.cells = null;
      this.hatch = {};
      this.inView = false;
      this.docVisible = document.visibilityState === "visible";
      this.loop = (now) => this.frame(now);
      this.onVisibility = () => {
        this.docVisible = document.visibilityState === "visible";
        if (this.active()) this.request();
      };
      document.addEventListener("visibilitychange", this.onVisibility);
      this.dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
      this.onTheme = () => { this.bgKey = ""; this.hatch = {}; this.redraw(); };
      if (this.dark && this.dark.addEventListener) this.dark.addEventListener("change", this.onTheme);
      if ("IntersectionObserver" in window) {
        this.io = new IntersectionObserver((entries) => {
          for (const e of entries) this.inView = e.isIntersecting;
          if (this.active()) {
            this.request();
            this.go.shown();
          }
        });
        this.io.observe(root);
      } else {
        this.inView = true;
      }
      root.__anim = this;
    }

    active() {
      return this.docVisible && this.inView;
    }

    // request draws a frame soon (the loop goes on while Go says so).
    request() {
      if (!this.raf && this.active()) this.raf = requestAnimationFrame(this.loop);
    }

    // liveCanvases re-finds the stages' canvases when the page has
    // replaced them (a re-render may build new elements), so a frame never
    // goes to canvases that are no longer in the document.
    liveCanvases() {
      if (this.canvases.length === 3 && this.canvases.every((c) => c.isConnected)) return;
      this.canvases = Array.from(this.root.querySelectorAll("canvas.anim-canvas"));
      this.bgKey = "";
    }

    frame(now) {
      this.raf = 0;
      if (!this.active()) return; // hidden: the loop stops; request() resumes it
      this.liveCanvases();
      if (this.canvases.length < 3) return;
      const t0 = performance.now();
      const width = this.canvases[0].clientWidth;
      const flags = this.go.tick(now, width);
      if (flags & 1) {
        this.draw();
        const dt = performance.now() - t0;
        const s = this.stats;
        this.samples[s.n % this.samples.length] = dt;
        s.n++; s.sum += dt; s.worst = Math.max(s.worst, dt);
        if (s.last > 0 && (flags & 2)) {
          const gap = now - s.last;
          s.gaps++; s.gapSum += gap; s.gapWorst = Math.max(s.gapWorst, gap);
        }
        s.last = (flags & 2) ? now : 0;
      }
      if (flags & 2) this.raf = requestAnimationFrame(this.loop);
    }

    // setLabels replaces the label table (when the background changes).
    setLabels(labels) {
      this.labels = labels;
    }

    palette() {
      return this.dark && this.dark.matches ? this.styles.dark : this.styles.light;
    }

    // redraw repaints the last frame (after a theme change).
    redraw() {
      if (this.hdr[H_HEIGHT] > 0) this.draw();
    }

    draw() {
      this.liveCanvases();
      if (this.canvases.length < 3) return;
      const h = this.hdr, height = h[H_HEIGHT];
      const dpr = window.devicePixelRatio || 1;
      const width = this.canvases[0].clientWidth;
      let off = 0;
      for (let i = 0; i < 3; i++) off += h[H_OPS + i];
      if (h[H_BG] === 1) {
        // The background follows the stages' operations.
        this.bgOps = this.ops.slice(off * OP, (off + h[H_BGOPS]) * OP);
        this.bgKey = "";
      }
      const key = width + "x" + height + "@" + dpr + (this.dark && this.dark.matches ? "d" : "l");
      if (key !== this.bgKey) {
        this.bgKey = key;
        for (const c of this.canvases) {
          c.width = Math.round(width * dpr);
          c.height = Math.round(height * dpr);
          c.style.height = height + "px";
        }
        const bg = this.bgCanvas;
        bg.width = Math.round(width * dpr);
        bg.height = Math.round(height * dpr);
        const g = bg.getContext("2d");
        g.setTransform(dpr, 0, 0, dpr, 0, 0);
        this.replay(g, this.bgOps, 0, this.bgOps.length / OP);
      }
      off = 0;
      for (let i = 0; i < 3; i++) {
        const c = this.canvases[i], g = c.getContext("2d");
        g.setTransform(1, 0, 0, 1, 0, 0);
        g.clearRect(0, 0, c.width, c.height);
        g.drawImage(this.bgCanvas, 0, 0);
        g.setTransform(dpr, 0, 0, dpr, 0, 0);
        const n = h[H_OPS + i];
        this.replay(g, this.ops, off, n);
        off += n;
      }
      this.frames++;
      this.writeDOM();
    }

    pattern(g, colour) {
      let p = this.hatch[colour];
      if (!p) {
        const c = document.createElement("canvas");
        c.width = c.height = 6;
        const x = c.getContext("2d");
        x.strokeStyle = colour;
        x.globalAlpha = 0.55;
        x.lineWidth = 1;
        x.beginPath();
        x.moveTo(0, 6); x.lineTo(6, 0);
        x.moveTo(-1, 1); x.lineTo(1, -1);
        x.moveTo(5, 7); x.lineTo(7, 5);
        x.stroke();
        p = this.hatch[colour] = g.createPattern(c, "repeat");
      }
      return p;
    }

    // replay draws n operations of ops from operation first.
    replay(g, ops, first, n) {
      const pal = this.palette();
      let style = -1;
      g.font = FONT;
      g.textBaseline = "alphabetic";
      g.lineWidth = 1;
      for (let k = first * OP, end = (first + n) * OP; k < end; k += OP) {
        const code = ops[k], s = ops[k + 1], a = ops[k + 2], b = ops[k + 3], c = ops[k + 4], d = ops[k + 5];
        if (s !== style) {
          style = s;
          g.fillStyle = g.strokeStyle = pal[s];
        }
        switch (code) {
          case RECT:
            g.fillRect(a, b, c, d);
            break;
          case STROKE:
            g.strokeRect(a + 0.5, b + 0.5, c - 1, d - 1);
            break;
          case DOT:
            g.beginPath();
            g.arc(a, b, c, 0, 2 * Math.PI);
            g.fill();
            break;
          case CROSS:
            g.beginPath();
            g.moveTo(a - c, b - c); g.lineTo(a + c, b + c);
            g.moveTo(a - c, b + c); g.lineTo(a + c, b - c);
            g.stroke();
            break;
          case LINE:
            g.beginPath();
            g.moveTo(a, b); g.lineTo(c, d);
            g.stroke();
            break;
          case TEXT:
          case COUNT: {
            const align = code === TEXT ? d : d % 4;
            const label = code === TEXT ? this.labels[c] : this.labels[Math.floor(d / 4)];
            const text = code === TEXT ? label : (label ? label + " " : "") + fmtCount(c);
            g.textAlign = align === 1 ? "center" : align === 2 ? "right" : "left";
            g.fillText(text || "", a, b);
            break;
          }
          case HATCH:
            g.fillStyle = this.pattern(g, pal[s]);
            g.fillRect(a, b, c, d);
            g.fillStyle = pal[s];
            break;
        }
      }
    }

    // text returns readout k of the frame: its length, then its UTF-8.
    text(k) {
      const o = HDR * 8 + k * SLOT;
      return this.decoder.decode(this.buf.subarray(o + 1, o + 1 + this.buf[o]));
    }

    // writeDOM writes the counters, the moment and the test hooks.
    writeDOM() {
      const h = this.hdr, root = this.root;
      const calls = h[H_MODE] === 1;
      const first = this.cells && this.cells.stages[0][0];
      if (!this.cells || !this.cells.ok.isConnected || this.cells.calls !== calls ||
        !first || !first.isConnected || first.dataset.count !== (calls ? RCOUNTERS : COUNTERS)[0]) this.findCells(calls);
      root.dataset.frame = String(this.frames);
      root.dataset.tNs = String(h[H_T]);
      root.dataset.stall = String(h[H_STALL]);
      root.dataset.playing = h[H_PLAYING] === 1 ? "true" : "false";
      for (let i = 0; i < 3; i++) {
        const cells = this.cells.stages[i];
        for (let k = 0; k < cells.length; k++) {
          const el = cells[k];
          if (!el) continue;
          const v = h[H_COUNT + i * H_PER + k];
          const s = String(v);
          if (el.dataset.value === s) continue;
          el.dataset.value = s;
          el.textContent = calls ? fmtCount(v) : k === 1 ? this.text(T_SLOWEST + i) : k === 3 ? "+" + fmtCount(v) : fmtCount(v);
        }
      }
      const c = this.cells;
      if (c.scrub && document.activeElement !== c.scrub) c.scrub.value = String(h[H_T] - h[H_FROM]);
      if (c.time) {
        const text = this.text(T_TIME);
        if (c.time.textContent !== text) c.time.textContent = text;
      }
    }

    findCells(calls) {
      const root = this.root;
      const stages = [];
      for (let i = 0; i < 3; i++) {
        const st = root.querySelector('[data-anim-stage="' + i + '"]');
        const cells = (calls ? RCOUNTERS : COUNTERS).map((name) => (st ? st.querySelector('[data-count="' + name + '"]') : null));
        // A cell the other mode wrote: write it afresh.
        for (const el of cells) if (el) delete el.dataset.value;
        stages.push(cells);
      }
      this.cells = {
        calls,
        ok: root.querySelector("[data-anim-stage]") || root,
        stages,
        scrub: root.querySelector("[data-anim-scrub]"),
        time: root.querySelector("[data-anim-time]"),
      };
    }

    // stats returns the frame costs so far (ms): the work of each frame
    // (Go's tick and the drawing, measured with performance.now()) and the
    // gaps between frames while playing (requestAnimationFrame deltas).
    takeStats() {
      const s = this.stats;
      const sorted = Array.from(this.samples.subarray(0, Math.min(s.n, this.samples.length))).sort((a, b) => a - b);
      const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
      const out = { frames: s.n, mean: s.n ? s.sum / s.n : 0, worst: s.worst, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99),
        gapMean: s.gaps ? s.gapSum / s.gaps : 0, gapWorst: s.gapWorst };
      this.stats = { n: 0, sum: 0, worst: 0, gaps: 0, gapSum: 0, gapWorst: 0, last: 0 };
      return out;
    }

    destroy() {
      if (this.raf) cancelAnimationFrame(this.raf);
      this.raf = 0;
      if (this.io) this.io.disconnect();
      document.removeEventListener("visibilitychange", this.onVisibility);
      if (this.dark && this.dark.removeEventListener) this.dark.removeEventListener("change", this.onTheme);
      this.go = { tick: () => 0, shown: () => {} };
      if (this.root.__anim === this) delete this.root.__anim;
    }
  }

  window.omissionAnim = {
    create: (root, canvases, buf, go, styles) => new Anim(root, canvases, buf, go, styles),
  };
})();
