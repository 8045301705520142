//go:build !wasm

package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"omission/app/charts"
)

// importFile gives the page's file input one fixture of app/measure/testdata.
func (b *browser) importFile(t *testing.T, name string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "app", "measure", "testdata", name)
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	b.do(t, "choosing "+name, chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
}

// spectrumJS reads the spectrum: its caption and its SVG's legend texts.
const spectrumJS = `(() => {
	const f = document.querySelector('[data-chart="spectrum"]'), img = f && f.querySelector("img");
	if (!img || !img.src.startsWith("data:image/svg+xml;base64,")) return {caption: "", texts: []};
	const svg = new TextDecoder().decode(Uint8Array.from(atob(img.src.slice(26)), c => c.charCodeAt(0)));
	return {caption: f.querySelector("figcaption span").textContent,
		texts: [...svg.matchAll(/>([^<>]+)<\/text>/g)].map(m => m[1])};
})()`

type spectrumText struct {
	Caption string
	Texts   []string
}

// TestBrowserImports (issue 26, items 7 and 8): three measurement files
// imported are listed, each with a swatch and a button that removes it,
// and drawn in the spectrum each in a look of its own with a legend entry
// naming it; a fourth replaces the oldest with a notice naming it; one
// removed leaves the list and the charts. The lead's pointer and a skip
// link reach the tools' printouts.
func TestBrowserImports(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	b.waitCharts(t)

	files := []string{"java.hgrm", "c-hdr_percentiles_print.hgrm", "vegeta.json"}
	for i, f := range files {
		b.importFile(t, f)
		b.waitFor(t, f+" listed", `document.querySelectorAll("#measured ul.files li").length === `+string(rune('1'+i))+
			` && !!document.querySelector('#measured li[data-file="`+f+`"]')`)
	}
	b.waitFor(t, "the spectrum with the three files", `(() => { const c = document.querySelector('[data-chart="spectrum"] figcaption span');
		return !!c && `+jsAll(files, `c.textContent.includes(%q)`)+`; })()`)
	b.waitCharts(t)
	sp := eval[spectrumText](t, b, spectrumJS)
	for i, f := range files {
		n := 0
		for _, x := range sp.Texts {
			if x == f {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the spectrum's legend names %s %d times (texts %q)", f, n, sp.Texts)
		}
		look := charts.MeasuredLookName(i, charts.Light)
		if !strings.Contains(sp.Caption, f+" ("+look+")") {
			t.Errorf("the caption does not say %s is %s: %s", f, look, sp.Caption)
		}
	}
	type item struct {
		File, Button, Swatch string
	}
	items := eval[[]item](t, b, `[...document.querySelectorAll("#measured ul.files li")].map(li => ({File: li.dataset.file,
		Button: (li.querySelector("button.forget") || {}).textContent || "", Swatch: (li.querySelector("img.swatch") || {}).alt || ""}))`)
	if len(items) != 3 {
		t.Fatalf("%d files listed: %+v", len(items), items)
	}
	for i, it := range items {
		if it.File != files[i] || it.Button != "Remove "+files[i] || it.Swatch != charts.MeasuredLookName(i, charts.Light) {
			t.Errorf("item %d: %+v", i, it)
		}
	}
	if w := eval[[]int](t, b, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
		t.Errorf("with three files the page is %d px wide in a %d px window", w[0], w[1])
	}
	b.do(t, "showing the spectrum", chromedp.ScrollIntoView(chromedp.CSS(`[data-chart="spectrum"]`)))
	b.screenshot(t, "imports-spectrum.png", false)
	b.elementShot(t, `[data-chart="spectrum"]`, "imports-spectrum-figure.png")
	b.elementShot(t, `#measured`, "imports-list.png")

	// A fourth file replaces the oldest, and says which.
	b.importFile(t, "oha-constructed.json")
	b.waitFor(t, "the fourth file replacing the oldest", `!!document.querySelector('#measured li[data-file="oha-constructed.json"]') &&
		document.querySelectorAll("#measured ul.files li").length === 3 && !document.querySelector('#measured li[data-file="java.hgrm"]')`)
	if got := eval[string](t, b, `document.querySelector("#measured .files-notice").textContent`); got != "The page compares at most 3 files: oha-constructed.json replaces java.hgrm, the oldest." {
		t.Errorf("notice %q", got)
	}

	// Removing one: it leaves the list, the table and the charts.
	b.do(t, "removing vegeta.json", chromedp.Click(chromedp.CSS(`#measured li[data-file="vegeta.json"] button.forget`)))
	b.waitFor(t, "vegeta.json removed", `document.querySelectorAll("#measured ul.files li").length === 2 && !document.querySelector('#measured li[data-file="vegeta.json"]') &&
		document.querySelector("#measured .files-notice").textContent === "vegeta.json removed."`)
	b.waitFor(t, "the spectrum without vegeta.json", `(() => { const c = document.querySelector('[data-chart="spectrum"] figcaption span');
		return !!c && !c.textContent.includes("vegeta.json") && c.textContent.includes("oha-constructed.json") && c.textContent.includes("c-hdr_percentiles_print.hgrm"); })()`)
	b.waitCharts(t)
	sp = eval[spectrumText](t, b, spectrumJS)
	for _, x := range sp.Texts {
		if x == "vegeta.json" || x == "java.hgrm" {
			t.Errorf("the legend still names %s", x)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll('th[data-extra^="measured"]').length`); n != 2 {
		t.Errorf("%d measured columns in the table, want 2", n)
	}

	// The pointer from the first screen and the skip link reach the tools.
	b.exec(t, `window.scrollTo(0, 0)`)
	top := eval[map[string]float64](t, b, `(() => { const a = document.getElementById("to-tools"), r = a.getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, h: innerHeight}; })()`)
	if top["bottom"] > top["h"] || top["top"] < 0 {
		t.Errorf("the pointer to the tools is not on the first screen: %v", top)
	}
	b.screenshot(t, "imports-first-screen.png", false)
	for _, sel := range []string{"#to-tools", `a.skip-link[href="#tools"]`} {
		b.exec(t, `window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()`)
		b.exec(t, `document.querySelector('`+strings.ReplaceAll(sel, `'`, `\'`)+`').click()`)
		b.waitFor(t, sel+" reaching the tools", `document.activeElement && document.activeElement.id === "tools" && (() => {
			const r = document.getElementById("tools").getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })()`)
	}
	if got := eval[string](t, b, `document.querySelector('a.skip-link[href="#tools"]').textContent`); got != "Skip to the tools' printouts" {
		t.Errorf("skip link %q", got)
	}

	// locust's card: what it does in words, its rule behind a toggle, its
	// 0 as it prints it and why.
	b.do(t, "ticking locust", chromedp.Click(chromedp.CSS("#tool-locust")))
	b.waitFor(t, "locust's card", `!!document.querySelector('#tools .tool-card[data-tool="locust"] pre')`)
	card := eval[map[string]string](t, b, `(() => { const c = document.querySelector('#tools .tool-card[data-tool="locust"]');
		return {p99: c.querySelector('dd[data-metric="tools.locust.p99"]').textContent, why: (c.querySelector(".zero-why") || {}).textContent || "",
			rule: c.querySelector("details.tool-rule summary").textContent, open: String(c.querySelector("details.tool-rule").open)}; })()`)
	if card["p99"] != "0 ms, as locust prints it" || !strings.Contains(card["why"], "half a millisecond or less is kept as 0 ms") || card["rule"] != "The rule" || card["open"] != "false" {
		t.Errorf("locust's card: %v", card)
	}
	b.do(t, "opening the rule", chromedp.Click(chromedp.CSS(`#tools .tool-card[data-tool="locust"] details.tool-rule summary`)))
	b.elementShot(t, `#tools .tool-card[data-tool="locust"]`, "imports-locust-card.png")
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// elementShot saves a picture of the element sel in test-output/name.
func (b *browser) elementShot(t *testing.T, sel, name string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("a picture of %s: %v", sel, err)
	}
	path := filepath.Join(root, "test-output", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// jsAll joins a JavaScript condition over each value with &&.
func jsAll(vals []string, format string) string {
	var parts []string
	for _, v := range vals {
		parts = append(parts, strings.ReplaceAll(format, "%q", `"`+v+`"`))
	}
	return strings.Join(parts, " && ")
}
