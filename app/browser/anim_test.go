//go:build !wasm

package browser

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"omission/app/units"
	"omission/sim"
	"omission/sim/window"
)

// The animation in headless Chromium, against the built site (make wasm
// first): it plays, scrubs to the trace's counts, lands on a linked moment,
// steps with the keyboard, and keeps its state in the URL.

// animDOM is what the page shows of the animation.
type animDOM struct {
	Ready  string           `json:"ready"`
	Frame  int              `json:"frame"`
	TNs    string           `json:"tNs"`
	Stall  string           `json:"stall"`
	Counts []map[string]any `json:"counts"`
	// Texts are the counters as shown, Time the moment's readout.
	Texts []map[string]string `json:"texts"`
	Time  string              `json:"time"`
}

const animDOMJS = `(() => {
	const r = document.querySelector("[data-anim]");
	if (!r) return {ready: "missing", frame: 0, tNs: "", stall: "", counts: [], texts: [], time: ""};
	const counts = [], texts = [];
	for (const st of r.querySelectorAll("[data-anim-stage]")) {
		const c = {client: st.dataset.client}, x = {};
		for (const d of st.querySelectorAll("[data-count]")) {
			c[d.dataset.count] = d.dataset.value === undefined ? null : Number(d.dataset.value);
			x[d.dataset.count] = d.textContent;
		}
		counts.push(c);
		texts.push(x);
	}
	const time = r.querySelector("[data-anim-time]");
	return {ready: r.dataset.ready || "", frame: Number(r.dataset.frame || 0), tNs: r.dataset.tNs || "", stall: r.dataset.stall || "", counts, texts,
		time: time ? time.textContent : ""};
})()`

func (b *browser) anim(t testing.TB) animDOM {
	t.Helper()
	return eval[animDOM](t, b, animDOMJS)
}

// showAnim scrolls the animation into view and waits for its first frame.
func (b *browser) showAnim(t testing.TB) {
	t.Helper()
	b.waitFor(t, "the animation panel", `(() => { const r = document.querySelector("[data-anim]"); return r && r.dataset.ready === "true"; })()`)
	eval[bool](t, b, `(() => { document.querySelector("[data-anim]").scrollIntoView({block: "start"}); return true; })()`)
	b.waitFor(t, "the animation's first frame", `(() => { const r = document.querySelector("[data-anim]"); return r && Number(r.dataset.frame || 0) > 0; })()`)
}

// play starts the animation unless it plays already.
func (b *browser) play(t testing.TB) {
	t.Helper()
	if eval[string](t, b, `document.querySelector("[data-anim]").dataset.playing`) != "true" {
		eval[bool](t, b, `(() => { document.querySelector("[data-anim-play]").click(); return true; })()`)
	}
}

// pauseAnim stops playing (if it plays) and waits for the pause to show.
func (b *browser) pauseAnim(t testing.TB) {
	t.Helper()
	eval[bool](t, b, `(() => { const r = document.querySelector("[data-anim]"); if (r.dataset.playing === "true") r.querySelector("[data-anim-play]").click(); return true; })()`)
	b.waitFor(t, "the animation to pause", `document.querySelector("[data-anim]").dataset.playing === "false"`)
}

// benchTraces returns the bench preset's result and the traces of stall k,
// stage order.
func benchTraces(t testing.TB, k int) (*sim.Result, [3]*window.Trace) {
	t.Helper()
	res := mustRun(t, "preset=bench")
	from, to := window.StallWindow(res, k)
	var tr [3]*window.Trace
	for i, c := range sim.Clients() {
		tr[i] = window.TraceWindow(res, c, from, to)
	}
	return res, tr
}

// checkAnimCounts compares the page's counters with the traces at the
// instant the page says it shows.
func checkAnimCounts(t *testing.T, d animDOM, traces [3]*window.Trace) int64 {
	t.Helper()
	at := shownAt(t, d)
	for i, tr := range traces {
		want := tr.CountsAt(at)
		got := d.Counts[i]
		num := func(k string) int64 {
			v, ok := got[k].(float64)
			if !ok {
				t.Fatalf("%s: counter %s missing: %v", got["client"], k, got)
			}
			return int64(v)
		}
		g := window.Counts{Recorded: num("recorded"), Slowest: num("slowest"), Above: num("above"), Waiting: num("waiting")}
		w := window.Counts{Recorded: want.Recorded, Slowest: want.Slowest, Above: want.Above, Waiting: want.Waiting}
		if _, ok := got["synthetic"]; ok {
			g.Synthetic, w.Synthetic = num("synthetic"), want.Synthetic
		}
		if g != w {
			t.Fatalf("%s at %d ns: the page counts %+v, the trace %+v", got["client"], at, g, w)
		}
		checkAnimTexts(t, got, d.Texts[i])
	}
	if !strings.HasPrefix(d.Time, units.Duration(at)+" (") || !strings.Contains(d.Time, "stall") {
		t.Errorf("at %d ns the moment reads %q", at, d.Time)
	}
	return at
}

// shownAt returns the instant the page says it shows, and holds that it
// shows the three stages.
func shownAt(t *testing.T, d animDOM) int64 {
	t.Helper()
	at, err := strconv.ParseInt(d.TNs, 10, 64)
	if err != nil {
		t.Fatalf("data-t-ns %q: %v", d.TNs, err)
	}
	if len(d.Counts) != 3 {
		t.Fatalf("%d stages on the page", len(d.Counts))
	}
	return at
}

// checkAnimTexts: a stage's counters read as app/units writes them, the
// durations (written by Go) and the counts (written by web/anim.js).
func checkAnimTexts(t *testing.T, values map[string]any, texts map[string]string) {
	t.Helper()
	for k, v := range values {
		n, ok := v.(float64)
		if !ok {
			continue
		}
		want := units.Count(int64(n))
		switch {
		case k == "slowest" && n > 0:
			want = units.Duration(n)
		case k == "slowest":
			want = "—"
		case k == "synthetic":
			want = "+" + want
		}
		if texts[k] != want {
			t.Errorf("%s: counter %s (%v) reads %q, want %q", values["client"], k, n, texts[k], want)
		}
	}
}

func TestBrowserAnim(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	res, traces := benchTraces(t, 1)
	from, to := window.StallWindow(res, 1)

	// 1. A link to stall 1 opens the animation on it, and it plays.
	b.open(t, s.URL+"/?anim=1")
	b.waitReady(t, "")
	b.showAnim(t)
	d0 := b.anim(t)
	if d0.Stall != "1" {
		t.Fatalf("data-stall %q, want 1", d0.Stall)
	}
	b.play(t)
	b.waitFor(t, "frames to advance while playing", fmt.Sprintf(
		`(() => { const r = document.querySelector("[data-anim]"); return Number(r.dataset.frame) >= %d + 20 && Number(r.dataset.tNs) > %s; })()`, d0.Frame, d0.TNs))
	// Let it play into the stall, where the counters move.
	b.waitFor(t, "the open loop's counters to change", fmt.Sprintf(
		`(() => { const d = document.querySelector('[data-anim-stage="2"] [data-count="recorded"]'); return d && Number(d.dataset.value) > %v; })()`, d0.Counts[2]["recorded"]))
	d1 := b.anim(t)
	if d1.Frame <= d0.Frame {
		t.Fatalf("data-frame went from %d to %d", d0.Frame, d1.Frame)
	}
	b.pauseAnim(t)
	checkAnimCounts(t, b.anim(t), traces)

	// 2. Scrub to the middle of the stall: the page shows the trace's counts
	// for the instant it shows.
	target := int64(1500e6+100e6) - from
	eval[bool](t, b, fmt.Sprintf(`(() => {
		const s = document.querySelector("[data-anim-scrub]");
		s.value = "%d";
		s.dispatchEvent(new Event("input", {bubbles: true}));
		return true; })()`, target))
	b.waitFor(t, "the scrubbed moment", fmt.Sprintf(
		`(() => { const r = document.querySelector("[data-anim]"); const v = Number(r.dataset.tNs); return Math.abs(v - %d) <= %d; })()`, from+target, (to-from)/2000+1))
	time.Sleep(200 * time.Millisecond) // a frame after the scrub's last
	at := checkAnimCounts(t, b.anim(t), traces)
	mid := traces[2].CountsAt(at)
	if mid.Waiting < 400 || traces[0].CountsAt(at).Waiting < 400 {
		t.Errorf("mid-stall at %d: open %+v, closed %+v: requests should be waiting", at, mid, traces[0].CountsAt(at))
	}
	// The moment goes into the URL, replacing the entry.
	hist := eval[int](t, b, `history.length`)
	b.waitFor(t, "the moment in the URL", fmt.Sprintf(`location.search.includes("anim_t=" + encodeURIComponent(%q))`, time.Duration(at).String()))
	if h := eval[int](t, b, `history.length`); h != hist {
		t.Errorf("scrubbing added history entries: %d, then %d", hist, h)
	}
	if loc := b.location(t); !strings.Contains(loc, "anim=1&anim_t=") {
		t.Errorf("URL %s lacks the animation's keys", loc)
	}
	b.screenshot(t, "anim.png", false)

	// 3. Keyboard: → steps to the next event; ] goes to the next stall.
	eval[bool](t, b, `(() => { document.querySelector("[data-anim-play]").focus(); return true; })()`)
	m, err := window.Summarise(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.NextEvent(at)
	eval[bool](t, b, `(() => { document.activeElement.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true})); return true; })()`)
	b.waitFor(t, "the next event", fmt.Sprintf(`document.querySelector("[data-anim]").dataset.tNs === "%d"`, next))
	checkAnimCounts(t, b.anim(t), traces)
	eval[bool](t, b, `(() => { document.activeElement.dispatchEvent(new KeyboardEvent("keydown", {key: "]", bubbles: true})); return true; })()`)
	b.waitFor(t, "stall 2", `document.querySelector("[data-anim]").dataset.stall === "2"`)
	b.waitFor(t, "stall 2 in the URL", `location.search.includes("anim=2")`)

	// A new parameter: the page rewrites its URL (with the keys it loaded),
	// the animation keeps its stall and puts its keys back.
	b.setField(t, "service", "50us")
	b.waitReady(t, "service=50us")
	b.waitFor(t, "the animation's keys after the page's", `location.search.includes("service=50us") && location.search.includes("anim=2&anim_t=")`)
	if d := b.anim(t); d.Stall != "2" {
		t.Errorf("after a new parameter: data-stall %s, want 2", d.Stall)
	}

	// 4. A link with a stall and a moment lands there, paused.
	b.open(t, s.URL+"/?anim=1&anim_t=1.6s")
	b.waitReady(t, "")
	b.showAnim(t)
	b.waitFor(t, "the linked moment", `(() => { const r = document.querySelector("[data-anim]"); return r.dataset.tNs === "1600000000" && r.dataset.stall === "1"; })()`)
	time.Sleep(300 * time.Millisecond)
	d := b.anim(t)
	if d.TNs != "1600000000" {
		t.Fatalf("the linked moment moved to %s (it should not autoplay)", d.TNs)
	}
	checkAnimCounts(t, d, traces)
	if loc := b.location(t); !strings.Contains(loc, "anim=1&anim_t=1.6s") {
		t.Errorf("the page dropped the animation's keys: %s", loc)
	}
	b.screenshot(t, "anim-linked.png", false)
}

// TestBrowserAnimReducedMotion: with prefers-reduced-motion the animation
// does not play by itself.
func TestBrowserAnimReducedMotion(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.emulateReducedMotion(t)
	b.open(t, s.URL+"/?anim=1")
	b.waitReady(t, "")
	b.showAnim(t)
	time.Sleep(700 * time.Millisecond)
	d := b.anim(t)
	if p := eval[string](t, b, `document.querySelector("[data-anim]").dataset.playing`); p != "false" {
		t.Fatalf("playing %q with reduced motion", p)
	}
	from, _ := window.StallWindow(mustRun(t, "preset=bench"), 1)
	if d.TNs != strconv.FormatInt(from, 10) {
		t.Fatalf("the moment moved to %s without the reader", d.TNs)
	}
}

// TestBrowserBenchAnim plays the bench preset's stall 1 for 5 s and prints
// the frame cost: the work of each frame (Go's tick and the canvas drawing,
// performance.now() around both, in the page).
func TestBrowserBenchAnim(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/?anim=1")
	b.waitReady(t, "")
	b.showAnim(t)
	b.pauseAnim(t)
	eval[bool](t, b, `(() => {
		const r = document.querySelector("[data-anim]");
		r.querySelector("[data-anim-prev-stall]").focus();
		r.__anim.takeStats();
		r.querySelector("[data-anim-play]").click();
		return true; })()`)
	time.Sleep(5 * time.Second)
	st := eval[map[string]float64](t, b, `document.querySelector("[data-anim]").__anim.takeStats()`)
	if st["frames"] < 100 {
		t.Fatalf("only %v frames in 5 s: %v", st["frames"], st)
	}
	fmt.Printf("BENCH anim.frame.mean.chromium %.3f ms\n", st["mean"])
	fmt.Printf("BENCH anim.frame.worst.chromium %.3f ms\n", st["worst"])
	t.Logf("%v frames; frame work mean %.3f ms, p50 %.3f, p95 %.3f, p99 %.3f, worst %.3f ms; requestAnimationFrame gaps mean %.2f ms, worst %.2f ms",
		st["frames"], st["mean"], st["p50"], st["p95"], st["p99"], st["worst"], st["gapMean"], st["gapWorst"])
	if os.Getenv("OMISSION_BENCH") == "" && st["mean"] > 16 {
		t.Errorf("mean frame work %.2f ms is over a 60 fps frame", st["mean"])
	}
}

// emulateReducedMotion makes the tab prefer reduced motion, and (for the
// screenshots of the dark theme) can be combined with a colour scheme.
func (b *browser) emulateReducedMotion(t testing.TB) {
	t.Helper()
	b.emulateMedia(t, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"})
}

func (b *browser) emulateMedia(t testing.TB, features ...*emulation.MediaFeature) {
	t.Helper()
	b.do(t, "emulating media features", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features})
		return err
	}))
}

// TestBrowserAnimDarkAndDismount: the dark theme draws the stages in its
// palette; leaving the page stops the frame loop and releases the callbacks.
func TestBrowserAnimDarkAndDismount(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.emulateMedia(t, &emulation.MediaFeature{Name: "prefers-color-scheme", Value: "dark"})
	b.open(t, s.URL+"/?anim=1&anim_t=1.78s")
	b.waitReady(t, "")
	b.showAnim(t)
	time.Sleep(300 * time.Millisecond)
	// Every stage's canvas holds a drawing: pixels of the client's colour.
	drawn := eval[[]int](t, b, `(() => {
		const out = [];
		for (const c of document.querySelectorAll("[data-anim] canvas")) {
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let n = 0;
			for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
			out.push(n);
		}
		return out; })()`)
	if len(drawn) != 3 {
		t.Fatalf("%d canvases", len(drawn))
	}
	for i, n := range drawn {
		if n < 1000 {
			t.Errorf("stage %d: %d pixels drawn", i, n)
		}
	}
	b.screenshot(t, "anim-dark.png", false)

	// Leave for a page without the animation, a chart embed (go-app follows
	// popstate): the panel dismounts.
	eval[bool](t, b, `(() => {
		window.__anim = document.querySelector("[data-anim]").__anim;
		document.querySelector("[data-anim-play]").click();
		history.pushState(null, "", "/embed?figure=spectrum");
		dispatchEvent(new PopStateEvent("popstate"));
		return true; })()`)
	b.waitFor(t, "the embed", `!document.querySelector("[data-anim]") && document.querySelector("main.embed") !== null`)
	time.Sleep(300 * time.Millisecond)
	frames := eval[int](t, b, `window.__anim.frames`)
	time.Sleep(500 * time.Millisecond)
	if got := eval[string](t, b, `window.__anim.raf + " " + window.__anim.frames + " " + window.__anim.go.tick(0, 100)`); got != fmt.Sprintf("0 %d 0", frames) {
		t.Errorf("after leaving: raf, frames, tick = %s, want 0 %d 0 (the loop stopped, the callbacks gone)", got, frames)
	}
}

// TestBrowserAnimEngine: an event-driven run whose requests are answered in
// the order sent (Poisson arrivals, one worker) is animated through its
// stalls, its counters moving; one whose workers finish out of order says
// why the animation cannot draw the window, naming the request.
func TestBrowserAnimEngine(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/?arrivals=poisson&duration=3s&anim=1")
	b.waitReady(t, "duration=3s&arrivals=poisson")
	b.showAnim(t)
	d0 := b.anim(t)
	if d0.Stall != "1" {
		t.Fatalf("data-stall %q, want 1", d0.Stall)
	}
	b.play(t)
	b.waitFor(t, "the open loop's counters to move through the stall", fmt.Sprintf(
		`(() => { const d = document.querySelector('[data-anim-stage="2"] [data-count="recorded"]'); return d && Number(d.dataset.value) > %v; })()`, d0.Counts[2]["recorded"]))
	b.pauseAnim(t)
	b.screenshot(t, "anim-engine.png", false)

	b.open(t, s.URL+"/?arrivals=poisson&duration=3s&dist=exponential&workers=4&anim=1")
	b.waitFor(t, "the animation's refusal", `(() => { const r = document.querySelector("[data-anim]"); if (r) r.scrollIntoView(); const n = document.querySelector("[data-anim-unavailable]"); return !!n && n.textContent.includes("cannot draw") && n.textContent.includes("out of order"); })()`)
	t.Logf("refusal: %s", eval[string](t, b, `document.querySelector("[data-anim-unavailable]").textContent`))
}

// TestBrowserAnimAutoplayKeepsURL: the animation playing by itself to its
// end is no action of the reader's, so the URL stays the one they loaded
// (issue 40, item 5): Back from the next page they open returns there, not
// to a moment of the animation.
func TestBrowserAnimAutoplayKeepsURL(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	hist := eval[int](t, b, `history.length`)
	// The reader scrolls down to it: it is built once on screen.
	eval[bool](t, b, `(() => { document.getElementById("anim").scrollIntoView({block: "start"}); return true; })()`)
	b.showAnim(t)
	b.waitFor(t, "the animation to play by itself", `document.querySelector("[data-anim]").dataset.playing === "true"`)
	b.waitFor(t, "the animation to reach its end", `document.querySelector("[data-anim]").dataset.playing !== "true"`)
	time.Sleep(500 * time.Millisecond) // past the URL write's delay
	if loc := b.location(t); loc != s.URL+"/" {
		t.Errorf("the autoplay's end wrote the URL: %s", loc)
	}
	if h := eval[int](t, b, `history.length`); h != hist {
		t.Errorf("the autoplay added history entries: %d, then %d", hist, h)
	}
}
