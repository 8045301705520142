//go:build !wasm

package browser

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"omission/app/units"
	"omission/sim/window"
)

// retryCounterKeys are a stage by calls' counters in web/anim.js's order
// (RCOUNTERS): the calls in each window.CallState, then attempts and retries,
// then the attempts a worker serves for a client that gave up on them.
var retryCounterKeys = [...]string{"r-not-sent", "r-queued", "r-serving", "r-backoff", "r-failed", "r-answered", "r-attempts", "r-retries", "r-wasted"}

// checkRetryCounts compares the page's counters of a window drawn by calls
// with the native model's counts at the instant the page says it shows, and
// returns that instant and the counts.
func checkRetryCounts(t *testing.T, d animDOM, w *window.Summary) (int64, [3]window.CallCounts) {
	t.Helper()
	at := shownAt(t, d)
	var all [3]window.CallCounts
	for i, c := range w.Retry.Clients {
		want := c.CountsAt(at)
		all[i] = want
		wantAll := make([]int64, 0, len(retryCounterKeys))
		for s := window.CallState(0); s < window.NumCallStates; s++ {
			wantAll = append(wantAll, want.In[s])
		}
		wantAll = append(wantAll, want.Attempts, want.Retries, want.Wasted)
		for k, key := range retryCounterKeys {
			v, ok := d.Counts[i][key].(float64)
			if !ok {
				t.Fatalf("%s: counter %s missing: %v", d.Counts[i]["client"], key, d.Counts[i])
			}
			if int64(v) != wantAll[k] {
				t.Errorf("%s at %d ns: %s is %v on the page, %d in the model", d.Counts[i]["client"], at, key, v, wantAll[k])
			}
			if txt := d.Texts[i][key]; txt != units.Count(wantAll[k]) {
				t.Errorf("%s: %s reads %q, want %q", d.Counts[i]["client"], key, txt, units.Count(wantAll[k]))
			}
		}
	}
	return at, all
}

// inkJS counts the pixels of each stage's canvas that are drawn on (alpha
// above zero) and the distinct colours among them: a frame that drew
// nothing, or on canvases no longer in the page, counts none.
const inkJS = `(() => {
	const out = [];
	for (const c of document.querySelectorAll("[data-anim] canvas.anim-canvas")) {
		if (!c.isConnected || c.width === 0 || c.height === 0) { out.push({ink: 0, colours: 0}); continue; }
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let ink = 0; const colours = new Set();
		for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0) { ink++; if (colours.size < 64) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]); }
		out.push({ink, colours: colours.size});
	}
	return out;
})()`

type canvasInk struct {
	Ink     int `json:"ink"`
	Colours int `json:"colours"`
}

// TestBrowserAnimRetries: a window of the retry storm is drawn by calls in
// headless Chromium. A linked moment lands with every stage's counters equal
// to the native model's (window.NewRetryWindow) at that instant; the canvases
// in the page are drawn on; a second moment after the outage shows calls
// that moved (backing off, answered, failed) and again equals the model;
// playing advances frames and the counters stay the model's.
func TestBrowserAnimRetries(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	res := mustRun(t, "preset=retry-storm")

	b.open(t, s.URL+"/?preset=retry-storm&anim=0&anim_t=4.35s")
	b.waitReady(t, "preset=retry-storm")
	b.showAnim(t)
	b.waitFor(t, "the window drawn by calls at the linked moment", `(() => { const r = document.querySelector("[data-anim]"); return r.dataset.animMode === "calls" && r.dataset.tNs === "4350000000"; })()`)
	d := b.anim(t)
	k, err := strconv.Atoi(d.Stall)
	if err != nil {
		t.Fatalf("data-stall %q: %v", d.Stall, err)
	}
	w, err := window.NewRetryWindow(res, k)
	if err != nil {
		t.Fatalf("NewRetryWindow(retry-storm, %d): %v", k, err)
	}
	at1, c1 := checkRetryCounts(t, d, w)
	// The storm's closed form (the lane's test): at 4.35 s, inside the
	// outage, the open client's calls are backing off by the hundred.
	if c1[2].In[window.CallBackoff] < 100 {
		t.Errorf("at %v the open client has %d calls backing off; the storm should have hundreds", time.Duration(at1), c1[2].In[window.CallBackoff])
	}
	ink := eval[[]canvasInk](t, b, inkJS)
	if len(ink) != 3 {
		t.Fatalf("%d canvases in the panel, want 3", len(ink))
	}
	for i, c := range ink {
		if c.Ink < 2000 || c.Colours < 3 {
			t.Errorf("stage %d's canvas is not drawn on: %d pixels inked in %d colours", i, c.Ink, c.Colours)
		}
	}
	b.screenshot(t, "anim-retries-4.35s.png", false)

	// A moment after the outage, by the URL: calls moved between states.
	b.open(t, s.URL+"/?preset=retry-storm&anim=0&anim_t=4.62s")
	b.waitReady(t, "preset=retry-storm")
	b.showAnim(t)
	b.waitFor(t, "the second moment", `(() => { const r = document.querySelector("[data-anim]"); return r.dataset.animMode === "calls" && r.dataset.tNs === "4620000000"; })()`)
	at2, c2 := checkRetryCounts(t, b.anim(t), w)
	if c2 == c1 {
		t.Errorf("the counts at %v and %v are the same: %+v", time.Duration(at1), time.Duration(at2), c2)
	}
	// After the outage the open client's one worker serves attempts their
	// client gave up on: wasted work, while its calls wait.
	if c2[2].Wasted == 0 || c2[2].In[window.CallQueued] == 0 {
		t.Errorf("at %v the open client has %d attempts of wasted work on its worker and %d calls queued", time.Duration(at2), c2[2].Wasted, c2[2].In[window.CallQueued])
	}
	if c2[2].Retries <= c1[2].Retries {
		t.Errorf("the open client sent no retries between %v and %v (%d, then %d)", time.Duration(at1), time.Duration(at2), c1[2].Retries, c2[2].Retries)
	}
	for i, c := range eval[[]canvasInk](t, b, inkJS) {
		if c.Ink < 2000 || c.Colours < 3 {
			t.Errorf("after the second link, stage %d's canvas is not drawn on: %+v", i, c)
		}
	}
	b.screenshot(t, "anim-retries-4.62s.png", false)

	// Playing advances frames; paused, the counters are the model's again.
	f0 := b.anim(t).Frame
	b.play(t)
	b.waitFor(t, "frames to advance while playing", fmt.Sprintf(
		`(() => { const r = document.querySelector("[data-anim]"); return Number(r.dataset.frame) >= %d + 20 && Number(r.dataset.tNs) > %d; })()`, f0, at2))
	b.pauseAnim(t)
	time.Sleep(200 * time.Millisecond)
	checkRetryCounts(t, b.anim(t), w)

	// On a phone's width the stages redraw for the width they get, with
	// the same counts, and the page does not scroll sideways.
	b.do(t, "a phone's window", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	b.open(t, s.URL+"/?preset=retry-storm&anim=0&anim_t=4.62s")
	b.waitReady(t, "preset=retry-storm")
	b.showAnim(t)
	b.waitFor(t, "the second moment on a phone", `(() => { const r = document.querySelector("[data-anim]"); return r.dataset.animMode === "calls" && r.dataset.tNs === "4620000000"; })()`)
	if _, c := checkRetryCounts(t, b.anim(t), w); c != c2 {
		t.Errorf("on a phone the counts are %+v, at 1280 px %+v", c, c2)
	}
	for i, c := range eval[[]canvasInk](t, b, inkJS) {
		if c.Ink < 2000 || c.Colours < 3 {
			t.Errorf("on a phone, stage %d's canvas is not drawn on: %+v", i, c)
		}
	}
	if wide := eval[bool](t, b, `document.documentElement.scrollWidth > window.innerWidth + 1`); wide {
		t.Errorf("on a phone the page scrolls sideways: %d px wide in %d", eval[int](t, b, `document.documentElement.scrollWidth`), eval[int](t, b, `window.innerWidth`))
	}
	b.screenshot(t, "anim-retries-phone.png", false)

}
