package window

import (
	"sort"

	"omission/sim"
	"omission/sim/internal/hook"
	"omission/sim/internal/stall"
)

// TraceIndex reads the requests TraceWindow(c, from, to) would return, one at
// a time and in the same order, without building the slice. The animation
// walks windows of up to millions of requests through it and keeps only
// summaries; a frame then reads a handful of requests by position.
//
// Within a window of the constant-rate model the due, send, start and reply
// instants never decrease with the position (one FIFO server, a constant
// service time, stalls that pause every worker), so counting the requests
// past any of these instants at a time t is a binary search
// (TestTraceIndexMonotone checks it on random runs).
type TraceIndex struct {
	r        *sim.Result
	c        sim.Client
	lo, hi   int // positions lo..hi-1 of the client's requests
	from, to int64
	st       stall.Series
	sched    sim.Schedule
	e        int64 // the correction's expected interval; 0 for the open loop
	slot     int64 // the paced client's slot
	// The requests' sends (nil for the open loop) and replies, element 0
	// being request base: the whole run's (base 0), or for a long run the
	// window re-simulated (sim's long_resim.go).
	send, done []int64
	base       int
	sent       int  // requests the client sent in the whole run
	cut        bool // a long run's window held more than MaxTraceWindow requests
	// An event-driven run's (engine.go): the due instants (the shared
	// schedule, or the sends) and the service starts, from request 0; the
	// paced client's plans.
	due, start []int64
	plans      *pacedPlan
	// The paced client's anchor at a send, the last one found
	// (pacedAnchor), when 1/rate is not a whole number of nanoseconds; and
	// at send[0] of a long run's window, from its re-simulation.
	anchorAt        int // an index into send; -1: none yet
	anchor, anchorK int64
	ckpt            []pacedState // at sends lo-base, +anchorStride, …
	base0           baseAnchor
}

// MaxTraceWindow bounds the requests of one client that a long run's trace
// window re-simulates; a window that holds more is cut after them
// (TraceIndex.Cut says so).
const MaxTraceWindow = 1 << 21

// baseAnchor is the paced client's anchor and slot number at the first send
// a long run's window re-simulated.
type baseAnchor struct {
	known        bool
	anchor, slot int64
}

// TraceIndexOf returns the index of TraceWindow(c, from, to), or nil when the
// run kept no per-request data and cannot simulate the window again (an
// event-driven run beyond ExactSamples; TraceWindow is nil then too). A long
// deterministic run simulates the window again, at most MaxTraceWindow
// requests of it. An event-driven run's index reads its per-request data;
// its instants keep their order only where engineOrder finds they do.
func TraceIndexOf(r *sim.Result, c sim.Client, from, to int64) *TraceIndex {
	if r.Engine != nil {
		return engineTraceIndex(r, c, from, to)
	}
	cr := &r.Clients[c]
	x := &TraceIndex{r: r, c: c, from: from, to: to, st: newStalls(r.Config), sched: r.Schedule(), slot: r.Config.PacedSlot(),
		send: cr.Send, done: cr.Done, sent: int(cr.Sent), anchorAt: -1}
	switch c {
	case sim.ClosedClient:
		x.e = r.Recordings[sim.Corrected].Interval
	case sim.PacedClient:
		x.e = r.Recordings[sim.PacedCorrected].Interval
	}
	long := hook.Long(r)
	switch {
	case cr.Done != nil:
		x.sent = len(cr.Done)
		x.lo = firstDoneAfter(r, c, from)
		n := len(cr.Done) - x.lo
		x.hi = x.lo + sort.Search(n, func(j int) bool { return dueOf(r, c, x.lo+j) > to })
	case long != nil:
		lo := long.FirstDoneAfter(int(c), from)
		var hi int64
		if c == sim.PacedClient {
			hi = max(lo, long.PacedFirst(func(s, _ int64) bool { return s > to }))
		} else {
			hi = max(lo, min(cr.Sent, r.Schedule().Count(to+1)))
		}
		if hi-lo > MaxTraceWindow {
			hi, x.cut = lo+MaxTraceWindow, true
		}
		var anchor, slot int64
		x.send, x.done, anchor, slot = long.Window(int(c), lo, hi)
		x.base0 = baseAnchor{known: c == sim.PacedClient, anchor: anchor, slot: slot}
		x.lo, x.hi, x.base = int(lo), int(hi), int(lo)
	default:
		return nil
	}
	return x
}

// Cut reports whether a long run's window held more than MaxTraceWindow
// requests of the client: the index then stops after them.
func (x *TraceIndex) Cut() bool { return x.cut }

// Len returns how many requests the window holds.
func (x *TraceIndex) Len() int { return x.hi - x.lo }

// Client returns the client the index reads.
func (x *TraceIndex) Client() sim.Client { return x.c }

// Window returns the window's bounds.
func (x *TraceIndex) Window() (from, to int64) { return x.from, x.to }

// Above returns the threshold of the run.
func (x *TraceIndex) Above() int64 { return x.r.Config.Above }

// Interval returns the expected interval of the client's corrected recording
// (0 for the open loop, which has none).
func (x *TraceIndex) Interval() int64 { return x.e }

// Slot returns the paced client's slot: the step of its skipped slots.
func (x *TraceIndex) Slot() int64 { return x.slot }

// Due returns the due instant of request j (a cheap part of At).
func (x *TraceIndex) Due(j int) int64 {
	if x.due != nil {
		return x.due[x.lo+j]
	}
	if x.c == sim.PacedClient {
		return x.send[x.lo+j-x.base]
	}
	return x.sched.Due(int64(x.lo + j))
}

// Send returns when request j left the client (a cheap part of At).
func (x *TraceIndex) Send(j int) int64 {
	if x.send != nil {
		return x.send[x.lo+j-x.base]
	}
	return x.Due(j)
}

// Done returns when request j was answered (a cheap part of At).
func (x *TraceIndex) Done(j int) int64 { return x.done[x.lo+j-x.base] }

// Latency returns what the client recorded for request j (a cheap part of At).
func (x *TraceIndex) Latency(j int) int64 {
	if x.send != nil {
		return x.Done(j) - x.Send(j)
	}
	return x.Done(j) - x.Due(j)
}

// Start returns when the server began serving request j.
func (x *TraceIndex) Start(j int) int64 {
	if x.start != nil {
		return x.start[x.lo+j]
	}
	return x.st.ServiceStart(x.Done(j), x.r.Config.Service)
}

// At returns request j, 0 <= j < Len(): TraceWindow's Requests[j].
func (x *TraceIndex) At(j int) TraceRequest {
	if x.start != nil {
		return x.engineAt(j)
	}
	i := x.lo + j
	due, send, done := x.Due(j), x.Send(j), x.Done(j)
	S := x.r.Config.Service
	start := x.st.ServiceStart(done, S)
	req := TraceRequest{Index: int64(i), Due: due, Send: send, Start: start, Done: done, Latency: x.Latency(j), Stall: -1}
	if done-due > S || done-start > S {
		if n := x.st.Count(done); n > 0 {
			req.Stall = n - 1
		}
	}
	return req
}

// Correction returns how many samples the client's corrected recording adds
// for a reply that recorded latency, and how many of those are above the
// threshold (0, 0 for the open loop).
func (x *TraceIndex) Correction(latency int64) (count, above int64) {
	if x.c == sim.OpenClient {
		return 0, 0
	}
	k := sim.CorrectionCount(latency, x.e)
	if k == 0 {
		return 0, 0
	}
	return k, correctedAbove(latency, x.e, x.r.Config.Above) - 1
}

// Synthetic returns the samples the correction adds for request j, as
// TraceWindow lists them, and whether there are any.
func (x *TraceIndex) Synthetic(j int) (Synthetic, bool) {
	lat := x.Latency(j)
	k, above := x.Correction(lat)
	if k == 0 {
		return Synthetic{}, false
	}
	kind := sim.Corrected
	if x.c == sim.PacedClient {
		kind = sim.PacedCorrected
	}
	return Synthetic{Index: int64(x.lo + j), At: x.Done(j), From: lat - x.e, Step: x.e, Count: k,
		AboveCount: above, ReplyLatency: lat, CorrectionFor: kind}, true
}

// NeverSentAfter returns the paced client's skipped slots that follow request
// j in the window: count slots first, first+Slot(), …, the entries of
// TraceWindow's NeverSent that lie between this send and the next. The count
// and the first are exact; when 1/rate is not a whole number of nanoseconds
// the k-th later slot lies within k/2 + 1 ns of first+k·Slot() (the rounded
// slot; pacedAnchor has the exact schedule).
func (x *TraceIndex) NeverSentAfter(j int) (first, count int64) {
	if x.r.Engine != nil {
		if x.c != sim.PacedClient || x.lo+j+1 >= x.sent {
			return 0, 0
		}
		return x.engineSkipped(x.lo+j, x.from, min(x.send[x.lo+j+1], x.to))
	}
	i := x.lo + j - x.base
	if x.c != sim.PacedClient || x.lo+j+1 >= x.sent || i+1 >= len(x.send) || x.slot <= 0 {
		return 0, 0
	}
	send, next := x.send[i], x.send[i+1]
	end := min(next, x.to) // slots strictly before end
	if a, k, ok := x.pacedAnchor(i); ok {
		if next == a+x.sched.Due(k+1) {
			return 0, 0 // on time: no slot between
		}
		return x.slotsOf(a, k, end)
	}
	// Slots send + k·slot, k >= 1, with from <= slot < end.
	k0 := int64(1)
	if send+x.slot < x.from {
		k0 = ceilDiv(x.from-send, x.slot)
	}
	first = send + k0*x.slot
	if first >= end {
		return 0, 0
	}
	return first, (end-first-1)/x.slot + 1
}

// NeverSentTail returns the paced client's skipped slots after its last
// send of the whole run, when that send is in the window: the slots of its
// schedule that come due, before the end of the duration and within the
// window, while it waits for a reply that arrives too late or never. They
// are not in TraceWindow's NeverSent, which lists slots between two sends.
func (x *TraceIndex) NeverSentTail() (first, count int64) {
	if x.c != sim.PacedClient || x.hi == x.lo || x.hi != x.sent || x.slot <= 0 {
		return 0, 0
	}
	if x.r.Engine != nil {
		return x.engineSkipped(x.hi-1, x.from, min(x.r.Config.Duration, x.to+1))
	}
	send := x.send[x.hi-1-x.base]
	end := min(x.r.Config.Duration, x.to+1) // slots strictly before end
	if a, k, ok := x.pacedAnchor(x.hi - 1 - x.base); ok {
		return x.slotsOf(a, k, end)
	}
	k0 := int64(1)
	if send+x.slot < x.from {
		k0 = ceilDiv(x.from-send, x.slot)
	}
	first = send + k0*x.slot
	if first >= end {
		return 0, 0
	}
	return first, (end-first-1)/x.slot + 1
}

// pacedAnchor returns, for the paced client's send i (an index into x.send),
// the anchor a of the schedule it followed and its slot number there:
// send = a + Due(k). The paced client's slot k after an anchor is at
// a + round(k/rate) (stepPacedRounded), so when 1/rate is not a whole number
// of nanoseconds the gaps between its slots differ by a nanosecond and
// stepping by one slot length drifts; this replays the anchors instead. A
// send is on time when it falls on the next slot of its anchor; otherwise it
// is late and anchors the schedule itself. The replay starts from a send
// known to be an anchor: the run's first (data from request 0), or one that
// came more than a slot and a nanosecond after the one before (surely
// late), or a long run's window's first, whose anchor its re-simulation
// knows. ok is false when 1/rate is whole (stepping is exact then).
func (x *TraceIndex) pacedAnchor(i int) (a, k int64, ok bool) {
	if x.sched.Exact() || i < 0 || i >= len(x.send) {
		return 0, 0, false
	}
	switch {
	case x.anchorAt >= 0 && x.anchorAt <= i && i-x.anchorAt < anchorStride:
		// On from the last send asked for: the summaries ask in order.
		a, k = x.replay(x.anchorAt, i, x.anchor, x.anchorK)
	case i >= x.lo-x.base:
		// From the checkpoint below: a frame asks from a block's start.
		if x.ckpt == nil {
			s0 := x.lo - x.base
			j, a, k, ok := x.knownAnchor(s0)
			if !ok {
				return 0, 0, false
			}
			a, k = x.replay(j, s0, a, k)
			x.ckpt = []pacedState{{a, k}}
		}
		s0 := x.lo - x.base
		b := (i - s0) / anchorStride
		for len(x.ckpt) <= b {
			n := len(x.ckpt) - 1
			last := x.ckpt[n]
			na, nk := x.replay(s0+n*anchorStride, s0+(n+1)*anchorStride, last.anchor, last.slot)
			x.ckpt = append(x.ckpt, pacedState{na, nk})
		}
		a, k = x.replay(s0+b*anchorStride, i, x.ckpt[b].anchor, x.ckpt[b].slot)
	default:
		j, a0, k0, ok := x.knownAnchor(i)
		if !ok {
			return 0, 0, false
		}
		a, k = x.replay(j, i, a0, k0)
	}
	x.anchorAt, x.anchor, x.anchorK = i, a, k
	return a, k, true
}

// anchorStride is how many sends apart pacedAnchor keeps checkpoints.
const anchorStride = 1024

// pacedState is the paced client's anchor and slot number at a send.
type pacedState struct{ anchor, slot int64 }

// knownAnchor finds the last send at or before i whose anchor is known:
// one that came more than a slot and a nanosecond after the one before
// (surely late: it anchors the schedule), the run's first, or a long run's
// window's first (its re-simulation knows its anchor).
func (x *TraceIndex) knownAnchor(i int) (j int, a, k int64, ok bool) {
	most := x.sched.Due(1) + 1 // the longest gap between two slots, and then some
	for j = i; j > 0 && x.send[j]-x.send[j-1] <= most; j-- {
	}
	switch {
	case j == 0 && x.base != 0 && !x.base0.known:
		return 0, 0, 0, false
	case j == 0 && x.base != 0:
		return 0, x.base0.anchor, x.base0.slot, true
	}
	return j, x.send[j], 0, true
}

// replay follows the paced client from its send j (anchor a, slot k) to its
// send i: a send on the next slot keeps the anchor, any other anchors anew.
func (x *TraceIndex) replay(j, i int, a, k int64) (int64, int64) {
	for ; j < i; j++ {
		if x.send[j+1] == a+x.sched.Due(k+1) {
			k++
		} else {
			a, k = x.send[j+1], 0
		}
	}
	return a, k
}

// slotsOf returns the slots a + Due(q), q > k, in [x.from, end): the first
// and how many (the slots of a schedule a late reply passed).
func (x *TraceIndex) slotsOf(a, k, end int64) (first, count int64) {
	q0 := max(k+1, x.sched.Count(x.from-a))
	q1 := x.sched.Count(end - a)
	if q1 <= q0 {
		return 0, 0
	}
	return a + x.sched.Due(q0), q1 - q0
}
