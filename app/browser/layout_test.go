//go:build !wasm

package browser

// Tests of the layout that must hold (issue 26): an embed framed with the
// README's snippet reports a height that converges; nothing widens the
// page; the animation's controls are Tab stops from the start.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"omission/app/site"
	"omission/app/tools"
)

// readmeEmbedSnippets returns the README's iframe tag and the script that
// sizes the iframes (section "The page and its URL"), as
// the README prints them.
func readmeEmbedSnippets(t testing.TB) (iframe, script string) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```html\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		switch block := m[1]; {
		case strings.HasPrefix(block, "<iframe") && strings.Contains(block, "/embed/?figure="):
			iframe = block
		case strings.HasPrefix(block, "<script>") && strings.Contains(block, "omission:height"):
			script = block
		}
	}
	if iframe == "" || script == "" {
		t.Fatal("the README's embed snippets (an <iframe> of /embed/ and the <script> that sizes it) are not found")
	}
	return iframe, script
}

// embedFigures are the figures an embed shows.
var embedFigures = []string{"spectrum", "distribution", "latency-time", "queue-depth", "animation"}

// embedHostPage is a page that frames one embed per figure with the
// README's iframe tag (its src pointed at base) and the README's script,
// then a script of the test's that logs every height message and the
// frames' heights.
func embedHostPage(t testing.TB, base string) string {
	t.Helper()
	iframe, script := readmeEmbedSnippets(t)
	src := regexp.MustCompile(`src="([^"]*)/embed/\?figure=([a-z-]+)`)
	if !src.MatchString(iframe) {
		t.Fatalf("the README's iframe has no src of an embed: %s", iframe)
	}
	var frames strings.Builder
	for _, fig := range embedFigures {
		frames.WriteString(src.ReplaceAllString(iframe, `src="`+base+`/embed/?figure=`+fig))
	}
	return `<!doctype html><html lang="en"><meta charset="utf-8"><title>An article that embeds Omission</title>
<style>body { margin: 0; display: flex; flex-wrap: wrap; align-items: flex-start; gap: 8px; } iframe { display: block; }</style>
<body>
` + frames.String() + script + `<script>
window.__log = [];
addEventListener("message", (e) => {
  if (!e.data || e.data.type !== "omission:height") return;
  const i = [...document.querySelectorAll("iframe")].findIndex((f) => f.contentWindow === e.source);
  window.__log.push({i, h: e.data.height, live: !!e.data.live, at: performance.now()});
});
</script>
</body></html>`
}

// embedFrame is what the test reads of one framed embed.
type embedFrame struct {
	Reports []float64 // the heights it reported since it was live
	Applied float64   // the iframe's height in the host page
	Content float64   // the embed's own content height, measured inside
	ImgW    float64   // the chart's drawn size (the animation's smallest canvas)
	ImgH    float64
	Details bool // it has a details to open
}

// readEmbedFrames reads every frame's live reports (from report from on)
// and sizes.
func readEmbedFrames(t testing.TB, b *browser, from int) []embedFrame {
	t.Helper()
	return eval[[]embedFrame](t, b, fmt.Sprintf(`[...document.querySelectorAll("iframe")].map((f, i) => {
		const d = f.contentDocument, main = d && d.querySelector("main.embed");
		const img = d && (d.querySelector("main.embed [data-chart] img") || [...d.querySelectorAll("main.embed canvas")].sort((a, b) => a.getBoundingClientRect().height - b.getBoundingClientRect().height)[0]);
		const r = img ? img.getBoundingClientRect() : {width: 0, height: 0};
		return {Reports: window.__log.slice(%d).filter((m) => m.i === i && m.live).map((m) => m.h),
			Applied: f.getBoundingClientRect().height,
			Content: main ? Math.ceil(main.getBoundingClientRect().bottom + f.contentWindow.scrollY) : 0,
			ImgW: r.width, ImgH: r.height, Details: !!(d && d.querySelector("details.embed-about"))};
	})`, from))
}

// waitEmbedsQuiet waits until every frame is live and drawn and no height
// has been reported for quiet; it returns how many messages were logged.
func waitEmbedsQuiet(t testing.TB, b *browser, what string, quiet time.Duration) int {
	t.Helper()
	// Five pages start app.wasm at once: more than a step's timeout on a
	// busy machine.
	for start := time.Now(); !eval[bool](t, b, `[...document.querySelectorAll("iframe")].every((f) => {
		const d = f.contentDocument;
		return !!(d && d.querySelector("main.embed[data-live=true] [data-chart] img, main.embed[data-live=true] [data-anim][data-ready=true]"));
	})`); time.Sleep(250 * time.Millisecond) {
		if time.Since(start) > 4*time.Minute {
			t.Fatalf("%s: the frames are not all live and drawn after 4 minutes", what)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := eval[int](t, b, `window.__log.length`)
		last := eval[float64](t, b, `window.__log.length ? performance.now() - window.__log[window.__log.length - 1].at : 1e9`)
		if last >= float64(quiet.Milliseconds()) {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the frames still report new heights after 20 s (%d messages; the last: %v)", what, n,
				eval[any](t, b, `window.__log.slice(-12)`))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkConverged: each frame reported at most rounds heights since from,
// its iframe is the height it last reported, which is its content's, and
// its chart is drawn at a sensible size. It returns the final heights.
func checkConverged(t *testing.T, b *browser, what string, from, rounds int) []float64 {
	t.Helper()
	frames := readEmbedFrames(t, b, from)
	out := make([]float64, len(frames))
	for i, f := range frames {
		name := what + " " + embedFigures[i]
		t.Logf("%s: reports %v, iframe %v px, content %v px, chart %v×%v px", name, f.Reports, f.Applied, f.Content, f.ImgW, f.ImgH)
		out[i] = f.Applied
		if len(f.Reports) == 0 && from == 0 {
			t.Errorf("%s: no live height reported", name)
			continue
		}
		if len(f.Reports) > rounds {
			t.Errorf("%s: %d heights reported (%v), want a fixed point within %d", name, len(f.Reports), f.Reports, rounds)
		}
		if len(f.Reports) > 0 && f.Reports[len(f.Reports)-1] != f.Applied {
			t.Errorf("%s: reported %v last, the iframe is %v px", name, f.Reports[len(f.Reports)-1], f.Applied)
		}
		if d := f.Content - f.Applied; d < -1 || d > 1 {
			t.Errorf("%s: the content is %v px in a %v px iframe", name, f.Content, f.Applied)
		}
		minH, minRatio := 300.0, 0.5 // the charts: the spectrum's 16:9 at 644 px is 362 px
		if embedFigures[i] == "animation" {
			minH, minRatio = 70, 0.1 // a stage's canvas
		}
		if f.ImgH < minH || f.ImgW == 0 || f.ImgH/f.ImgW < minRatio {
			t.Errorf("%s: the chart is squashed: %v×%v px", name, f.ImgW, f.ImgH)
		}
	}
	return out
}

// TestBrowserEmbedHeights: a page that frames every figure with the
// README's snippets (its iframe tag, 660×420, and its script) sees each
// embed report a height that comes to rest at once and keeps its chart's
// size (issue 26: the spectrum reported 396, 389, 382, … 201 px and ended
// squashed); opening an embed's details, it comes to rest again, taller.
// The host page is served from the site's origin so that the test can
// reach into the frames.
func TestBrowserEmbedHeights(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	siteHandler, err := site.NewHandler(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var page string
	mux := http.NewServeMux()
	mux.Handle("/", siteHandler)
	mux.HandleFunc("/__article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	host := httptest.NewUnstartedServer(mux)
	if host.Listener, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	host.Start()
	defer host.Close()
	page = embedHostPage(t, host.URL)

	b := newBrowser(t)
	// Wide and tall enough that every frame is in view (the README's
	// iframe loads lazily).
	b.do(t, "a 1400×1400 window", chromedp.EmulateViewport(1400, 1400))
	b.open(t, host.URL+"/__article")
	waitEmbedsQuiet(t, b, "framed", 1500*time.Millisecond)
	// Still at rest a while later.
	n := eval[int](t, b, `window.__log.length`)
	time.Sleep(1500 * time.Millisecond)
	if m := eval[int](t, b, `window.__log.length`); m != n {
		t.Errorf("the frames reported %d more heights after they had come to rest: %v", m-n, eval[any](t, b, `window.__log.slice(-10)`))
	}
	// The prerendered page reports once, the live one at most twice more.
	closed := checkConverged(t, b, "framed", 0, 2)
	b.screenshot(t, "embeds-framed.png", true)

	// The animation playing writes its counters and its moment: the frame
	// keeps its height (stop 35's CI: the counters' values wrapped a stage's
	// head anew, 396 → 411 px, and the note that it was being prepared
	// stood above the stages, 445 px, until it went).
	anim := slices.Index(embedFigures, "animation")
	animDoc := fmt.Sprintf(`document.querySelectorAll("iframe")[%d].contentDocument`, anim)
	before := eval[int](t, b, `window.__log.length`)
	b.exec(t, `{ const r = `+animDoc+`.querySelector("[data-anim]"); if (r.dataset.playing !== "true") r.querySelector("[data-anim-play]").click(); }`)
	b.waitFor(t, "the framed animation playing, its counters written", `(() => { const d = `+animDoc+`, r = d.querySelector("[data-anim]");
		return r.dataset.playing === "true" && Number(r.dataset.frame) > 30 && d.querySelector("[data-count=recorded]").textContent !== "" && d.querySelector("[data-anim-time]").textContent !== ""; })()`)
	time.Sleep(1500 * time.Millisecond)
	// Then at the window's end, where the counters are widest (End).
	b.exec(t, `{ const r = `+animDoc+`.querySelector("[data-anim]"); if (r.dataset.playing === "true") r.querySelector("[data-anim-play]").click();
		r.dispatchEvent(new KeyboardEvent("keydown", {key: "End", bubbles: true})); }`)
	b.waitFor(t, "the framed animation at its window's end", animDoc+`.querySelector("[data-anim]").dataset.playing === "false"`)
	time.Sleep(500 * time.Millisecond)
	if got := eval[[]float64](t, b, fmt.Sprintf(`window.__log.slice(%d).filter((m) => m.i === %d).map((m) => m.h)`, before, anim)); len(got) > 0 {
		t.Errorf("the framed animation reported new heights while it played and at its window's end: %v (at rest: %v px)", got, closed[anim])
	}
	t.Logf("framed animation at its window's end: %v", eval[string](t, b, `[...`+animDoc+`.querySelectorAll(".anim-head")].map((h) => h.textContent).join(" | ")`))

	// Open each embed's details, and the data table's inside (the animation
	// has none).
	from := eval[int](t, b, `window.__log.length`)
	b.exec(t, `document.querySelectorAll("iframe").forEach((f) => f.contentDocument.querySelectorAll("details.embed-about, details.embed-about details").forEach((d) => d.open = true))`)
	b.waitFor(t, "the opened details' tables", `[...document.querySelectorAll("iframe")].every((f) => { const d = f.contentDocument.querySelector("details.embed-about"); return !d || d.querySelector("table") !== null; })`)
	waitEmbedsQuiet(t, b, "opened", 1500*time.Millisecond)
	opened := checkConverged(t, b, "opened", from, 2)
	for i, f := range readEmbedFrames(t, b, from) {
		if f.Details && opened[i] < closed[i]+100 {
			t.Errorf("%s: %v px with its details open, %v px closed", embedFigures[i], opened[i], closed[i])
		}
	}
	b.screenshot(t, "embeds-framed-open.png", true)
}

// widest names the elements that reach further right than width (the
// window's: a phone's layout viewport widens to what overflows it), not
// counting what a scroll box of their own clips, for a failure's message.
func (b *browser) widest(t testing.TB, width float64) []string {
	t.Helper()
	return eval[[]string](t, b, `(() => {
		const w = `+fmt.Sprint(width)+`, out = [];
		const clipped = (el) => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true; return false; };
		for (const el of document.querySelectorAll("body *")) {
			const r = el.getBoundingClientRect();
			if (r.right > w + 1 && r.width > 0 && !clipped(el)) out.push([r.right, el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().replace(/\s+/g, ".") : "") + " " + Math.round(r.left) + "–" + Math.round(r.right) + " px"]);
		}
		return out.sort((a, b) => b[0] - a[0]).slice(0, 10).map((x) => x[1]);
	})()`)
}

// importFileListed gives a file to the visualiser's file input, as a reader
// choosing it would, and waits until the page lists it.
func (b *browser) importFileListed(t testing.TB, path string) {
	t.Helper()
	b.chooseFile(t, path)
	b.waitFor(t, filepath.Base(path)+" listed", fmt.Sprintf(`!!document.querySelector('#measured .files li[data-file=%q]')`, filepath.Base(path)))
}

// TestBrowserNothingWidens: at 1280 and at 390 px, with every tool ticked,
// three measurement files imported and a long comparison (vs=) of 60
// characters or of 50 KB, the page is never wider than the window: tool
// printouts and long values scroll in their own boxes or wrap (issue 26:
// locust made it 1,418 px wide, a 50 KB vs= 450,294 px).
func TestBrowserNothingWidens(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(tools.Names(), ",")
	long60 := "rate=4000&stall=250ms&every=1500ms&duration=12s&service=90us"
	long50k := "note=" + strings.Repeat("0123456789abcdef", 50_000/16)
	if len(long60) != 60 {
		t.Fatalf("the 60-character value is %d characters", len(long60))
	}
	files := []string{"wrk2.txt", "export.hgrm", "k6-summary.json"}
	for _, vp := range []struct {
		name  string
		width float64
		act   chromedp.Action[chromedp.Void]
	}{
		{"1280", 1280, chromedp.EmulateViewport(1280, 800)},
		{"390", 390, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)},
	} {
		b.do(t, "a "+vp.name+" px window", vp.act)
		// A phone widens its layout viewport (innerWidth) to a page wider
		// than the screen: the page is held to the screen's width too.
		check := func(what string) {
			t.Helper()
			o := eval[map[string]float64](t, b, `({scroll: document.documentElement.scrollWidth, inner: innerWidth})`)
			if o["scroll"] > o["inner"] || o["scroll"] > vp.width {
				t.Errorf("%s px, %s: the page is %v px wide in a %v px window (innerWidth %v); widest: %v", vp.name, what, o["scroll"], vp.width, o["inner"], b.widest(t, vp.width))
			}
		}
		for _, vs := range []string{long60, long50k} {
			what := fmt.Sprintf("every tool and a vs= of %d characters", len(vs))
			b.open(t, s.URL+"/?tools="+all+"&vs="+urlEscape(vs))
			b.waitReady(t, "")
			b.waitFor(t, "every tool's card", fmt.Sprintf(`document.querySelectorAll("#tools .tool-card").length === %d`, len(tools.Names())))
			b.waitFor(t, "the comparison's value shown", `!!document.querySelector("#compare code, #compare .error")`)
			check(what)
			if vs != long60 {
				continue
			}
			b.exec(t, `document.querySelectorAll("details").forEach((d) => d.open = true)`)
			check(what + ", every details open")
			for _, f := range files {
				b.importFileListed(t, filepath.Join(root, "app", "measure", "testdata", f))
			}
			b.waitCharts(t)
			check(what + " and three files imported")
			b.screenshot(t, "nothing-widens-"+vp.name+".png", true)
			for name, at := range map[string]string{"locust": `#tools .tool-card[data-tool="locust"]`, "compare": "#compare", "measured": "#measured"} {
				b.exec(t, fmt.Sprintf(`document.querySelector(%q).scrollIntoView()`, at))
				b.screenshot(t, "nothing-widens-"+vp.name+"-"+name+".png", false)
			}
		}
	}
}

// tabToPlay tabs from the top of the page until the animation's Play
// control has the focus, and returns the stops on the way (the last is
// Play), or fails after limit stops. The Tab key starts from the element
// that had the focus last, so the start is moved to the skip links' box
// (before the first stop).
func (b *browser) tabToPlay(t testing.TB, limit int) []string {
	t.Helper()
	b.exec(t, `const start = document.querySelector(".skip-links"); start.tabIndex = -1; start.focus({preventScroll: true}); window.scrollTo(0, 0)`)
	var stops []string
	for i := 0; i < limit; i++ {
		b.do(t, "Tab", chromedp.KeyEvent(kb.Tab))
		f := b.focused(t)
		// An animation control by its hook: its text follows the state
		// (Play, Pause; the stall shown).
		stops = append(stops, f["tag"]+"#"+f["id"]+" "+eval[string](t, b, `(() => { const el = document.activeElement;
			return el.closest("[data-anim]") ? Object.keys(el.dataset).join(",") : (el.textContent || "").trim().slice(0, 40); })()`))
		if f["play"] == "1" {
			return stops
		}
		if f["tag"] == "body" {
			break
		}
	}
	t.Fatalf("Play is not among the first %d Tab stops: %v", len(stops), stops)
	return nil
}

// TestBrowserKeyboardAnimFromTheStart: tabbing from the top of the page as
// soon as it shows its result, before the animation was ever on screen,
// reaches the animation's Play control (issue 26: its controls did not
// exist until it had rendered on screen, and the keyboard skipped them);
// the stops are the same once the animation is ready, and Play keeps the
// focus while the animation comes alive under it.
func TestBrowserKeyboardAnimFromTheStart(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitFor(t, "the visualiser ready", readerPages[0].ready)
	if eval[bool](t, b, `document.querySelector("[data-anim][data-ready=true]") !== null`) {
		t.Log("the animation was ready before the first Tab: this run does not test its inert controls")
	}
	inert := eval[bool](t, b, `document.querySelector("[data-anim-play]").getAttribute("aria-disabled") === "true"`)
	first := b.tabToPlay(t, 300)
	t.Logf("Play is Tab stop %d from the top (it was inert when the Tab key started: %v)", len(first), inert)
	b.waitFor(t, "the animation ready under the focus", `document.querySelector("[data-anim][data-ready=true]") !== null`)
	if f := b.focused(t); f["play"] != "1" {
		t.Errorf("the focus left Play when the animation came alive: it is on %v", f)
	}
	if eval[string](t, b, `document.querySelector("[data-anim-play]").getAttribute("aria-disabled") || ""`) == "true" {
		t.Error("Play is still inert once the animation is ready")
	}
	again := b.tabToPlay(t, 300)
	for i := 0; i < max(len(first), len(again)); i++ {
		if i >= len(first) || i >= len(again) || first[i] != again[i] {
			t.Errorf("the Tab stops to Play changed once the animation was ready, from stop %d: before %q, after %q", i+1, first[i:], again[i:])
			break
		}
	}
	b.screenshot(t, "keyboard-anim-play.png", false)
}

// chooseFile sets the visualiser's file input to one file, through the
// DevTools protocol, as a reader choosing it would.
func (b *browser) chooseFile(t testing.TB, path string) {
	t.Helper()
	b.do(t, "choosing "+filepath.Base(path), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		doc, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{})
		if err != nil {
			return err
		}
		n, err := cdp.Call(ctx, tg, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.Root.NodeID, Selector: "#import-file"})
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{path}, NodeID: n.NodeID})
		return err
	}))
}
