//go:build !wasm

package tools

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"fortio.org/fortio/stats"
	"fortio.org/log"
)

// fortio's own stats package (fortio.org/fortio v1.72.0 from the module
// proxy: its stats/stats.go differs from the 45e1871 the profile follows
// only in comments, and it needs no newer golang.org/x module than this
// project uses) is a test dependency only: app.wasm does not link it.

// TestFortioStatsAgree: our histogram prints what stats.Histogram prints
// (counter line, buckets, "# target" percentiles) for the same values in
// the same order, including values on bucket boundaries, across the
// coarse buckets, past the last (100 s), negative (the sleep histogram's
// offset −1 ms), and merged from several per-thread histograms in order.
func TestFortioStatsAgree(t *testing.T) {
	log.SetLogLevel(log.Error) // fortio logs a negative sigma as a warning
	rng := rand.New(rand.NewPCG(3, 4))
	ps := []float64{50, 75, 90, 99, 99.9}
	gen := []func() float64{
		func() float64 { return float64(1+rng.IntN(20)) / 1000 },                   // on the 1 ms boundaries
		func() float64 { return float64(rng.IntN(3_000_000_000)) / 1e9 },           // up to 3 s
		func() float64 { return 0.0001 },                                           // all equal
		func() float64 { return float64(rng.IntN(200_000_000_000)) / 1e9 },         // past the last bucket
		func() float64 { return float64(rng.IntN(400_000_000)-200_000_000) / 1e9 }, // sleeps
	}
	for n := 0; n < 300; n++ {
		g := gen[n%len(gen)]
		offset := 0.0
		if n%len(gen) == 4 {
			offset = -0.001
		}
		threads := 1 + rng.IntN(4)
		want := stats.NewHistogram(offset, 0.001)
		got := newFortioHist(offset, 0.001)
		for range threads {
			th, mine := stats.NewHistogram(offset, 0.001), newFortioHist(offset, 0.001)
			for range rng.IntN(400) {
				v := g()
				th.Record(v)
				mine.record(v)
			}
			want.Transfer(th)
			got.transfer(mine)
		}
		var wb, gb bytes.Buffer
		want.Export().CalcPercentiles(ps).Print(&wb, "Aggregated Function Time")
		got.print(&gb, "Aggregated Function Time", ps)
		want.Counter.Print(&wb, "Sleep times")
		got.printCounter(&gb, "Sleep times")
		if wb.String() != gb.String() {
			t.Fatalf("case %d (%d threads): fortio prints\n%s\nwe print\n%s", n, threads, wb.String(), gb.String())
		}
		if want.Count > 0 && float64(want.Hdata[0]) != float64(got.hdata[0]) {
			t.Fatalf("case %d: first bucket %d, ours %d", n, want.Hdata[0], got.hdata[0])
		}
	}
}

// TestFortioRunAgrees rebuilds, with fortio's stats package, the function
// and sleep histograms of whole runs from the profile run's calls
// (per connection in send order, merged in connection order) and finds
// the blocks fortio would print in our text.
func TestFortioRunAgrees(t *testing.T) {
	log.SetLogLevel(log.Error)
	for _, run := range []struct{ tool, q string }{
		{"fortio", ""}, {"fortio", "preset=clients10&duration=12s"},
		{"fortio", "rate=900&conns=3&service=2ms&stall=3500ms&first=1s&every=0&workers=1&duration=8s"},
		{"fortio-nocatchup", ""}, {"fortio-nocatchup", "rate=900&conns=3&service=2ms&stall=3500ms&first=1s&every=0&workers=1&duration=8s"},
	} {
		q := run.q
		cfg := mustConfig(t, q)
		o, err := Run(cfg, run.tool)
		if err != nil {
			t.Fatal(err)
		}
		pr := o.Run
		threads := pr.Profile.Conns
		n := pr.Planned / int64(threads)
		perq := float64(cfg.Rate) / 1000 / float64(threads)
		fn, sl := stats.NewHistogram(0, 0.001), stats.NewHistogram(-0.001, 0.001)
		for c := range threads {
			var cs []fortioCall
			for i := range pr.Done {
				if int(pr.Conn[i]) == c {
					cs = append(cs, fortioCall{pr.Intended[i], pr.Send[i], pr.Done[i], true})
				}
			}
			for _, f := range pr.Fails {
				if int(f.Conn) == c {
					cs = append(cs, fortioCall{f.Intended, f.Send, f.At, false})
				}
			}
			sortCalls(cs)
			th, ts := stats.NewHistogram(0, 0.001), stats.NewHistogram(-0.001, 0.001)
			i := int64(0) // fortio's call index
			for k, call := range cs {
				if !pr.Profile.NoCatchUp && call.intended != fortioTarget(i, n, perq) {
					t.Fatalf("%s: connection %d call %d intended %d, fortio's target %d", q, c, k, call.intended, fortioTarget(i, n, perq))
				}
				for pr.Profile.NoCatchUp && call.intended != fortioTarget(i, n, perq) {
					if i++; i >= n {
						t.Fatalf("%s: connection %d call %d intended %d is no target of fortio's", q, c, k, call.intended)
					}
				}
				th.Record(secs(call.end - call.send))
				if k+1 < len(cs) {
					ts.Record(secs(cs[k+1].intended - call.end))
				} else if i+1 < n && !pr.Profile.NoCatchUp {
					ts.Record(secs(fortioTarget(i+1, n, perq) - call.end))
				}
				i++
			}
			fn.Transfer(th)
			sl.Transfer(ts)
		}
		var b bytes.Buffer
		fn.Export().CalcPercentiles(fortioPercentiles).Print(&b, "Aggregated Function Time")
		if !strings.Contains(o.Text, b.String()) {
			t.Errorf("%q: fortio's stats print\n%s\nnot found in\n%s", q, b.String(), o.Text)
		}
		b.Reset()
		if 100*float64(sl.Hdata[0])/float64(sl.Count) > 5 {
			sl.Print(&b, "Aggregated Sleep Time", []float64{50})
		} else {
			sl.Counter.Print(&b, "Sleep times")
		}
		if !strings.Contains(o.Text, b.String()) {
			t.Errorf("%q: fortio's stats print\n%s\nnot found in\n%s", q, b.String(), o.Text)
		}
		t.Logf("%s %q: %d calls, %d dropped, %d failed; p50 %d p99 %d p99.9 %d ns", run.tool, q, fn.Count, pr.Dropped, pr.Failed, o.P50Ns, o.P99Ns, o.P999Ns)
	}
}
