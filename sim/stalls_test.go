package sim_test

import (
	"math/rand/v2"
	"testing"

	. "omission/sim"
	"omission/sim/internal/simtest"
)

// TestStallHelpers: the allocation-free stall helpers agree with Stalls().
func TestStallHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 99))
	for n := 0; n < 200; n++ {
		cfg := simtest.RandomAny(r)
		if NewSchedule(cfg.Rate).Count(cfg.Duration) > 5000 {
			continue
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		all := res.Stalls()
		if res.StallCount() != len(all) {
			t.Fatalf("%s: StallCount %d, Stalls %d", cfg.Query(), res.StallCount(), len(all))
		}
		for k, s := range all {
			if a, b := res.StallSpan(int64(k)); a != s || b != s+cfg.Stall {
				t.Fatalf("%s: stall %d spans [%d, %d), want start %d", cfg.Query(), k, a, b, s)
			}
		}
		from := r.Int64N(cfg.Duration+1) - cfg.Duration/4
		to := from + r.Int64N(cfg.Duration+1)
		first, last := res.StallsIn(from, to)
		// Every stall overlapping the window is in [first, last), and no other.
		for k := max(0, first-3); k < last+3; k++ {
			a, b := res.StallSpan(k)
			if cfg.Every == 0 && k > 0 {
				break
			}
			overlaps := cfg.Stall > 0 && a < to && b > from
			if in := k >= first && k < last; in != overlaps {
				t.Fatalf("%s: window [%d, %d): stall %d [%d, %d) overlaps %v, in [%d, %d) %v", cfg.Query(), from, to, k, a, b, overlaps, first, last, in)
			}
		}
	}
}

// TestStallBands: bands cover exactly the stalls a chart can tell apart, and
// a run of millions of stalls is one band with its duty cycle.
func TestStallBands(t *testing.T) {
	res := simtest.Run(t, "")
	bands := res.StallBands(0, 20e9, 640)
	if len(bands) != res.StallCount() {
		t.Fatalf("%d bands for %d stalls a column apart", len(bands), res.StallCount())
	}
	for j, b := range bands {
		s, e := res.StallSpan(int64(j))
		if b.From != s || b.To != e || b.Share != 1 {
			t.Errorf("band %d = %+v, want [%d, %d) share 1", j, b, s, e)
		}
	}
	if got := res.StallBands(600e6, 1600e6, 100); len(got) != 2 || got[0].From != 600e6 || got[0].To != 700e6 || got[1].From != 1500e6 {
		t.Errorf("clipped bands: %+v", got)
	}
	dense := simtest.Run(t, "stall=1ns&every=4ns&first=0s&duration=100ms")
	if n := dense.StallCount(); n < 1e6 {
		t.Fatalf("only %d stalls", n)
	}
	got := dense.StallBands(0, 200e6, 640)
	if len(got) != 1 || got[0].Share != 0.25 || got[0].From != 0 {
		t.Errorf("dense stalls: %+v, want one band with share 0.25 from 0", got)
	}
}
