//go:build !wasm

package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPrerenderedHTML: the static site's visualiser carries its real
// numbers in its HTML, with the hooks a reader of the DOM uses, before any
// script runs.
func TestPrerenderedHTML(t *testing.T) {
	s := startSite(t)
	b, err := os.ReadFile(filepath.Join(s.Dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	// go-app writes attributes in no fixed order.
	tag := regexp.MustCompile(`<td [^>]*data-metric="[^"]*"[^>]*>`)
	metric, value := regexp.MustCompile(`data-metric="([^"]*)"`), regexp.MustCompile(`data-(?:ns|value)="([^"]*)"`)
	got := map[string]string{}
	for _, td := range tag.FindAllString(html, -1) {
		if m, v := metric.FindStringSubmatch(td), value.FindStringSubmatch(td); m != nil && v != nil {
			got[m[1]] = v[1]
		}
	}
	sameCells(t, "the static HTML", got, nativeCells(t, ""))
	for _, want := range []string{`data-state="prerendered"`, `data-prerender="`, `data-chart="spectrum"`, `data:image/svg+xml;base64,`} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(html) {
			t.Errorf("the static HTML lacks %s", want)
		}
	}
}

// TestBrowserPrerender: the first paint shows the static HTML's numbers;
// the app takes them over without running again; at another query the
// static numbers are hidden until the query's own replace them.
func TestBrowserPrerender(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	// What the document holds when it is parsed, before app.wasm runs.
	b.do(t, "watching the first paint", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
			// On the window: after the document's own listeners (web/page.js's),
			// in the same dispatch, before app.wasm can have started.
			window.addEventListener("DOMContentLoaded", () => {
				const r = document.getElementById("omission"), c = document.querySelector('[data-metric="open.p99"]');
				// What is painted at the headline's open p99: the number
				// itself, not something over it (go-app's loader covered
				// the whole window until app.wasm ran); and which controls
				// take input before the page's program has mounted.
				const h = document.querySelector('[data-headline="open.p99"]'), box = h.getBoundingClientRect();
				const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
				const status = r.querySelector(".status-line .status.loading");
				window.__first = {state: r.dataset.state, computing: r.classList.contains("computing"), p99: c ? c.dataset.ns : "",
					hidden: c ? getComputedStyle(c.querySelector("a")).visibility === "hidden" : true,
					seen: !!at && h.contains(at), starting: status ? status.textContent : "",
					live: [...r.querySelectorAll("input, select, textarea, button:not(.term-btn)")].filter((el) => !el.disabled).length};
				// Every state the root passes through from here.
				window.__states = [r.dataset.state];
				new MutationObserver(() => {
					const s = document.getElementById("omission").dataset.state;
					if (s !== window.__states[window.__states.length - 1]) window.__states.push(s);
					if (s === "ready" && window.__readyAt === undefined) {
						window.__readyAt = performance.now();
						// The sections below the share box as the page
						// answers: the static HTML's, held, in order.
						window.__held = [...document.querySelectorAll("#omission omission-kept")].map((h) => h.firstElementChild ? h.firstElementChild.id || h.firstElementChild.className : "");
					}
				}).observe(document.documentElement, {attributes: true, subtree: true, childList: true, attributeFilter: ["data-state"]});
			});`})
		return err
	}))
	b.open(t, s.URL+"/")
	b.waitFor(t, "the page to answer at /", `(() => { const r = document.getElementById("omission"); return !!r && r.dataset.state === "ready"; })()`)
	// The held sections are built as the reader comes to each (app/page,
	// below.go): at the harness's 1280×800 none is in sight, and a second
	// later all seven are held still; scrolled to, the charts are built
	// (and the results table above them, in sight too), the rest not.
	time.Sleep(time.Second)
	held := `[...document.querySelectorAll("#omission omission-kept")].map((h) => h.dataset.i).join(",")`
	if h := eval[string](t, b, held); h != "0,1,2,3,4,5,6" {
		t.Errorf("a second after the page answered, with none of them in sight, it held the sections %q, want all seven", h)
	}
	b.exec(t, `document.getElementById("charts").scrollIntoView({block: "start"})`)
	b.waitFor(t, "the charts built once in sight", `!document.querySelector('#omission omission-kept[data-i="1"]')`)
	time.Sleep(500 * time.Millisecond)
	if h := eval[string](t, b, held); !strings.HasSuffix(h, "4,5,6") || strings.Contains(h, "1") {
		t.Errorf("with the charts in sight the page held the sections %q: the charts must be built, the animation, checks and glossary not", h)
	}
	if n := eval[float64](t, b, `performance.getEntriesByName("omission:lower").length`); n != 0 {
		t.Error("the page marked its lower sections all built while some were held")
	}
	b.waitReady(t, "")
	first := eval[map[string]any](t, b, `window.__first`)

	// A skip link into a held section: the section is built in its place
	// and the focus moves to the built one (web/page.js, omissionNear's
	// refocus), not lost to the body.
	k := newBrowser(t)
	k.open(t, s.URL+"/")
	k.waitFor(t, "the page to answer at /", `(() => { const r = document.getElementById("omission"); return !!r && r.dataset.state === "ready" && !!document.querySelector('omission-kept[data-i="5"]'); })()`)
	k.exec(t, `document.querySelector('a.skip-link[href="#checks"]').focus()`)
	k.do(t, "Enter on the skip link to the proofs", chromedp.KeyEvent(kb.Enter))
	k.waitFor(t, "the proofs built", `!document.querySelector('omission-kept[data-i="5"]')`)
	time.Sleep(300 * time.Millisecond)
	if f := eval[string](t, k, `(document.activeElement.id || document.activeElement.tagName) + (document.activeElement.closest("omission-kept") ? " (held)" : "")`); f != "checks" {
		t.Errorf("after the skip link to the proofs, held until then, the focus is on %q, want the built section (checks)", f)
	}
	if first["state"] != "prerendered" || first["p99"] != "195100000" || first["computing"] != false || first["hidden"] != false {
		t.Errorf("the first paint at / : %v", first)
	}
	// The prerendered page is what the reader sees while app.wasm loads,
	// saying so, with its controls disabled until the program mounts (they
	// would lose what was typed): app/site's loader.go.
	if first["seen"] != true || !strings.HasPrefix(fmt.Sprint(first["starting"]), "Starting the simulator") || first["live"] != float64(0) {
		t.Errorf("before app.wasm ran, the page at / was covered (seen %v), did not say it was starting (%q) or took input on %v controls", first["seen"], first["starting"], first["live"])
	}
	if n := eval[float64](t, b, `[...document.querySelectorAll("#omission input, #omission button")].filter((el) => !el.disabled).length`); n < 10 {
		t.Errorf("once the page was ready, only %v of its inputs and buttons took input", n)
	}
	// Taken over: from the static HTML's state straight to ready, never
	// loading or running (data-run is 1 either way: the takeover's number
	// or the first run's), and ready before the simulation worker answered
	// anything (it answers the charts' redraw at the page's width later,
	// from the run it made of the page's address as the page loaded).
	if states := eval[[]string](t, b, `window.__states`); !slices.Equal(states, []string{"prerendered", "ready"}) {
		t.Errorf("the app did not take the static HTML's result over: its states %q, want prerendered then ready", states)
	}
	if late := eval[bool](t, b, `(() => { const w = performance.getEntriesByName("omission:worker-first")[0]; return !!w && w.startTime < window.__readyAt; })()`); late {
		t.Error("the page was ready only after the simulation worker answered: it did not take the static HTML's result over")
	}
	// Ready with its first screen built and the static HTML's lower
	// sections held (app/page, below.go), then all of its own, none held.
	if held := eval[[]string](t, b, `window.__held`); !slices.Equal(held, []string{"results", "charts", "sweep", "beside", "anim", "checks", "glossary"}) {
		t.Errorf("as the page answered, it held %q below the share box, want the static HTML's seven sections", held)
	}
	b.waitFor(t, "the page's own lower sections", `performance.getEntriesByName("omission:lower").length === 1 && document.querySelectorAll("omission-kept").length === 0`)
	sameCells(t, "taken over", b.metrics(t), nativeCells(t, ""))
	b.waitFor(t, "the charts taken over", `document.querySelectorAll("section.charts [data-chart] img").length === 4`)

	b.open(t, s.URL+"/?stall=300ms")
	b.waitReady(t, "stall=300ms")
	first = eval[map[string]any](t, b, `window.__first`)
	if first["state"] != "prerendered" || first["computing"] != true || first["hidden"] != true {
		t.Errorf("the first paint at another query: %v", first)
	}
	sameCells(t, "stall=300ms", b.metrics(t), nativeCells(t, "stall=300ms"))

	// Another result asked for while the static HTML's lower sections are
	// still held: the page hides them (stale) in the render that shows the
	// new numbers, and builds its own one at a time (app/page, below.go).
	h := newBrowser(t)
	h.do(t, "watching the held sections", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
			document.addEventListener("DOMContentLoaded", () => {
				window.__mixed = [];
				new MutationObserver(() => {
					const r = document.getElementById("omission");
					if (r && r.dataset.query === "preset=tcp" && document.querySelector("omission-kept:not(.stale)")) window.__mixed.push(document.querySelectorAll("omission-kept:not(.stale)").length);
					const k = document.querySelector("omission-kept.stale > *");
					if (k && getComputedStyle(k).visibility !== "hidden") window.__mixed.push(-1);
				}).observe(document.documentElement, {attributes: true, subtree: true, childList: true});
				// The preset asked for as soon as the page answers.
				const ask = () => {
					const r = document.getElementById("omission");
					if (r && r.dataset.state === "ready") {
						window.__heldWhenAsked = document.querySelectorAll("omission-kept").length;
						document.querySelector('button[data-preset="tcp"]').click();
						return;
					}
					requestAnimationFrame(ask);
				};
				ask();
			});`})
		return err
	}))
	h.open(t, s.URL+"/")
	h.waitReady(t, "preset=tcp")
	if mixed := eval[[]float64](t, h, `window.__mixed`); len(mixed) > 0 {
		t.Errorf("the page showed preset=tcp's result beside %v static sections still held (-1: one marked stale but seen)", mixed)
	}
	t.Logf("sections held when the preset was asked: %v", eval[float64](t, h, `window.__heldWhenAsked`))

	// app.wasm that never comes: the prerendered page stays, and says why
	// its controls do not answer.
	f := newBrowser(t)
	f.do(t, "blocking app.wasm", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/web/app.wasm*", Block: true}}})
		return err
	}))
	f.open(t, s.URL+"/")
	f.waitFor(t, "the page to say the simulator could not start", `(() => { const a = document.querySelector("#omission .status.failed[role=alert]"); return !!a && a.textContent.startsWith("The simulator could not start"); })()`)
	if n := eval[float64](t, f, `document.querySelectorAll("#omission .status.loading").length`); n != 0 {
		t.Errorf("the page still said it was starting beside the failure (%v notes)", n)
	}
}
