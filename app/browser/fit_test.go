//go:build !wasm

package browser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"omission/app/fit"
	"omission/app/units"
)

// TestBrowserFitImport (issue 23, items 3 and 5): a wrk2 printout the
// project writes is imported, which starts the fit's worker (never the
// page's load); "What did this test hide?" shows the fit: the fitted query and
// the open loop's p99 are report -fit's for the same file; "Open the
// fitted run" makes the fitted query the page's state and URL; a rate
// typed beside the file pins the fit's rate, and a bad one is refused with
// the field and its range; a real ab printout is fitted as report -fit
// fits it; an .hlog tagged by endpoint pasted is refused with the fit's message. The
// panel has no axe-core violation.
func TestBrowserFitImport(t *testing.T) {
	const file = "fit-tcp-wrk2.txt"
	native := reportFit(t, filepath.Join("..", "testdata", file))
	if !native.Explained {
		t.Fatalf("report -fit does not explain %s: %s", file, native.Why)
	}
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	// The fit's worker, started (web/page.js marks the root element: the
	// worker script is the simulation's too, and fit.wasm is fetched by
	// the worker, whose timeline the page does not see).
	const fetched = `document.documentElement.dataset.fitWorker === "started" ? 1 : 0`
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if eval[int](t, b, fetched) > 0 {
		t.Error("the fit worker was started when the page loaded, before any file was given")
	}
	b.do(t, "choosing "+file, chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{filepath.Join(root, "app", "testdata", file)}))
	b.waitFor(t, file+" listed", `!!document.querySelector('#measured li[data-file="`+file+`"]')`)
	// Giving a file starts the worker (fit.wasm loads while the reader
	// looks at the file), before any fit is asked.
	b.waitFor(t, "the fit worker started by the file given", fetched+` > 0`)
	b.exec(t, `document.querySelector('#measured li[data-file="`+file+`"] button.fit-ask').click()`)
	b.waitFor(t, "the fit panel", `!!document.querySelector('#measured section.fit-panel[data-fit=done]') || !!document.querySelector('#measured [data-fit=error]')`)
	if msg := eval[string](t, b, `(document.querySelector('#measured [data-fit=error]') || {}).textContent || ""`); msg != "" {
		t.Fatalf("the fit failed: %s", msg)
	}
	type panel struct{ Query, Open, Headline, Rows, Title string }
	p := eval[panel](t, b, `(() => { const s = document.querySelector('#measured section.fit-panel');
		return {Query: s.querySelector('code[data-query]').dataset.query, Open: s.querySelector('[data-metric="fit.open_p99"]').textContent,
			Headline: s.querySelector('.fit-headline').textContent, Rows: String(s.querySelectorAll('table.fit-table tbody tr').length),
			Title: s.querySelector('h3').textContent}; })()`)
	if p.Query != native.Query {
		t.Errorf("the page's fitted query %q, report -fit's %q", p.Query, native.Query)
	}
	if want := units.Duration(native.Hidden.OpenP99Ns); p.Open != want {
		t.Errorf("the page's open-loop p99 %q, report -fit's %q", p.Open, want)
	}
	if !strings.Contains(p.Headline, "never sent") || p.Rows == "0" || !strings.Contains(p.Title, file) {
		t.Errorf("panel: %+v", p)
	}
	b.do(t, "showing the panel", chromedp.ScrollIntoView(chromedp.CSS(`#measured section.fit-panel`)))
	for _, v := range b.axe(t) {
		for _, n := range v.Nodes {
			if strings.Contains(n, "fit") {
				t.Errorf("axe %s (%s): %s: %s", v.ID, v.Impact, v.Help, n)
			}
		}
	}
	// The rate typed beside the file pins it: the panel's query is report
	// -fit's with rate=1000, its rate row says "given"; a rate that is not
	// one gets fit.ParseRate's refusal, which names the field and its range.
	pinned := reportFit(t, filepath.Join("..", "testdata", file), "rate=1000")
	li := `document.querySelector('#measured li[data-file="` + file + `"]')`
	b.do(t, "typing a rate", chromedp.SetValue(chromedp.CSS(`#measured li[data-file="`+file+`"] input.fit-rate`), "1000"))
	b.exec(t, li+`.querySelector('button.fit-ask').click()`)
	b.waitFor(t, "the pinned fit", `(() => { const s = `+li+`.querySelector('section.fit-panel[data-fit=done]');
		return !!s && [...s.querySelectorAll('table.fit-params tbody tr')].some(r => r.textContent.includes("given")); })()`)
	if q := eval[string](t, b, li+`.querySelector('code[data-query]').dataset.query`); q != pinned.Query {
		t.Errorf("with rate 1000 the page's fitted query is %q, report -fit rate=1000's %q", q, pinned.Query)
	}
	_, badRate := fit.ParseRate("fast")
	b.do(t, "typing a bad rate", chromedp.SetValue(chromedp.CSS(`#measured li[data-file="`+file+`"] input.fit-rate`), "fast"))
	b.exec(t, li+`.querySelector('button.fit-ask').click()`)
	b.waitFor(t, "the rate's refusal", `!!`+li+`.querySelector('[data-fit=error]')`)
	if msg := eval[string](t, b, li+`.querySelector('[data-fit=error]').textContent`); badRate == nil || !strings.Contains(msg, badRate.Error()) {
		t.Errorf("a bad rate says %q, want it to hold %v", msg, badRate)
	}
	b.exec(t, li+`.querySelector('input.fit-rate').value = ""`)
	b.exec(t, li+`.querySelector('button.fit-ask').click()`)
	b.waitFor(t, "the fit again", `!!`+li+`.querySelector('section.fit-panel[data-fit=done]')`)
	// An ab printout (a real run the experiment kept): the page's fit is
	// report -fit's, and says what ab's whole milliseconds leave free.
	abLi := fitInPage(t, b, root, "testdata", "fit-real-ab.txt")
	if txt := eval[string](t, b, abLi+`.textContent`); !strings.Contains(txt, "whole ms") {
		t.Errorf("the ab fit's panel does not say what its whole milliseconds leave free: %.600s", txt)
	}
	// A file the fit refuses (an .hlog of two histograms tagged by
	// endpoint, pasted: which recordings made them?): its message, the
	// native fit's, and the other files' panels stay.
	refusedHlog, err := os.ReadFile(filepath.Join("..", "testdata", "fit-foreign-tags.hlog"))
	if err != nil {
		t.Fatal(err)
	}
	_, refused := fit.Fit("pasted", refusedHlog, fit.Options{})
	if refused == nil {
		t.Fatal("fit.Fit took an .hlog tagged by endpoint")
	}
	b.exec(t, `document.querySelector("#measured details.paste").open = true`)
	b.do(t, "pasting an .hlog tagged by endpoint", chromedp.SetValue(chromedp.CSS("#import-paste"), string(refusedHlog)))
	b.exec(t, `document.getElementById("import-paste").dispatchEvent(new Event("input", {bubbles: true}))`)
	b.exec(t, `document.getElementById("import-paste-read").click()`)
	b.waitFor(t, "the pasted file listed", `!!document.querySelector('#measured li[data-file="pasted"] button.fit-ask')`)
	b.exec(t, `document.querySelector('#measured li[data-file="pasted"] button.fit-ask').click()`)
	b.waitFor(t, "the refusal", `!!document.querySelector('#measured li[data-file="pasted"] [data-fit=error]')`)
	if msg := eval[string](t, b, `document.querySelector('#measured li[data-file="pasted"] [data-fit=error]').textContent`); !strings.Contains(msg, refused.Error()) {
		t.Errorf("the refusal says %q, want it to hold %q", msg, refused.Error())
	}
	if !eval[bool](t, b, `!!document.querySelector('#measured li[data-file="`+file+`"] section.fit-panel[data-fit=done]')`) {
		t.Error("the first file's panel went when the second's fit failed")
	}
	b.exec(t, `document.querySelector('#measured a.fit-open').click()`)
	b.waitReady(t, native.Query)
	if loc := b.location(t); !strings.HasSuffix(loc, "/?"+native.Query) {
		t.Errorf("after opening the fitted run the URL is %s, want …/?%s", loc, native.Query)
	}
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// fitInPage gives the page dir/file (under app/), asks for its fit and
// holds it to report -fit's for the same file: the fitted query, and
// explained or not alike (report -fit exits 1 for a file no stall model
// explains; its JSON is still the fit). It returns the file's list item
// as a script expression.
func fitInPage(t *testing.T, b *browser, root, dir, file string) string {
	t.Helper()
	nat := reportFit(t, filepath.Join("..", dir, file))
	b.do(t, "choosing "+file, chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{filepath.Join(root, "app", dir, file)}))
	li := `document.querySelector('#measured li[data-file="` + file + `"]')`
	b.waitFor(t, file+" listed", `!!`+li)
	b.exec(t, li+`.querySelector('button.fit-ask').click()`)
	b.waitFor(t, "the fit of "+file, `!!`+li+`.querySelector('section.fit-panel[data-fit=done]') || !!`+li+`.querySelector('[data-fit=error]')`)
	if q := eval[string](t, b, `(`+li+`.querySelector('code[data-query]') || {dataset: {}}).dataset.query || ""`); q != nat.Query {
		t.Errorf("the page's fit of %s is %q, report -fit's %q", file, q, nat.Query)
	}
	if unexplained := eval[bool](t, b, `!!`+li+`.querySelector('[data-fit=unexplained]')`); unexplained == nat.Explained {
		t.Errorf("%s: report -fit says explained %v, the page's panel says unexplained %v", file, nat.Explained, unexplained)
	}
	// The verdict and each difference as the report writes them (the
	// marks of a number within the printout's rounding included).
	data, err := os.ReadFile(filepath.Join(root, "app", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	r, err := fit.Fit(file, data, fit.Options{NoTools: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, b, li+`.querySelector('section.fit-panel p.legend, section.fit-panel p.fit-unexplained').textContent`); got != r.Verdict() {
		t.Errorf("%s: the page's verdict\n%s\nreport -fit's\n%s", file, got, r.Verdict())
	}
	var want []string
	for _, x := range r.Residuals {
		want = append(want, r.DiffWords(x))
	}
	if got := eval[[]string](t, b, `[...`+li+`.querySelectorAll('table.fit-table tbody tr td:last-child')].map((td) => td.textContent)`); !slices.Equal(got, want) {
		t.Errorf("%s: the page's differences %q, report -fit's %q", file, got, want)
	}
	return li
}

// TestBrowserFitFormats: a real fortio printout and a real vegeta JSON
// report the experiment kept, a k6 summary export, a real locust summary
// (app/measure/testdata/real) and an .hlog without tags are fitted in the
// page (fit.wasm in its worker) as report -fit fits them: the same query,
// explained or not alike.
func TestBrowserFitFormats(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range [][2]string{{"testdata", "fit-real-fortio.txt"}, {"testdata", "fit-real-vegeta.json"}, {"measure/testdata", "k6-summary.json"}} {
		fitInPage(t, b, root, f[0], f[1])
	}
	b.elementShot(t, `#measured li[data-file="fit-real-fortio.txt"] section.fit-panel`, "fit-fortio-panel.png")
	// A real locust summary with its log lines (the page keeps three
	// files: it takes the fortio printout's place).
	fitInPage(t, b, root, "measure/testdata/real", "locust-u2-t5s.txt")
	b.elementShot(t, `#measured li[data-file="locust-u2-t5s.txt"] section.fit-panel`, "fit-locust-panel.png")
	// A real hey -q printout, which does not say it ran with -q: the
	// panel's headline gives the reading the fit takes beside the open
	// loop's p99, as report -fit does.
	li := fitInPage(t, b, root, "measure/testdata/real", "hey-c2-q500-z5s.txt")
	if head := eval[string](t, b, li+`.querySelector('p.fit-headline').textContent`); !strings.Contains(head, "if hey ran without -q") {
		t.Errorf("the hey printout's headline does not say the reading it rests on: %q", head)
	}
	b.elementShot(t, `#measured li[data-file="hey-c2-q500-z5s.txt"] section.fit-panel`, "fit-hey-panel.png")
	// A real Artillery report, which states neither its rate nor its
	// duration: the panel gives the one whole arrivalRate that fits.
	li = fitInPage(t, b, root, "measure/testdata/real", "artillery-rate1000-d5.json")
	if txt := eval[string](t, b, li+`.textContent`); !strings.Contains(txt, "arrivalRate") {
		t.Errorf("the Artillery report's panel does not say how it found the rate: %.800s", txt)
	}
	b.elementShot(t, `#measured li[data-file="artillery-rate1000-d5.json"] section.fit-panel`, "fit-artillery-panel.png")
	// An .hlog of one histogram without tags, tried as each recording.
	li = fitInPage(t, b, root, "testdata", "fit-untagged.hlog")
	if txt := eval[string](t, b, li+`.textContent`); !strings.Contains(txt, "others fit too") {
		t.Errorf("the untagged log's panel does not say which other recordings explain it: %.800s", txt)
	}
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserBenchFit times "What did this test hide?" on an .hgrm of the
// bench preset's open loop, from the click to the panel, in its two steps:
// the fit shown (the query, the table and the hidden numbers: the panel's
// data-fit "shown") and everything shown (each tool's p99 too: "done"), for
// the first fit (fit.wasm fetched and compiled) and the next (the worker
// running). It prints BENCH fit.hgrm.browser_ms (the next, everything),
// fit.hgrm.browser_shown_ms (the next, the fit shown),
// fit.hgrm.browser_first_ms and fit.hgrm.browser_first_shown_ms (asked at
// once when the file is listed: the worker the file started is still
// loading fit.wasm), and fit.hgrm.browser_first_after_2s{,_shown}_ms and
// …_after_700ms… (the first fit of a fresh page, asked 2 s or 0.7 s after
// the file was given).
func TestBrowserBenchFit(t *testing.T) {
	requireBench(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "omission-bench-open.hgrm")
	var stdout, stderr bytes.Buffer
	if err := runCLI(&stdout, &stderr, []string{"export", "-format", "hgrm", "-recording", "open", "preset=bench"}); err != nil {
		t.Fatalf("export: %v: %s", err, stderr.String())
	}
	if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	b.do(t, "choosing the .hgrm", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
	b.waitFor(t, "the file listed", `!!document.querySelector('#measured li[data-file="omission-bench-open.hgrm"]')`)
	const timed = `new Promise(resolve => {
		let busy = false, shown = -1;
		const t0 = performance.now();
		const check = () => {
			if (document.querySelector('#measured [data-fit=busy]')) busy = true;
			if (busy && shown < 0 && document.querySelector('#measured [data-fit=shown], #measured [data-fit=done], #measured [data-fit=error]')) shown = performance.now() - t0;
			if (busy && document.querySelector('#measured [data-fit=done], #measured [data-fit=error]')) resolve([shown, performance.now() - t0]);
			else requestAnimationFrame(check);
		};
		document.querySelector('#measured button.fit-ask').click();
		requestAnimationFrame(check);
	})`
	first := eval[[]float64](t, b, timed)
	if msg := eval[string](t, b, `(document.querySelector('#measured [data-fit=error]') || {}).textContent || ""`); msg != "" {
		t.Fatalf("the fit failed: %s", msg)
	}
	var shown, all []float64
	for i := 0; i < 5; i++ {
		ms := eval[[]float64](t, b, timed)
		shown, all = append(shown, ms[0]), append(all, ms[1])
	}
	// A reader who looks at the file a while before asking, on a fresh
	// page: the worker, started by the file given, has loaded fit.wasm
	// meanwhile (after 0.7 s its warm-up may be under way: it gives way).
	askAfter := func(d time.Duration) []float64 {
		b.open(t, s.URL+"/")
		b.waitReady(t, "")
		b.do(t, "choosing the .hgrm on a fresh page", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
		b.waitFor(t, "the file listed on a fresh page", `!!document.querySelector('#measured li[data-file="omission-bench-open.hgrm"]')`)
		time.Sleep(d)
		return eval[[]float64](t, b, timed)
	}
	read := askAfter(2 * time.Second)
	soon := askAfter(700 * time.Millisecond)
	// A reader who opens the file chooser and takes 1 s to pick the file,
	// then asks at once: the worker started with the chooser.
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	b.exec(t, `document.getElementById("import-file").dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}))`)
	time.Sleep(time.Second)
	b.do(t, "choosing the .hgrm a third time", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
	b.waitFor(t, "the file listed a third time", `!!document.querySelector('#measured li[data-file="omission-bench-open.hgrm"]')`)
	picked := eval[[]float64](t, b, timed)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("BENCH fit.hgrm.browser_first_after_chooser_1s_shown_ms %.0f ms\n", picked[0])
	fmt.Printf("BENCH fit.hgrm.browser_first_after_chooser_1s_ms %.0f ms\n", picked[1])
	fmt.Printf("BENCH fit.hgrm.browser_first_after_700ms_shown_ms %.0f ms\n", soon[0])
	fmt.Printf("BENCH fit.hgrm.browser_first_after_700ms_ms %.0f ms\n", soon[1])
	fmt.Printf("BENCH fit.hgrm.browser_first_after_2s_shown_ms %.0f ms\n", read[0])
	fmt.Printf("BENCH fit.hgrm.browser_first_after_2s_ms %.0f ms\n", read[1])
	fmt.Printf("BENCH fit.hgrm.browser_first_shown_ms %.0f ms\n", first[0])
	fmt.Printf("BENCH fit.hgrm.browser_first_ms %.0f ms\n", first[1])
	fmt.Printf("BENCH fit.hgrm.browser_shown_ms %.0f ms\n", median(shown))
	fmt.Printf("BENCH fit.hgrm.browser_ms %.0f ms\n", median(all))
	fmt.Printf("(load average %s)\n", strings.TrimSpace(string(load)))
}

// TestBrowserFitWorkerOnIntent: the fit's worker (and with it fit.wasm)
// starts when the reader reaches for a file — a file dragged over the
// page, a click on the file chooser, the paste box opened — so that it
// compiles while the file is picked, and never on the page's load alone.
func TestBrowserFitWorkerOnIntent(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	for _, c := range []struct{ what, js string }{
		{"a file dragged over the page", `(() => { const dt = new DataTransfer(); dt.items.add(new File(["x"], "wrk.txt", {type: "text/plain"}));
			document.body.dispatchEvent(new DragEvent("dragenter", {bubbles: true, cancelable: true, dataTransfer: dt})); return true; })()`},
		{"the file chooser clicked", `(() => { document.getElementById("import-file").dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})); return true; })()`},
		{"the paste box opened", `(() => { document.querySelector("#measured details.paste").open = true; return true; })()`},
	} {
		b.open(t, s.URL+"/")
		b.waitReady(t, "")
		time.Sleep(500 * time.Millisecond)
		if eval[string](t, b, `document.documentElement.dataset.fitWorker || ""`) != "" {
			t.Fatalf("before %s: the fit worker was started by the page's load", c.what)
		}
		// Text dragged over the page is not a file: no worker.
		if c.what == "a file dragged over the page" {
			eval[bool](t, b, `(() => { const dt = new DataTransfer(); dt.setData("text/plain", "x");
				document.body.dispatchEvent(new DragEvent("dragenter", {bubbles: true, cancelable: true, dataTransfer: dt})); return true; })()`)
			time.Sleep(300 * time.Millisecond)
			if eval[string](t, b, `document.documentElement.dataset.fitWorker || ""`) != "" {
				t.Errorf("text dragged over the page started the fit worker")
			}
		}
		eval[bool](t, b, c.js)
		b.waitFor(t, "the fit worker started by "+c.what, `document.documentElement.dataset.fitWorker === "started"`)
		// With no request, it warms up with a fit of its own, to the end.
		b.waitFor(t, "the worker's warm-up after "+c.what, `!!document.documentElement.dataset.fitWarm && document.documentElement.dataset.fitWarm !== "running"`)
		if got := eval[string](t, b, `document.documentElement.dataset.fitWarm`); got != "done" {
			t.Errorf("after %s, with no file given, the worker's warm-up ended %q, want done", c.what, got)
		}
	}
}

// TestBrowserFitWarmGivesWay: a file asked while the worker warms up is
// answered with report -fit's query, the warm-up giving way to it within
// its own fit (data-fit-warm "gave way in its fit": a warm-up that only
// looked for requests between its fit and its tools fails it); a file
// asked as the worker starts is answered, the warm-up skipped or giving
// way.
func TestBrowserFitWarmGivesWay(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "app", "testdata", "fit-real-fortio.txt")
	ask := func() {
		b.exec(t, `document.querySelector('#measured li[data-file="fit-real-fortio.txt"] button.fit-ask').click()`)
		b.waitFor(t, "the fit", `!!document.querySelector('#measured section.fit-panel[data-fit=done]') || !!document.querySelector('#measured [data-fit=error]')`)
	}
	nat := reportFit(t, filepath.Join("..", "testdata", "fit-real-fortio.txt"))
	// A fit asked as the file given starts the worker: the request waits
	// for the module, which answers it first, the warm-up skipped, or (the
	// module compiled before the click came) the warm-up gives way to it.
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	b.do(t, "choosing the fortio printout", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{file}))
	b.waitFor(t, "the file listed", `!!document.querySelector('#measured li[data-file="fit-real-fortio.txt"]')`)
	ask()
	if got := eval[string](t, b, `document.documentElement.dataset.fitWarm || ""`); got != "skipped" && !strings.HasPrefix(got, "gave way") {
		t.Errorf("a fit asked as the worker started: its warm-up ended %q, want skipped (or gave way)", got)
	} else {
		t.Logf("a fit asked as the worker started: its warm-up %s", got)
	}
	if q := eval[string](t, b, `(document.querySelector('#measured code[data-query]') || {dataset: {}}).dataset.query || ""`); q != nat.Query {
		t.Errorf("the fit asked as the worker started is %q, report -fit's %q", q, nat.Query)
	}
	// The file given starts the worker; once its warm-up is under way the
	// fit is asked. A fresh worker's warm-up lasts some hundreds of ms; a
	// try whose warm-up ended before the click came is tried again, three
	// times at most.
	var ends []string
	for try := 0; try < 3 && (len(ends) == 0 || ends[len(ends)-1] != "gave way in its fit"); try++ {
		b.open(t, s.URL+"/")
		b.waitReady(t, "")
		b.do(t, "choosing the fortio printout", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{file}))
		b.waitFor(t, "the file listed", `!!document.querySelector('#measured li[data-file="fit-real-fortio.txt"]')`)
		b.waitFor(t, "the worker's warm-up under way", `["running", "done"].includes(document.documentElement.dataset.fitWarm)`)
		if eval[string](t, b, `document.documentElement.dataset.fitWarm`) == "done" {
			ends = append(ends, "done before the page saw it run")
			continue
		}
		ask()
		ends = append(ends, eval[string](t, b, `document.documentElement.dataset.fitWarm`))
		if q := eval[string](t, b, `(document.querySelector('#measured code[data-query]') || {dataset: {}}).dataset.query || ""`); q != nat.Query {
			t.Errorf("the fit asked during the warm-up (which ended %q) is %q, report -fit's %q", ends[len(ends)-1], q, nat.Query)
		}
	}
	if ends[len(ends)-1] != "gave way in its fit" {
		t.Errorf("the warm-up never gave way to a fit asked while its own fit ran: it ended %q", ends)
	}
}

// reportFit runs report -json -fit with args, as a reader would, and
// decodes the fit it prints (a file the model does not explain exits 1
// and prints its fit all the same).
func reportFit(t *testing.T, args ...string) *fit.Result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	_ = runCLI(&stdout, &stderr, append([]string{"report", "-json", "-fit"}, args...))
	var out struct {
		Fit *fit.Result `json:"fit"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Fit == nil || out.Fit.Query == "" {
		t.Fatalf("report -json -fit %v: %v: %s", args, err, stderr.String())
	}
	return out.Fit
}
