package window

import (
	"sort"

	"omission/sim"
)

// The windows the animation can be asked for (AnimWindows): a run's stalls
// (StallWindow, trace.go) or, for an event-driven run without one, the
// moments worth showing (EngineMoments): each outage and the worst reply of
// the run. They read the per-request data the engine keeps up to ExactSamples
// arrivals a client.

// Moment is a stretch of an event-driven run worth watching.
type Moment struct {
	Kind       string // "stall", "outage" or "worst"
	Index      int64  // the stall's or the outage's number; worst: the request's position in the open client's sends
	Start, End int64  // the stall or outage; worst: that request's send and reply
	From, To   int64  // the window to show
}

// EngineMoments returns the moments of an event-driven run the animation can
// show: its first stalls (at most most of them), every outage, and the worst
// reply of the open client (of the closed one when the open one has none);
// nil without per-request data.
func EngineMoments(r *sim.Result, most int) []Moment {
	if r.Engine == nil || r.Clients[sim.OpenClient].Done == nil || r.Engine.Clients[sim.OpenClient].Start == nil {
		return nil
	}
	cfg := r.Config
	var out []Moment
	st := newStalls(cfg)
	for k := int64(0); k < int64(most) && k < st.Count(engineEnd(r)); k++ {
		s := st.Start(k)
		out = append(out, engineMoment(r, "stall", k, s, s+cfg.Stall))
	}
	for k, w := range cfg.OutageWindows() {
		out = append(out, engineMoment(r, "outage", int64(k), w.From, w.To))
	}
	if m, ok := engineWorst(r); ok {
		out = append(out, m)
	}
	return out
}

// engineWorst returns the moment of the worst reply of the open client (of
// the closed one when the open one has none); false when neither has one.
func engineWorst(r *sim.Result) (Moment, bool) {
	for _, c := range []sim.Client{sim.OpenClient, sim.ClosedClient} {
		cr, ec := &r.Clients[c], &r.Engine.Clients[c]
		if cr.Done == nil {
			return Moment{}, false
		}
		worst := -1
		for i, o := range ec.Outcome {
			if o == sim.OutcomeReply && (worst < 0 || cr.Done[i]-cr.Send[i] > cr.Done[worst]-cr.Send[worst]) {
				worst = i
			}
		}
		if worst < 0 {
			continue
		}
		s, d := cr.Send[worst], cr.Done[worst]
		lead := max((d-s)/10, engineLead(r))
		return Moment{Kind: "worst", Index: int64(worst), Start: s, End: d, From: max(0, s-lead), To: d + lead}, true
	}
	return Moment{}, false
}

// engineEnd is the last event of any client of the run.
func engineEnd(r *sim.Result) int64 {
	end := int64(0)
	for _, ec := range r.Engine.Clients {
		end = max(end, ec.End)
	}
	return end
}

// engineLead is the margin shown around a moment: a few slots and a mean
// service at least.
func engineLead(r *sim.Result) int64 {
	return max(4*r.Slot, int64(r.Config.MeanService()), 1)
}

// engineMoment is the window of a disturbance [s, e): from a little before it
// until the clients' backlogs clear (engineSettle), and a little after.
func engineMoment(r *sim.Result, kind string, k, s, e int64) Moment {
	lead := max((e-s)/10, engineLead(r))
	from := max(0, s-lead)
	to := e
	for c := range r.Clients {
		to = max(to, engineSettle(r, sim.Client(c), from, e))
	}
	return Moment{Kind: kind, Index: k, Start: s, End: e, From: from, To: to + lead}
}

// engineSettle returns when client c's backlog from a disturbance ending at e
// has cleared: the last outcome of the requests sent from `from` on, up to
// the first one sent at or after e that a worker took at once (at most
// MaxTraceWindow requests).
func engineSettle(r *sim.Result, c sim.Client, from, e int64) int64 {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	end := e
	i := sort.Search(len(cr.Send), func(i int) bool { return cr.Send[i] >= from })
	for n := 0; i < len(cr.Send) && n < MaxTraceWindow; i, n = i+1, n+1 {
		if cr.Send[i] >= e && ec.Start[i] == cr.Send[i] {
			break
		}
		end = max(end, cr.Done[i])
	}
	return end
}

// AnimWindows returns how many windows the animation can be asked for: the
// run's stalls or, for an event-driven run without one, its outages and the
// window around its worst reply.
func AnimWindows(r *sim.Result) int {
	n := r.StallCount()
	if r.Engine == nil || n > 0 {
		return n
	}
	n = r.Config.Outages.Len()
	if _, ok := engineWorst(r); ok {
		n++
	}
	return n
}

// engineAnimWindow returns window k of an event-driven run (0 ≤ k <
// AnimWindows()).
func engineAnimWindow(r *sim.Result, k int) Moment {
	if n := r.StallCount(); n > 0 {
		s := newStalls(r.Config).Start(int64(k))
		return engineMoment(r, "stall", int64(k), s, s+r.Config.Stall)
	}
	if ws := r.Config.OutageWindows(); k < len(ws) {
		return engineMoment(r, "outage", int64(k), ws[k].From, ws[k].To)
	}
	m, _ := engineWorst(r)
	return m
}
