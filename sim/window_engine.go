package sim

import (
	"sort"
	"sync"
)

// The animation of an event-driven run. Its WindowSummary reads the run's
// per-request data (kept up to ExactSamples arrivals) through the same
// TraceIndex as a run of the fast path, which needs, within the window, the
// due, send, start and reply instants of a client's requests never to
// decrease with their position. The engine promises that of due, send and
// start (one queue, first come first served), not of the outcomes: several
// workers with random service times finish out of order, and a timeout, a
// full queue or an outage answers a request early. So the index checks the
// order over each window (engineOrder), and a window that breaks it is
// refused with the reason (WindowRefusal, window_refusal.go); the others are
// drawn as they are.
//
// The windows: one per stall; in a run without a stall, one per outage and
// one around the worst reply (AnimWindows, window_moments.go).

// engineTraceIndex is TraceIndexOf for an event-driven run: requests lo … hi−1
// are those answered after from and due by to (exactly those when the window
// keeps its order), read from the run's per-request data; nil without it.
func (r *Result) engineTraceIndex(c Client, from, to int64) *TraceIndex {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	if cr.Done == nil || cr.Send == nil || ec.Start == nil || ec.Outcome == nil {
		return nil
	}
	x := &TraceIndex{r: r, c: c, from: from, to: to, st: newStalls(r.Config), slot: r.Config.PacedSlot(),
		send: cr.Send, done: cr.Done, due: cr.Send, start: ec.Start, sent: len(cr.Done)}
	switch c {
	case ClosedClient:
		x.e = r.Recordings[Corrected].Interval
		x.due = r.Engine.Due
	case PacedClient:
		x.e = r.Recordings[PacedCorrected].Interval
		x.plans = r.pacedPlans()
	}
	// The first request answered after from, in send order: replies need
	// not come in order, so every earlier one is looked at.
	for x.lo < len(cr.Done) && cr.Done[x.lo] <= from {
		x.lo++
	}
	// Due instants never decrease.
	x.hi = x.lo + sort.Search(len(cr.Done)-x.lo, func(j int) bool { return x.due[x.lo+j] > to })
	return x
}

// engineAt is At for an event-driven run: the stall that delayed a request
// is the last one that began before its outcome and was under way after its
// due instant.
func (x *TraceIndex) engineAt(j int) TraceRequest {
	req := TraceRequest{Index: int64(x.lo + j), Due: x.Due(j), Send: x.Send(j), Start: x.Start(j), Done: x.Done(j), Latency: x.Latency(j), Stall: -1}
	if n := x.st.Count(req.Done); n > 0 && x.st.Start(n-1)+x.st.length > req.Due {
		req.Stall = n - 1
	}
	return req
}

// engineAnimatable is Animatable for an event-driven run: it needs every
// request's times, a window to show, and the first window in order.
func (r *Result) engineAnimatable() error {
	_, err := NewSummaryBuilder(r, 0) // animatableRun first
	return err
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

// engineSkipped returns the slots of the paced client's schedule after its
// send i that came due in [lo, hi) while it waited for the answer (those
// from plan[i] until the answer, when it came after the plan): with random
// arrivals at most the one planned slot (the process restarts at the late
// send), with constant arrivals every slot of the old schedule before the
// answer. The first is exact; later ones lie Slot() apart (within the
// rounding of 1/rate).
func (x *TraceIndex) engineSkipped(i int, lo, hi int64) (first, count int64) {
	p := x.plans
	if p == nil || i >= len(p.plan) || p.plan[i] < 0 {
		return 0, 0
	}
	plan := p.plan[i]
	hi = min(hi, x.done[i])
	if p.anchor == nil {
		if plan < lo || plan >= hi {
			return 0, 0
		}
		return plan, 1
	}
	lo = max(lo, plan)
	if lo >= hi {
		return 0, 0
	}
	a, sched := p.anchor[i], x.r.Schedule()
	q0 := max(sched.Count(plan-a), sched.Count(lo-a))
	q1 := sched.Count(hi - a)
	if q1 <= q0 {
		return 0, 0
	}
	return a + sched.Due(q0), q1 - q0
}

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
