//go:build !wasm

package browser

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"omission/sim"
	"omission/sim/sweep"
)

// sweepDone is true once the landscape shows every point of its sweep.
const sweepDone = `(() => { const s = document.getElementById("sweep"); return s && s.dataset.done === "1" && s.querySelectorAll("a.spot").length === Number(s.dataset.points) && s.querySelector("[data-chart=landscape] img") !== null; })()`

// clickTimed clicks the element of id and resolves with the ms until the
// landscape's first point link is on screen.
func clickTimed(id string) string {
	return fmt.Sprintf(`new Promise(resolve => {
		const t0 = performance.now();
		const seen = () => document.querySelector("#sweep a.spot");
		const mo = new MutationObserver(() => { if (seen()) { mo.disconnect(); resolve(performance.now() - t0); } });
		mo.observe(document.body, {subtree: true, childList: true});
		document.getElementById(%q).click();
	})`, id)
}

// TestBrowserSweep: the landscape panel, asked for from its button, runs
// its points in the worker and shows them as they come; every point is a
// link the keyboard reaches (one Tab stop, the arrows through them) whose
// numbers show on focus and hover, and which opens the point's own run.
// axe-core finds nothing; a bad spec says so and the rest of the page
// runs; Cancel stops a sweep and the rest runs when asked.
func TestBrowserSweep(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	axeScript(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/?duration=4s")
	b.waitReady(t, "duration=4s")
	b.waitCharts(t)
	ms := eval[float64](t, b, clickTimed("sweep-on"))
	t.Logf("first point on screen %.0f ms after the click", ms)
	b.waitFor(t, "the sweep's 50 points", sweepDone+` && document.querySelectorAll("#sweep a.spot").length === 50`)
	if u, err := url.Parse(b.location(t)); err != nil || u.Query().Get("sweep") != "stall:0s..900ms/50" {
		t.Errorf("URL %s", b.location(t))
	}
	for _, v := range b.axe(t) {
		t.Errorf("axe %s (%s): %s\n\t%s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
	// The keyboard: one Tab stop for the points, the arrows through them
	// all; the focused point's numbers show (a headless window has no
	// focus of its own: it is emulated).
	b.do(t, "emulating focus", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}))
	b.exec(t, `document.querySelector("#sweep a.spot").focus()`)
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		f := eval[map[string]string](t, b, `(() => { const el = document.activeElement, tip = el.querySelector(".tip");
			return {point: el.dataset.point || "", tip: tip ? getComputedStyle(tip).display : "", label: el.getAttribute("aria-label") || "",
				stops: String([...document.querySelectorAll("#sweep a.spot")].filter(a => a.tabIndex === 0).length)}; })()`)
		if f["tip"] != "block" || !strings.HasPrefix(f["label"], "stall ") || f["stops"] != "1" {
			t.Fatalf("point %d focused: %v", i, f)
		}
		seen[f["point"]] = true
		b.do(t, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
	}
	if len(seen) != 50 {
		t.Errorf("the arrows reached %d of the 50 points", len(seen))
	}
	b.exec(t, `document.activeElement.blur()`)
	// Hover: the numbers show over the point.
	at := eval[map[string]float64](t, b, `(() => { const a = document.querySelectorAll("#sweep a.spot")[10]; a.scrollIntoView({block: "center"}); const r = a.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`)
	b.do(t, "hovering a point", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at["x"], at["y"]))
	// The points are closer than their 24 px targets: the one under the
	// pointer is this one or a neighbour, and its numbers show.
	hov := eval[map[string]string](t, b, fmt.Sprintf(`(() => { const a = document.elementFromPoint(%v, %v).closest("a.spot");
		return a ? {point: a.dataset.point, tip: getComputedStyle(a.querySelector(".tip")).display} : {}; })()`, at["x"], at["y"]))
	if p := hov["point"]; hov["tip"] != "block" || p != "9" && p != "10" && p != "11" {
		t.Errorf("hovered near point 10: %v", hov)
	}
	// Each point link sits over its point of the image.
	off := eval[float64](t, b, `(() => { const img = document.querySelector("#sweep [data-chart=landscape] img").getBoundingClientRect(); let worst = 0;
		for (const a of document.querySelectorAll("#sweep a.spot")) { const r = a.getBoundingClientRect();
			worst = Math.max(worst, Math.abs(r.left + r.width / 2 - img.left - img.width * a.dataset.left / 100), Math.abs(r.top + r.height / 2 - img.top - img.height * a.dataset.top / 100)); }
		return worst; })()`)
	if off > 1.5 {
		t.Errorf("a point link is %.1f px off its point", off)
	}
	b.screenshot(t, "sweep-hover.png", false)
	// The link opens the point's own run.
	q := eval[string](t, b, `document.querySelectorAll("#sweep a.spot")[10].dataset.query`)
	base := sim.Default()
	base.Duration = 4e9
	sw, _ := sweep.Parse("stall:0s..900ms/50")
	if want := sw.Points(base, nil)[10].Query; q != want {
		t.Errorf("point 10 opens %q, want %q", q, want)
	}
	b.exec(t, `document.querySelectorAll("#sweep a.spot")[10].click()`)
	b.waitReady(t, q)

	// The address alone: the bench preset's page, taken over from the
	// static HTML, draws the URL's sweep.
	b.open(t, s.URL+"/?sweep=stall:0s..900ms/10")
	b.waitFor(t, "the bench preset's sweep from its address", sweepDone+` && document.querySelectorAll("#sweep a.spot").length === 10`)

	// The controls: another field proposes a range around the query's
	// value, and an edit after it starts from that spec.
	b.open(t, s.URL+"/?duration=4s&sweep=stall:0s..900ms/5")
	b.waitFor(t, "a 5-point sweep", sweepDone)
	b.exec(t, `const f = document.getElementById("sweep-field"); f.value = "conns"; f.dispatchEvent(new Event("change", {bubbles: true}))`)
	b.waitFor(t, "the conns sweep", `new URLSearchParams(location.search).get("sweep") === "conns:1..16/x2" && document.getElementById("sweep-to").value === "16"`)
	b.exec(t, `const x = document.getElementById("sweep-to"); x.value = "8"; x.dispatchEvent(new Event("change", {bubbles: true}))`)
	b.waitFor(t, "the edited conns sweep", `new URLSearchParams(location.search).get("sweep") === "conns:1..8/x2"`)
	b.waitFor(t, "its 4 points", sweepDone+` && document.querySelectorAll("#sweep a.spot").length === 4`)

	// A bad spec: its message names sweep and the form; the page runs.
	b.open(t, s.URL+"/?duration=4s&sweep=nope")
	b.waitReady(t, "duration=4s")
	if msg := eval[string](t, b, `(document.getElementById("sweep-error") || {}).textContent || ""`); !strings.HasPrefix(msg, `sweep: "nope" is not allowed`) || !strings.Contains(msg, "allowed <field>:<from>..<to>/<n>") {
		t.Errorf("bad spec message %q", msg)
	}

	// Cancel as soon as the first point shows, then run the rest.
	b.open(t, s.URL+"/?duration=2m&sweep=stall:0s..900ms/200")
	b.waitReady(t, "duration=2m")
	stopped := eval[string](t, b, `new Promise(resolve => {
		const go = () => { const c = document.getElementById("sweep-cancel"); if (c && document.querySelector("#sweep a.spot")) { c.click(); setTimeout(() => resolve((document.querySelector("#sweep .sweep-status") || {}).textContent || ""), 300); } else requestAnimationFrame(go); };
		go();
	})`)
	if !strings.HasPrefix(stopped, "Stopped after ") {
		t.Fatalf("after Cancel: %q", stopped)
	}
	n := eval[float64](t, b, `document.querySelectorAll("#sweep a.spot").length`)
	b.exec(t, `document.getElementById("sweep-rerun").click()`)
	b.waitFor(t, "the rest of the sweep", sweepDone+` && document.querySelectorAll("#sweep a.spot").length === 200`)
	t.Logf("cancelled after %.0f of 200 points; the rest ran when asked", n)

	// On a phone: the landscape is drawn for the width it gets, and
	// neither it, its controls nor its data widen the page.
	b.do(t, "a phone's window", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	b.open(t, s.URL+"/?duration=4s&sweep=stall:0s..900ms/20")
	b.waitFor(t, "the sweep on a phone", sweepDone)
	b.exec(t, `document.querySelectorAll("#sweep details.chart-data").forEach(d => d.open = true)`)
	b.waitFor(t, "its data open", `[...document.querySelectorAll("#sweep details.chart-data table")].every(t => t.getBoundingClientRect().height > 0)`)
	if o := b.overflow(t); o > 0 {
		t.Errorf("the landscape at 390 px: the page is %v px too wide", o)
	}
	w := eval[[2]float64](t, b, `(() => { const i = document.querySelector("#sweep [data-chart=landscape] img"); return [i.naturalWidth, i.closest("section").clientWidth]; })()`)
	if w[0] > w[1]+1 || w[0] < w[1]-80 {
		t.Errorf("the landscape is drawn %v px wide in a %v px panel", w[0], w[1])
	}
	b.exec(t, `document.getElementById("sweep").scrollIntoView()`)
	b.screenshot(t, "phone-sweep.png", false)
}

// TestBrowserBenchSweep measures a 50-point sweep of the bench preset over
// the stall length (BenchmarkSweep's) in the worker: the points' running
// time there (budget 250 ms), and the time from the click to its first
// points on screen (budget 100 ms) and to the last.
func TestBrowserBenchSweep(t *testing.T) {
	requireBench(t)
	s := startSite(t)
	b := newBrowser(t)
	var worker, first, all []float64
	for i := 0; i < 5; i++ {
		b.open(t, s.URL+"/")
		b.waitReady(t, "")
		b.waitCharts(t)
		eval[bool](t, b, `new Promise(r => setTimeout(() => r(true), 500))`) // the page settled: the reader looks before clicking
		t0 := eval[float64](t, b, `performance.now()`)
		first = append(first, eval[float64](t, b, clickTimed("sweep-on")))
		b.waitFor(t, "the sweep done", sweepDone)
		all = append(all, eval[float64](t, b, `performance.now()`)-t0)
		ms := eval[string](t, b, `document.getElementById("sweep").dataset.ms`)
		var v float64
		fmt.Sscan(ms, &v)
		worker = append(worker, v)
	}
	w, f := median(worker), median(first)
	fmt.Printf("BENCH sweep.bench_stall50.ms %.1f ms\n", w)
	fmt.Printf("BENCH sweep.bench_stall50.first_points.chromium %.0f ms\n", f)
	fmt.Printf("BENCH sweep.bench_stall50.all_points.chromium %.0f ms\n", median(all))
	if w > 250 {
		t.Errorf("the sweep's points took %.0f ms in the worker: over the budget of 250 ms", w)
	}
	if f > 100 {
		t.Errorf("the first points came %.0f ms after the click: over the budget of 100 ms", f)
	}
}
