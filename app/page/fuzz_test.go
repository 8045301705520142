//go:build !wasm

package page

import (
	"errors"
	"os"
	"strings"
	"testing"

	"omission/app/anim"
	"omission/app/charts"
	"omission/sim"
	"omission/sim/window"
)

// fuzzWork is the most work (sim.Cost.Work, native ns) one fuzzed query may
// ask for; larger ones are only read, not run, so the fuzzer explores
// queries rather than waiting on long runs.
const fuzzWork = 2e7

// FuzzQueryToCharts takes a query a stranger could send through what the
// page does with it: the page's rule (readQuery), the simulator and every
// chart and the animation model. Nothing may panic; the URL the page writes
// must mean the same run; a run the page does not refuse must run and draw.
// Seeds: the browser fuzz corpus (app/testdata/fuzz-queries.txt).
func FuzzQueryToCharts(f *testing.F) {
	if raceEnabled {
		f.Skip("the simulator and the charts compute in one goroutine: make test-native runs this without -race, which slows it tenfold")
	}
	// The browser fuzz test's corpus (app/browser/fuzz_test.go).
	if b, err := os.ReadFile("../testdata/fuzz-queries.txt"); err == nil {
		for _, q := range strings.Split(string(b), "\n") {
			f.Add(q)
		}
	}
	f.Fuzz(func(t *testing.T, q string) {
		st := readQuery(q)
		again := readQuery(st.query)
		if again.cfg != st.cfg || len(again.dropped) > 0 || again.query != st.query {
			t.Fatalf("%q: the URL %q the page writes reads otherwise (%q)", q, st.query, again.query)
		}
		for _, fe := range st.errs() {
			if n := len(fe.Error()); n > 1500 {
				t.Fatalf("%.80q: a message of %d bytes: %.200s", q, n, fe.Error())
			}
		}
		if len(st.refused) > 0 || st.cfg.Estimate().Work > fuzzWork {
			return
		}
		res, err := sim.Run(st.cfg)
		if err != nil {
			if _, ok := err.(*sim.LimitError); !ok {
				t.Fatalf("%q: %v", q, err)
			}
			return // a limit the run reached (the engine's drain, events)
		}
		for _, k := range charts.Kinds() {
			if _, err := charts.Render(res, k, charts.Options{Width: 320}); err != nil {
				t.Fatalf("%q: %s: %v", q, k, err)
			}
		}
		if window.Animatable(res) == nil {
			m, err := window.Summarise(res, window.AnimWindows(res)-1)
			var refusal *window.Refusal
			if errors.As(err, &refusal) {
				return // an event-driven run's window whose requests are not answered in order
			}
			if err != nil {
				t.Fatalf("%q: animation: %v", q, err)
			}
			anim.DrawFrame(m, (m.From+m.To)/2, 320)
		}
	})
}
