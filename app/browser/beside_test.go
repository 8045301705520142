//go:build !wasm

package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"omission/app/measure"
	"omission/app/tools"
	"omission/sim"
)

// TestBrowserBeside: the tools' outputs, a comparison and a measured file
// beside the run, each with the numbers the native code gives.
func TestBrowserBeside(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)

	// Tools: their printed text and their numbers in the table.
	b.open(t, s.URL+"/?tools=wrk,k6-arrival")
	b.waitReady(t, "")
	b.waitFor(t, "the tools' cards", `document.querySelectorAll("#tools .tool-card").length === 2 && !!document.querySelector('td[data-metric="tools.wrk.p99"]')`)
	for _, name := range []string{"wrk", "k6-arrival"} {
		o, err := tools.Run(sim.Default(), name)
		if err != nil {
			t.Fatal(err)
		}
		got := eval[map[string]string](t, b, `(() => { const c = document.querySelector('#tools .tool-card[data-tool="`+name+`"]'), td = document.querySelector('td[data-metric="tools.`+name+`.p99"]');
			return {text: c.querySelector("pre").textContent, p99: td ? td.dataset.ns : "", sent: (document.querySelector('td[data-metric="tools.`+name+`.sent"]') || {dataset: {}}).dataset.value}; })()`)
		if got["text"] != o.Text {
			t.Errorf("%s prints %q, the native tool %q", name, got["text"], o.Text)
		}
		if got["p99"] != strconv.FormatInt(o.P99Ns, 10) || got["sent"] != strconv.FormatInt(o.Sent, 10) {
			t.Errorf("%s: the table says p99 %s sent %s, the tool %d %d", name, got["p99"], got["sent"], o.P99Ns, o.Sent)
		}
	}
	b.waitCharts(t)
	if c := eval[string](t, b, `document.querySelector('[data-chart="spectrum"] figcaption').textContent`); !strings.Contains(c, "wrk") {
		t.Errorf("the spectrum does not draw the tools: %q", c)
	}

	// A comparison: the current state kept, then the stall changed.
	b.do(t, "comparing", chromedp.Click(chromedp.CSS("#compare-with")))
	b.waitFor(t, "vs in the URL", `location.search.includes("vs=")`)
	b.setField(t, "stall", "300ms")
	b.waitFor(t, "the comparison's columns", `!!document.querySelector('td[data-metric="vs.open.p99"]') && document.getElementById("omission").dataset.query === "stall=300ms"`)
	vs := nativeCells(t, "")
	got := eval[string](t, b, `document.querySelector('td[data-metric="vs.open.p99"]').dataset.ns`)
	if got != vs["open.p99"] {
		t.Errorf("vs.open.p99 = %s, the native bench run's %s", got, vs["open.p99"])
	}
	mine := nativeCells(t, "stall=300ms")
	d, _ := strconv.ParseFloat(eval[string](t, b, `document.querySelector('td[data-metric="delta.open.p99"]').dataset.ns`), 64)
	a, _ := strconv.ParseFloat(vs["open.p99"], 64)
	m, _ := strconv.ParseFloat(mine["open.p99"], 64)
	if d != a-m {
		t.Errorf("delta.open.p99 = %v, want %v", d, a-m)
	}

	// A measured file, given to the file input.
	root, _ := moduleRoot()
	path := filepath.Join(root, "app", "measure", "testdata", "wrk2.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := measure.Parse("wrk2.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	want := f.Summary(0)
	b.chooseFile(t, path)
	b.waitFor(t, "the measured column", `!!document.querySelector('td[data-metric="measured.p99"]') && document.querySelectorAll(".file-checks li").length > 0`)
	if got := eval[string](t, b, `document.querySelector('td[data-metric="measured.p99"]').dataset.ns`); want.P99Ns == nil || got != strconv.FormatInt(*want.P99Ns, 10) {
		t.Errorf("measured.p99 = %s, the file's %v", got, want.P99Ns)
	}
	b.screenshot(t, "page-beside.png", true)

	// With a spread of service times (the profiles draw it as the engine
	// does): the page's printouts are the native ones, digit for digit.
	const spread = "dist=lognormal&service=100us&service_p95=400us&rate=1000&stall=50ms&every=1s&first=200ms&duration=3s"
	cfg, err := sim.ParseQuery(spread)
	if err != nil {
		t.Fatal(err)
	}
	b.open(t, s.URL+"/?"+spread+"&tools=wrk,locust")
	b.waitReady(t, cfg.Query())
	b.waitFor(t, "the tools' cards with a spread of service", `document.querySelectorAll("#tools .tool-card pre").length === 2`)
	for _, name := range []string{"wrk", "locust"} {
		o, err := tools.Run(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		got := eval[string](t, b, `document.querySelector('#tools .tool-card[data-tool="`+name+`"] pre').textContent`)
		if got != o.Text {
			t.Errorf("%s with a lognormal service prints %q, the native tool %q", name, got, o.Text)
		}
	}
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
