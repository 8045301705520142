package sim_test

import (
	"math/rand/v2"
	"testing"

	. "omission/sim"
	"omission/sim/internal/simtest"
)

// TestServiceStart: the inverse of the stall model gives the start the
// naive reference computes, on random runs.
func TestServiceStart(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n < 100; n++ {
		cfg := simtest.RandomAny(r)
		if NewSchedule(cfg.Rate).Count(cfg.Duration) > 300 {
			continue
		}
		for k := 0; k < 50; k++ {
			ready := r.Int64N(cfg.Duration + 1)
			start, done, got := ServeAndInvert(cfg, ready)
			if got != start && cfg.Service > 0 {
				t.Fatalf("%s: ready %d: start %d, inverse %d (done %d)", cfg.Query(), ready, start, got, done)
			}
		}
	}
}
