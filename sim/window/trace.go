package window

import (
	"math"
	"sort"

	"omission/sim"
	"omission/sim/internal/hook"
)

// What a client did in a window of time, as a slice of requests: Trace for
// the fast path (built through TraceIndex, index.go), EngineTrace for
// an event-driven run; and the window of each stall (StallWindow).

// TraceRequest is one request as the animation draws it.
type TraceRequest struct {
	Index   int64 // position in send order
	Due     int64 // when the schedule wanted it sent (paced: its own slot)
	Send    int64 // when it left the client
	Start   int64 // when the server began serving it
	Done    int64 // when its reply arrived
	Latency int64 // what the client recorded
	Stall   int64 // the stall that delayed it (-1: none)
}

// Synthetic is the corrected samples one slow reply adds: Count values From,
// From−Step, …, appearing when the reply arrives at At.
type Synthetic struct {
	Index         int64
	At            int64
	From, Step    int64
	Count         int64
	AboveCount    int64 // how many of them are above the threshold
	ReplyLatency  int64
	CorrectionFor sim.Kind
}

// Trace is what one client did in a window of time.
type Trace struct {
	Client    sim.Client
	From, To  int64
	Requests  []TraceRequest
	NeverSent []int64     // paced: slots of its own schedule that it skipped
	Synthetic []Synthetic // closed and paced: what the correction adds
	Above     int64       // the threshold
}

// Counts are a client's running counters at one instant of a trace.
type Counts struct {
	Recorded  int64 // samples recorded so far in the window
	Slowest   int64 // the largest of them
	Above     int64 // how many are above the threshold
	Synthetic int64 // corrected samples added so far
	Waiting   int64 // due (or, paced, sent) but not answered yet
}

// CountsAt returns the running counters at instant t.
func (tr *Trace) CountsAt(t int64) Counts {
	var c Counts
	for _, r := range tr.Requests {
		if r.Done <= t {
			c.Recorded++
			c.Slowest = max(c.Slowest, r.Latency)
			if r.Latency > tr.Above {
				c.Above++
			}
		} else if r.Due <= t {
			c.Waiting++
		}
	}
	for _, s := range tr.Synthetic {
		if s.At <= t {
			c.Synthetic += s.Count
		}
	}
	return c
}

// Events returns the instants at which something happens in the trace (a
// request falls due, leaves, starts or is answered), sorted and distinct.
func (tr *Trace) Events() []int64 {
	var ev []int64
	for _, r := range tr.Requests {
		for _, t := range []int64{r.Due, r.Send, r.Start, r.Done} {
			if t >= tr.From && t <= tr.To {
				ev = append(ev, t)
			}
		}
	}
	sort.Slice(ev, func(i, j int) bool { return ev[i] < ev[j] })
	out := ev[:0]
	for i, t := range ev {
		if i == 0 || t != ev[i-1] {
			out = append(out, t)
		}
	}
	return out
}

// MaxWindowRequests bounds the requests of one client a stall's window
// walks: a backlog that never drains (a server at full load) would otherwise
// make the window the rest of the run.
const MaxWindowRequests = 200_000

// StallWindow returns the window the animation shows for stall k: from a
// little before it begins until the last request it delayed, in any client,
// is answered (and a little after), looking at most MaxWindowRequests
// requests past the stall's start. An event-driven run's is the
// animation's (EngineMoments): until every client's backlog has cleared.
func StallWindow(r *sim.Result, k int) (from, to int64) {
	st := newStalls(r.Config)
	s := st.Start(int64(k))
	if r.Engine != nil {
		m := engineMoment(r, "stall", int64(k), s, s+r.Config.Stall)
		return m.From, m.To
	}
	end := s + r.Config.Stall
	for c := range r.Clients {
		if d := delayedUntil(r, sim.Client(c), s); d > end {
			end = d
		}
	}
	lead := max(r.Config.Stall/10, 4*r.Slot, r.Config.Service)
	return max(0, s-lead), end + lead
}

// delayedUntil returns when the last request a stall at s delayed is answered
// by client c: it walks from the first request answered after s while
// requests wait longer than their service.
func delayedUntil(r *sim.Result, c sim.Client, s int64) int64 {
	cr := &r.Clients[c]
	if cr.Done == nil {
		if long := hook.Long(r); long != nil {
			return long.DelayedUntil(int(c), s, MaxWindowRequests)
		}
		return s
	}
	i := firstDoneAfter(r, c, s)
	end := s
	S, L := r.Config.Service, r.Config.Stall
	for n := min(len(cr.Done), i+MaxWindowRequests); i < n; i++ {
		due := dueOf(r, c, i)
		if due >= s+L && cr.Done[i]-due <= S && c != sim.PacedClient {
			break
		}
		if c == sim.PacedClient && due >= s+L && cr.Done[i]-cr.Send[i] <= S {
			break
		}
		end = max(end, cr.Done[i])
	}
	return end
}

// firstDoneAfter returns the first request (in send order) answered after t,
// looking back from the schedule position of t past requests still open.
func firstDoneAfter(r *sim.Result, c sim.Client, t int64) int {
	cr := &r.Clients[c]
	var i int
	if cr.Send != nil {
		i = sort.Search(len(cr.Send), func(j int) bool { return cr.Send[j] >= t })
	} else {
		i = int(min(r.Schedule().Count(t), int64(len(cr.Done))))
	}
	// Look back past requests still open at t (up to a pool's width beyond).
	width := max(r.Config.Conns, r.Config.Workers, 1)
	miss := 0
	for j := i - 1; j >= 0 && miss <= width; j-- {
		if cr.Done[j] > t {
			i, miss = j, 0
		} else {
			miss++
		}
	}
	return i
}

func dueOf(r *sim.Result, c sim.Client, i int) int64 {
	if c == sim.PacedClient {
		return r.Clients[c].Send[i]
	}
	return r.Schedule().Due(int64(i))
}

// TraceWindow returns what client c did between from and to: every request
// open at some instant of the window, the paced client's skipped slots and
// the samples the correction adds for replies in the window. It reads the
// per-request data of an exact run, or simulates the window of a long run
// again (TraceIndexOf); nil when neither is there.
func TraceWindow(r *sim.Result, c sim.Client, from, to int64) *Trace {
	x := TraceIndexOf(r, c, from, to)
	if x == nil {
		return nil
	}
	tr := &Trace{Client: c, From: from, To: to, Above: r.Config.Above}
	for j := 0; j < x.Len(); j++ {
		tr.Requests = append(tr.Requests, x.At(j))
		if syn, ok := x.Synthetic(j); ok {
			tr.Synthetic = append(tr.Synthetic, syn)
		}
		first, n := x.NeverSentAfter(j)
		for k := int64(0); k < n; k++ {
			tr.NeverSent = append(tr.NeverSent, first+k*x.Slot())
		}
	}
	return tr
}

// EngineRequest is one request of an event-driven run as the animation
// draws it.
type EngineRequest struct {
	Index   int64 // position in send order
	Due     int64 // when the schedule wanted it sent (paced: its send)
	Send    int64 // when it left the client
	Start   int64 // when its service began (a worker took it, or the stall it was taken in ended); −1: never
	Done    int64 // when the client learned its outcome
	Outcome sim.Outcome
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
	Client   sim.Client
	From, To int64
	Requests []EngineRequest
	Cut      bool  // the window held more than MaxTraceWindow requests: the first ones are kept
	Above    int64 // the threshold
	Interval int64 // the expected interval of the client's corrected recording (0: open)
}

// EngineTraceWindow returns what client c of an event-driven run did between
// from and to, or nil when the run kept no per-request data (beyond
// ExactSamples arrivals, or a run of the fast path).
func EngineTraceWindow(r *sim.Result, c sim.Client, from, to int64) *EngineTrace {
	if r.Engine == nil {
		return nil
	}
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	if cr.Done == nil || ec.Start == nil || ec.Outcome == nil {
		return nil
	}
	tr := &EngineTrace{Client: c, From: from, To: to, Above: r.Config.Above}
	switch c {
	case sim.ClosedClient:
		tr.Interval = r.Recordings[sim.Corrected].Interval
	case sim.PacedClient:
		tr.Interval = r.Recordings[sim.PacedCorrected].Interval
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
		tr.Requests = append(tr.Requests, engineRequest(r, c, i))
	}
	return tr
}

// engineRequest returns request i of client c of an exact event-driven run.
func engineRequest(r *sim.Result, c sim.Client, i int) EngineRequest {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	q := EngineRequest{Index: int64(i), Due: cr.Send[i], Send: cr.Send[i], Start: ec.Start[i], Done: cr.Done[i], Outcome: ec.Outcome[i], Latency: -1}
	if c != sim.PacedClient && i < len(r.Engine.Due) {
		q.Due = r.Engine.Due[i]
	}
	if q.Outcome == sim.OutcomeReply {
		q.Latency = q.Done - q.Send
	}
	return q
}

// AttemptTrace is what the attempts of client c's retried calls did in a
// window of an exact event-driven run with retries: every attempt whose
// span at the client, from its Send to its End and, when its call retried,
// on through the backoff to the next Send, meets [From, To].
type AttemptTrace struct {
	Client   sim.Client
	From, To int64
	Backoff  int64 // the fixed wait between an attempt's failure and the next
	Attempts int   // the policy's attempts per call
	Tries    []sim.Attempt
	Cut      bool // the run's attempt trace stopped early, or the window held more than MaxTraceWindow attempts
}

// AttemptsWindow returns the attempts of client c's retried calls that
// meet [from, to], in the order they ended; nil without retries or without
// per-request data.
func AttemptsWindow(r *sim.Result, c sim.Client, from, to int64) *AttemptTrace {
	if r.Engine == nil || !r.Config.Retrying() || r.Clients[c].Done == nil {
		return nil
	}
	ec := &r.Engine.Clients[c]
	cfg := r.Config
	tr := &AttemptTrace{Client: c, From: from, To: to, Backoff: cfg.Backoff, Attempts: cfg.AttemptsPerCall(), Cut: ec.AttemptsCut}
	all := ec.Attempts
	// Ends never decrease; an attempt's span reaches at most a backoff past it.
	lo := sort.Search(len(all), func(i int) bool { return all[i].End+tr.Backoff >= from })
	for _, a := range all[lo:] {
		end := a.End
		if a.Retried(tr.Attempts) {
			end += tr.Backoff
		}
		if a.Send > to || end < from {
			continue
		}
		if len(tr.Tries) == MaxTraceWindow {
			tr.Cut = true
			break
		}
		tr.Tries = append(tr.Tries, a)
	}
	return tr
}

// InBackoff counts the calls waiting out a backoff at t: an attempt failed
// at or before t and its call's next attempt is not sent yet.
func (tr *AttemptTrace) InBackoff(t int64) int64 {
	var n int64
	for _, a := range tr.Tries {
		if a.Retried(tr.Attempts) && a.End <= t && t < a.End+tr.Backoff {
			n++
		}
	}
	return n
}

// Retries are one client's retries in a window [From, To]: what the
// attempt trace says happened there.
type Retries struct {
	Client sim.Client
	// Retries are the attempts beyond a call's first sent in the window;
	// Calls the calls that sent them.
	Retries, Calls int64
	// FailedCalls are the calls whose last attempt failed in the window:
	// each failed all Attempts of the policy.
	FailedCalls int64
	Attempts    int
	// MostWaiting is the most calls waiting out a backoff at one instant of
	// the window, first at MostAt.
	MostWaiting, MostAt int64
}

// Retries counts the window's retries from its attempts.
func (tr *AttemptTrace) Retries() Retries {
	w := Retries{Client: tr.Client, Attempts: tr.Attempts}
	lo, hi := int32(math.MaxInt32), int32(-1)
	for _, a := range tr.Tries {
		lo, hi = min(lo, a.Call), max(hi, a.Call)
	}
	seen := make([]bool, max(0, int(hi-lo)+1)) // the calls that sent a retry in the window
	var ends []int64                           // the backoffs' ends, in the order of the attempts' ends
	var n int64
	for _, a := range tr.Tries {
		if a.N > 1 && a.Send >= tr.From && a.Send <= tr.To {
			w.Retries++
			if !seen[a.Call-lo] {
				seen[a.Call-lo] = true
				w.Calls++
			}
		}
		if !a.Retried(tr.Attempts) {
			if a.Outcome != sim.OutcomeReply && a.End >= tr.From && a.End <= tr.To {
				w.FailedCalls++
			}
			continue
		}
		// A backoff is [End, End + B): both ends come in order, and one
		// ending at an instant is over before one starting then.
		t := max(a.End, tr.From)
		for len(ends) > 0 && ends[0] <= t {
			ends, n = ends[1:], n-1
		}
		if tr.Backoff > 0 {
			ends, n = append(ends, a.End+tr.Backoff), n+1
		}
		if n > w.MostWaiting && t <= tr.To {
			w.MostWaiting, w.MostAt = n, t
		}
	}
	return w
}
