package view

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"omission/app/units"
	"omission/sim"
)

// failingQuery draws a query over the simulator's field table: each choice
// field from its own choices, and a value for each field that makes calls
// fail (timeouts, outages, retries, a queue) or shapes the run, each drawn
// about half the time; the run is kept short.
func failingQuery(r *rand.Rand) string {
	dur := func(lo, hi int64) string { return sim.FormatDuration(lo + r.Int64N(hi-lo+1)) }
	const ms = int64(1e6)
	draw := map[string]func() string{
		"rate":     func() string { return fmt.Sprint(100 + r.IntN(3000)) },
		"service":  func() string { return dur(10_000, 3*ms) },
		"stall":    func() string { return dur(0, 200*ms) },
		"every":    func() string { return dur(300*ms, 1000*ms) },
		"conns":    func() string { return fmt.Sprint(1 + r.IntN(8)) },
		"workers":  func() string { return fmt.Sprint(1 + r.IntN(4)) },
		"queue":    func() string { return fmt.Sprint(r.IntN(50)) },
		"timeout":  func() string { return dur(10_000, 50*ms) },
		"outages":  func() string { a := r.Int64N(1500) * ms; return dur(a, a) + "-" + dur(a+ms, a+600*ms) },
		"attempts": func() string { return fmt.Sprint(1 + r.IntN(5)) },
		"backoff":  func() string { return dur(0, 100*ms) },
		"think":    func() string { return dur(0, 20*ms) },
		"seed":     func() string { return fmt.Sprint(r.Uint64()) },
	}
	parts := []string{"duration=" + dur(500*ms, 2000*ms)}
	for _, f := range sim.FieldTable() {
		if r.IntN(2) == 0 {
			continue
		}
		switch d, ok := draw[f.Name]; {
		case ok:
			parts = append(parts, f.Name+"="+d())
		case f.Kind == sim.KindChoice && f.Name != "arrivals" && f.Name != "dist" && f.Name != "preset":
			parts = append(parts, f.Name+"="+f.Choices[r.IntN(len(f.Choices))])
		}
	}
	// Always something that fails calls.
	if r.IntN(2) == 0 {
		parts = append(parts, "timeout="+draw["timeout"]())
	} else {
		parts = append(parts, "outages="+draw["outages"]())
	}
	return strings.Join(parts, "&")
}

// TestFailuresInTheHeadline: in random runs with timeouts, outages,
// retries and queues, no card, story or table cell shows a latency of a
// recording's answered calls without their failed share beside it, no
// latency is shown for a recording with no answered call, and the ratio of
// the two p99s compares like with like or says why there is none. The
// failed calls are counted here from the engine's replies, not by the code
// under test.
func TestFailuresInTheHeadline(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 5))
	runs, failing, none := 0, 0, 0
	for i := 0; i < 3000 && runs < 200; i++ {
		q := failingQuery(r)
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			continue // the draw broke a rule between fields
		}
		res, err := sim.Run(cfg)
		if err != nil {
			continue // past a limit
		}
		runs++
		v := Build(1, res, 0)
		said := v.Headline.Said()
		failedOf := func(k sim.Kind) (failed, sent int64) {
			e := &res.Engine.Clients[k.Client()]
			return e.Sent - e.Replies, e.Sent
		}
		any := false
		for _, c := range said.Cards[:2] {
			k := sim.Closed
			if c.Key == "open" {
				k = sim.Open
			}
			failed, sent := failedOf(k)
			answered := res.Recordings[k].Count
			want := ""
			switch {
			case failed == 0:
				if strings.Contains(c.Sub, "failed") || strings.Contains(c.Sub, "answered") {
					t.Errorf("%s: %s: nothing failed, yet %q", q, c.Key, c.Sub)
				}
			case answered == 0:
				none++
				want = "none of its " + units.Plural(sent, "call") + " was answered"
				if c.Value != NoLatency {
					t.Errorf("%s: %s: no call answered, shown %q · %q", q, c.Key, c.Value, c.Sub)
				}
			default:
				want = units.Count(failed) + " of " + units.Plural(sent, "call") + " failed (" + units.Share(float64(failed)/float64(sent))
				if !strings.Contains(c.Sub, "of the "+units.Count(answered)+" answered") {
					t.Errorf("%s: %s p99 %s of %d answered calls, beside it %q", q, c.Key, c.Value, answered, c.Sub)
				}
			}
			if failed > 0 {
				any = true
				if !strings.Contains(c.Sub, want) {
					t.Errorf("%s: %s p99 %s, beside it %q, want %q", q, c.Key, c.Value, c.Sub, want)
				}
				if !strings.Contains(said.Story, "The "+c.Key+" loop: "+want) {
					t.Errorf("%s: the story does not say %q of the %s loop: %s", q, want, c.Key, said.Story)
				}
			}
		}
		if any {
			failing++
			ratio := said.Cards[2]
			if ratio.Value != NoLatency && !strings.Contains(ratio.Sub, "p99 of every call sent, a failed call counted as never answered") ||
				ratio.Value == NoLatency && !strings.HasPrefix(ratio.Sub, "no ratio: ") {
				t.Errorf("%s: calls failed, the ratio %q · %q", q, ratio.Value, ratio.Sub)
			}
			if strings.Contains(ratio.Sub, "same stalls") {
				t.Errorf("%s: %q", q, ratio.Sub)
			}
		}
		// Every latency cell of the table: none where nothing was
		// answered; otherwise, when calls failed, its hover says so.
		for _, row := range v.Rows {
			for i, c := range row.Cells {
				k := kindOf(v.Columns[i].Recording) // the table's column order
				if c.Attr != "ns" {
					continue
				}
				failed, sent := failedOf(k)
				switch {
				case res.Recordings[k].Count == 0:
					if c.Text != NoLatency || strings.Contains(c.Title, " ns") {
						t.Errorf("%s: %s shows %q (%q) with no answered call", q, c.ID, c.Text, c.Title)
					}
				case failed > 0 && !strings.Contains(c.Title, units.Count(failed)+" of "+units.Plural(sent, "call")+" failed"):
					t.Errorf("%s: %s's hover %q leaves out the %d failed calls", q, c.ID, c.Title, failed)
				}
			}
			if any && row.Ratio.Metric != "" && (row.Ratio.Exact != "" || row.Ratio.Why == "") {
				t.Errorf("%s: calls failed, yet the %s row's ratio is %q (%q)", q, row.Metric, row.Ratio.Text, row.Ratio.Why)
			}
		}
	}
	t.Logf("%d runs, %d with failed calls, %d p99s with no answered call", runs, failing, none)
	if runs < 200 || failing < runs/2 || none == 0 {
		t.Fatalf("the draw reached too little: %d runs, %d failing, %d with no answer", runs, failing, none)
	}
}
