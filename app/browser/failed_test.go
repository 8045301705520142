//go:build !wasm

package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"omission/app/view"
)

// TestBrowserFailedHeadline: for the queries whose calls fail
// (and a run whose closed loop outlasts its schedule), the page's summary
// line, each card's number and words, and the story are the native view's
// (view.Headline.Said, which the report prints), both when the URL is
// loaded and after the same run is reached by editing a control; no card
// shows "0 s".
func TestBrowserFailedHeadline(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	read := func() view.Said {
		raw := eval[string](t, b, `(() => {
			const h = document.querySelector("section.headline"), txt = (el) => el ? el.textContent : "";
			const cards = ["closed", "open", "ratio", "paced"].map((k) => {
				const c = h.querySelector(".stat." + k);
				return {key: k, value: txt(c && c.querySelector(".value")), sub: txt(c && c.querySelector(".sub")),
					label: (() => { const l = c && c.querySelector(".label"); if (!l) return ""; const k = l.cloneNode(true); k.querySelectorAll(".tip").forEach((x) => x.remove()); return k.textContent.replace(/\s+/g, " ").trim(); })()};
			});
			return JSON.stringify({summary: txt(h.querySelector(".server")), cards, story: txt(h.querySelector(".explain")),
				claim: (h.querySelector(".explain") || {dataset: {}}).dataset.claim || ""});
		})()`)
		var got view.Said
		if err := json.Unmarshal([]byte(raw), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	same := func(q, how string, got view.Said) {
		t.Helper()
		want := view.Build(1, mustRun(t, q), 0).Headline.Said()
		if got.Summary != want.Summary || got.Story != want.Story || got.Claim != want.Claim {
			t.Errorf("%s (%s): summary %q, story %q (%s); want %q, %q (%s)", q, how, got.Summary, got.Story, got.Claim, want.Summary, want.Story, want.Claim)
		}
		for i, c := range want.Cards {
			if g := got.Cards[i]; g.Value != c.Value || g.Sub != c.Sub || !strings.EqualFold(g.Label, c.Label) {
				t.Errorf("%s (%s): card %s shows %q %q · %q, want %q %q · %q", q, how, c.Key, g.Label, g.Value, g.Sub, c.Label, c.Value, c.Sub)
			}
			if strings.TrimSpace(got.Cards[i].Value) == "0 s" {
				t.Errorf("%s (%s): card %s shows 0 s", q, how, c.Key)
			}
		}
	}
	for _, q := range []string{
		"timeout=50ms&outages=4s-4500ms&attempts=10",
		"preset=retry-storm&timeout=500us",
		"preset=pause&think=1s",
		"preset=baseline",
	} {
		b.open(t, s.URL+"/?"+q)
		b.waitReady(t, q)
		same(q, "loaded", read())
	}
	// Edited to: the retry storm's timeout typed over a loaded run.
	b.open(t, s.URL+"/?preset=retry-storm")
	b.waitReady(t, "preset=retry-storm")
	b.showField(t, "timeout")
	b.exec(t, `const i = document.querySelector('input[name="timeout"]'); i.value = "500us"; i.dispatchEvent(new Event("input", {bubbles: true})); i.dispatchEvent(new Event("change", {bubbles: true}))`)
	b.waitReady(t, "preset=retry-storm&timeout=500us")
	same("preset=retry-storm&timeout=500us", "edited", read())
}
