package sim

import "math"

const never = int64(math.MaxInt64)

// stallSeries is the server's stall schedule: stall j is the half-open window
// [first + j·every, first + j·every + length). every = 0 means one stall.
type stallSeries struct {
	first, every, length int64
}

func newStalls(c Config) stallSeries {
	if c.Stall == 0 {
		return stallSeries{first: never}
	}
	return stallSeries{first: c.First, every: c.Every, length: c.Stall}
}

// firstEndingAfter returns the start of the first stall whose end is after t.
func (s stallSeries) firstEndingAfter(t int64) int64 {
	if s.first == never || s.first+s.length > t {
		return s.first
	}
	if s.every == 0 {
		return never
	}
	j := (t-s.length-s.first)/s.every + 1
	return s.first + j*s.every
}

// next returns the start of the stall after the one starting at ns.
func (s stallSeries) next(ns int64) int64 {
	if s.every == 0 || ns == never {
		return never
	}
	return ns + s.every
}

// Count returns how many stalls begin before t.
func (s stallSeries) Count(t int64) int64 {
	if s.first == never || t <= s.first {
		return 0
	}
	if s.every == 0 {
		return 1
	}
	return (t-1-s.first)/s.every + 1
}

// Start returns the start of stall j.
func (s stallSeries) Start(j int64) int64 { return s.first + j*s.every }

// serveFrom is the stall model for a request that reaches a worker at t with
// service s, where ns is the start of the first stall that ends after t:
//
//   - A request that would start inside a stall starts when the stall ends.
//   - A stall that begins strictly inside a service adds its length to it.
//   - A stall that begins exactly at a completion leaves that request alone.
//
// A completion that would pass horizon saturates at horizon + 1 (the event
// engine's drain limit; never on the fast path).
func (st stallSeries) serveFrom(t, s, ns, horizon int64) (start, done int64) {
	start = t
	if ns <= t { // inside [ns, ns+length)
		start = ns + st.length
		ns = st.next(ns)
	}
	done = start + s
	if ns >= done { // no stall begins strictly inside the service
		return start, done
	}
	// In closed form over however many stalls the service spans.
	L := st.length
	rest := s - (ns - start) // work left when the stall at ns begins; > 0
	if st.every == 0 {
		return start, ns + L + rest
	}
	work := st.every - L   // work possible between two stalls
	m := (rest - 1) / work // further stalls that begin strictly inside
	if m > (horizon-ns)/st.every {
		return start, horizon + 1 // past the drain limit: the run is refused
	}
	return start, ns + L + m*st.every + (rest - m*work)
}

// serveAt is the stall model with no state: where a request ready at t with
// service s starts and completes.
func (st stallSeries) serveAt(t, s int64) (start, done int64) {
	return st.serveFrom(t, s, st.firstEndingAfter(t), never)
}

// server is the stall model (serveFrom) for requests whose ready times never
// decrease: it remembers the next stall, so that a call costs a comparison
// or two. It holds no worker state: a request becomes ready at t (the later
// of its arrival and a free worker) and serve says when it starts and
// completes. The fast path (fixed service) and the event engine (a service
// per request, and the drain horizon) share it.
type server struct {
	st      stallSeries
	ns      int64 // start of the first stall that ends after the last ready time
	service int64
	horizon int64 // completions beyond it saturate just past it (the engine's drain limit)
}

func newServer(c Config) server {
	st := newStalls(c)
	return server{st: st, ns: st.first, service: c.Service, horizon: never}
}

// serve returns the start and completion of a request ready at t that takes
// the configured service. Ready times must not decrease from call to call.
func (sv *server) serve(t int64) (start, done int64) { return sv.serveFor(t, sv.service) }

// serveFor is serve for a service of s.
func (sv *server) serveFor(t, s int64) (start, done int64) {
	if sv.ns != never && sv.ns+sv.st.length <= t { // that stall is over: find the next one
		sv.ns = sv.st.firstEndingAfter(t)
	}
	return sv.st.serveFrom(t, s, sv.ns, sv.horizon)
}

// minHeap is a binary min-heap of times with an index tie-break, used for
// the free times of connections and workers.
type minHeap struct {
	t  []int64
	id []int32
}

func newMinHeap(n int) *minHeap {
	h := &minHeap{t: make([]int64, n), id: make([]int32, n)}
	for i := range h.id {
		h.id[i] = int32(i)
	}
	return h
}

func (h *minHeap) less(a, b int) bool {
	return h.t[a] < h.t[b] || h.t[a] == h.t[b] && h.id[a] < h.id[b]
}

// replaceMin sets the minimum's time to t and restores the heap.
func (h *minHeap) replaceMin(t int64) {
	h.t[0] = t
	n := len(h.t)
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.t[i], h.t[m] = h.t[m], h.t[i]
		h.id[i], h.id[m] = h.id[m], h.id[i]
		i = m
	}
}

// serviceStart inverts the stall model: the instant a service of S that
// ended at done began. The service took S of the server's working time (the
// time outside stalls), so it began at the latest instant with S less
// working time behind it than done: at a stall's end when it waited for
// one. In closed form, whatever the number of stalls it spans.
func serviceStart(st stallSeries, done, S int64) int64 {
	if S <= 0 || st.first == never {
		return done - S
	}
	return st.latestWorked(st.worked(done) - S)
}

// worked returns the working time in [0, t): t less the stalled time.
func (s stallSeries) worked(t int64) int64 {
	if s.first == never || t <= s.first {
		return t
	}
	if s.every == 0 {
		return t - min(t-s.first, s.length)
	}
	j := (t - s.first) / s.every // stalls begun at or before t, less one
	in := min(t-s.first-j*s.every, s.length)
	return t - j*s.length - in
}

// latestWorked returns the latest instant with w of working time before it
// (w >= 0): the end of a stall when w is reached as one begins.
func (s stallSeries) latestWorked(w int64) int64 {
	if s.first == never || w < s.first {
		return w
	}
	w -= s.first // working time after the first stall begins
	if s.every == 0 {
		return s.first + s.length + w
	}
	W := s.every - s.length // working time after each stall
	j := w / W
	return s.first + j*s.every + s.length + (w - j*W)
}
