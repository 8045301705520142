//go:build !wasm

package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// firstScreenJS measures what a reader meets before scrolling: the words
// of the text on screen, the controls on screen (links, buttons, inputs,
// summaries), and where the closed and the open loop's p99 cards end.
const firstScreenJS = `(() => {
	const h = innerHeight;
	const on = (r) => r.width > 1 && r.height > 1 && r.top < h && r.bottom > 0;
	let words = 0;
	const walk = document.createTreeWalker(document.getElementById("omission"), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("[aria-hidden=true], .tip, .visually-hidden, script, style")) continue;
		// Not drawn: hidden, or in a closed <details> (its content is
		// content-visibility: hidden, yet laid out).
		if (!el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
		const range = document.createRange();
		range.selectNodeContents(n);
		const rects = [...range.getClientRects()];
		if (!rects.some(on)) continue;
		words += n.textContent.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
	}
	let controls = 0;
	for (const el of document.querySelectorAll("#omission a[href], #omission button, #omission input:not([type=hidden]), #omission select, #omission textarea, #omission summary")) {
		if (el.closest(".skip-links")) continue;
		if (el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}) && [...el.getClientRects()].some(on)) controls++;
	}
	const card = (k) => { const c = document.querySelector(".headline .stat." + k); return c ? c.getBoundingClientRect().bottom : 1e9; };
	return {words, controls, closed: card("closed"), open: card("open"), h};
})()`

// TestBrowserFirstScreen: at 1280×900 and on a 390×844 phone the closed
// loop's and the open loop's p99 are on the first screen, and the words and
// controls there stay within what they were cut to (issue 40, item 1); the
// counts at both sizes are logged.
func TestBrowserFirstScreen(t *testing.T) {
	s := startSite(t)
	for _, size := range []struct {
		name            string
		vp              chromedp.Action[chromedp.Void]
		words, controls float64
	}{
		// At 1280×900: 149 words and 12 controls since the share box went
		// below the first screen, the case's words, the run's line and the
		// checks under "Why do they differ?", the cases past the first two
		// into their fold and the file check's list of tools to the import
		// panel (issue 40, item 1); 229 and 17 before, 495 and 49 before
		// the folds (item 2).
		{"1280", chromedp.EmulateViewport(1280, 900), 150, 12},
		// On a phone: 134 words and 8 controls (the "why" fold's summary
		// came up), both p99 on screen; 157 and 7 before, and 272 words
		// with the open loop's card below the fold before the lead was cut.
		{"390", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), 160, 8},
	} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t)
			b.do(t, "the window", size.vp)
			b.open(t, s.URL+"/")
			b.waitReady(t, "")
			m := eval[map[string]float64](t, b, firstScreenJS)
			t.Logf("first screen at %s: %.0f words, %.0f controls; the p99 cards end at %.0f and %.0f px of %.0f", size.name, m["words"], m["controls"], m["closed"], m["open"], m["h"])
			if m["closed"] > m["h"] || m["open"] > m["h"] {
				t.Errorf("the closed and the open loop's p99 end at %.0f and %.0f px, below the first screen's %.0f", m["closed"], m["open"], m["h"])
			}
			if size.words > 0 && (m["words"] > size.words || m["controls"] > size.controls) {
				t.Errorf("%.0f words and %.0f controls on the first screen, over %.0f and %.0f", m["words"], m["controls"], size.words, size.controls)
			}
			b.screenshot(t, "first-screen-"+size.name+".png", false)
		})
	}
}

// TestBrowserNewcomer is a newcomer's path on a phone, in one action: land,
// read why on the first screen beside the two p99 cards, choose a case, and
// see the open loop's p99 move to the native run's (issue 40).
func TestBrowserNewcomer(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.do(t, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	read := eval[map[string]float64](t, b, `(() => {
		const r = (sel) => document.querySelector(sel).getBoundingClientRect().bottom;
		return {why: r(".lead .lead-why"), open: r(".headline .stat.open"), h: innerHeight};
	})()`)
	if read["why"] > read["h"] || read["open"] > read["h"] {
		t.Errorf("the reason and the open loop's p99 end at %.0f and %.0f px, below the first screen's %.0f", read["why"], read["open"], read["h"])
	}
	open := `document.querySelector('.headline [data-headline="open.p99"]').dataset.ns`
	before := eval[string](t, b, open)
	b.do(t, "choosing a case", chromedp.Click(chromedp.CSS(`button[data-preset="tcp"]`)))
	b.waitReady(t, "preset=tcp")
	want := nativeCells(t, "preset=tcp")["open.p99"]
	if got := eval[string](t, b, open); got != want || got == before {
		t.Errorf("after choosing a case the open loop's p99 reads %s ns (before %s), the native run's %s", got, before, want)
	}
	b.screenshot(t, "newcomer-390.png", false)
}

// TestBrowserDropFile: a real wrk file dropped anywhere on the page is
// imported and its fit shown, as from the first screen's chooser.
func TestBrowserDropFile(t *testing.T) {
	longOnly(t)
	const file = "wrk-c2-d5s.txt"
	data, err := os.ReadFile(filepath.Join("..", "measure", "testdata", "real", file))
	if err != nil {
		t.Fatal(err)
	}
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	text, _ := json.Marshal(string(data))
	b.exec(t, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+string(text)+`], "`+file+`", {type: "text/plain"}));
		document.querySelector(".headline").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`)
	b.waitFor(t, "its fit", `!!document.querySelector('#measured li[data-file="`+file+`"] section.fit-panel[data-fit=done]') || !!document.querySelector('#measured [data-fit=error]')`)
	if msg := eval[string](t, b, `(document.querySelector('#measured [data-fit=error]') || {}).textContent || ""`); msg != "" {
		t.Fatalf("the fit failed: %s", msg)
	}
	if n := eval[int](t, b, `document.querySelectorAll('#measured li[data-file="`+file+`"]').length`); n != 1 {
		t.Errorf("the file is listed %d times, want once", n)
	}
}

// TestBrowserFolds: the first screen's folds keep their state in the URL
// (address.KeyShow) without a history entry of their own, and a URL that sets a
// field of a fold opens it by itself, so that loading a URL shows what its
// sender saw.
func TestBrowserFolds(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	isOpen := func(fold string) bool {
		return eval[bool](t, b, `!!document.querySelector('details[data-fold="`+fold+`"]').open`)
	}
	for _, f := range []string{"cases", "params", "why"} {
		if isOpen(f) {
			t.Errorf("the %s fold is open on a bare URL", f)
		}
	}
	hist := eval[int](t, b, `history.length`)
	b.do(t, "opening the parameters", chromedp.Click(chromedp.CSS(`details[data-fold="params"] > summary`)))
	b.waitLocation(t, s.URL+"/?show=params")
	b.do(t, "opening why", chromedp.Click(chromedp.CSS(`details[data-fold="why"] > summary`)))
	b.waitLocation(t, s.URL+"/?show=params,why")
	if h := eval[int](t, b, `history.length`); h != hist {
		t.Errorf("opening two folds made %d history entries", h-hist)
	}
	if v := eval[string](t, b, `document.getElementById("in-rate").value`); v != "5000" {
		t.Errorf("the opened parameters show rate %q", v)
	}
	b.do(t, "closing the parameters", chromedp.Click(chromedp.CSS(`details[data-fold="params"] > summary`)))
	b.waitLocation(t, s.URL+"/?show=why")
	// Loaded from its URL, a state shows its folds as they were.
	b.open(t, s.URL+"/?show=why,cases")
	b.waitReady(t, "")
	if !isOpen("why") || !isOpen("cases") || isOpen("params") {
		t.Errorf("?show=why,cases: why %v, cases %v, params %v", isOpen("why"), isOpen("cases"), isOpen("params"))
	}
	// A field set away from its preset, or a case past the first few,
	// opens its fold by itself; the URL stays as given.
	b.open(t, s.URL+"/?preset=brownout&rate=300")
	b.waitReady(t, "preset=brownout&rate=300")
	if !isOpen("params") || !isOpen("cases") {
		t.Errorf("?preset=brownout&rate=300: params %v, cases %v", isOpen("params"), isOpen("cases"))
	}
	b.waitLocation(t, s.URL+"/?preset=brownout&rate=300")
}
