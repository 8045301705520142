package sim

import "omission/sim/internal/hook"

// What sim lends its subpackages of its unexported code (sim/internal/hook
// says how): each hook is set once, here, before any subpackage is
// initialised.
func init() {
	hook.SetField = func(c *Config, name, text string) *FieldError { return lookup(name).read(c, text) }
	hook.RunPoint = runPoint
	hook.Server = profileServer
	hook.Dues = dues
	hook.ExactDist = exactDist
	hook.CorrectDist = correctDist
	hook.RadixSort = radixSort

	hook.Long = func(r any) hook.LongRun {
		if res := r.(*Result); res.long != nil {
			return longResim{res}
		}
		return nil
	}
	hook.PacedPlans = func(r any) (plan, anchor []int64, ok bool) {
		if p := r.(*Result).pacedPlans(); p != nil {
			return p.plan, p.anchor, true
		}
		return nil, nil, false
	}
	hook.SeqAtOrBelow = seqAtOrBelow
	hook.CorrectedAbove = correctedAbove
}

// runLong runs a deterministic cfg on the long path, whatever its size.
func runLong(cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := NewSchedule(cfg.Rate).Count(cfg.Duration)
	r := &Runner{cfg: cfg, planned: n, long: newLongRun(cfg, n)}
	if res := r.Result(); res != nil {
		return res, nil
	}
	return nil, r.Err()
}

// runPoint runs a sweep point's Config (sim/sweep) as Run does, but a
// deterministic run that Run would walk request by request takes the long
// path (long.go) when its stretches cost less than the walk: the same
// report and hash (the long path is held to the walk's, TestLongMatchesWalk,
// and every sweep point to its own query's report, sim/sweep's
// TestSweepTruth), at the cost of its stalls. A point keeps no per-request
// data, so nothing of the walk is lost.
func runPoint(cfg Config) (*Result, error) {
	if !pointTakesLong(cfg) {
		return Run(cfg)
	}
	if res, err := runLong(cfg); err == nil {
		return res, nil
	}
	return Run(cfg) // a limit of the long path's own (runs): the walk has none
}

// pointTakesLong reports whether runPoint takes the long path for a run
// that Run would walk: a valid deterministic run within ExactSamples whose
// estimated stretches cost less than its requests.
func pointTakesLong(cfg Config) bool {
	if cfg.EventDriven() || cfg.Validate() != nil {
		return false
	}
	n := NewSchedule(cfg.Rate).Count(cfg.Duration)
	if n > ExactSamples {
		return false
	}
	long := costLongFixed + costLong*cfg.longWork(n, cfg.longEnd(n, min(cfg.fastEnd(n), maxVirtualTime)))
	return long < costExact*float64(n)
}

// profileServer is cfg's server as one load generator's requests meet it
// (sim/profile's runner): a request sent at t is ready at the later of t
// and the first free worker, and is served (the query's service, or with a
// service distribution the next draw of its "service" stream, as the event
// engine draws one for each request it makes); it returns the reply.
// Sends must not decrease from call to call.
func profileServer(cfg Config) func(t int64) int64 {
	sv, svc := newServer(cfg), newServiceGen(cfg, newStream(cfg.Seed, "service"))
	var workers *minHeap
	if cfg.Workers > 0 {
		workers = newMinHeap(cfg.Workers)
	}
	return func(t int64) int64 {
		ready := t
		if workers != nil && workers.t[0] > ready {
			ready = workers.t[0]
		}
		var done int64
		if svc.kind != ServiceFixed { // a draw per request; the fixed service's path stays as lean as before
			_, done = sv.serveFor(ready, svc.next())
		} else {
			_, done = sv.serve(ready)
		}
		if workers != nil {
			workers.replaceMin(done)
		}
		return done
	}
}

// dues yields rate's due instants, due(0), due(1), … one a call.
func dues(rate Rate) func() int64 {
	d := newDueIter(rate)
	return func() int64 {
		q := int64(d.q)
		d.next()
		return q
	}
}
