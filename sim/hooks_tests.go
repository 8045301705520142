//go:build !minimal

package sim

import "omission/sim/internal/hook"

// The hooks only tests read (sim/sweep's, which hold the sweep to the long
// path's choice, and sim/internal/simtest, the helpers of sim/window's
// tests and sim's external ones, which runs each way and draws sim's
// streams): app.wasm, built with the tag minimal, leaves them out.
func init() {
	hook.PointTakesLong = pointTakesLong
	hook.RunOn = runOn
	hook.Stream = func(seed uint64, purpose string) func() uint64 {
		g := newStream(seed, purpose)
		return g.next
	}
}

// runOn runs cfg on one path, whatever path Run would take: the event
// engine ("engine"), the long path ("long") or the walk.
func runOn(cfg Config, path string) (*Result, error) {
	if path == "long" {
		return runLong(cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := startWalk(cfg, NewSchedule(cfg.Rate).Count(cfg.Duration))
	if path == "engine" {
		r = &Runner{cfg: cfg, planned: int64(cfg.ExpectedArrivals()), eng: newEngineRun(cfg)}
	}
	if res := r.Result(); res != nil {
		return res, nil
	}
	return nil, r.Err()
}
