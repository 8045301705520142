package window

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"omission/sim"
	"omission/sim/internal/hook"
)

// The animation's model: one stall's window of one result, summarised once
// so that any Instant of it can be drawn in time independent of how many
// requests the window holds.
//
// Within a window the due, send, start and reply instants of a client's
// requests never decrease with their position (TraceIndex), so "how many
// requests were due, sent, started, answered by t" are four binary searches,
// and every state is a range of positions: answered [0, done), in service
// [done, start), queued [start, send), not sent yet [send, due), not due yet
// [due, n). What a frame draws comes from these ranges, from per-block
// running sums (the counters and the tally) and from per-column boundaries
// of the time axis (the marks), never from a walk over every request.

const (
	WindowColumns = 320  // columns of the time axis; a column is one counted group of marks
	windowBlocks  = 1024 // running sums per client: a counter reads at most n/windowBlocks requests
	WindowMaxBins = 40   // latency bins of the tally
)

// windowOrder is the order of the stages, top to bottom.
var windowOrder = [3]sim.Client{sim.ClosedClient, sim.PacedClient, sim.OpenClient}

// Summary is one stall's window, summarised (for an event-driven run
// without a stall: an outage's, or the worst reply's).
type Summary struct {
	res      *sim.Result
	Stall    int    // the stall's index in the run (sim's, from 0); the window's (AnimWindows)
	Stalls   int    // how many stalls the run has; how many windows (AnimWindows)
	Kind     string // "stall"; for an event-driven run without a stall "outage" or "worst"
	From, To int64
	Start    int64 // the stall's start and end (the outage's; the worst reply's send and reply)
	End      int64
	Cut      bool // the window was ended early at MaxWindowRequests requests

	Edges   [WindowColumns + 1]int64 // the columns' time bounds
	Stalled [WindowColumns]bool      // the column overlaps a stall
	Slowed  [WindowColumns]bool      // the column overlaps a slowdown window (slow=)
	// SlowLabel names the first slowdown window the axis shows ("slowed
	// ×10"), and SlowAt is where it starts (clamped to From); "" when the
	// window overlaps none.
	SlowLabel string
	SlowAt    int64
	Bins      []int64 // tally bin bounds, len nbins+1: [bins[k], bins[k+1])
	lastBin   int     // the bin found last
	Above     int64   // the threshold
	Workers   int     // 0: unlimited

	ColMax  int64 // the most marks one column holds, over every client
	BinMax  int64 // the largest tally bin at the end of the window, over every client
	Clients [3]*Client
	// Retry draws a window of a run with retries by calls (NewRetryWindow,
	// retry.go); Clients, Bins, ColMax and BinMax are then unset.
	Retry *RetryWindow
}

// Client is one client's requests in the window, summarised.
type Client struct {
	Client sim.Client
	x      *TraceIndex
	N      int
	bsize  int // requests per block

	// Running sums at block boundaries: entry b covers positions [0, b·bsize).
	cumAbove  []int64
	cumSyn    []int64 // corrected samples added
	cumNever  []int64 // skipped slots (paced) after those positions
	cumMax    []int64 // slowest latency
	cumHist   []int32 // (blocks+1) × nbins: recorded latencies per bin
	cumSynBin []int32 // the same for the corrected samples

	// Columns: requests due in column b are positions [colAt[b], colAt[b+1]);
	// skipped slots before the end of column b number neverAt[b+1].
	ColAt   [WindowColumns + 1]int
	NeverAt [WindowColumns + 1]int64
	Lane    []LaneRun // the server's history: busy, stalled, idle runs of columns

	Total ClientCounts // at the end of the window
}

// LaneRun is a run of columns in which the server was in one state.
type LaneRun struct {
	From, To int // columns [from, to)
	State    LaneState
}

type LaneState uint8

const (
	LaneIdle LaneState = iota
	LaneBusy
	LaneStalled
)

// ClientCounts are a Client's counters at an Instant (Client.Counts, and
// Client.Total at the end of the window): a trace's Counts and what the
// stage shows besides.
type ClientCounts struct {
	Counts
	NotSent   int64 // due but not sent yet (closed loop)
	NeverSent int64 // skipped slots passed so far (paced)
	Queued    int64 // sent, not being served yet
	Serving   int64 // being served
}

// Reasons the animation cannot be drawn, shown to the reader.
var (
	ErrWindowNoTrace = errors.New("the animation needs the timings of every request, which the simulator keeps only for runs of up to " +
		strconv.FormatInt(sim.ExactSamples, 10) + " samples per recording; this run has more. Shorten the duration or lower the rate to watch it")
	ErrWindowNoStall  = errors.New("this run has no stall (its length is 0), so there is nothing to watch")
	ErrWindowNoMoment = errors.New("this run has no stall, no outage and no reply, so there is nothing to watch")
)

// Animatable says whether the animation can summarise the run's stalls,
// and if not, why. An event-driven run can be drawn where its requests are
// answered in the order they were sent; it is refused (a *Refusal)
// when its first window breaks that order, its other windows may still be
// drawn (NewSummaryBuilder says which).
func Animatable(res *sim.Result) error {
	if res != nil && res.Engine != nil {
		return engineAnimatable(res)
	}
	return animatableRun(res)
}

// animatableRun is Animatable without looking at any window.
func animatableRun(res *sim.Result) error {
	switch {
	case res == nil:
		return errors.New("no result yet")
	case res.Engine != nil:
		for c := range res.Clients {
			if res.Clients[c].Done == nil || res.Engine.Clients[c].Start == nil {
				return ErrWindowNoTrace
			}
		}
		if AnimWindows(res) == 0 {
			return ErrWindowNoMoment
		}
		return nil
	case res.Config.Stall == 0 || res.StallCount() == 0:
		return ErrWindowNoStall
	case !res.Exact || res.Clients[sim.OpenClient].Done == nil && hook.Long(res) == nil:
		return ErrWindowNoTrace // a long run simulates its windows again (sim's long_resim.go)
	}
	return nil
}

// Summarise summarises stall k of res (clamped to the run's stalls) at
// once. The panel builds large windows in slices instead (SummaryBuilder).
func Summarise(res *sim.Result, k int) (*Summary, error) {
	b, err := NewSummaryBuilder(res, k)
	if err != nil {
		return nil, err
	}
	for !b.Step(math.MaxInt) {
	}
	return b.m, nil
}

// SummaryBuilder builds a model in slices: it walks each client's window twice
// (the latency range, then the summaries); nothing later walks it.
type SummaryBuilder struct {
	m      *Summary
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
	neverCol                     [WindowColumns]int64
	startCol, doneCol            colCursor
}

// NewSummaryBuilder prepares the summary of stall k of res (window k of
// AnimWindows), clamped to the run's; a window of an event-driven run whose
// requests are not answered in order is refused with a *Refusal.
func NewSummaryBuilder(res *sim.Result, k int) (*SummaryBuilder, error) {
	if err := animatableRun(res); err != nil {
		return nil, err
	}
	n := AnimWindows(res)
	k = max(0, min(k, n-1))
	m := &Summary{res: res, Stall: k, Stalls: n, Kind: "stall", Above: res.Config.Above, Workers: res.Config.Workers}
	if res.Engine != nil {
		w := engineAnimWindow(res, k)
		m.Kind, m.From, m.To, m.Start, m.End = w.Kind, w.From, w.To, w.Start, w.End
	} else {
		m.From, m.To = StallWindow(res, k)
		m.Start, m.End = res.StallSpan(int64(k))
	}
	if m.To <= m.From {
		return nil, fmt.Errorf("%s %d has an empty window", m.Kind, k)
	}
	// A window holds at most MaxWindowRequests requests of any client:
	// past that it ends early (a backlog that never drains, a stall at
	// millions of requests a second), and the panel says so.
	for _, c := range windowOrder {
		if x := TraceIndexOf(res, c, m.From, m.To); x != nil && x.Len() > MaxWindowRequests {
			m.To, m.Cut = max(m.From+1, x.Due(MaxWindowRequests-1)), true
		}
	}
	for b := range m.Edges {
		m.Edges[b] = m.From + int64(float64(m.To-m.From)*float64(b)/WindowColumns)
	}
	m.Edges[WindowColumns] = m.To + 1 // the window is [from, to], both ends in
	m.markStalls()
	m.markSlowdowns()
	b := &SummaryBuilder{m: m, lo: math.MaxInt64}
	for i, c := range windowOrder {
		x := TraceIndexOf(res, c, m.From, m.To)
		if x == nil {
			return nil, ErrWindowNoTrace
		}
		if res.Engine != nil {
			if j, why := x.engineOrder(); why != breakNone {
				e := x.refusal(j, why)
				e.Window, e.Windows, e.Kind, e.From, e.To = k, n, m.Kind, m.From, m.To
				if res.Config.Retrying() {
					for _, c := range windowOrder {
						if tr := AttemptsWindow(res, c, m.From, m.To); tr != nil {
							e.Retries = append(e.Retries, tr.Retries())
						}
					}
				}
				return nil, e
			}
		}
		m.Clients[i] = &Client{Client: c, x: x, N: x.Len()}
		b.total += 2 * int64(x.Len())
	}
	return b, nil
}

// requests returns how many requests the model covers.
func (b *SummaryBuilder) Requests() int64 { return b.total / 2 }

// progress returns the share of the work done.
func (b *SummaryBuilder) Progress() float64 {
	if b.total == 0 {
		return 1
	}
	return float64(b.done) / float64(b.total)
}

// step walks up to budget requests; it reports whether the model is built.
func (b *SummaryBuilder) Step(budget int) bool {
	m := b.m
	for budget > 0 && b.pass < 2 {
		a := m.Clients[b.ci]
		if b.pass == 1 && b.sum == nil {
			b.sum = m.startSummary(a)
		}
		n := min(a.N-b.j, budget)
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
		if b.j < a.N {
			continue
		}
		if b.pass == 1 {
			m.finishSummary(a, b.sum)
			b.sum = nil
		}
		b.j = 0
		b.ci++
		if b.ci == len(m.Clients) {
			b.ci = 0
			b.pass++
			if b.pass == 1 {
				lo, hi := b.lo, b.hi
				if hi <= 0 {
					lo = 1
				}
				m.Bins = latencyBins(max(lo, 1), max(hi, 1))
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
func (m *Summary) markStalls() {
	for _, b := range m.res.StallBands(m.From, m.To+1, WindowColumns) {
		b0, b1 := m.Column(b.From), m.Column(b.To-1)
		for c := max(b0, 0); c <= b1 && c < WindowColumns; c++ {
			m.Stalled[c] = true
		}
	}
}

// markSlowdowns flags the columns a slowdown window overlaps (a window is
// [from, to): a service starting at to is not slowed) and names the first.
func (m *Summary) markSlowdowns() {
	for _, w := range m.res.Config.SlowWindows() {
		if w.To <= m.From || w.From > m.To {
			continue
		}
		for c := m.Column(max(w.From, m.From)); c <= m.Column(min(w.To-1, m.To)); c++ {
			m.Slowed[c] = true
		}
		if m.SlowLabel == "" {
			m.SlowLabel, m.SlowAt = "slowed ×"+w.Rate.String(), max(w.From, m.From)
		}
	}
}

// column returns the column of Instant t, clamped to the axis.
func (m *Summary) Column(t int64) int {
	if t <= m.From {
		return 0
	}
	if t >= m.To {
		return WindowColumns - 1
	}
	b := int(float64(t-m.From) / float64(m.To-m.From) * WindowColumns)
	// Rounding may put t one column off the edges' own rounding.
	for b > 0 && t < m.Edges[b] {
		b--
	}
	for b < WindowColumns-1 && t >= m.Edges[b+1] {
		b++
	}
	return b
}

// colCursor finds the columns of non-decreasing instants in amortised
// constant time.
type colCursor struct{ b int }

func (c *colCursor) at(m *Summary, t int64) int {
	for c.b < WindowColumns-1 && t >= m.Edges[c.b+1] {
		c.b++
	}
	if c.b > 0 && t < m.Edges[c.b] {
		c.b = m.Column(t) // not monotone after all: search
	}
	return c.b
}

// latencyBins returns log-spaced bin bounds covering [lo, hi]: the first bin
// starts at 0, the last ends beyond every value.
func latencyBins(lo, hi int64) []int64 {
	d0 := math.Floor(math.Log10(float64(lo)))
	d1 := math.Log10(float64(hi)) + 1e-9
	decades := max(1, d1-d0)
	per := math.Floor(float64(WindowMaxBins-1) / decades)
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
func (m *Summary) Bin(v int64) int {
	if k := m.lastBin; v >= m.Bins[k] && v < m.Bins[k+1] {
		return k // latencies often repeat
	}
	lo, hi := 0, len(m.Bins)-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.Bins[mid] <= v {
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
func (m *Summary) addSynthetic(h []int32, v, e, count int64) {
	// The correction's own count of its sequence at or below a value
	// (sim's dist.go): bin [lo, hi) holds those at or below hi−1 less
	// those at or below lo−1.
	lowest := v - count*e
	for b := m.Bin(lowest); b < len(m.Bins)-1; b++ {
		lo, hi := m.Bins[b], m.Bins[b+1]
		if lo > v-e {
			break
		}
		h[b] += int32(seqAtOrBelow(v, e, count, hi-1) - seqAtOrBelow(v, e, count, lo-1))
	}
}

// startSummary allocates a client's running sums.
func (m *Summary) startSummary(a *Client) *summary {
	nb := len(m.Bins) - 1
	blocks := max(1, min(windowBlocks, a.N))
	a.bsize = max(1, (a.N+blocks-1)/blocks)
	blocks = (a.N + a.bsize - 1) / a.bsize
	a.cumAbove = make([]int64, blocks+1)
	a.cumSyn = make([]int64, blocks+1)
	a.cumNever = make([]int64, blocks+1)
	a.cumMax = make([]int64, blocks+1)
	a.cumHist = make([]int32, (blocks+1)*nb)
	a.cumSynBin = make([]int32, (blocks+1)*nb)
	return &summary{hist: make([]int32, nb), syn: make([]int32, nb), busy: make([]int32, WindowColumns+1)}
}

// summarise adds requests [from, to) to a client's running sums.
func (m *Summary) summarise(a *Client, s *summary, from, to int) {
	x, slot := a.x, a.x.Slot()
	for j := from; j < to; j++ {
		if j%a.bsize == 0 {
			m.snapshot(a, s, j/a.bsize)
		}
		v := x.Latency(j)
		s.hist[m.Bin(v)]++
		s.slowest = max(s.slowest, v)
		if v > m.Above {
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
			for b, end := m.Column(first), m.Column(last); b <= end; b++ {
				lo, hi := max(first, m.Edges[b]), min(last, m.Edges[b+1]-1)
				if hi >= lo {
					s.neverCol[b] += (hi-first)/slot - (lo-first+slot-1)/slot + 1
				}
			}
		}
		if st, d := x.Start(j), x.Done(j); d > st && d >= m.From && st <= m.To {
			// Starts and replies never decrease: the columns only move on.
			s.busy[s.startCol.at(m, st)]++
			s.busy[s.doneCol.at(m, d-1)+1]--
		}
	}
}

// snapshot records the running sums at block b's start.
func (m *Summary) snapshot(a *Client, s *summary, b int) {
	nb := len(m.Bins) - 1
	a.cumAbove[b], a.cumSyn[b], a.cumNever[b], a.cumMax[b] = s.above, s.added, s.never, s.slowest
	copy(a.cumHist[b*nb:], s.hist)
	copy(a.cumSynBin[b*nb:], s.syn)
}

// finishSummary closes a client's sums and builds its columns and lane.
func (m *Summary) finishSummary(a *Client, s *summary) {
	nb := len(m.Bins) - 1
	m.snapshot(a, s, (a.N+a.bsize-1)/a.bsize)
	// Columns of due instants (positions in due order), and skipped slots.
	// Requests due before the window (still open at its start) count in the
	// first column.
	for c := 1; c <= WindowColumns; c++ {
		a.ColAt[c] = a.Search(InstDue, m.Edges[c]-1)
		a.NeverAt[c] = a.NeverAt[c-1] + s.neverCol[c-1]
		if w := int64(a.ColAt[c]-a.ColAt[c-1]) + s.neverCol[c-1]; w > m.ColMax {
			m.ColMax = w
		}
	}
	for k := 0; k < nb; k++ {
		if v := int64(s.hist[k]) + int64(s.syn[k]); v > m.BinMax {
			m.BinMax = v
		}
	}
	// The server's lane: stalled wins over busy.
	run := 0
	a.Lane = a.Lane[:0]
	for c := 0; c < WindowColumns; c++ {
		run += int(s.busy[c])
		st := LaneIdle
		switch {
		case m.Stalled[c]:
			st = LaneStalled
		case run > 0:
			st = LaneBusy
		}
		if n := len(a.Lane); n > 0 && a.Lane[n-1].State == st {
			a.Lane[n-1].To = c + 1
		} else {
			a.Lane = append(a.Lane, LaneRun{c, c + 1, st})
		}
	}
	a.Counts(m, m.To, &a.Total, nil)
}

// The instants of a request, for search.
type Instant uint8

const (
	InstDue Instant = iota
	InstSend
	InstStart
	InstDone
)

func (a *Client) At(w Instant, j int) int64 {
	switch w {
	case InstDue:
		return a.x.Due(j)
	case InstSend:
		return a.x.Send(j)
	case InstStart:
		return a.x.Start(j)
	}
	return a.x.Done(j)
}

// search returns how many requests have Instant w at or before t.
func (a *Client) Search(w Instant, t int64) int {
	lo, hi := 0, a.N
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if a.At(w, mid) <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// State is where a client's requests are at an Instant, as ranges of
// positions.
type State struct {
	Due, Send, Start, Done int // requests due, sent, started, answered by t
}

func (a *Client) State(t int64) State {
	return State{a.Search(InstDue, t), a.Search(InstSend, t), a.Search(InstStart, t), a.Search(InstDone, t)}
}

// counts fills c with the counters at t; tally, when not nil (len 2·nbins),
// receives the recorded samples per bin and then the corrected ones.
func (a *Client) Counts(m *Summary, t int64, c *ClientCounts, tally []int32) State {
	s := a.State(t)
	nb := len(m.Bins) - 1
	b := s.Done / a.bsize
	c.Recorded = int64(s.Done)
	c.Slowest, c.Above, c.Synthetic = a.cumMax[b], a.cumAbove[b], a.cumSyn[b]
	if tally != nil {
		copy(tally[:nb], a.cumHist[b*nb:(b+1)*nb])
		copy(tally[nb:2*nb], a.cumSynBin[b*nb:(b+1)*nb])
	}
	for j := b * a.bsize; j < s.Done; j++ {
		v := a.x.Latency(j)
		c.Slowest = max(c.Slowest, v)
		if v > m.Above {
			c.Above++
		}
		k, _ := a.x.Correction(v)
		c.Synthetic += k
		if tally != nil {
			tally[m.Bin(v)]++
			if k > 0 {
				m.addSynthetic(tally[nb:2*nb], v, a.x.Interval(), k)
			}
		}
	}
	c.Waiting = int64(s.Due - s.Done)
	c.NotSent = int64(s.Due - s.Send)
	c.Queued = int64(s.Send - s.Start)
	c.Serving = int64(s.Start - s.Done)
	c.NeverSent = a.neverUpTo(t, s.Send)
	return s
}

// neverUpTo counts the skipped slots at or before t; sent is how many
// requests were sent by t (the slots after request j come before request
// j+1's send).
func (a *Client) neverUpTo(t int64, sent int) int64 {
	if a.Client != sim.PacedClient || sent == 0 {
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
func (a *Client) neverAfter(j int) (first, count int64) {
	first, count = a.x.NeverSentAfter(j)
	if count == 0 && j == a.N-1 {
		return a.x.NeverSentTail()
	}
	return first, count
}

// nextEvent returns the first Instant after t at which a request falls due,
// leaves, starts or is answered, in any client, within the window; ok is
// false when there is none.
func (m *Summary) NextEvent(t int64) (next int64, ok bool) {
	if m.Retry != nil {
		return m.retryEvent(t, true)
	}
	next = math.MaxInt64
	t = max(t, m.From-1)
	for _, a := range m.Clients {
		for w := InstDue; w <= InstDone; w++ {
			if k := a.Search(w, t); k < a.N {
				if v := a.At(w, k); v <= m.To {
					next = min(next, v)
				}
			}
		}
	}
	return next, next != math.MaxInt64
}

// prevEvent returns the last such Instant before t.
func (m *Summary) PrevEvent(t int64) (prev int64, ok bool) {
	if m.Retry != nil {
		return m.retryEvent(t, false)
	}
	prev = math.MinInt64
	t = min(t-1, m.To)
	for _, a := range m.Clients {
		for w := InstDue; w <= InstDone; w++ {
			if k := a.Search(w, t); k > 0 {
				if v := a.At(w, k-1); v >= m.From {
					prev = max(prev, v)
				}
			}
		}
	}
	return prev, prev != math.MinInt64
}

// stalledAt reports whether the server is stalled at t.
func (m *Summary) StalledAt(t int64) bool {
	first, last := m.res.StallsIn(t, t+1)
	return last > first
}

// Summary returns the summary being built (complete once Step reports it).
func (b *SummaryBuilder) Summary() *Summary { return b.m }

// Trace returns the index of the client's requests in the window.
func (a *Client) Trace() *TraceIndex { return a.x }

// Result returns the run the summary is of.
func (m *Summary) Result() *sim.Result { return m.res }
