package window

import (
	"errors"
	"sort"

	"omission/sim"
)

// The animation of a window of a run with retries (issue 24). The queue
// animation's Summary needs a client's requests answered in the order
// they were sent, which a retried call is not (NewSummaryBuilder refuses the
// window, Refusal). This model draws such a window by calls instead of
// positions: at every instant each call of the window is in exactly one
// state (CallState), and a failed attempt's call backs off and then goes
// back to the queue with its next attempt. It is built once per window from
// the run's per-call data and its attempt trace (Attempt: every attempt of
// a call that sent more than one; a call that sent one is its per-call
// send, start, reply and outcome), into sorted arrays of the instants each
// state is entered and left, so that the counts at any instant are binary
// searches, and a sorted list of the calls' moves (for the marks in flight
// and the event steps).

// CallState is what a call is doing at an instant, as the client sees it.
type CallState uint8

const (
	CallNotSent  CallState = iota // its first attempt is not sent yet
	CallQueued                    // an attempt waits in the server's queue (no worker has taken it)
	CallServing                   // a worker serves an attempt, until its reply or its failure at the client (a timeout)
	CallBackoff                   // an attempt failed and the next one waits out the backoff
	CallFailed                    // its last attempt failed: the call gave up
	CallAnswered                  // an attempt was answered in time
	NumCallStates
)

var callStateNames = [NumCallStates]string{"not sent yet", "queued", "in service", "backing off", "failed", "answered"}

func (s CallState) String() string { return callStateNames[s] }

// CallMove is a call changing state at an instant.
type CallMove struct {
	At       int64
	Call     int32 // the call's position in the window (RetryClient.Calls), from 0
	From, To CallState
}

// RetryClient is one client's calls in a window of a run with retries.
type RetryClient struct {
	Client sim.Client
	First  int64 // the window's first call: its position in the client's sends
	N      int   // calls in the window: those sent by To and ended at or after From
	// enter[s] and leave[s] are the instants calls enter and leave state s,
	// sorted: the calls in s at t are those entered by t minus those left
	// by t (a state is [enter, leave)). Not sent yet is entered by every
	// call at the start of time; failed and answered are never left.
	enter, leave [NumCallStates][]int64
	sends        []int64 // every attempt's send, sorted
	// wastedOn and wastedOff are the instants a worker goes on serving an
	// attempt of the window's calls that its client gave up on (the later
	// of the worker's take and the timeout) and finishes it, sorted: wasted
	// work, which the client's states do not show.
	wastedOn, wastedOff []int64
	retries             []int64    // the sends of attempts after a call's first, sorted
	Moves               []CallMove // every move, by instant (calls moving at one instant in the order of their positions)
	own                 []CallMove // the moves call by call, in the order each call made them
	ownAt               []int32    // call p's moves are own[ownAt[p]:ownAt[p+1]]
}

// CallCounts are a client's calls in each state at an instant, and its
// attempts and retries sent so far (by the window's calls, up to the
// instant, those sent before the window included).
type CallCounts struct {
	In                [NumCallStates]int64
	Attempts, Retries int64
	// Wasted is how many attempts of the window's calls a worker is
	// serving though their client gave up on them (timed out): wasted
	// work, beside the calls' states.
	Wasted int64
}

// RetryWindow is a window of a run with retries, by calls.
type RetryWindow struct {
	Attempts int   // the policy's attempts per call
	Backoff  int64 // the fixed backoff
	Clients  [3]*RetryClient
	Outages  []sim.Window // the outage windows that meet the window, clipped to it
	// Order is why the queue animation cannot draw the window (its requests
	// are not answered in the order they were sent), nil when it could.
	Order *Refusal
}

// ErrRetryTraceCut says that a window's calls outrun the run's attempt
// trace (MaxAttemptTrace attempts per client).
var ErrRetryTraceCut = errors.New("the run's trace of attempts stops before this window's calls end (it keeps at most 524,288 attempts per client): the animation cannot show their retries")

// upTo returns how many of sorted a are at most t.
func upTo(a []int64, t int64) int64 {
	return int64(sort.Search(len(a), func(i int) bool { return a[i] > t }))
}

// CountsAt returns the client's counts at instant t: binary searches.
func (c *RetryClient) CountsAt(t int64) CallCounts {
	var k CallCounts
	k.In[CallNotSent] = int64(c.N) - upTo(c.leave[CallNotSent], t)
	for s := CallQueued; s < NumCallStates; s++ {
		k.In[s] = upTo(c.enter[s], t) - upTo(c.leave[s], t)
	}
	k.Attempts, k.Retries = upTo(c.sends, t), upTo(c.retries, t)
	k.Wasted = upTo(c.wastedOn, t) - upTo(c.wastedOff, t)
	return k
}

// Entered returns how many times calls entered state s in (t0, t1].
func (c *RetryClient) Entered(s CallState, t0, t1 int64) int64 {
	if s == CallNotSent {
		return 0
	}
	return upTo(c.enter[s], t1) - upTo(c.enter[s], t0)
}

// StateOf returns the state of the window's call p at instant t: where its
// last move by t took it.
func (c *RetryClient) StateOf(p int, t int64) CallState {
	own := c.own[c.ownAt[p]:c.ownAt[p+1]]
	k := sort.Search(len(own), func(i int) bool { return own[i].At > t })
	if k == 0 {
		return CallNotSent
	}
	return own[k-1].To
}

// MovesIn returns the positions [lo, hi) in Moves of the moves in (t0, t1].
func (c *RetryClient) MovesIn(t0, t1 int64) (lo, hi int) {
	lo = sort.Search(len(c.Moves), func(i int) bool { return c.Moves[i].At > t0 })
	hi = sort.Search(len(c.Moves), func(i int) bool { return c.Moves[i].At > t1 })
	return lo, max(lo, hi)
}

// callAttempts returns the attempts of the window's calls, by call: the
// traced attempts of the calls that sent more than one, a single attempt
// from the per-call data for the others.
func callAttempts(r *sim.Result, c sim.Client, from, to int64) (first int64, calls [][]sim.Attempt, err error) {
	cr, ec := &r.Clients[c], &r.Engine.Clients[c]
	hi := sort.Search(len(cr.Send), func(i int) bool { return cr.Send[i] > to })
	var idx []int32
	pos := map[int32]int{}
	lastDone := int64(-1)
	for i := 0; i < hi; i++ {
		d := cr.Done[i]
		if d >= 0 && d < from {
			continue
		}
		pos[int32(i)] = len(idx)
		idx = append(idx, int32(i))
		lastDone = max(lastDone, d)
	}
	calls = make([][]sim.Attempt, len(idx))
	if len(idx) == 0 {
		return 0, calls, nil
	}
	lo := cr.Send[idx[0]] // every attempt of the window's calls ends at or after it
	all := ec.Attempts
	k := sort.Search(len(all), func(i int) bool { return all[i].End >= lo })
	for ; k < len(all) && all[k].End <= lastDone; k++ {
		if p, ok := pos[all[k].Call]; ok {
			calls[p] = append(calls[p], all[k])
		}
	}
	cutAt := int64(-1) // past this instant the trace may miss attempts
	if ec.AttemptsCut && len(all) > 0 {
		cutAt = all[len(all)-1].End
	}
	for p, i := range idx {
		if ec.AttemptsCut && (cr.Done[i] < 0 || cr.Done[i] >= cutAt) {
			return 0, nil, ErrRetryTraceCut
		}
		if len(calls[p]) == 0 {
			start := ec.Start[i]
			calls[p] = []sim.Attempt{{Call: i, N: 1, Outcome: ec.Outcome[i], Send: cr.Send[i], Start: start, End: cr.Done[i]}}
		}
	}
	return int64(idx[0]), calls, nil
}

// openEnd stands for an instant after every other (a call still open at the
// end of the run, which a drained run has none of).
const openEnd = int64(1<<63 - 1)

// newRetryClient builds client c's calls over [from, to].
func newRetryClient(r *sim.Result, c sim.Client, from, to int64) (*RetryClient, error) {
	first, calls, err := callAttempts(r, c, from, to)
	if err != nil {
		return nil, err
	}
	A := r.Config.AttemptsPerCall()
	rc := &RetryClient{Client: c, First: first, N: len(calls)}
	move := func(at int64, call int, from, to CallState) {
		rc.leave[from] = append(rc.leave[from], at)
		rc.enter[to] = append(rc.enter[to], at)
		rc.own = append(rc.own, CallMove{At: at, Call: int32(call), From: from, To: to})
	}
	rc.ownAt = make([]int32, 0, len(calls)+1)
	for p, as := range calls {
		rc.ownAt = append(rc.ownAt, int32(len(rc.own)))
		prev := CallNotSent
		for _, a := range as {
			end := a.End
			if end < 0 {
				end = openEnd
			}
			start := a.Start
			if start < 0 || start > end {
				start = end // no worker took it before it ended: it waited
			}
			rc.sends = append(rc.sends, a.Send)
			if a.N > 1 {
				rc.retries = append(rc.retries, a.Send)
			}
			move(a.Send, p, prev, CallQueued)
			if end == openEnd && start == openEnd {
				prev = CallQueued
				break
			}
			move(start, p, CallQueued, CallServing)
			if end == openEnd {
				prev = CallServing
				break
			}
			switch {
			case a.Outcome == sim.OutcomeReply:
				prev = CallAnswered
			case a.Retried(A):
				prev = CallBackoff
			default:
				prev = CallFailed
			}
			move(end, p, CallServing, prev)
		}
	}
	rc.ownAt = append(rc.ownAt, int32(len(rc.own)))
	if ws := r.Engine.Clients[c].WastedAttempts; len(ws) > 0 && len(calls) > 0 {
		in := make(map[int32]bool, len(calls))
		for _, as := range calls {
			in[as[0].Call] = true
		}
		for _, w := range ws {
			if in[w.Call] {
				rc.wastedOn = append(rc.wastedOn, max(w.Start, w.GaveUp))
				rc.wastedOff = append(rc.wastedOff, w.Finish)
			}
		}
		sim.SortInt64s(rc.wastedOn) // wastedOff is sorted: ws is in the order of Finish
	}
	rc.Moves = append([]CallMove(nil), rc.own...)
	for s := range rc.enter {
		sim.SortInt64s(rc.enter[s])
		sim.SortInt64s(rc.leave[s])
	}
	sim.SortInt64s(rc.sends)
	sim.SortInt64s(rc.retries)
	sort.SliceStable(rc.Moves, func(i, j int) bool { return rc.Moves[i].At < rc.Moves[j].At })
	return rc, nil
}

// NewRetryWindow builds window k of a run with retries (clamped to its
// windows) by calls: the window NewSummaryBuilder's summary covers, its
// bounds and marks in a Summary whose Retry holds the calls (its
// Clients are nil). Order is the refusal of the queue animation, when the
// window has one.
func NewRetryWindow(res *sim.Result, k int) (*Summary, error) {
	if err := animatableRun(res); err != nil {
		return nil, err
	}
	if res.Engine == nil || !res.Config.Retrying() {
		return nil, errors.New("the run has no retries")
	}
	n := AnimWindows(res)
	k = max(0, min(k, n-1))
	w := engineAnimWindow(res, k)
	m := &Summary{res: res, Stall: k, Stalls: n, Kind: w.Kind, From: w.From, To: w.To, Start: w.Start, End: w.End,
		Above: res.Config.Above, Workers: res.Config.Workers}
	if m.To <= m.From {
		return nil, errors.New(m.Kind + " window is empty")
	}
	for b := range m.Edges {
		m.Edges[b] = m.From + int64(float64(m.To-m.From)*float64(b)/WindowColumns)
	}
	m.Edges[WindowColumns] = m.To + 1
	m.markStalls()
	m.markSlowdowns()
	rw := &RetryWindow{Attempts: res.Config.AttemptsPerCall(), Backoff: res.Config.Backoff}
	for _, o := range res.Config.OutageWindows() {
		if o.To > m.From && o.From <= m.To {
			rw.Outages = append(rw.Outages, sim.Window{From: max(o.From, m.From), To: min(o.To, m.To)})
		}
	}
	for i, c := range windowOrder {
		rc, err := newRetryClient(res, c, m.From, m.To)
		if err != nil {
			return nil, err
		}
		rw.Clients[i] = rc
	}
	if _, err := NewSummaryBuilder(res, k); err != nil {
		var e *Refusal
		if errors.As(err, &e) {
			rw.Order = e
		}
	}
	m.Retry = rw
	return m, nil
}

// retryEvent is NextEvent (next) or PrevEvent of a window by calls: the
// nearest instant a call moves, within the window.
func (m *Summary) retryEvent(t int64, next bool) (int64, bool) {
	best, ok := int64(0), false
	for _, c := range m.Retry.Clients {
		mv := c.Moves
		if next {
			i := sort.Search(len(mv), func(i int) bool { return mv[i].At > max(t, m.From-1) })
			if i < len(mv) && mv[i].At <= m.To && (!ok || mv[i].At < best) {
				best, ok = mv[i].At, true
			}
			continue
		}
		i := sort.Search(len(mv), func(i int) bool { return mv[i].At >= min(t, m.To+1) })
		if i > 0 && mv[i-1].At >= m.From && (!ok || mv[i-1].At > best) {
			best, ok = mv[i-1].At, true
		}
	}
	return best, ok
}
