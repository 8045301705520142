package window

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"omission/sim"
)

// The refusal of a window of an event-driven run whose requests are not
// answered in the order they were sent (engine.go says why the
// summary needs that order).

// Why a window of an event-driven run breaks the order the summary needs.
type orderBreak uint8

const (
	breakNone      orderBreak = iota
	breakOutcome              // a request was not answered by a reply
	breakDone                 // a reply came before an earlier request's
	breakStart                // a service began before an earlier request's
	breakWasted               // a worker served, into the window, a request its client had given up on
	breakSendOrder            // never: sends and due instants are in order
)

// engineOrder returns the first request of the window that breaks the order
// the summary needs, and how; −1 when none does. Besides the window's own
// requests it looks at those just before it back to the first reply: a
// request the client gave up on before the window may still be served in it
// (wasted work the window's requests wait behind, which it would not show).
// That look is exact with one worker or a fixed service, whose services end
// in the order they began.
func (x *TraceIndex) engineOrder() (int, orderBreak) {
	oc, start := x.r.Engine.Clients[x.c].Outcome, x.start
	for i, n := x.lo-1, 0; i >= 0 && n < MaxTraceWindow; i, n = i-1, n+1 {
		if oc[i] == sim.OutcomeReply {
			break
		}
		if oc[i] == sim.OutcomeTimedOut && start[i] >= 0 && x.lo < x.hi && start[i] <= x.to {
			return i - x.lo, breakWasted
		}
	}
	for j := 0; j < x.Len(); j++ {
		if oc[x.lo+j] != sim.OutcomeReply {
			return j, breakOutcome
		}
		if j == 0 {
			continue
		}
		switch {
		case x.Done(j) < x.Done(j-1):
			return j, breakDone
		case x.Start(j) < x.Start(j-1):
			return j, breakStart
		case x.Send(j) < x.Send(j-1) || x.Due(j) < x.Due(j-1):
			return j, breakSendOrder
		}
	}
	return -1, breakNone
}

// Refusal is a window of an event-driven run that the animation
// cannot draw, and why: within it a client's requests are not answered in
// the order they were sent. Its instants are nanoseconds of virtual time:
// Text writes them with the caller's formatter (the page's, app/units),
// Error with FormatDuration (logs and tests).
type Refusal struct {
	Window, Windows int    // the window asked for, from 0, and how many the run has
	Kind            string // "stall", "outage" or "worst"
	From, To        int64  // the window's bounds
	Client          sim.Client
	Request         int64 // the request that breaks the order: its position in the client's sends, from 0
	At              int64 // when its outcome came, or its service began (a service out of order, a wasted one)
	GaveUp          int64 // a timed-out request a worker served anyway: when the client gave up on it
	why             orderBreak
	outcome         sim.Outcome
	// Retries counts, in a run with retries, each client's retries in the
	// window (nil otherwise): what the animation cannot draw yet, in words.
	Retries []Retries
}

// Error is Text with the instants to the microsecond in FormatDuration's
// syntax.
func (e *Refusal) Error() string {
	return e.Text(func(t int64) string { return sim.FormatDuration(int64(time.Duration(t).Round(time.Microsecond))) })
}

// Text says which window is refused and why, in words, writing its instants
// with dur and its counts plainly.
func (e *Refusal) Text(dur func(ns int64) string) string {
	return e.TextCounts(dur, plainCount)
}

// TextCounts is Text with its counts written by count (the page's,
// app/units.Count: 11,897).
func (e *Refusal) TextCounts(dur, count func(int64) string) string {
	return fmt.Sprintf("The animation cannot draw %s yet: there the %s client's request %s %s. It draws only windows whose requests are answered in the order they were sent.",
		e.where(), e.Client, count(e.Request+1), e.reason(dur)) + e.retriesText(dur, count)
}

// ByCalls says why a window of a run with retries is drawn by calls
// (NewRetryWindow) rather than by the queue animation, in words, with its
// instants written by dur and its counts by count.
func (e *Refusal) ByCalls(dur, count func(int64) string) string {
	return fmt.Sprintf("In %s the requests are not answered in the order they were sent (the %s client's request %s %s), "+
		"so the stages draw calls instead of requests on a time axis: each mark is a call, in the state it is in at the moment shown; "+
		"a call whose attempt fails waits out the backoff and goes back to the queue with its next attempt.",
		e.where(), e.Client, count(e.Request+1), e.reason(dur)) + e.retriesText(dur, count)
}

// where names the window.
func (e *Refusal) where() string {
	switch e.Kind {
	case "outage": // the outages come first, then the worst reply
		return fmt.Sprintf("outage %d (window %d of %d)", e.Window+1, e.Window+1, e.Windows)
	case "worst":
		return fmt.Sprintf("the window around the worst reply (window %d of %d)", e.Window+1, e.Windows)
	}
	return fmt.Sprintf("stall %d of %d", e.Window+1, e.Windows)
}

// retriesText counts each client's retries in the window, in words ("" in
// a run without retries).
func (e *Refusal) retriesText(dur, count func(int64) string) string {
	if len(e.Retries) == 0 {
		return ""
	}
	parts := make([]string, len(e.Retries))
	for i, w := range e.Retries {
		parts[i] = fmt.Sprintf("the %s client sent %s for %s, %s failed all %d attempts", w.Client, plural(count, w.Retries, "retry", "retries"),
			plural(count, w.Calls, "call", "calls"), plural(count, w.FailedCalls, "call", "calls"), w.Attempts)
		if w.MostWaiting > 0 {
			parts[i] += fmt.Sprintf(", up to %s waited out a backoff at once (first at %s)", plural(count, w.MostWaiting, "call", "calls"), dur(w.MostAt))
		}
	}
	return " In this window " + strings.Join(parts, "; ") + "."
}

func plainCount(n int64) string { return strconv.FormatInt(n, 10) }

// plural writes n with count and its noun, singular for 1.
func plural(count func(int64) string, n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// reason is why the request breaks the order, its instants written by dur.
func (e *Refusal) reason(dur func(ns int64) string) string {
	at := dur(e.At)
	switch {
	case e.why == breakWasted:
		return fmt.Sprintf("timed out (the client gave up on it at %s) and a worker served it anyway from %s, into the window", dur(e.GaveUp), at)
	case e.why == breakOutcome && e.outcome == sim.OutcomeTimedOut:
		return fmt.Sprintf("timed out at %s (the client gave up on it)", at)
	case e.why == breakOutcome && e.outcome == sim.OutcomeRejected:
		return fmt.Sprintf("was rejected at once at %s (the bounded queue was full)", at)
	case e.why == breakOutcome:
		return fmt.Sprintf("was failed at once at %s by an outage", at)
	case e.why == breakDone:
		return fmt.Sprintf("was answered at %s, before the one sent before it (several workers with random service times finish out of order)", at)
	}
	return fmt.Sprintf("began its service at %s, before the one sent before it", at)
}

// refusal describes request j of index x breaking the order.
func (x *TraceIndex) refusal(j int, why orderBreak) *Refusal {
	i := x.lo + j
	cr, ec := &x.r.Clients[x.c], &x.r.Engine.Clients[x.c]
	e := &Refusal{Client: x.c, Request: int64(i), At: cr.Done[i], why: why, outcome: ec.Outcome[i]}
	switch why {
	case breakWasted:
		e.At, e.GaveUp = ec.Start[i], cr.Done[i]
	case breakStart, breakSendOrder:
		e.At = ec.Start[i]
	}
	return e
}
