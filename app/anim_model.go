package main

import (
	"errors"
	"fmt"
	"math"

	"omission/app/units"
	"omission/sim"
)

// The animation's model: one stall's window of one result, summarised once
// so that any instant of it can be drawn in time independent of how many
// requests the window holds.
//
// Within a window the due, send, start and reply instants of a client's
// requests never decrease with their position (sim.TraceIndex), so "how many
// requests were due, sent, started, answered by t" are four binary searches,
// and every state is a range of positions: answered [0, done), in service
// [done, start), queued [start, send), not sent yet [send, due), not due yet
// [due, n). What a frame draws comes from these ranges, from per-block
// running sums (the counters and the tally) and from per-column boundaries
// of the time axis (the marks), never from a walk over every request.

const (
	animColumns = 320  // columns of the time axis; a column is one counted group of marks
	animBlocks  = 1024 // running sums per client: a counter reads at most n/animBlocks requests
	animMaxBins = 40   // latency bins of the tally
)

// animOrder is the order of the stages, top to bottom.
var animOrder = [3]sim.Client{sim.ClosedClient, sim.PacedClient, sim.OpenClient}

// animModel is one stall's window, summarised.
type animModel struct {
	res      *sim.Result
	stall    int // the stall's index in the run (sim's, from 0)
	stalls   int // how many stalls the run has
	from, to int64
	start    int64 // the stall's start and end
	end      int64
	cut      bool // the window was ended early at sim.MaxWindowRequests requests

	edges   [animColumns + 1]int64 // the columns' time bounds
	stalled [animColumns]bool      // the column overlaps a stall
	bins    []int64                // tally bin bounds, len nbins+1: [bins[k], bins[k+1])
	lastBin int                    // the bin found last
	above   int64                  // the threshold
	workers int                    // 0: unlimited

	colMax  int64 // the most marks one column holds, over every client
	binMax  int64 // the largest tally bin at the end of the window, over every client
	clients [3]*animClient
}

// animClient is one client's requests in the window, summarised.
type animClient struct {
	c     sim.Client
	x     *sim.TraceIndex
	n     int
	bsize int // requests per block

	// Running sums at block boundaries: entry b covers positions [0, b·bsize).
	cumAbove  []int64
	cumSyn    []int64 // corrected samples added
	cumNever  []int64 // skipped slots (paced) after those positions
	cumMax    []int64 // slowest latency
	cumHist   []int32 // (blocks+1) × nbins: recorded latencies per bin
	cumSynBin []int32 // the same for the corrected samples

	// Columns: requests due in column b are positions [colAt[b], colAt[b+1]);
	// skipped slots before the end of column b number neverAt[b+1].
	colAt   [animColumns + 1]int
	neverAt [animColumns + 1]int64
	lane    []laneRun // the server's history: busy, stalled, idle runs of columns

	total animCounts // at the end of the window
}

// laneRun is a run of columns in which the server was in one state.
type laneRun struct {
	from, to int // columns [from, to)
	state    laneState
}

type laneState uint8

const (
	laneIdle laneState = iota
	laneBusy
	laneStalled
)

// animCounts are a client's counters at an instant: sim.Counts and what the
// stage shows besides.
type animCounts struct {
	sim.Counts
	NotSent   int64 // due but not sent yet (closed loop)
	NeverSent int64 // skipped slots passed so far (paced)
	Queued    int64 // sent, not being served yet
	Serving   int64 // being served
}

// Reasons the animation cannot be drawn, shown to the reader.
var (
	errAnimNoTrace = errors.New("the animation needs the timings of every request, which the simulator keeps only for runs of up to " +
		units.Count(sim.ExactSamples) + " samples per recording; this run has more. Shorten the duration or lower the rate to watch it")
	errAnimEngine  = errors.New("the animation draws the constant-rate model; this query uses the event engine's fields (arrivals, service distribution, queue, timeout or outages), which it does not draw yet")
	errAnimNoStall = errors.New("this run has no stall (its length is 0), so there is nothing to watch")
)

// animAvailable says whether res can be animated, and if not, why.
func animAvailable(res *sim.Result) error {
	switch {
	case res == nil:
		return errors.New("no result yet")
	case res.Engine != nil:
		return errAnimEngine
	case res.Config.Stall == 0 || res.StallCount() == 0:
		return errAnimNoStall
	case !res.Exact || res.Clients[sim.OpenClient].Done == nil:
		return errAnimNoTrace
	}
	return nil
}

// newAnimModel summarises stall k of res (clamped to the run's stalls) at
// once. The panel builds large windows in slices instead (animBuilder).
func newAnimModel(res *sim.Result, k int) (*animModel, error) {
	b, err := newAnimBuilder(res, k)
	if err != nil {
		return nil, err
	}
	for !b.step(math.MaxInt) {
	}
	return b.m, nil
}

// animBuilder builds a model in slices: it walks each client's window twice
// (the latency range, then the summaries); nothing later walks it.
type animBuilder struct {
	m      *animModel
	pass   int // 0: latency range; 1: summaries; 2: done
	ci, j  int // the client and request the walk is at
	lo, hi int64
	sum    *summary
	done   int64 // requests walked, for progress
	total  int64
}

// summary is the running state of one client's summary walk.
type summary struct {
	hist, syn                    []int32
	above, added, never, slowest int64
	busy                         []int32 // difference array of requests in service
	neverCol                     [animColumns]int64
	startCol, doneCol            colCursor
}

func newAnimBuilder(res *sim.Result, k int) (*animBuilder, error) {
	if err := animAvailable(res); err != nil {
		return nil, err
	}
	n := res.StallCount()
	k = max(0, min(k, n-1))
	m := &animModel{res: res, stall: k, stalls: n, above: res.Config.Above, workers: res.Config.Workers}
	m.from, m.to = res.StallWindow(k)
	if m.to <= m.from {
		return nil, fmt.Errorf("stall %d has an empty window", k)
	}
	m.start, m.end = res.StallSpan(int64(k))
	// A window holds at most sim.MaxWindowRequests requests of any client:
	// past that it ends early (a backlog that never drains, a stall at
	// millions of requests a second), and the panel says so.
	for _, c := range animOrder {
		if x := res.TraceIndexOf(c, m.from, m.to); x != nil && x.Len() > sim.MaxWindowRequests {
			m.to, m.cut = max(m.from+1, x.Due(sim.MaxWindowRequests-1)), true
		}
	}
	for b := range m.edges {
		m.edges[b] = m.from + int64(float64(m.to-m.from)*float64(b)/animColumns)
	}
	m.edges[animColumns] = m.to + 1 // the window is [from, to], both ends in
	m.markStalls()
	b := &animBuilder{m: m, lo: math.MaxInt64}
	for i, c := range animOrder {
		x := res.TraceIndexOf(c, m.from, m.to)
		if x == nil {
			return nil, errAnimNoTrace
		}
		m.clients[i] = &animClient{c: c, x: x, n: x.Len()}
		b.total += 2 * int64(x.Len())
	}
	return b, nil
}

// requests returns how many requests the model covers.
func (b *animBuilder) requests() int64 { return b.total / 2 }

// progress returns the share of the work done.
func (b *animBuilder) progress() float64 {
	if b.total == 0 {
		return 1
	}
	return float64(b.done) / float64(b.total)
}

// step walks up to budget requests; it reports whether the model is built.
func (b *animBuilder) step(budget int) bool {
	m := b.m
	for budget > 0 && b.pass < 2 {
		a := m.clients[b.ci]
		if b.pass == 1 && b.sum == nil {
			b.sum = m.startSummary(a)
		}
		n := min(a.n-b.j, budget)
		if b.pass == 0 {
			for j := b.j; j < b.j+n; j++ {
				v := a.x.Latency(j)
				b.lo, b.hi = min(b.lo, v), max(b.hi, v)
			}
		} else {
			m.summarise(a, b.sum, b.j, b.j+n)
		}
		b.j += n
		b.done += int64(n)
		budget -= n
		if b.j < a.n {
			continue
		}
		if b.pass == 1 {
			m.finishSummary(a, b.sum)
			b.sum = nil
		}
		b.j = 0
		b.ci++
		if b.ci == len(m.clients) {
			b.ci = 0
			b.pass++
			if b.pass == 1 {
				lo, hi := b.lo, b.hi
				if hi <= 0 {
					lo = 1
				}
				m.bins = latencyBins(max(lo, 1), max(hi, 1))
			}
		}
		if budget == 0 {
			break
		}
	}
	return b.pass == 2
}

// markStalls flags the columns a stall overlaps. Its cost follows the
// columns: stalls closer than a column come as one merged band.
func (m *animModel) markStalls() {
	for _, b := range m.res.StallBands(m.from, m.to+1, animColumns) {
		b0, b1 := m.column(b.From), m.column(b.To-1)
		for c := max(b0, 0); c <= b1 && c < animColumns; c++ {
			m.stalled[c] = true
		}
	}
}

// column returns the column of instant t, clamped to the axis.
func (m *animModel) column(t int64) int {
	if t <= m.from {
		return 0
	}
	if t >= m.to {
		return animColumns - 1
	}
	b := int(float64(t-m.from) / float64(m.to-m.from) * animColumns)
	// Rounding may put t one column off the edges' own rounding.
	for b > 0 && t < m.edges[b] {
		b--
	}
	for b < animColumns-1 && t >= m.edges[b+1] {
		b++
	}
	return b
}

// colCursor finds the columns of non-decreasing instants in amortised
// constant time.
type colCursor struct{ b int }

func (c *colCursor) at(m *animModel, t int64) int {
	for c.b < animColumns-1 && t >= m.edges[c.b+1] {
		c.b++
	}
	if c.b > 0 && t < m.edges[c.b] {
		c.b = m.column(t) // not monotone after all: search
	}
	return c.b
}

// latencyBins returns log-spaced bin bounds covering [lo, hi]: the first bin
// starts at 0, the last ends beyond every value.
func latencyBins(lo, hi int64) []int64 {
	d0 := math.Floor(math.Log10(float64(lo)))
	d1 := math.Log10(float64(hi)) + 1e-9
	decades := max(1, d1-d0)
	per := math.Floor(float64(animMaxBins-1) / decades)
	per = max(1, min(4, per))
	bins := []int64{0}
	for k := 1; ; k++ {
		e := int64(math.Round(math.Pow(10, d0+float64(k)/per)))
		if e <= bins[len(bins)-1] {
			continue
		}
		bins = append(bins, e)
		if e > hi {
			break
		}
	}
	return bins
}

// bin returns the tally bin of a latency.
func (m *animModel) bin(v int64) int {
	if k := m.lastBin; v >= m.bins[k] && v < m.bins[k+1] {
		return k // latencies often repeat
	}
	lo, hi := 0, len(m.bins)-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.bins[mid] <= v {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	m.lastBin = lo
	return lo
}

// addSynthetic adds the corrected samples of a reply of latency v (count
// samples v−e, v−2e, …) to the per-bin counts h.
func (m *animModel) addSynthetic(h []int32, v, e, count int64) {
	// f(x) = how many of them are >= x.
	f := func(x int64) int64 {
		if x > v-e {
			return 0
		}
		return min(count, (v-x)/e)
	}
	lowest := v - count*e
	for b := m.bin(lowest); b < len(m.bins)-1; b++ {
		lo, hi := m.bins[b], m.bins[b+1]
		if lo > v-e {
			break
		}
		h[b] += int32(f(lo) - f(hi))
	}
}

// startSummary allocates a client's running sums.
func (m *animModel) startSummary(a *animClient) *summary {
	nb := len(m.bins) - 1
	blocks := max(1, min(animBlocks, a.n))
	a.bsize = max(1, (a.n+blocks-1)/blocks)
	blocks = (a.n + a.bsize - 1) / a.bsize
	a.cumAbove = make([]int64, blocks+1)
	a.cumSyn = make([]int64, blocks+1)
	a.cumNever = make([]int64, blocks+1)
	a.cumMax = make([]int64, blocks+1)
	a.cumHist = make([]int32, (blocks+1)*nb)
	a.cumSynBin = make([]int32, (blocks+1)*nb)
	return &summary{hist: make([]int32, nb), syn: make([]int32, nb), busy: make([]int32, animColumns+1)}
}

// summarise adds requests [from, to) to a client's running sums.
func (m *animModel) summarise(a *animClient, s *summary, from, to int) {
	x, slot := a.x, a.x.Slot()
	for j := from; j < to; j++ {
		if j%a.bsize == 0 {
			m.snapshot(a, s, j/a.bsize)
		}
		v := x.Latency(j)
		s.hist[m.bin(v)]++
		s.slowest = max(s.slowest, v)
		if v > m.above {
			s.above++
		}
		if k, _ := x.Correction(v); k > 0 {
			s.added += k
			m.addSynthetic(s.syn, v, x.Interval(), k)
		}
		if first, k := a.neverAfter(j); k > 0 {
			s.never += k
			// Spread the slots over the columns they fall in.
			last := first + (k-1)*slot
			for b, end := m.column(first), m.column(last); b <= end; b++ {
				lo, hi := max(first, m.edges[b]), min(last, m.edges[b+1]-1)
				if hi >= lo {
					s.neverCol[b] += (hi-first)/slot - (lo-first+slot-1)/slot + 1
				}
			}
		}
		if st, d := x.Start(j), x.Done(j); d > st && d >= m.from && st <= m.to {
			// Starts and replies never decrease: the columns only move on.
			s.busy[s.startCol.at(m, st)]++
			s.busy[s.doneCol.at(m, d-1)+1]--
		}
	}
}

// snapshot records the running sums at block b's start.
func (m *animModel) snapshot(a *animClient, s *summary, b int) {
	nb := len(m.bins) - 1
	a.cumAbove[b], a.cumSyn[b], a.cumNever[b], a.cumMax[b] = s.above, s.added, s.never, s.slowest
	copy(a.cumHist[b*nb:], s.hist)
	copy(a.cumSynBin[b*nb:], s.syn)
}

// finishSummary closes a client's sums and builds its columns and lane.
func (m *animModel) finishSummary(a *animClient, s *summary) {
	nb := len(m.bins) - 1
	m.snapshot(a, s, (a.n+a.bsize-1)/a.bsize)
	// Columns of due instants (positions in due order), and skipped slots.
	// Requests due before the window (still open at its start) count in the
	// first column.
	for c := 1; c <= animColumns; c++ {
		a.colAt[c] = a.search(instDue, m.edges[c]-1)
		a.neverAt[c] = a.neverAt[c-1] + s.neverCol[c-1]
		if w := int64(a.colAt[c]-a.colAt[c-1]) + s.neverCol[c-1]; w > m.colMax {
			m.colMax = w
		}
	}
	for k := 0; k < nb; k++ {
		if v := int64(s.hist[k]) + int64(s.syn[k]); v > m.binMax {
			m.binMax = v
		}
	}
	// The server's lane: stalled wins over busy.
	run := 0
	a.lane = a.lane[:0]
	for c := 0; c < animColumns; c++ {
		run += int(s.busy[c])
		st := laneIdle
		switch {
		case m.stalled[c]:
			st = laneStalled
		case run > 0:
			st = laneBusy
		}
		if n := len(a.lane); n > 0 && a.lane[n-1].state == st {
			a.lane[n-1].to = c + 1
		} else {
			a.lane = append(a.lane, laneRun{c, c + 1, st})
		}
	}
	a.counts(m, m.to, &a.total, nil)
}

// The instants of a request, for search.
type instant uint8

const (
	instDue instant = iota
	instSend
	instStart
	instDone
)

func (a *animClient) at(w instant, j int) int64 {
	switch w {
	case instDue:
		return a.x.Due(j)
	case instSend:
		return a.x.Send(j)
	case instStart:
		return a.x.Start(j)
	}
	return a.x.Done(j)
}

// search returns how many requests have instant w at or before t.
func (a *animClient) search(w instant, t int64) int {
	lo, hi := 0, a.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if a.at(w, mid) <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// animState is where a client's requests are at an instant, as ranges of
// positions.
type animState struct {
	due, send, start, done int // requests due, sent, started, answered by t
}

func (a *animClient) state(t int64) animState {
	return animState{a.search(instDue, t), a.search(instSend, t), a.search(instStart, t), a.search(instDone, t)}
}

// counts fills c with the counters at t; tally, when not nil (len 2·nbins),
// receives the recorded samples per bin and then the corrected ones.
func (a *animClient) counts(m *animModel, t int64, c *animCounts, tally []int32) animState {
	s := a.state(t)
	nb := len(m.bins) - 1
	b := s.done / a.bsize
	c.Recorded = int64(s.done)
	c.Slowest, c.Above, c.Synthetic = a.cumMax[b], a.cumAbove[b], a.cumSyn[b]
	if tally != nil {
		copy(tally[:nb], a.cumHist[b*nb:(b+1)*nb])
		copy(tally[nb:2*nb], a.cumSynBin[b*nb:(b+1)*nb])
	}
	for j := b * a.bsize; j < s.done; j++ {
		v := a.x.Latency(j)
		c.Slowest = max(c.Slowest, v)
		if v > m.above {
			c.Above++
		}
		k, _ := a.x.Correction(v)
		c.Synthetic += k
		if tally != nil {
			tally[m.bin(v)]++
			if k > 0 {
				m.addSynthetic(tally[nb:2*nb], v, a.x.Interval(), k)
			}
		}
	}
	c.Waiting = int64(s.due - s.done)
	c.NotSent = int64(s.due - s.send)
	c.Queued = int64(s.send - s.start)
	c.Serving = int64(s.start - s.done)
	c.NeverSent = a.neverUpTo(t, s.send)
	return s
}

// neverUpTo counts the skipped slots at or before t; sent is how many
// requests were sent by t (the slots after request j come before request
// j+1's send).
func (a *animClient) neverUpTo(t int64, sent int) int64 {
	if a.c != sim.PacedClient || sent == 0 {
		return 0
	}
	last := sent - 1 // the last request sent by t: its slots may straddle t
	b := last / a.bsize
	n := a.cumNever[b]
	for j := b * a.bsize; j < last; j++ {
		_, k := a.neverAfter(j)
		n += k
	}
	if first, k := a.neverAfter(last); k > 0 && t >= first {
		n += min(k, (t-first)/a.x.Slot()+1)
	}
	return n
}

// neverAfter returns the skipped slots after request j: those before the
// next send or, after the client's last send, those to the end of the run.
func (a *animClient) neverAfter(j int) (first, count int64) {
	first, count = a.x.NeverSentAfter(j)
	if count == 0 && j == a.n-1 {
		return a.x.NeverSentTail()
	}
	return first, count
}

// nextEvent returns the first instant after t at which a request falls due,
// leaves, starts or is answered, in any client, within the window; ok is
// false when there is none.
func (m *animModel) nextEvent(t int64) (next int64, ok bool) {
	next = math.MaxInt64
	t = max(t, m.from-1)
	for _, a := range m.clients {
		for w := instDue; w <= instDone; w++ {
			if k := a.search(w, t); k < a.n {
				if v := a.at(w, k); v <= m.to {
					next = min(next, v)
				}
			}
		}
	}
	return next, next != math.MaxInt64
}

// prevEvent returns the last such instant before t.
func (m *animModel) prevEvent(t int64) (prev int64, ok bool) {
	prev = math.MinInt64
	t = min(t-1, m.to)
	for _, a := range m.clients {
		for w := instDue; w <= instDone; w++ {
			if k := a.search(w, t); k > 0 {
				if v := a.at(w, k-1); v >= m.from {
					prev = max(prev, v)
				}
			}
		}
	}
	return prev, prev != math.MinInt64
}

// stalledAt reports whether the server is stalled at t.
func (m *animModel) stalledAt(t int64) bool {
	first, last := m.res.StallsIn(t, t+1)
	return last > first
}
