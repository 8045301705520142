package sim

import "omission/sim/internal/stall"

const never = stall.Never

// stallSeries is the server's stall schedule (sim/internal/stall, which
// sim/window reads too): stall j is the half-open window [First + j·Every,
// First + j·Every + Length). Every = 0 means one stall.
type stallSeries = stall.Series

func newStalls(c Config) stallSeries { return stall.New(c.Stall, c.First, c.Every) }

// server is the stall model (stall.Series.ServeFrom) for requests whose ready times never
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
	return server{st: st, ns: st.First, service: c.Service, horizon: never}
}

// serve returns the start and completion of a request ready at t that takes
// the configured service. Ready times must not decrease from call to call.
func (sv *server) serve(t int64) (start, done int64) { return sv.serveFor(t, sv.service) }

// serveFor is serve for a service of s.
func (sv *server) serveFor(t, s int64) (start, done int64) {
	if sv.ns != never && sv.ns+sv.st.Length <= t { // that stall is over: find the next one
		sv.ns = sv.st.FirstEndingAfter(t)
	}
	return sv.st.ServeFrom(t, s, sv.ns, sv.horizon)
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
