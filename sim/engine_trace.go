package sim

import "sync"

// What the event engine gives the animation's windows (sim/window) beyond
// its Result: a run's per-request data without its distributions
// (TraceResult), and the paced client's plans, rebuilt on first use.

// engineTraceResult is TraceResult for an event-driven run: its clients
// and their per-request data, without distributions, series, checks or hash.
func (e *engineRun) traceResult() *Result {
	if e.err != nil {
		return nil
	}
	cfg := e.cfg
	res := &Result{Config: cfg, Query: cfg.Query(), Slot: cfg.PacedSlot(), Exact: e.exact}
	res.Engine = &EngineResult{Seed: cfg.Seed, Events: e.events}
	res.Planned = e.sims[OpenClient].st.planned
	for c := range e.sims {
		e.setClient(res, c)
	}
	if e.exact {
		res.Engine.Due = e.sims[OpenClient].st.sendT
	}
	for _, k := range Kinds() {
		res.Recordings[k].Kind = k
	}
	res.Recordings[Corrected].Interval = cfg.ExpectedInterval()
	res.Recordings[PacedCorrected].Interval = cfg.PacedInterval()
	return res
}

// setClient fills client c's ClientRun and EngineClient in res, with its
// per-request data in an exact run.
func (e *engineRun) setClient(res *Result, c int) {
	cs := &e.sims[c].st
	planned := cs.planned
	if Client(c) == PacedClient {
		planned = res.Planned
	}
	res.Clients[c] = ClientRun{Client: Client(c), Planned: planned, Sent: cs.sent, LastCompletion: cs.lastAnswer, StallsMet: newStalls(e.cfg).Count(cs.lastAnswer)}
	res.Engine.Clients[c] = EngineClient{Planned: planned, Sent: cs.sent, Replies: cs.replies, Rejected: cs.rejected, Failed: cs.failed,
		TimedOut: cs.timedOut, Wasted: cs.wasted, WastedNs: cs.wastedNs, FailedAtWorker: cs.failedAtWorker,
		Entered: cs.entered, End: cs.end, Outcome: cs.outcome, Start: cs.startT, Retry: e.retryCounts(c),
		Attempts: cs.retry.trace, AttemptsCut: cs.retry.traceCut, WastedAttempts: cs.retry.wasted,
		Slowed: cs.slowed, SlowExtraNs: cs.slowExtraNs, Pauses: cs.thinks, st: cs}
	if e.exact {
		res.Clients[c].Send, res.Clients[c].Done = cs.sendT, cs.doneT
	}
}

// pacedPlan is the paced client's plan after each of its sends, rebuilt
// from its sends and answers with the engine's rule (engine.go, send and
// answer): after send k it means to send next at plan[k] (−1: not before the
// duration), and sends then, or at once when its answer comes later. For
// constant arrivals its slots are anchor[k] + i/rate, the anchor being its
// first send or its last late one.
type pacedPlan struct {
	once         sync.Once
	plan, anchor []int64
}

// pacedPlans returns the paced client's plans (nil without per-request
// data), built once, on first use: the run itself never needs them.
func (r *Result) pacedPlans() *pacedPlan {
	cr := &r.Clients[PacedClient]
	if cr.Send == nil || cr.Done == nil {
		return nil
	}
	p := &r.Engine.plans
	p.once.Do(func() {
		cfg := r.Config
		n := len(cr.Send)
		p.plan = make([]int64, n)
		if cfg.Arrivals == ArrivalsConstant {
			p.anchor = make([]int64, n)
			sched := NewSchedule(cfg.Rate)
			anchor, slots := int64(0), int64(0)
			for k := 0; k < n; k++ {
				slots++
				p.plan[k], p.anchor[k] = anchor+sched.Interval(slots), anchor
				if t := cr.Done[k]; t > p.plan[k] {
					anchor, slots = t, 0
				}
			}
			return
		}
		// The process restarts at each send, on one variate of the paced
		// stream a send.
		arr := newArrivals(cfg, xoshiro{})
		buf := newVariateBuf(newStream(cfg.Seed, "paced"), nil)
		for k := 0; k < n; k++ {
			p.plan[k] = arr.after(cr.Send[k], &buf)
		}
	})
	return p
}
