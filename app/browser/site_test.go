//go:build !wasm

package browser

import (
	"bytes"
	"fmt"
	"net"
	"omission/app/article"
	"omission/app/compute"
	"omission/app/routes"
	"omission/app/site"
	"omission/app/units"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	"github.com/chromedp/chromedp"
	"strings"
	"testing"
	"time"
)

// Tests of the charts on the page, the article, the embeds and the static
// site served by a plain file server, online and offline.

// waitCharts waits until the charts panel shows the page's current result.
func (b *browser) waitCharts(t testing.TB) {
	t.Helper()
	b.waitFor(t, "the charts of the result", `(() => {
		const r = document.getElementById("omission"), c = document.querySelector("section.charts");
		return r && c && r.dataset.state === "ready" && c.dataset.seq === r.dataset.seq &&
			document.querySelectorAll("section.charts [data-chart] img").length === 4; })()`)
}

func TestBrowserCharts(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/?preset=bench")
	b.waitReady(t, "")
	b.waitCharts(t)
	type chart struct {
		Src, Caption string
		Markers      int
		Rows         int
	}
	read := func() map[string]chart {
		return eval[map[string]chart](t, b, `(() => {
			const out = {};
			for (const f of document.querySelectorAll("section.charts [data-chart]")) {
				out[f.dataset.chart] = {
					Src: f.querySelector("img").getAttribute("src"),
					Caption: f.querySelector("figcaption").innerText,
					Markers: f.querySelectorAll("a.marker").length,
					Rows: f.querySelectorAll("details table tbody tr").length,
				};
			}
			return out;
		})()`)
	}
	// A chart's data table joins the page when its <details> opens (ui.ChartTable).
	if n := eval[int](t, b, `document.querySelectorAll("section.charts details.chart-data tbody tr").length`); n != 0 {
		t.Errorf("%d data rows in the closed tables: they should join the page when opened", n)
	}
	b.exec(t, `document.querySelectorAll("section.charts details.chart-data").forEach(d => d.open = true)`)
	b.waitFor(t, "the data tables open", `[...document.querySelectorAll("section.charts details.chart-data")].every(d => d.querySelectorAll("tbody tr").length > 0)`)
	before := read()
	for _, name := range []string{"spectrum", "distribution", "latency-time", "queue-depth"} {
		c, ok := before[name]
		if !ok {
			t.Fatalf("no %s chart", name)
		}
		if !strings.HasPrefix(c.Src, "data:image/svg+xml;base64,") || len(c.Src) < 2000 {
			t.Errorf("%s: not an SVG image (%.60s…)", name, c.Src)
		}
		if len(c.Caption) < 40 || c.Rows == 0 {
			t.Errorf("%s: caption %q, %d data rows", name, c.Caption, c.Rows)
		}
	}
	if !strings.Contains(before["spectrum"].Caption, "195.1 ms") || before["spectrum"].Markers < 20 {
		t.Errorf("spectrum: caption %q, %d marker links", before["spectrum"].Caption, before["spectrum"].Markers)
	}
	b.screenshot(t, "charts.png", true)
	// A marker opens the check of its number.
	b.exec(t, `document.querySelector('section.charts [data-chart=spectrum] a.marker[href="#check-open.p99"]').click()`)
	b.waitFor(t, "the proof of open.p99", `(() => { const c = document.getElementById("check-open.p99"); return c && c.open !== false; })()`)
	// A parameter change redraws the spectrum.
	b.exec(t, `const i = document.getElementById("in-stall"); i.value = "300ms"; i.dispatchEvent(new Event("change", {bubbles: true}))`)
	b.waitReady(t, "stall=300ms")
	b.waitCharts(t)
	after := read()
	if after["spectrum"].Src == before["spectrum"].Src {
		t.Error("the spectrum did not change with the stall")
	}
}

// pyServer serves dir with python3's http.server, the plainest static host.
func pyServer(t testing.TB, dir string) (base string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("python3", "-m", "http.server", fmt.Sprint(port), "--bind", "127.0.0.1", "--directory", dir)
	if err := cmd.Start(); err != nil {
		t.Fatalf("python3 -m http.server: %v", err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i == 200 {
			t.Fatal("python3 -m http.server did not start")
		}
		time.Sleep(25 * time.Millisecond)
	}
	done := false
	stop = func() {
		if !done {
			done = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	return "http://" + addr, stop
}

// waitWorker waits until the service worker controls the page and its cache
// holds the site.
func (b *browser) waitWorker(t testing.TB) {
	t.Helper()
	b.waitFor(t, "the service worker's cache", `(async () => {
		if (!navigator.serviceWorker.controller) return false;
		for (const k of await caches.keys()) {
			const c = await caches.open(k), keys = await c.keys();
			if (keys.some(r => new URL(r.url).pathname.endsWith("/web/app.wasm")) && keys.some(r => r.url.includes("/article/"))) return true;
		}
		return false;
	})()`)
}

// articleOK checks the article's numbers against a native run.
func articleOK(t *testing.T, b *browser) {
	t.Helper()
	b.waitFor(t, "the article's numbers", `document.querySelectorAll("main.article .num[data-metric]").length > 40 && !document.querySelector("main.article .num.pending")`)
	type num struct{ Metric, Query, Ns, Value string }
	got := eval[[]num](t, b, `[...document.querySelectorAll("main.article .num[data-metric]")].map(e => ({Metric: e.dataset.metric, Query: e.dataset.query || "", Ns: e.dataset.ns || "", Value: e.dataset.value || ""}))`)
	want, err := article.Numbers(compute.NewCache(8, compute.FigureRequests))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		w, ok := want[article.NumRef{Query: g.Query, Metric: g.Metric}]
		if !ok {
			t.Errorf("article number %s %q is not the article's", g.Metric, g.Query)
			continue
		}
		v := g.Value
		if w.IsNs {
			v = g.Ns
		}
		if v != units.Raw(w.Value) {
			t.Errorf("article %s (%q) = %s, native %s", g.Metric, g.Query, v, units.Raw(w.Value))
		}
	}
	if figs := eval[int](t, b, `document.querySelectorAll("main.article [data-chart] img").length`); figs < 2 {
		t.Errorf("article: %d chart figures", figs)
	}
	b.waitFor(t, "the article's animation", `document.querySelector("main.article [data-anim][data-stall]") !== null`)
}

// TestBrowserStaticSite serves the static site with python3 -m http.server
// at the root and under a sub-path: the page, the article and an embed load;
// then, with the server stopped, the page, a share URL with a query and the
// article load from the service worker.
func TestBrowserStaticSite(t *testing.T) {
	requireBrowser(t)
	// make test serves the site under a prefix only, the harder of the two.
	prefixes := []string{"/omission"}
	if browserLong() {
		prefixes = []string{"", "/omission"}
	}
	for _, prefix := range prefixes {
		t.Run("prefix="+prefix, func(t *testing.T) {
			dir, err := buildTestSite(prefix)
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			root := dir
			if prefix != "" { // the host serves the site as a folder of its root
				root = t.TempDir()
				if err := os.Rename(dir, filepath.Join(root, strings.Trim(prefix, "/"))); err != nil {
					t.Fatal(err)
				}
			}
			base, stop := pyServer(t, root)
			home := base + prefix + "/"
			b := newBrowser(t)
			b.open(t, home+"?preset=bench")
			b.waitReady(t, "")
			if m := b.metrics(t); m["open.p99"] != "195100000" || m["corrected.count"] != "119980" {
				t.Fatalf("bench numbers: open.p99 %s corrected.count %s", m["open.p99"], m["corrected.count"])
			}
			b.open(t, base+prefix+"/article")
			articleOK(t, b)
			b.open(t, base+prefix+"/embed?figure=latency-time&preset=tcp")
			b.waitFor(t, "the embedded chart", `document.querySelector("main.embed [data-chart=latency-time] img") !== null`)
			// Its only heading is its own, visually hidden (issue 17).
			if n := eval[int](t, b, `document.querySelectorAll("header, h1:not(.visually-hidden), #omission, nav").length`); n != 0 {
				t.Errorf("the embed has %d pieces of page chrome", n)
			}
			b.open(t, base+prefix+"/embed/?figure=animation&anim=1")
			b.waitFor(t, "the embedded animation at stall 1, drawing", `(() => { const a = document.querySelector("main.embed [data-anim]"); return a && a.dataset.stall === "1" && +a.dataset.frame > 0; })()`)
			b.open(t, home)
			b.waitReady(t, "")
			b.waitWorker(t)

			stop() // offline for real: nothing answers on the port
			b.open(t, home+"?preset=bench")
			b.waitReady(t, "")
			b.open(t, home+"?preset=tcp&stall=400ms")
			b.waitReady(t, "preset=tcp&stall=400ms")
			if m := b.metrics(t); m["closed.count"] != "20000" {
				t.Errorf("offline share URL: closed.count %s", m["closed.count"])
			}
			b.open(t, base+prefix+"/article/")
			articleOK(t, b)
			b.screenshot(t, "offline"+strings.ReplaceAll(prefix, "/", "-")+".png", false)
		})
	}
}

// TestWasmExecShipped: the wasm_exec.js the site ships is the project's, and
// the project's is the toolchain's that builds app.wasm.
func TestWasmExecShipped(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile(filepath.Join(root, "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	var tool []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if tool, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), p)); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("the toolchain's wasm_exec.js: %v", err)
	}
	if !bytes.Equal(ours, tool) {
		t.Error("wasm_exec.js differs from the toolchain's: run make wasm (it refreshes it)")
	}
	if _, err := os.Stat(filepath.Join(root, "web", "app.wasm")); err != nil {
		t.Skip("web/app.wasm not built: the shipped copy is checked with it")
	}
	if raceEnabled {
		// Building the site compresses app.wasm and fit.wasm (brotli at
		// its best): minutes under the race detector. make test-built
		// runs this without it.
		t.Skip("the site's build is checked without -race (make test-built)")
	}
	// The site's pages, as main registers them (unregistered, go-app
	// writes a page without its loader, which the build refuses).
	routesOnce.Do(routes.Register)
	out := t.TempDir()
	if _, err := site.Build(filepath.Join(root, "web"), out, ""); err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(filepath.Join(out, "wasm_exec.js"))
	if err != nil || !bytes.Equal(shipped, ours) {
		t.Errorf("the site ships another wasm_exec.js (%v)", err)
	}
}

func requireBench(t *testing.T) {
	t.Helper()
	if os.Getenv("OMISSION_BENCH") != "1" {
		t.Skip("benchmarks run with OMISSION_BENCH=1 (make bench)")
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// TestBrowserBenchCharts times the full update with the charts: from the
// stall box's change event until the four charts of the new result are
// painted, and the charts' own drawing time in the page.
func TestBrowserBenchCharts(t *testing.T) {
	requireBench(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	b.waitCharts(t)
	var full, draw []float64
	for i := 0; i < 11; i++ {
		eval[bool](t, b, `new Promise(r => setTimeout(() => r(true), 200))`)
		r := eval[map[string]float64](t, b, fmt.Sprintf(`new Promise(resolve => {
			const root = document.getElementById("omission"), box = document.getElementById("in-stall");
			const seq = root.dataset.seq;
			const done = () => { const c = document.querySelector("section.charts"); return root.dataset.state === "ready" && root.dataset.seq !== seq && c && c.dataset.seq === root.dataset.seq; };
			const t0 = performance.now();
			const mo = new MutationObserver(() => { if (done()) { mo.disconnect(); requestAnimationFrame(() => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => resolve({ms: performance.now() - t0, draw: +document.querySelector("section.charts").dataset.ms});
				ch.port2.postMessage(0);
			}); } });
			mo.observe(document.body, {attributes: true, subtree: true, childList: true});
			box.value = %q;
			box.dispatchEvent(new Event("change", {bubbles: true}));
		})`, []string{"199ms", "200ms"}[i%2]))
		if i >= 1 { // the first is a warm-up
			full = append(full, r["ms"])
			draw = append(draw, r["draw"])
		}
	}
	fmt.Printf("BENCH page.update_with_charts.chromium %.1f ms\n", median(full))
	fmt.Printf("BENCH charts.render4.chromium %.1f ms\n", median(draw))
	fmt.Printf("BENCH charts.render.chromium %.1f ms/plot\n", median(draw)/4)
}

// TestBrowserArticleTakeover: the article takes over the numbers and
// figures its HTML holds (app/article, takeover.go) instead of computing
// them again, and they are the native simulator's; at a reader's values it
// computes them; on a phone, where its column is narrower than the
// generator drew the figures for, it draws them again at its width.
func TestBrowserArticleTakeover(t *testing.T) {
	s := startSite(t)
	html, err := os.ReadFile(filepath.Join(s.Dir, "article", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var static []string
	for _, m := range articleImgRe.FindAllStringSubmatch(string(html), -1) {
		static = append(static, m[1])
	}
	b := newBrowser(t)
	b.open(t, s.URL+"/article/")
	b.waitFor(t, "the article ready", readerPages[1].ready)
	if !eval[bool](t, b, `document.querySelector("main.article").dataset.taken === "true"`) {
		t.Error("the article computed what its HTML holds instead of taking it over")
	}
	articleOK(t, b)
	srcs := eval[[]string](t, b, `[...document.querySelectorAll("main.article figure[data-chart] img")].map(i => i.getAttribute("src"))`)
	widths := eval[[]int](t, b, `[...document.querySelectorAll("main.article figure[data-chart]")].map(f => f.clientWidth)`)
	if len(static) < 2 || len(srcs) != len(static) {
		t.Fatalf("the HTML holds %d figures, the page %d", len(static), len(srcs))
	}
	for i := range srcs {
		if srcs[i] != static[i] {
			t.Errorf("figure %d was drawn again at 1280 px, %d px wide (the generator draws them 704 px wide: articleFigureW)", i, widths[i])
		}
	}

	// The reader's values: computed, not taken over.
	b.open(t, s.URL+"/article/?closed.stall=320ms")
	b.waitFor(t, "the article ready", readerPages[1].ready)
	if eval[bool](t, b, `document.querySelector("main.article").dataset.taken === "true"`) {
		t.Error("the article took over its HTML's numbers at values of the reader's")
	}
	sameAsNative(t, "closed.stall=320ms", b.articleNums(t, "closed"), "closed.stall=320ms")

	// A phone: the figures drawn again for its column.
	b.do(t, "a phone's viewport", chromedp.EmulateViewport(412, 900))
	b.open(t, s.URL+"/article/")
	b.waitFor(t, "the article ready", readerPages[1].ready)
	b.waitFor(t, "the figures drawn for the phone's column", `[...document.querySelectorAll("main.article figure[data-chart] img")].every(i => +i.getAttribute("width") === i.closest("figure").clientWidth)`)
	articleOK(t, b)
}

// articleImgRe finds a chart figure's image in the generated HTML: go-app
// writes an element's attributes in no set order.
var articleImgRe = regexp.MustCompile(`<figure[^>]*data-chart="[^"]*"[^>]*>\s*<div class="chart-svg">\s*<img[^>]* src="([^"]*)"`)
