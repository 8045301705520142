//go:build !wasm

package browser

// The shared harness of the browser tests: it builds the static site once
// per test binary from web/ (app.wasm must be built: make wasm), serves it
// on 127.0.0.1, and opens headless Chromium with a fresh profile. Tests of
// the charts, the animation and the offline site reuse it:
//
//	s := startSite(t)            // skips unless OMISSION_BROWSER=1
//	b := newBrowser(t)           // one Chromium, 1280×800
//	b.open(t, s.URL+"/?preset=bench")
//	b.waitReady(t, "")           // the page shows the result of that query
//	v := b.metrics(t)            // data-metric → data-ns / data-value
//
// A test that must stop the server (offline) starts its own with
// serveSite(t, dir).

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"omission/app/routes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"omission/app/site"
)

// browserEnabled reports whether the browser tests run (make test-browser).
func browserEnabled() bool { return os.Getenv("OMISSION_BROWSER") == "1" }

// requireBrowser skips the test unless the browser tests are enabled.
func requireBrowser(t testing.TB) {
	t.Helper()
	if !browserEnabled() {
		t.Skip("browser test: set OMISSION_BROWSER=1 (make test-browser)")
	}
	if os.Getenv("CHROMIUM") == "" {
		t.Fatal("CHROMIUM is not set: point it at a Chromium binary (make test-browser does)")
	}
}

// browserLong reports whether the whole browser suite runs (make
// test-long, OMISSION_BROWSER_LONG=1). make test runs a smoke set that
// reaches each part of the site once, within its ten minutes: the page and
// its first screen, a phone, bad and hostile URLs, the policy, the
// prerendered view, failures, an import and its fit, the worker, the
// charts, the animation, axe-core in one theme, the offline site under a
// prefix, and half the fuzz corpus. The deeper variants are the long run's.
func browserLong() bool { return os.Getenv("OMISSION_BROWSER_LONG") == "1" }

// longOnly skips a test that only the long browser run holds (make
// test-long; make bench's too, for the tests that print BENCH lines), with
// a message that says so.
func longOnly(t testing.TB) {
	t.Helper()
	requireBrowser(t)
	if !browserLong() && os.Getenv("OMISSION_BENCH") != "1" {
		t.Skip("in the long browser run only: make test-long (OMISSION_BROWSER_LONG=1)")
	}
}

// site is the built static site and the server that serves it.
type servedSite struct {
	Dir string // the generated site
	URL string // http://127.0.0.1:port, no trailing slash
}

var (
	siteOnce   sync.Once
	routesOnce sync.Once
	siteDir    string
	siteErr    error
	siteSrv    *httptest.Server
)

// startSite builds the site (once per test binary) and serves it. The server
// lives until the test binary ends.
func startSite(t testing.TB) *servedSite {
	t.Helper()
	requireBrowser(t)
	siteOnce.Do(func() {
		siteDir, siteErr = buildTestSite("")
		if siteErr == nil {
			siteSrv = serveDir(siteDir)
		}
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return &servedSite{Dir: siteDir, URL: siteSrv.URL}
}

// buildTestSite writes the static site with the given prefix into a new
// temporary directory. site.Build works from the module root (web/,
// wasm_exec.js), so the working directory moves there while it runs.
func buildTestSite(prefix string) (string, error) {
	// main registers the routes; a test binary does not run main.
	routesOnce.Do(routes.Register)
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	if err := checkWasmFresh(root); err != nil {
		return "", err
	}
	out, err := os.MkdirTemp("", "omission-site-")
	if err != nil {
		return "", err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if err := os.Chdir(root); err != nil {
		return "", err
	}
	defer os.Chdir(wd)
	if _, err := site.Build("web", out, prefix); err != nil {
		return "", fmt.Errorf("building the site: %w", err)
	}
	// go-app writes whatever its server answered, a 404 page included.
	if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || !strings.Contains(string(b), "<html") {
		return "", fmt.Errorf("the site's index.html is not the page (%v): %.80q", err, b)
	}
	return out, nil
}

// moduleRoot finds the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// checkWasmFresh fails when web/app.wasm is missing or older than the Go
// sources it is built from, which would test yesterday's page.
func checkWasmFresh(root string) error {
	wasm, err := os.Stat(filepath.Join(root, "web", "app.wasm"))
	if err != nil {
		return fmt.Errorf("web/app.wasm is missing: run make wasm first")
	}
	var stale string
	for _, dir := range []string{"app", "sim"} {
		filepath.Walk(filepath.Join(root, dir), func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") &&
				info.ModTime().After(wasm.ModTime()) && stale == "" {
				stale = p
			}
			return nil
		})
	}
	if stale != "" {
		return fmt.Errorf("web/app.wasm is older than %s: run make wasm first", stale)
	}
	return nil
}

// serveDir serves a built site on 127.0.0.1 with serve's handler
// (site.Handler: compressed, with its cache headers).
func serveDir(dir string) *httptest.Server {
	siteHandler, err := site.NewHandler(dir)
	if err != nil {
		panic(err)
	}
	srv := httptest.NewUnstartedServer(siteHandler)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv.Listener = ln
	srv.Start()
	return srv
}

// serveSite serves dir for one test and stops at its end (or earlier with
// the returned server's Close, to test offline).
func serveSite(t testing.TB, dir string) *httptest.Server {
	srv := serveDir(dir)
	t.Cleanup(srv.Close)
	return srv
}

// browser is one headless Chromium tab.
type browser struct {
	ctx  context.Context
	stop func() // closes Chromium (the test's end does too)
}

// close stops the browser before the test ends: a page left open goes on
// running (the animation's frames, the workers) beside what is measured
// next.
func (b *browser) close() { b.stop() }

// newBrowser starts Chromium with a fresh profile (no cache, no service
// worker) and a 1280×800 window; it stops at the end of the test. A start
// that fails is tried again, twice at most, each with a profile of its
// own: Chromium failed to start once in a make test here ("chrome failed
// to start", its process gone before DevTools answered), and started the
// next time.
func newBrowser(t testing.TB) *browser {
	t.Helper()
	requireBrowser(t)
	var err error
	for try := 0; try < 3; try++ {
		var b *browser
		if b, err = startBrowser(t); err == nil {
			return b
		}
		t.Logf("starting Chromium (try %d of 3): %v", try+1, err)
	}
	t.Fatalf("starting Chromium: %v", err)
	return nil
}

// startBrowser is one try of newBrowser's.
func startBrowser(t testing.TB) (*browser, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(os.Getenv("CHROMIUM")),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// Start the browser with an untimed context (a timeout would stop it).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		cancel()
		cancelAlloc()
		return nil, err
	}
	stop := func() { cancel(); cancelAlloc() }
	t.Cleanup(stop)
	return &browser{ctx: ctx, stop: stop}, nil
}

// timeout bounds one step of a test.
const timeout = 60 * time.Second

func (b *browser) do(t testing.TB, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression and decodes its value; promises are
// awaited.
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// exec runs a JavaScript statement.
func (b *browser) exec(t testing.TB, stmt string) {
	t.Helper()
	eval[bool](t, b, "(() => { "+stmt+"; return true; })()")
}

// open navigates to a URL and waits for the document to load.
func (b *browser) open(t testing.TB, url string) {
	t.Helper()
	b.do(t, "opening "+url, chromedp.Navigate(url))
}

// waitFor polls a JavaScript predicate until it is truthy.
func (b *browser) waitFor(t testing.TB, what, predicate string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(timeout))); err != nil {
		state := ""
		if s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => { const r = document.getElementById("omission"); const c = document.querySelector("section.charts"), k = document.getElementById("checks"); return r ? r.dataset.state + " query=" + r.dataset.query + " run=" + r.dataset.run + " seq=" + r.dataset.seq + " charts=" + (c && c.dataset.seq) + " checks=" + (k && k.dataset.seq) + " duration box=" + (document.getElementById("in-duration") || {}).value + " url=" + location.href : "no #omission: " + document.body.innerText.slice(0, 300); })()`)); err == nil {
			state = s
		}
		t.Fatalf("waiting for %s: %v (page: %s)", what, err, state)
	}
}

// waitReady waits until the page shows the finished result of the canonical
// query q ("" is the bench preset), its checks included (they follow the
// table by a frame), in sections of its own (none of the static HTML's
// still held: app/page, below.go). The page builds a held section when
// the reader comes to it; a test reads them all, so it asks for them all
// (omissionNearAll, as a file given to the page does).
func (b *browser) waitReady(t testing.TB, q string) {
	t.Helper()
	b.waitFor(t, "the result of "+fmt.Sprintf("%q", q), fmt.Sprintf(
		`(() => { const r = document.getElementById("omission"), c = document.getElementById("checks");
			if (document.querySelector("omission-kept") && window.omissionNearAll) window.omissionNearAll();
			return r && c && r.dataset.state === "ready" && (r.dataset.query || "") === %q && c.dataset.seq === r.dataset.seq && !document.querySelector("omission-kept"); })()`, q))
}

// metrics reads every result cell: data-metric → its data-ns or data-value.
func (b *browser) metrics(t testing.TB) map[string]string {
	t.Helper()
	return eval[map[string]string](t, b, `(() => {
		const out = {};
		for (const el of document.querySelectorAll("[data-metric]")) {
			const v = el.dataset.ns !== undefined ? el.dataset.ns : el.dataset.value;
			if (v !== undefined && !(el.dataset.metric in out)) out[el.dataset.metric] = v;
		}
		return out;
	})()`)
}

// waitLocation waits until the page's URL is want: the page writes its
// URL once the browser has painted.
func (b *browser) waitLocation(t testing.TB, want string) {
	t.Helper()
	b.waitFor(t, "the URL "+want, fmt.Sprintf(`location.href === %q`, want))
}

// location returns the page's URL.
func (b *browser) location(t testing.TB) string {
	t.Helper()
	return eval[string](t, b, `location.href`)
}

// screenshot saves a PNG of the viewport (or the full page) under
// test-output/ at the module root and returns its path.
func (b *browser) screenshot(t testing.TB, name string, full bool) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "test-output")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	var png []byte
	if full {
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	} else {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// trapDialogs makes every later document of the tab record calls to alert,
// confirm and prompt in window.__dialogs instead of opening a dialog (which
// would stall the page), before any of its own scripts run. A test of
// injected markup asserts that the list stays empty.
func (b *browser) trapDialogs(t testing.TB) {
	t.Helper()
	const src = `window.__dialogs = [];
for (const name of ["alert", "confirm", "prompt"]) {
	window[name] = (m) => { window.__dialogs.push(name + ":" + String(m)); return null; };
}`
	b.do(t, "trapping dialogs", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// watchLongTasks makes every later document of the tab keep the longest
// main-thread task it has seen (a PerformanceObserver of "longtask"
// entries, tasks over 50 ms) in window.__longest; takeLongest reads and
// resets it.
func (b *browser) watchLongTasks(t testing.TB) {
	t.Helper()
	const src = `window.__longest = 0;
try {
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
	}).observe({type: "longtask", buffered: true});
} catch (e) {}`
	b.do(t, "watching long tasks", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// takeLongest is the longest main-thread task since the last call (or the
// document's start), in ms; 0 when none passed 50 ms.
func (b *browser) takeLongest(t testing.TB) float64 {
	t.Helper()
	return eval[float64](t, b, `(() => { const v = window.__longest || 0; window.__longest = 0; return v; })()`)
}

// console collects what the tab writes to its console: calls of the console
// API, uncaught exceptions and the browser's log (a Content-Security-Policy
// violation is a log entry of level error).
type console struct {
	mu   sync.Mutex
	msgs []chromedp.ConsoleMessage
}

// watchConsole starts collecting the tab's console messages.
func (b *browser) watchConsole(t testing.TB) *console {
	t.Helper()
	c := &console{}
	msgs := chromedp.Console(b.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	}()
	return c
}

// errors returns the errors and exceptions since the last call, and forgets
// them.
func (c *console) errors() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.msgs {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			out = append(out, m.String())
		}
	}
	c.msgs = c.msgs[:0]
	return out
}
