package window

import (
	"sort"

	"omission/sim"
)

// The animation of an event-driven run. Its Summary reads the run's
// per-request data (kept up to ExactSamples arrivals) through the same
// TraceIndex as a run of the fast path, which needs, within the window, the
// due, send, start and reply instants of a client's requests never to
// decrease with their position. The engine promises that of due, send and
// start (one queue, first come first served), not of the outcomes: several
// workers with random service times finish out of order, and a timeout, a
// full queue or an outage answers a request early. So the index checks the
// order over each window (engineOrder), and a window that breaks it is
// refused with the reason (Refusal, refusal.go); the others are
// drawn as they are.
//
// The windows: one per stall; in a run without a stall, one per outage and
// one around the worst reply (AnimWindows, moments.go).

// engineTraceIndex is TraceIndexOf for an event-driven run: requests lo … hi−1
// are those answered after from and due by to (exactly those when the window
// keeps its order), read from the run's per-request data; nil without it.
func engineTraceIndex(r *sim.Result, c sim.Client, from, to int64) *TraceIndex {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	if cr.Done == nil || cr.Send == nil || ec.Start == nil || ec.Outcome == nil {
		return nil
	}
	x := &TraceIndex{r: r, c: c, from: from, to: to, st: newStalls(r.Config), slot: r.Config.PacedSlot(),
		send: cr.Send, done: cr.Done, due: cr.Send, start: ec.Start, sent: len(cr.Done)}
	switch c {
	case sim.ClosedClient:
		x.e = r.Recordings[sim.Corrected].Interval
		x.due = r.Engine.Due
	case sim.PacedClient:
		x.e = r.Recordings[sim.PacedCorrected].Interval
		x.plans = pacedPlans(r)
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
	if n := x.st.Count(req.Done); n > 0 && x.st.Start(n-1)+x.st.Length > req.Due {
		req.Stall = n - 1
	}
	return req
}

// engineAnimatable is Animatable for an event-driven run: it needs every
// request's times, a window to show, and the first window in order.
func engineAnimatable(r *sim.Result) error {
	_, err := NewSummaryBuilder(r, 0) // animatableRun first
	return err
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
