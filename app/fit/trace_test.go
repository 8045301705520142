package fit

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"omission/sim"
)

// TestTraceForwardSame: a candidate's recording file written from the run's
// TraceResult (traceForward, what the fit runs) holds the same numbers,
// field for field, as the one written from its whole sim.Result through
// measure.FromResultOf (runForward), for every recording format, on the
// bench preset and random queries of the round trip's kind, each also moved
// the way the search moves it (service, stall and first off the grid).
func TestTraceForwardSame(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	cfgs := []sim.Config{sim.Default()}
	n := 6
	if testing.Short() || raceOn {
		n = 3
	}
	for i := 0; i < n; i++ {
		cfgs = append(cfgs, truthQuery(r))
	}
	formats := []string{"csv", "hlog", "hgrm-open", "hgrm-closed", "hgrm-paced", "hgrm-corrected", "hgrm-paced_corrected"}
	compared := 0
	for ci, cfg := range cfgs {
		for _, format := range formats {
			name, data := fileFor(t, cfg, format)
			in, srcs := readSources(t, name, data)
			moved := cfg
			moved.Service += moved.Service/97 + 1
			moved.Stall -= moved.Stall/31 + 7
			moved.First += 12345
			for _, c := range []sim.Config{cfg, moved} {
				if !traced(c) {
					t.Fatalf("%s: not a walked run", c.Query())
				}
				if ci > 0 && c == cfg {
					c.Duration += 777 // a last request off the grid
				}
				for _, src := range srcs {
					got, gerr := traceForward(c, in, src)
					want, werr := runForward(c, in, src)
					if (gerr == nil) != (werr == nil) {
						t.Fatalf("%s %s %s: errors differ: %v and %v", format, c.Query(), src, gerr, werr)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %s %s: the traced file differs from the run's", format, c.Query(), src)
					}
					if len(got) == 0 || got[0].count <= 0 {
						t.Fatalf("%s %s %s: no samples compared", format, c.Query(), src)
					}
					compared++
				}
			}
		}
	}
	t.Logf("%d files compared", compared)
}

// TestToolsLater: a fit without the tools' list, then Tools, is the fit
// with it, field for field (what the page shows in two steps is the one
// fit), for a recording and for each tool's printout (whose own tool sets
// the headline's numbers); and before Tools the fit holds the file's own
// tool alone.
func TestToolsLater(t *testing.T) {
	cfg, err := sim.ParseQuery("preset=tcp&duration=4s&first=1500ms&every=2s")
	if err != nil {
		t.Fatal(err)
	}
	formats := []string{"hgrm-open", "csv", "wrk", "wrk2", "fortio"}
	if raceOn {
		// Ten times slower under -race: one file without a tool and one
		// with its own there, all five without it.
		formats = []string{"csv", "wrk"}
	}
	for _, format := range formats {
		name, data := fileFor(t, cfg, format)
		full, err := Fit(name, data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		first, err := Fit(name, data, Options{NoTools: true})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if format == "wrk" || format == "wrk2" || format == "fortio" {
			want = 1
		}
		if len(first.Hidden.Tools) != want || (want == 1 && first.Hidden.Tools[0].Tool != format) {
			t.Errorf("%s: before Tools the fit holds %d tools' lines, want %d (its own)", format, len(first.Hidden.Tools), want)
		}
		if first.Hidden.FittedP99Ns != full.Hidden.FittedP99Ns || first.Hidden.NeverSent != full.Hidden.NeverSent || first.Query != full.Query {
			t.Errorf("%s: the first step's headline (%d ns, %d never sent, %s) is not the whole fit's (%d ns, %d, %s)", format,
				first.Hidden.FittedP99Ns, first.Hidden.NeverSent, first.Query, full.Hidden.FittedP99Ns, full.Hidden.NeverSent, full.Query)
		}
		if err := first.Tools(); err != nil {
			t.Fatal(err)
		}
		if len(full.Hidden.Tools) < 10 {
			t.Fatalf("%s: the whole fit lists %d tools", format, len(full.Hidden.Tools))
		}
		if !reflect.DeepEqual(first, full) {
			t.Errorf("%s: the fit then Tools differs from the whole fit:\n%+v\n%+v", format, first.Hidden, full.Hidden)
		}
	}
}
