//go:build !wasm

package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"omission/app/page"
)

// refusedView is what the page shows of a refused state.
type refusedView struct {
	State    string            `json:"state"`
	Errors   map[string]string `json:"errors"`
	Boxes    map[string]string `json:"boxes"`
	Cells    int               `json:"cells"`
	Headline string            `json:"headline"`
	Table    string            `json:"table"`
	Charts   string            `json:"charts"`
	Files    string            `json:"files"`
	Tools    string            `json:"tools"`
	Dead     []string          `json:"dead"` // per download button: disabled, and its cursor
}

func (b *browser) refusedView(t *testing.T) refusedView {
	t.Helper()
	return eval[refusedView](t, b, `(() => {
		const text = (sel) => { const el = document.querySelector(sel); return el ? el.textContent : ""; };
		const errors = {}, boxes = {};
		for (const el of document.querySelectorAll("[data-error]")) errors[el.dataset.error] = el.textContent;
		for (const f of ["rate", "service", "stall", "every"]) boxes[f] = document.getElementById("in-" + f).value;
		return {
			state: document.getElementById("omission").dataset.state,
			errors, boxes,
			cells: document.querySelectorAll("[data-metric], [data-headline]").length,
			headline: text("section.headline"), table: text("#results"), charts: text("section.charts"),
			files: text('[data-empty="downloads"]'), tools: text('[data-empty="tools"]'),
			dead: [...document.querySelectorAll("button[data-export]")].map(b => b.disabled + " " + getComputedStyle(b).cursor),
		};
	})()`)
}

// checkRefused holds a refused view to the rule: stall and every marked,
// each naming the other, no number, and every panel saying it is refused.
func checkRefused(t *testing.T, what string, v refusedView, every, stall string) {
	t.Helper()
	if v.State != "refused" || v.Cells != 0 {
		t.Errorf("%s: state %q with %d numbers shown", what, v.State, v.Cells)
	}
	if m := v.Errors["stall"]; !strings.Contains(m, "with every") || !strings.Contains(m, "shorter than every ("+every+")") {
		t.Errorf("%s: stall's message %q", what, m)
	}
	if m := v.Errors["every"]; !strings.Contains(m, "with stall") || !strings.Contains(m, "longer than stall ("+stall+")") {
		t.Errorf("%s: every's message %q", what, m)
	}
	for name, s := range map[string]string{"headline": v.Headline, "table": v.Table} {
		if !strings.Contains(s, "Refused: nothing was simulated.") || !strings.Contains(s, "stall and every do not hold together") {
			t.Errorf("%s: the %s says %q", what, name, s)
		}
		if strings.Contains(s, "once it has loaded") || strings.Contains(s, "No result yet") {
			t.Errorf("%s: the %s reads as loading: %q", what, name, s)
		}
	}
	if !strings.Contains(v.Charts, "Refused") || !strings.Contains(v.Files, "Refused") {
		t.Errorf("%s: charts %q, files %q", what, v.Charts, v.Files)
	}
	for _, d := range v.Dead {
		if d != "true not-allowed" {
			t.Errorf("%s: a download button is %q, want disabled and looking it", what, d)
		}
	}
}

// TestBrowserConflict: issue 26's reproduction, as a reader does it: the
// rate slid to 20000, then 100ms typed into "Stall every". Both stall and
// every are marked, the boxes and the URL keep 20000 and 100ms, no number
// is shown and the headline says the run is refused; a tool ticked says
// why it shows nothing. Then /?service=24h&stall=24h loaded.
func TestBrowserConflict(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	idx := page.SliderPosition("rate", "20000")
	if idx < 0 {
		t.Fatal("20000 is no stop of the rate slider")
	}
	b.exec(t, fmt.Sprintf(`const sl = document.getElementById("in-rate-slider"); sl.value = "%d"; sl.dispatchEvent(new Event("input", {bubbles: true}))`, idx))
	b.waitReady(t, "rate=20000")
	b.setField(t, "every", "100ms")
	b.waitFor(t, "the refusal", `document.getElementById("omission").dataset.state === "refused"`)
	b.waitLocation(t, s.URL+"/?rate=20000&every=100ms")
	v := b.refusedView(t)
	checkRefused(t, "rate 20000, every 100ms", v, "100ms", "200ms")
	if v.Boxes["rate"] != "20000" || v.Boxes["every"] != "100ms" || v.Boxes["stall"] != "200ms" {
		t.Errorf("the boxes hold %v", v.Boxes)
	}
	// Ticking a tool says why nothing is printed.
	b.do(t, "ticking wrk", chromedp.Click(chromedp.CSS("#tool-wrk")))
	b.waitFor(t, "the tools' message", `(() => { const el = document.querySelector('[data-empty="tools"]'); return el && el.textContent.includes("no tool was played"); })()`)
	b.screenshot(t, "page-conflict.png", false)

	// Mending one of them runs again, with numbers.
	b.setField(t, "stall", "50ms")
	b.waitReady(t, "rate=20000&stall=50ms&every=100ms")

	b.open(t, s.URL+"/?service=24h&stall=24h")
	b.waitFor(t, "the refusal", `(() => { const r = document.getElementById("omission"); return r && +r.dataset.applied > 0 && r.dataset.state === "refused"; })()`)
	v = b.refusedView(t)
	checkRefused(t, "service=24h&stall=24h", v, "1s", "24h")
	if v.Boxes["service"] != "24h" || v.Boxes["stall"] != "24h" || v.Boxes["every"] != "1s" {
		t.Errorf("the boxes hold %v", v.Boxes)
	}
	if loc := b.location(t); loc != s.URL+"/?service=24h&stall=24h" {
		t.Errorf("the URL became %q", loc)
	}
}
