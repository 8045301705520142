package sim

import "sort"

// What the animation needs of an event-driven run: its requests in a window
// (EngineTraceWindow), and the windows worth showing (EngineMoments): each
// stall, each outage, and the worst reply of the run. They read the per-request
// data the engine keeps up to ExactSamples arrivals a client.

// EngineRequest is one request of an event-driven run as the animation
// draws it.
type EngineRequest struct {
	Index   int64 // position in send order
	Due     int64 // when the schedule wanted it sent (paced: its send)
	Send    int64 // when it left the client
	Start   int64 // when its service began (a worker took it, or the stall it was taken in ended); −1: never
	Done    int64 // when the client learned its outcome
	Outcome Outcome
	Latency int64 // the recorded latency, reply − send; −1 when it was no reply
}

// EngineTrace is what one client did in a window of an event-driven run:
// every request open at some instant of [From, To] (Send ≤ To, Done ≥ From),
// in send order.
//
// What differs from TraceIndex: Due and Send never decrease with the
// position, and neither does Start among the requests a worker took (one
// queue, first come first served); Done does not follow the position (the
// services differ and several workers run at once, and a rejection or a
// timeout answers a request early), so the requests open at an instant are
// those with Send ≤ t < Done, not a range of positions.
type EngineTrace struct {
	Client   Client
	From, To int64
	Requests []EngineRequest
	Cut      bool  // the window held more than MaxTraceWindow requests: the first ones are kept
	Above    int64 // the threshold
	Interval int64 // the expected interval of the client's corrected recording (0: open)
}

// EngineTraceWindow returns what client c of an event-driven run did between
// from and to, or nil when the run kept no per-request data (beyond
// ExactSamples arrivals, or a run of the fast path).
func (r *Result) EngineTraceWindow(c Client, from, to int64) *EngineTrace {
	if r.Engine == nil {
		return nil
	}
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	if cr.Done == nil || ec.Start == nil || ec.Outcome == nil {
		return nil
	}
	tr := &EngineTrace{Client: c, From: from, To: to, Above: r.Config.Above}
	switch c {
	case ClosedClient:
		tr.Interval = r.Recordings[Corrected].Interval
	case PacedClient:
		tr.Interval = r.Recordings[PacedCorrected].Interval
	}
	hi := sort.Search(len(cr.Send), func(i int) bool { return cr.Send[i] > to })
	for i := 0; i < hi; i++ {
		if cr.Done[i] < from {
			continue
		}
		if len(tr.Requests) == MaxTraceWindow {
			tr.Cut = true
			break
		}
		tr.Requests = append(tr.Requests, r.engineRequest(c, i))
	}
	return tr
}

// engineRequest returns request i of client c of an exact event-driven run.
func (r *Result) engineRequest(c Client, i int) EngineRequest {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	q := EngineRequest{Index: int64(i), Due: cr.Send[i], Send: cr.Send[i], Start: ec.Start[i], Done: cr.Done[i], Outcome: ec.Outcome[i], Latency: -1}
	if c != PacedClient && i < len(r.Engine.Due) {
		q.Due = r.Engine.Due[i]
	}
	if q.Outcome == OutcomeReply {
		q.Latency = q.Done - q.Send
	}
	return q
}

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
func (r *Result) EngineMoments(most int) []Moment {
	if r.Engine == nil || r.Clients[OpenClient].Done == nil || r.Engine.Clients[OpenClient].Start == nil {
		return nil
	}
	cfg := r.Config
	var out []Moment
	st := newStalls(cfg)
	for k := int64(0); k < int64(most) && k < st.Count(r.engineEnd()); k++ {
		s := st.Start(k)
		out = append(out, r.engineMoment("stall", k, s, s+cfg.Stall))
	}
	for k, w := range cfg.OutageWindows() {
		out = append(out, r.engineMoment("outage", int64(k), w.From, w.To))
	}
	if m, ok := r.engineWorst(); ok {
		out = append(out, m)
	}
	return out
}

// engineWorst returns the moment of the worst reply of the open client (of
// the closed one when the open one has none); false when neither has one.
func (r *Result) engineWorst() (Moment, bool) {
	for _, c := range []Client{OpenClient, ClosedClient} {
		cr, ec := &r.Clients[c], &r.Engine.Clients[c]
		if cr.Done == nil {
			return Moment{}, false
		}
		worst := -1
		for i, o := range ec.Outcome {
			if o == OutcomeReply && (worst < 0 || cr.Done[i]-cr.Send[i] > cr.Done[worst]-cr.Send[worst]) {
				worst = i
			}
		}
		if worst < 0 {
			continue
		}
		s, d := cr.Send[worst], cr.Done[worst]
		lead := max((d-s)/10, r.engineLead())
		return Moment{Kind: "worst", Index: int64(worst), Start: s, End: d, From: max(0, s-lead), To: d + lead}, true
	}
	return Moment{}, false
}

// engineEnd is the last event of any client of the run.
func (r *Result) engineEnd() int64 {
	end := int64(0)
	for _, ec := range r.Engine.Clients {
		end = max(end, ec.End)
	}
	return end
}

// engineLead is the margin shown around a moment: a few slots and a mean
// service at least.
func (r *Result) engineLead() int64 {
	return max(4*r.Slot, int64(r.Config.MeanService()), 1)
}

// engineMoment is the window of a disturbance [s, e): from a little before it
// until the clients' backlogs clear (engineSettle), and a little after.
func (r *Result) engineMoment(kind string, k, s, e int64) Moment {
	lead := max((e-s)/10, r.engineLead())
	from := max(0, s-lead)
	to := e
	for c := range r.Clients {
		to = max(to, r.engineSettle(Client(c), from, e))
	}
	return Moment{Kind: kind, Index: k, Start: s, End: e, From: from, To: to + lead}
}

// engineSettle returns when client c's backlog from a disturbance ending at e
// has cleared: the last outcome of the requests sent from `from` on, up to
// the first one sent at or after e that a worker took at once (at most
// MaxTraceWindow requests).
func (r *Result) engineSettle(c Client, from, e int64) int64 {
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
