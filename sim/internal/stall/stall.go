package stall

import "math"

// Never is an instant no run reaches: the start of the stall after the
// last of a single stall, or of any stall when there is none.
const Never = int64(math.MaxInt64)

// Series is the server's stall schedule: stall j is the half-open window
// [first + j·every, first + j·every + length). every = 0 means one stall.
type Series struct {
	First, Every, Length int64
}

// New returns the schedule of stalls of length from first, every every
// (0: one stall); a length of 0 means no stall.
func New(length, first, every int64) Series {
	if length == 0 {
		return Series{First: Never}
	}
	return Series{First: first, Every: every, Length: length}
}

// FirstEndingAfter returns the start of the first stall whose end is after t.
func (s Series) FirstEndingAfter(t int64) int64 {
	if s.First == Never || s.First+s.Length > t {
		return s.First
	}
	if s.Every == 0 {
		return Never
	}
	j := (t-s.Length-s.First)/s.Every + 1
	return s.First + j*s.Every
}

// Next returns the start of the stall after the one starting at ns.
func (s Series) Next(ns int64) int64 {
	if s.Every == 0 || ns == Never {
		return Never
	}
	return ns + s.Every
}

// Count returns how many stalls begin before t.
func (s Series) Count(t int64) int64 {
	if s.First == Never || t <= s.First {
		return 0
	}
	if s.Every == 0 {
		return 1
	}
	return (t-1-s.First)/s.Every + 1
}

// Start returns the start of stall j.
func (s Series) Start(j int64) int64 { return s.First + j*s.Every }

// ServeFrom is the stall model for a request that reaches a worker at t with
// service s, where ns is the start of the first stall that ends after t:
//
//   - A request that would start inside a stall starts when the stall ends.
//   - A stall that begins strictly inside a service adds its length to it.
//   - A stall that begins exactly at a completion leaves that request alone.
//
// A completion that would pass horizon saturates at horizon + 1 (the event
// engine's drain limit; Never on the fast path).
func (st Series) ServeFrom(t, s, ns, horizon int64) (start, done int64) {
	start = t
	if ns <= t { // inside [ns, ns+length)
		start = ns + st.Length
		ns = st.Next(ns)
	}
	done = start + s
	if ns >= done { // no stall begins strictly inside the service
		return start, done
	}
	// In closed form over however many stalls the service spans.
	L := st.Length
	rest := s - (ns - start) // work left when the stall at ns begins; > 0
	if st.Every == 0 {
		return start, ns + L + rest
	}
	work := st.Every - L   // work possible between two stalls
	m := (rest - 1) / work // further stalls that begin strictly inside
	if m > (horizon-ns)/st.Every {
		return start, horizon + 1 // past the drain limit: the run is refused
	}
	return start, ns + L + m*st.Every + (rest - m*work)
}

// ServeAt is the stall model with no state: where a request ready at t with
// service s starts and completes.
func (st Series) ServeAt(t, s int64) (start, done int64) {
	return st.ServeFrom(t, s, st.FirstEndingAfter(t), Never)
}

// ServiceStart inverts the stall model: the instant a service of S that
// ended at done began. The service took S of the server's working time (the
// time outside stalls), so it began at the latest instant with S less
// working time behind it than done: at a stall's end when it waited for
// one. In closed form, whatever the number of stalls it spans.
func (st Series) ServiceStart(done, S int64) int64 {
	if S <= 0 || st.First == Never {
		return done - S
	}
	return st.LatestWorked(st.Worked(done) - S)
}

// Worked returns the working time in [0, t): t less the stalled time.
func (s Series) Worked(t int64) int64 {
	if s.First == Never || t <= s.First {
		return t
	}
	if s.Every == 0 {
		return t - min(t-s.First, s.Length)
	}
	j := (t - s.First) / s.Every // stalls begun at or before t, less one
	in := min(t-s.First-j*s.Every, s.Length)
	return t - j*s.Length - in
}

// LatestWorked returns the latest instant with w of working time before it
// (w >= 0): the end of a stall when w is reached as one begins.
func (s Series) LatestWorked(w int64) int64 {
	if s.First == Never || w < s.First {
		return w
	}
	w -= s.First // working time after the first stall begins
	if s.Every == 0 {
		return s.First + s.Length + w
	}
	W := s.Every - s.Length // working time after each stall
	j := w / W
	return s.First + j*s.Every + s.Length + (w - j*W)
}

// ZoneEnd returns, for t outside every stall and ns the Next stall's start,
// the first instant after t at which a service of S ready then could be
// stretched differently (done − ready changes): where the service begins to
// reach the stall at ns, or each further stall it spans, or the stall itself.
func (st Series) ZoneEnd(t, ns, S int64) int64 {
	if ns == Never {
		return Never
	}
	w := ns - t
	if S <= w {
		return min(ns, ns-S+1)
	}
	if st.Every == 0 {
		return ns
	}
	work := st.Every - st.Length
	q := (S - w - 1) / work
	return min(ns, ns-S+1+(q+1)*work)
}
