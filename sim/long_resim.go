package sim

import "sort"

// A long run keeps no per-request data. What the animation reads of a window
// (sim/window's TraceIndexOf, TraceWindow, StallWindow) it gets by
// simulating that window again: the state of a client at any request is
// reachable without walking there (the long path's stretches give any
// reply, and the state is the replies of the last few requests), and from
// it the walk of walk.go goes on request by request, as the first run did.
// sim/window reaches them through sim/internal/hook (hooks.go), as a
// longResim.

// longDones returns the replies of requests a … b−1 of client c (closed or
// open) of a long run, walking each class of its timeline once.
func (r *Result) longDones(c Client, a, b int64) []int64 {
	out := make([]int64, max(b-a, 0))
	if len(out) == 0 {
		return out
	}
	k, chain := longSlots(r.Config, c)
	for cl := int64(0); cl < k; cl++ {
		it := newClassIter(r.Config, r.Planned, cl, k, chain)
		mLo := max(0, ceilDiv(a-cl, k))
		if a < cl {
			mLo = 0
		}
		var g seg
		for it.next(&g) && it.index(g.m0) < b {
			for m := max(g.m0, mLo); m < g.m0+g.n && it.index(m) < b; m++ {
				out[it.index(m)-a] = it.doneAt(&g, m)
			}
		}
	}
	return out
}

// longFirstDone returns the first request of client c's timeline (closed or
// open) answered after t (at or after t when !strict), or the run's count:
// the least over the classes of the timeline, each walked once up to it
// (replies never decrease within a class, nor within a stretch).
func (r *Result) longFirstDone(c Client, t int64, strict bool) int64 {
	pass := func(d int64) bool { return d > t || !strict && d == t }
	k, chain := longSlots(r.Config, c)
	best := r.Clients[c].Sent
	for cl := int64(0); cl < k && cl < best; cl++ {
		it := newClassIter(r.Config, r.Planned, cl, k, chain)
		var g seg
		for it.next(&g) && it.index(g.m0) < best {
			if !pass(it.doneAt(&g, g.m0+g.n-1)) {
				continue
			}
			m := firstAt(g.m0, g.m0+g.n, func(m int64) bool { return pass(it.doneAt(&g, m)) })
			best = min(best, it.index(m))
			break
		}
	}
	return best
}

// longPacedFirst returns the first send of the paced client of a long run
// for which f(send, reply) holds (f never turns false again along the
// sends), or its count: one walk over its stretches, and a bisection inside
// the one where f turns true (a copy of the walk, capped at a send, gives
// that send).
func (r *Result) longPacedFirst(f func(send, done int64) bool) int64 {
	S := r.Config.Service
	p := newPacedIter(r.Config, r.Clients[PacedClient].Sent)
	var g pacedSeg
	for {
		before := *p
		if !p.next(&g) {
			return p.sent
		}
		if g.quiet {
			if !f(g.lastT, g.lastT+S) {
				continue
			}
			return firstAt(before.sent, p.sent, func(i int64) bool {
				q := before
				q.n = i + 1
				var h pacedSeg
				q.next(&h)
				return f(h.lastT, h.lastT+S)
			})
		}
		if f(g.t, g.done) {
			return before.sent
		}
	}
}

// longPaced returns the paced client's walk standing before its send i.
func (r *Result) longPaced(i int64) *pacedIter {
	p := newPacedIter(r.Config, i)
	var g pacedSeg
	for p.next(&g) {
	}
	return p
}

// firstAt returns the least i in [lo, hi) with f(i) (f monotone), or hi.
func firstAt(lo, hi int64, f func(int64) bool) int64 {
	n := sort.Search(int(hi-lo), func(j int) bool { return f(lo + int64(j)) })
	return lo + int64(n)
}

// longFirstDoneAfter is firstDoneAfter for a long run: the first request, in
// send order, sent at or after t or answered after it (sends and replies
// never decrease with the position on this model).
func (r *Result) longFirstDoneAfter(c Client, t int64) int64 {
	n := r.Clients[c].Sent
	switch c {
	case PacedClient:
		return r.longPacedFirst(func(s, d int64) bool { return s >= t || d > t })
	case OpenClient:
		return min(r.Schedule().Count(t), n, r.longFirstDone(c, t, true))
	}
	// A closed request i is sent at max(due_i, done_{i−N}): at or after t
	// from the first due at t, or N after the first reply at t.
	sent := min(r.Schedule().Count(t), r.longFirstDone(c, t, false)+int64(r.Config.Conns), n)
	return min(sent, r.longFirstDone(c, t, true))
}

// resim returns the walk of client c of a long run, standing before request
// lo in the state the run had there, with room for size requests (the
// buffers are reused when the walk goes on: see walkOn).
func (r *Result) resim(c Client, lo, size int64) *clientSim {
	cfg := r.Config
	s := newClientSim(c, cfg, 0)
	s.n = r.Planned
	s.i, s.base = lo, lo
	s.fin = make([]int64, size)
	if c != OpenClient {
		s.send = make([]int64, size)
	}
	sched := r.Schedule()
	setDue := func(it *dueIter, i int64) {
		it.q, it.r, it.index = uint64(sched.Due(i)), dueRemainder(sched, i), i
	}
	if c == PacedClient {
		p := r.longPaced(lo)
		s.next, s.anchor = p.t, p.anchor
		setDue(&s.slots, p.j)
		return s
	}
	setDue(&s.due, lo)
	// The free times of connections and workers are the replies of the last
	// requests (replies never come out of order): any order is a heap when
	// sorted.
	fill := func(h *minHeap) {
		k := int64(len(h.t))
		vals := r.longDones(c, lo-k, lo)
		for j := range h.t {
			h.t[j] = 0
			if j < len(vals) && lo-k+int64(j) >= 0 {
				h.t[j] = vals[j]
			}
		}
		sort.Slice(h.t, func(a, b int) bool { return h.t[a] < h.t[b] })
	}
	switch {
	case s.conns != nil || s.workers != nil:
		if s.conns != nil {
			fill(s.conns)
		}
		if s.workers != nil {
			fill(s.workers)
		}
	case s.free >= 0 && lo > 0: // one connection, or one worker
		s.free = r.longDones(c, lo-1, lo)[0]
	}
	return s
}

// walkOn simulates the next requests of a re-simulation into its buffers,
// as many as they hold; it returns how many (0 at the end of the run).
func (s *clientSim) walkOn() int64 {
	if s.finished {
		return 0
	}
	s.base = s.i
	before := s.i
	s.step(int64(len(s.fin)))
	return s.i - before
}

// longWindow re-simulates the requests lo … hi−1 of client c of a long run
// (and for the paced client the send after them), returning their sends
// (nil for the open loop) and replies.
func (r *Result) longWindow(c Client, lo, hi int64) (send, done []int64, anchor, slot int64) {
	size := hi - lo
	if c == PacedClient && hi < r.Clients[c].Sent {
		size++
	}
	if size <= 0 {
		return nil, nil, 0, 0
	}
	s := r.resim(c, lo, size)
	// The paced client's send lo is at anchor + Due(slot) of the schedule it
	// follows (sim/window's TraceIndex.pacedAnchor).
	anchor, slot = s.anchor, s.slots.index
	n := s.walkOn()
	if s.send != nil {
		send = s.send[:n]
	}
	return send, s.fin[:n], anchor, slot
}

// longDelayedUntil is sim/window's delayedUntil for a long run: it walks a
// re-simulation from the first request answered after s while requests
// wait longer than their service, at most most requests (as delayedUntil
// does: sim/window's MaxWindowRequests).
func (r *Result) longDelayedUntil(c Client, s, most int64) int64 {
	lo := r.longFirstDoneAfter(c, s)
	S, L := r.Config.Service, r.Config.Stall
	sched := r.Schedule()
	w := r.resim(c, lo, 1<<12)
	end := s
	for walked := int64(0); walked < most; {
		n := min(w.walkOn(), most-walked)
		if n == 0 {
			break
		}
		for j := int64(0); j < n; j++ {
			i := w.base + j
			due := sched.Due(i)
			lat := w.fin[j] - due
			if c == PacedClient {
				due = w.send[j]
				lat = w.fin[j] - w.send[j]
			}
			if due >= s+L && lat <= S {
				return end
			}
			end = max(end, w.fin[j])
		}
		walked += n
	}
	return end
}

// longResim is a long run as sim/window reads it (hook.LongRun).
type longResim struct{ r *Result }

func (l longResim) Window(c int, lo, hi int64) (send, done []int64, anchor, slot int64) {
	return l.r.longWindow(Client(c), lo, hi)
}

func (l longResim) FirstDoneAfter(c int, t int64) int64 {
	return l.r.longFirstDoneAfter(Client(c), t)
}

func (l longResim) PacedFirst(f func(send, done int64) bool) int64 { return l.r.longPacedFirst(f) }

func (l longResim) DelayedUntil(c int, s, most int64) int64 {
	return l.r.longDelayedUntil(Client(c), s, most)
}
