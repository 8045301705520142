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

// server is the stall model for requests whose start times never decrease.
// It holds no worker state: a request becomes ready at t (the later of its
// arrival and a free worker) and serve says when it starts and completes.
//
//   - A request that would start inside a stall starts when the stall ends.
//   - A stall that begins strictly inside a service adds its length to it.
//   - A stall that begins exactly at a completion leaves that request alone.
type server struct {
	st      stallSeries
	ns      int64 // start of the first stall that ends after the last ready time
	service int64
}

func newServer(c Config) server {
	st := newStalls(c)
	return server{st: st, ns: st.first, service: c.Service}
}

// serve returns the start and completion of a request ready at t. Ready
// times must not decrease from call to call.
func (sv *server) serve(t int64) (start, done int64) {
	ns := sv.ns
	if ns != never && ns+sv.st.length <= t {
		ns = sv.st.firstEndingAfter(t)
		sv.ns = ns
	}
	start = t
	if ns <= t { // inside [ns, ns+length)
		start = ns + sv.st.length
		ns = sv.st.next(ns)
	}
	done = start + sv.service
	if ns < done {
		done = sv.extend(start, ns)
	}
	return start, done
}

// extend computes the completion of a service that starts at start (outside
// any stall) when the stall at ns begins strictly inside it, in closed form
// over however many stalls the service spans.
func (sv *server) extend(start, ns int64) int64 {
	L := sv.st.length
	rest := sv.service - (ns - start) // work left when the stall at ns begins; > 0
	if sv.st.every == 0 {
		return ns + L + rest
	}
	work := sv.st.every - L // work possible between two stalls
	m := (rest - 1) / work  // further stalls that begin strictly inside
	return ns + L + m*sv.st.every + (rest - m*work)
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
