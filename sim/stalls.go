package sim

// A result's stalls as the charts, the article and the animation's windows
// read them: counted, by number, within a range of time, and as bands at a
// chart's resolution, whose cost follows the columns drawn, never the
// virtual time or the number of stalls. The stall model itself is server.go.

// Band is a stretch of virtual time in which the server stalled, as a chart
// of a given resolution draws it. Stalls closer together than one column are
// merged into one band; Share is the part of the band the server spent
// stalled (1 for a single stall).
type Band struct {
	From, To int64
	Share    float64
}

// StallBands returns the stalls that began before the run's last reply and
// overlap [from, to), as at most cols+1 bands for a chart of cols columns
// over that range: each stall a band of its own while stalls are at least a
// column apart, else one band from the first to the last with the share of
// time stalled.
func (r *Result) StallBands(from, to int64, cols int) []Band {
	st := newStalls(r.Config)
	if st.First == never || to <= from || cols < 1 {
		return nil
	}
	first, last := r.StallsIn(from, to)
	last = min(last, int64(r.StallCount()))
	if last <= first {
		return nil
	}
	clip := func(s, e int64) (int64, int64) { return max(s, from), min(e, to) }
	colWidth := (to - from) / int64(cols)
	if st.Every > 0 && st.Every-st.Length < colWidth && last-first > 1 {
		s, _ := clip(st.Start(first), 0)
		_, e := clip(0, st.Start(last-1)+st.Length)
		return []Band{{From: s, To: e, Share: float64(st.Length) / float64(st.Every)}}
	}
	out := make([]Band, 0, last-first)
	for j := first; j < last; j++ {
		s, e := clip(st.Start(j), st.Start(j)+st.Length)
		if e > s {
			out = append(out, Band{From: s, To: e, Share: 1})
		}
	}
	return out
}

// StallCount returns NumStalls() without building the list of stalls (a run
// may hold millions of short ones).
func (r *Result) StallCount() int {
	end := int64(0)
	for _, c := range r.Clients {
		end = max(end, c.LastCompletion)
	}
	return int(newStalls(r.Config).Count(end))
}

// StallSpan returns when stall k begins and ends.
func (r *Result) StallSpan(k int64) (start, end int64) {
	st := newStalls(r.Config)
	if st.First == never {
		return never, never
	}
	s := st.Start(k)
	return s, s + st.Length
}

// StallsIn returns the stalls that overlap [from, to): stalls first to
// last-1, which may go beyond StallCount when no reply is left to meet them.
func (r *Result) StallsIn(from, to int64) (first, last int64) {
	st := newStalls(r.Config)
	if st.First == never || to <= from {
		return 0, 0
	}
	first, last = st.Count(from-st.Length+1), st.Count(to)
	return first, max(first, last)
}

// NumStalls returns how many stalls began before the last reply of any client.
func (r *Result) NumStalls() int { return len(r.Stalls()) }

// Stalls returns the start of every stall that began before the last reply
// of any client.
func (r *Result) Stalls() []int64 {
	st := newStalls(r.Config)
	end := int64(0)
	for _, c := range r.Clients {
		if c.LastCompletion > end {
			end = c.LastCompletion
		}
	}
	n := st.Count(end)
	out := make([]int64, n)
	for j := range out {
		out[j] = st.Start(int64(j))
	}
	return out
}
