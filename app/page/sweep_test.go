//go:build !wasm

package page

import (
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/ui"
	"omission/app/units"
	"omission/sim"
	"omission/sim/sweep"
)

// spotsOf returns the landscape's point links of encoded HTML.
func spotsOf(h string) []map[string]string {
	var out []map[string]string
	for _, a := range tags(h, "a") {
		if strings.Contains(a["class"], "spot") {
			out = append(out, a)
		}
	}
	return out
}

func sectionOf(h, id string) map[string]string {
	for _, a := range tags(h, "section") {
		if a["id"] == id {
			return a
		}
	}
	return nil
}

// TestPageSweep: sweep= in the URL draws the landscape under the charts
// with a link per point to its own run (its canonical query, the base
// with the field set) whose label says the point's numbers; the refused
// point says why. The button writes a spec for the query into the URL, a
// metric goes in the URL too, and closing removes both keys.
func TestPageSweep(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "duration=2s&sweep=stall:0s..1s/9")
	h := app.HTMLString(p)
	sec := sectionOf(h, "sweep")
	if sec == nil || sec["data-points"] != "9" || sec["data-done"] != "1" {
		t.Fatalf("sweep section %v", sec)
	}
	spots := spotsOf(h)
	if len(spots) != 9 {
		t.Fatalf("%d point links, want 9", len(spots))
	}
	base := sim.Default()
	base.Duration = 2e9
	sw, _ := sweep.Parse("stall:0s..1s/9")
	for i, pt := range sw.Points(base, nil) {
		a := spots[i]
		if a["data-query"] != pt.Query || a["href"] != ui.VisualiserLink(pt.Query) || a["data-left"] == "" || a["data-top"] == "" {
			t.Errorf("point %d: %v, want its query %q", i, a, pt.Query)
		}
		label := a["aria-label"]
		if !strings.HasPrefix(label, "stall ") || !strings.HasSuffix(label, "Opens this run.") {
			t.Errorf("point %d label %q", i, label)
		}
		if pt.Refused == "" {
			res, err := sim.Run(pt.Config)
			if err != nil {
				t.Fatal(err)
			}
			want := "open " + durationWords(res.Recordings[sim.Open].P[2])
			if !strings.Contains(label, want) {
				t.Errorf("point %d label %q lacks %q", i, label, want)
			}
		} else if !strings.Contains(label, "refused, stall: ") || !strings.Contains(label, "must be shorter than every") {
			t.Errorf("refused point's label %q", label)
		}
	}
	// The address given is already the canonical one (':' and '/' are not
	// escaped): the page keeps it and writes no new URL.
	if u, _ := url.Parse(p.link); u.Query().Get("sweep") != "stall:0s..1s/9" || !strings.Contains(p.link, "sweep=stall:0s..1s/9") || hist.current() != "" {
		t.Errorf("link %q, URL written %q", p.link, hist.current())
	}
	// The metric goes in the URL and redraws the landscape of the same points.
	act(e, p, func(ctx app.Context) { ctx.NewActionWithValue(actionSweepMetric, "max") })
	h = app.HTMLString(p)
	if !strings.Contains(hist.current(), "metric=max") || !strings.Contains(h, "The max latency of each recording against stall") {
		t.Errorf("metric: URL %q", hist.current())
	}
	// Closed: the keys leave the URL, and the button is back with a spec
	// for the query: nine tenths of its every.
	act(e, p, func(ctx app.Context) { ctx.NewActionWithValue(actionSweep, "") })
	act(e, p, func(ctx app.Context) { ctx.NewActionWithValue(actionSweepMetric, "p99") })
	h = app.HTMLString(p)
	if strings.Contains(hist.current(), "sweep=") || strings.Contains(hist.current(), "metric=") || len(spotsOf(h)) != 0 || !strings.Contains(h, `id="sweep-on"`) {
		t.Errorf("closed: URL %q", hist.current())
	}
	act(e, p, func(ctx app.Context) { ctx.NewActionWithValue(actionSweep, defaultSweep(p.cfg)) })
	h = app.HTMLString(p)
	if u, _ := url.Parse(hist.current()); u.Query().Get("sweep") != "stall:0s..900ms/50" || len(spotsOf(h)) != 50 {
		t.Errorf("drawn from the button: URL %q, %d points", hist.current(), len(spotsOf(h)))
	}
	// Another field: a range around the query's value of it.
	act(e, p, func(ctx app.Context) { ctx.NewActionWithValue(actionSweepField, "conns") })
	if u, _ := url.Parse(hist.current()); u.Query().Get("sweep") != "conns:1..16/x2" || len(spotsOf(app.HTMLString(p))) != 5 {
		t.Errorf("conns: URL %q", hist.current())
	}
}

// durationWords is a latency as the landscape's table writes it.
func durationWords(ns int64) string { return units.Duration(ns) }

// TestPageSweepBad: a bad spec says so naming sweep and the form allowed,
// a bad metric names metric and draws p99, and the rest of the page runs.
func TestPageSweepBad(t *testing.T) {
	e, p, _ := mountPage(t)
	visit(e, p, "duration=2s&sweep=rank:round..ceil/2")
	h := app.HTMLString(p)
	if p.phase() != "ready" || cellValues(h)["open.p99"] == "" {
		t.Fatalf("the page stopped over a bad sweep: %s", p.phase())
	}
	var msg map[string]string
	for _, a := range tags(h, "p") {
		if a["id"] == "sweep-error" {
			msg = a
		}
	}
	if msg == nil || msg["data-error"] != "sweep" || !strings.Contains(h, "sweep: &#34;rank:round..ceil/2&#34; is not allowed: rank is a choice") ||
		!strings.Contains(h, "allowed &lt;field&gt;:&lt;from&gt;..&lt;to&gt;/&lt;n&gt;") || len(spotsOf(h)) != 0 {
		t.Errorf("bad spec: %v", msg)
	}
	visit(e, p, "duration=2s&sweep=stall:0s..500ms/3&metric=p42")
	h = app.HTMLString(p)
	if !strings.Contains(h, "metric: &#34;p42&#34; is not allowed: allowed p50, p90") || len(spotsOf(h)) != 3 || !strings.Contains(h, "The p99 latency of each recording") {
		t.Errorf("bad metric: %d points", len(spotsOf(h)))
	}
}

// TestPageSweepBudget: a point over the page's budget is refused alone,
// with the budget's reason, and the landscape says where.
func TestPageSweepBudget(t *testing.T) {
	e, p, _ := mountPage(t)
	visit(e, p, "arrivals=poisson&duration=10s&sweep=rate:100..1000000/x100")
	h := app.HTMLString(p)
	spots := spotsOf(h)
	if len(spots) != 3 {
		t.Fatalf("%d points", len(spots))
	}
	if !strings.Contains(spots[2]["aria-label"], "refused, duration: ") || !strings.Contains(spots[2]["aria-label"], "limit of the page") ||
		strings.Contains(spots[1]["aria-label"], "refused") {
		t.Errorf("labels %q / %q", spots[1]["aria-label"], spots[2]["aria-label"])
	}
	if !strings.Contains(h, "1 point refused, drawn as crosses (at 1000000/s)") {
		t.Error("the caption does not say where the refused point is")
	}
}
