package window

import (
	"omission/sim"
	"omission/sim/internal/hook"
	"omission/sim/internal/stall"
)

// What sim lends the windows (sim/internal/hook), typed once.
var (
	seqAtOrBelow   = hook.SeqAtOrBelow
	correctedAbove = hook.CorrectedAbove
)

// newStalls returns cfg's stall schedule, as sim's server has it.
func newStalls(cfg sim.Config) stall.Series { return stall.New(cfg.Stall, cfg.First, cfg.Every) }

// pacedPlan is the paced client's plan after each of its sends in an
// event-driven run, rebuilt by sim with the engine's rule (its
// engine_trace.go): after send k it means to send next at plan[k] (−1: not
// before the duration); for constant arrivals its slots are anchor[k] +
// i/rate.
type pacedPlan struct {
	plan, anchor []int64
}

// pacedPlans returns the paced client's plans of r (nil without
// per-request data), built once by sim, on first use.
func pacedPlans(r *sim.Result) *pacedPlan {
	plan, anchor, ok := hook.PacedPlans(r)
	if !ok {
		return nil
	}
	return &pacedPlan{plan: plan, anchor: anchor}
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
