package charts

import (
	"math"
	"slices"
	"sort"

	"omission/sim"
)

// valuesAtRanks returns d's k-th smallest sample for each k in ranks
// (ascending, 1-based), as sim.Dist.ValueAtRank does, but walking a
// histogram once instead of once per rank.
func valuesAtRanks(d *sim.Dist, ranks []int64) []int64 {
	out := make([]int64, len(ranks))
	h := d.Histogram()
	if h == nil {
		if d.Sorted() != nil || len(ranks) < 3 {
			for i, k := range ranks {
				out[i] = d.ValueAtRank(k)
			}
			return out
		}
		// A counted correction answers a rank by a binary search over
		// values. Bisect the ranks instead: between two ranks of equal
		// value every rank has it, and otherwise the value lies between
		// theirs, which bounds the search.
		last := len(ranks) - 1
		out[0], out[last] = d.ValueAtRank(ranks[0]), d.ValueAtRank(ranks[last])
		var fill func(a, b int)
		fill = func(a, b int) {
			if b-a < 2 {
				return
			}
			if out[a] == out[b] {
				for i := a + 1; i < b; i++ {
					out[i] = out[a]
				}
				return
			}
			m := (a + b) / 2
			out[m] = d.ValueAtRankBetween(ranks[m], out[a], out[b])
			fill(a, m)
			fill(m, b)
		}
		fill(0, last)
		return out
	}
	n := d.Count()
	bars := h.Distribution()
	var cum int64
	b := 0
	for i, k := range ranks {
		if n == 0 || k < 1 {
			continue
		}
		k = min(k, n)
		for b < len(bars) && cum+bars[b].Count < k {
			cum += bars[b].Count
			b++
		}
		if b < len(bars) {
			out[i] = min(bars[b].To, d.Max()) // as sim reports: never past the max
		} else {
			out[i] = d.Max()
		}
	}
	return out
}

// countsAtOrBelow returns d.CountAtOrBelow(x) for each x in xs (ascending),
// walking a histogram once.
func countsAtOrBelow(d *sim.Dist, xs []int64) []int64 {
	out := make([]int64, len(xs))
	h := d.Histogram()
	if h == nil {
		if s := d.Sorted(); s != nil {
			// A binary search from the last position for each x: a few
			// hundred thresholds over 10⁵ samples.
			j := 0
			for i, x := range xs {
				j += sort.Search(len(s)-j, func(m int) bool { return s[j+m] > x })
				out[i] = int64(j)
			}
			return out
		}
		for i, x := range xs {
			out[i] = d.CountAtOrBelow(x)
		}
		return out
	}
	bars := h.Distribution()
	var cum int64
	b := 0
	for i, x := range xs {
		for b < len(bars) && bars[b].To <= x {
			cum += bars[b].Count
			b++
		}
		out[i] = cum
	}
	return out
}

// minPositive returns the smallest sample above zero (0 if none).
func minPositive(d *sim.Dist) int64 {
	n := d.Count()
	if n == 0 {
		return 0
	}
	zeros := d.CountAtOrBelow(0)
	if zeros >= n {
		return 0
	}
	return d.ValueAtRank(zeros + 1)
}

// requests walks one recording's requests in send order: x is the request's
// due time (the paced client's send time, its re-anchored due time) and y
// its recorded latency. ok is false when the run kept no per-request data.
//
// Due times come from the event engine's schedule when it drew one (random
// arrivals), else from the constant schedule i/rate. Requests the engine
// ended without a reply (rejected, failed, timed out) are no latency
// sample: outcome marks them, and they are skipped.
type requests struct {
	kind    sim.Kind
	cr      *sim.ClientRun
	sched   sim.Schedule
	slot    int64   // 1/rate when every due time is an exact multiple of it
	dues    []int64 // the engine's schedule, request by request (nil: sched)
	outcome []sim.Outcome
	lost    int // requests without a reply
}

func requestsOf(res *sim.Result, k sim.Kind) (requests, bool) {
	cr := &res.Clients[k.Client()]
	if cr.Done == nil && cr.Sent > 0 || k != sim.Open && cr.Send == nil && cr.Sent > 0 {
		return requests{}, false
	}
	rq := requests{kind: k, cr: cr, sched: res.Schedule()}
	if e := res.Engine; e != nil {
		if e.Due == nil && cr.Sent > 0 {
			return requests{}, false
		}
		rq.dues = e.Due
		for _, o := range e.Clients[k.Client()].Outcome {
			if o != sim.OutcomeReply {
				rq.lost++
			}
		}
		if rq.lost > 0 {
			rq.outcome = e.Clients[k.Client()].Outcome
		}
	} else if rq.sched.Exact() {
		rq.slot = rq.sched.Interval(1)
	}
	return rq, true
}

func (r requests) due(i int) int64 {
	switch {
	case r.dues != nil:
		return r.dues[i]
	case r.slot > 0:
		return int64(i) * r.slot
	}
	return r.sched.Due(int64(i))
}

// latStats is what one pass over a recording's requests finds: the count,
// the largest latency and its x, and the largest latency in each table
// bucket (-1 when a bucket has no request).
type latStats struct {
	n          int
	max, maxAt int64
	bucket     []int64
}

// x returns request i's x: its due time, or the paced client's send time.
func (r requests) x(i int) int64 {
	if r.kind == sim.Paced {
		return r.cr.Send[i]
	}
	return r.due(i)
}

// before returns how many requests have an x below t (x ascends with i).
func (r requests) before(t int64) int {
	n := len(r.cr.Done)
	switch {
	case r.kind == sim.Paced:
		return firstAbove(r.cr.Send[:n], 0, t-1)
	case r.dues != nil:
		return firstAbove(r.dues[:n], 0, t-1)
	}
	return int(min(r.sched.Count(t), int64(n)))
}

// minMax returns the smallest and largest latency of requests [i, j) and
// the index of the first largest. Each kind has its own loop, so that the
// loop body is a subtraction and two comparisons.
func (r requests) minMax(i, j int) (lo, hi int64, at int) {
	done, send := r.cr.Done[i:j], r.cr.Send
	lo, hi, at = math.MaxInt64, math.MinInt64, -1
	switch {
	case r.outcome != nil: // some requests have no reply: look at each
		for k, d := range done {
			if r.outcome[i+k] != sim.OutcomeReply {
				continue
			}
			y := d - r.x(i+k)
			if send != nil {
				y = d - send[i+k]
			}
			lo = min(lo, y)
			if y > hi {
				hi, at = y, k
			}
		}
		if at < 0 {
			return 0, 0, -1
		}
	case send != nil:
		send = send[i:j]
		for k, d := range done {
			y := d - send[k]
			lo = min(lo, y)
			if y > hi {
				hi, at = y, k
			}
		}
	case r.dues != nil:
		for k, d := range done {
			y := d - r.dues[i+k]
			lo = min(lo, y)
			if y > hi {
				hi, at = y, k
			}
		}
	case r.slot > 0:
		due := int64(i) * r.slot
		for k, d := range done {
			y := d - due
			due += r.slot
			lo = min(lo, y)
			if y > hi {
				hi, at = y, k
			}
		}
	default:
		for k, d := range done {
			y := d - r.sched.Due(int64(i+k))
			lo = min(lo, y)
			if y > hi {
				hi, at = y, k
			}
		}
	}
	return lo, hi, i + at
}

// scan reads every request once, into env (one column of g per px) and
// into the stats (buckets of width bw). x ascends with the request index,
// so the requests of each column and bucket are a range found from the
// schedule (or by binary search over the paced sends): a few hundred
// ranges, each a tight loop.
func (r requests) scan(g grid, env *envelope, bw int64, nb int) latStats {
	st := latStats{n: len(r.cr.Done) - r.lost, max: -1, bucket: make([]int64, nb)}
	for b := range st.bucket {
		st.bucket[b] = -1
	}
	next := func(k, n int, start func(int) int64) int64 {
		if k+1 >= n {
			return math.MaxInt64
		}
		return start(k + 1)
	}
	bstart := func(b int) int64 { return int64(b) * bw }
	col, bucket := 0, 0
	nextCol, nextBucket := next(0, g.n, g.start), next(0, nb, bstart)
	for i, n := 0, len(r.cr.Done); i < n; {
		bound := min(nextCol, nextBucket)
		end := n
		if bound != math.MaxInt64 {
			end = r.before(bound)
		}
		if end > i {
			if lo, hi, at := r.minMax(i, end); at >= 0 {
				env.add(col, float64(lo))
				env.add(col, float64(hi))
				st.bucket[bucket] = max(st.bucket[bucket], hi)
				if hi > st.max {
					st.max, st.maxAt = hi, r.x(at)
				}
			}
			i = end
		}
		if bound == nextCol {
			col++
			nextCol = next(col, g.n, g.start)
		}
		if bound == nextBucket {
			bucket++
			nextBucket = next(bucket, nb, bstart)
		}
	}
	return st
}

// envelope is the min and max of y over each of n columns of x.
type envelope struct {
	lo, hi []float64
	has    []bool
}

func newEnvelope(n int) *envelope {
	return &envelope{lo: make([]float64, n), hi: make([]float64, n), has: make([]bool, n)}
}

func (e *envelope) add(j int, y float64) {
	if !e.has[j] {
		e.has[j], e.lo[j], e.hi[j] = true, y, y
		return
	}
	if y < e.lo[j] {
		e.lo[j] = y
	}
	if y > e.hi[j] {
		e.hi[j] = y
	}
}

// column maps x in [x0, x1] to one of n columns.
func column(x, x0, x1 float64, n int) int {
	j := int((x - x0) / (x1 - x0) * float64(n))
	return min(max(j, 0), n-1)
}

// depth is a count of requests over time: arrivals add one, completions
// remove one.
type depth struct {
	arrive, leave []int64 // ascending
}

// sortedCopy returns a ascending, copying and sorting only when it is not.
func sortedCopy(a []int64) []int64 {
	if slices.IsSorted(a) {
		return a
	}
	b := slices.Clone(a)
	sim.SortInt64s(b)
	return b
}

// grid cuts time into n columns: column k holds the instants t with
// floor((t − x0)·scale) = k (clamped to [0, n)).
type grid struct {
	x0, scale float64
	n         int
}

// newGrid returns n columns over [x0, x1] (a range of at least 1 ns).
func newGrid(x0, x1 float64, n int) grid {
	n = max(n, 1)
	if !(x1 > x0) {
		x1 = x0 + 1
	}
	return grid{x0, float64(n) / (x1 - x0), n}
}

func (g grid) col(t int64) int { return min(max(int((float64(t)-g.x0)*g.scale), 0), g.n-1) }

// start returns the first instant of column k ≥ 1.
func (g grid) start(k int) int64 {
	t := int64(math.Ceil(g.x0 + float64(k)/g.scale))
	for g.col(t-1) >= k {
		t--
	}
	for g.col(t) < k {
		t++
	}
	return t
}

// peaks returns, for each grid, the largest count at any instant of each
// of its columns, and the largest count of all with the first instant it
// is reached. The count at an instant has every event at that instant
// applied, so a reply and a send at the same time never show as a dip or a
// bump. A count only rises at an arrival, so a column's peak is the count
// carried into it or the count at one of its arrivals: one merge finds the
// count at every arrival, then each column takes the largest of its range.
func (d depth) peaks(gs ...grid) (his [][]int, peak int, at int64) {
	a, l := d.arrive, d.leave
	cnt := make([]int32, len(a))
	peak, at = arrivalCounts(a, l, cnt)
	his = make([][]int, len(gs))
	for gi, g := range gs {
		hi := make([]int, g.n)
		ia, il := 0, 0 // arrivals before, and leaves up to, the column's start
		for k := 0; k < g.n; k++ {
			if k > 0 {
				s := g.start(k)
				ia = firstAbove(a, ia, s-1)
				il = firstAbove(l, il, s)
				hi[k] = max(ia-il, 0)
			}
			end := len(a)
			if k < g.n-1 {
				end = firstAbove(a, ia, g.start(k+1)-1)
			}
			hi[k] = int(maxFrom(cnt[ia:end], int32(hi[k])))
		}
		his[gi] = hi
	}
	return his, peak, at
}

// arrivalCounts sets cnt[i] to the count just after arrival i (every event
// at its instant applied) and returns the largest count and the first
// instant it is reached. It calls nothing and branches little, which counts
// in WebAssembly: arrivals before the last leave find their leaves by a
// bare loop (a leave above them stops it), the later ones see them all.
func arrivalCounts(a, l []int64, cnt []int32) (peak int, at int64) {
	cnt = cnt[:len(a)]
	if alternate(a, l) { // one request at a time: a single connection
		for i := range cnt {
			cnt[i] = 1
		}
		if len(a) > 0 {
			peak, at = 1, a[0]
		}
		return peak, at
	}
	n := len(a)
	if len(l) > 0 {
		n = firstAbove(a, 0, l[len(l)-1]-1) // arrivals before the last leave
	}
	j := 0
	for i, t := range a[:n] {
		for l[j] <= t {
			j++
		}
		cnt[i] = int32(i + 1 - j)
	}
	for i := n; i < len(a); i++ {
		cnt[i] = int32(i + 1 - len(l))
	}
	for i := len(a) - 2; i >= 0; i-- { // arrivals at one instant share its count
		if a[i] == a[i+1] {
			cnt[i] = cnt[i+1]
		}
	}
	for i, c := range cnt {
		if int(c) > peak {
			peak, at = int(c), a[i]
		}
	}
	return peak, at
}

// alternate reports whether every request leaves after it arrives and
// before the next arrives (a[i] < l[i] <= a[i+1]): the count is then 1 just
// after each arrival, which one loop over the two slices proves, without
// a merge.
func alternate(a, l []int64) bool {
	if len(a) != len(l) {
		return false
	}
	l = l[:len(a)]
	for i, t := range a {
		if l[i] <= t || i > 0 && l[i-1] > t {
			return false
		}
	}
	return true
}

// firstAbove returns the least i ≥ from with a[i] > x (len(a) if none), a
// ascending.
func firstAbove(a []int64, from int, x int64) int {
	lo, hi := from, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func maxFrom(a []int32, m int32) int32 {
	for _, v := range a {
		m = max(m, v)
	}
	return m
}

// peak returns the largest count and the first time it is reached.
func (d depth) peak() (int, int64) {
	_, p, at := d.peaks()
	return p, at
}

// columns returns, for each of cols columns of [x0, x1], the largest count
// at any instant in the column.
func (d depth) columns(x0, x1 float64, cols int) []int {
	his, _, _ := d.peaks(newGrid(x0, x1, cols))
	return his[0]
}

// regrid maps the column peaks hi of one grid onto n columns over the same
// range: each column takes the largest value of every column it overlaps,
// so no peak is lost (one may widen by a column).
func regrid(hi []int, n int) []int {
	out := make([]int, n)
	m := len(hi)
	for j, v := range hi {
		// column j covers [j/m, (j+1)/m) of the range: it overlaps the
		// columns floor(j·n/m) to ceil((j+1)·n/m) − 1.
		a, b := j*n/m, ((j+1)*n+m-1)/m-1
		for k := a; k <= min(b, n-1); k++ {
			out[k] = max(out[k], v)
		}
	}
	return out
}

// clientDepth returns the requests client c has sent and not yet had
// answered, and the requests due (by the schedule) and not yet answered;
// same reports that the two are one count, as for the open loop (which
// sends when due) and the paced client (whose schedule re-anchors at every
// late send, so a request is due when it is sent). ok is false without
// per-request data. dues caches the schedule's due times between clients.
func clientDepth(res *sim.Result, c sim.Client, dues *[]int64) (sent, due depth, same, ok bool) {
	cr := &res.Clients[c]
	if cr.Done == nil && cr.Sent > 0 || c != sim.OpenClient && cr.Send == nil && cr.Sent > 0 {
		return depth{}, depth{}, false, false
	}
	leave := sortedCopy(cr.Done)
	if c == sim.PacedClient {
		s := depth{sortedCopy(cr.Send), leave}
		return s, s, true, true
	}
	n := len(cr.Done)
	if e := res.Engine; e != nil {
		if len(e.Due) < n {
			return depth{}, depth{}, false, false
		}
		*dues = e.Due
	}
	if len(*dues) < n {
		rq := requests{cr: cr, sched: res.Schedule()}
		if rq.sched.Exact() {
			rq.slot = rq.sched.Interval(1)
		}
		d := make([]int64, n)
		for i := range d {
			d[i] = rq.due(i)
		}
		*dues = d
	}
	d := depth{(*dues)[:n], leave}
	if c == sim.OpenClient {
		return d, d, true, true
	}
	return depth{sortedCopy(cr.Send), leave}, d, false, true
}
