package sim

import (
	"math/bits"
	"slices"
	"sort"
)

// A long deterministic run keeps each recording as counted runs of samples
// instead of one sample per request: a quiet stretch is one run of equal
// latencies, a drain one arithmetic run. Memory follows the runs kept, and
// every metric stays exact to the nanosecond.

// sampleRun is mult copies of each of v, v+step, …, v+(n−1)·step (step ≥ 0, n ≥ 1,
// mult ≥ 1).
type sampleRun struct{ v, step, n, mult int64 }

// last is the run's largest value.
func (r sampleRun) last() int64 { return r.v + (r.n-1)*r.step }

// atOrBelow counts the run's values (each once) that are at most x.
func (r sampleRun) atOrBelow(x int64) int64 {
	switch {
	case x < r.v:
		return 0
	case r.step == 0:
		return r.n
	}
	return min(r.n, (x-r.v)/r.step+1)
}

// runsAtOrBelow counts the samples of d's runs (sorted by v) at most x:
// one by one when they are few, else through the index.
func (d *Dist) runsAtOrBelow(x int64) int64 {
	if d.ridx != nil {
		return d.ridx.atOrBelow(d.runs, x)
	}
	var c int64
	for _, r := range d.runs {
		if r.v > x {
			break
		}
		c += r.mult * r.atOrBelow(x)
	}
	return c
}

// runIndex counts the samples of many runs at or below x without reading
// them all: the runs that end at or below x count whole (a prefix sum over
// the runs in order of their last value), and those that straddle x (first
// value at or below it, last above) are found from the runs in order of
// their first value, back from x while some run before reaches past x.
type runIndex struct {
	last    []int64 // every run's last value, ascending
	cumLast []int64 // cumLast[i]: the samples of the runs of last[0 … i−1]
	reach   []int64 // reach[i]: the largest last value of runs 0 … i (by first value)
}

func newRunIndex(runs []sampleRun) *runIndex {
	x := &runIndex{last: make([]int64, len(runs)), cumLast: make([]int64, len(runs)+1), reach: make([]int64, len(runs))}
	type lc struct{ last, count int64 }
	byLast := make([]lc, len(runs))
	for i, r := range runs {
		byLast[i] = lc{r.last(), r.n * r.mult}
		x.reach[i] = r.last()
		if i > 0 {
			x.reach[i] = max(x.reach[i], x.reach[i-1])
		}
	}
	sort.Slice(byLast, func(i, j int) bool { return byLast[i].last < byLast[j].last })
	for i, b := range byLast {
		x.last[i] = b.last
		x.cumLast[i+1] = x.cumLast[i] + b.count
	}
	return x
}

func (x *runIndex) atOrBelow(runs []sampleRun, v int64) int64 {
	c := x.cumLast[upperBound(x.last, v)] // runs ending at or below v
	p := sort.Search(len(runs), func(i int) bool { return runs[i].v > v })
	for i := p - 1; i >= 0 && x.reach[i] > v; i-- {
		if r := runs[i]; r.last() > v {
			c += r.mult * r.atOrBelow(v)
		}
	}
	return c
}

// runSet collects runs, merging identical ones (a run of equal values is
// kept as one value with its count, so that all such runs of one value merge).
type runSet struct {
	idx map[runKey]int
	rs  []sampleRun
}

type runKey struct{ v, step, n int64 }

// add adds the n values v, v+step, … (step may be negative), mult times each.
func (s *runSet) add(v, step, n, mult int64) {
	if n <= 0 || mult <= 0 {
		return
	}
	if step < 0 {
		v, step = v+(n-1)*step, -step
	}
	if step == 0 || n == 1 {
		step, n, mult = 0, 1, mult*n
	}
	if s.idx == nil {
		s.idx = map[runKey]int{}
	}
	k := runKey{v, step, n}
	if i, ok := s.idx[k]; ok {
		s.rs[i].mult += mult
		return
	}
	s.idx[k] = len(s.rs)
	s.rs = append(s.rs, sampleRun{v, step, n, mult})
}

// len returns the number of distinct runs kept.
func (s *runSet) len() int { return len(s.rs) }

// dist returns the exact Dist of the runs.
func (s *runSet) dist() *Dist {
	rs := slices.Clone(s.rs)
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.v != b.v {
			return a.v < b.v
		}
		if a.step != b.step {
			return a.step < b.step
		}
		return a.n < b.n
	})
	d := &Dist{runs: rs}
	if len(rs) == 0 {
		d.runs, d.sorted = nil, []int64{}
		return d
	}
	for _, r := range rs {
		d.n += r.n * r.mult
		d.sum.addScaled(runSum(r), uint64(r.mult))
		d.max = max(d.max, r.last())
	}
	if len(rs) > 64 {
		d.ridx = newRunIndex(rs)
	}
	return d
}

// runSum is v + (v+step) + … + (v+(n−1)·step) = n·v + step·n(n−1)/2, in
// 128 bits.
func runSum(r sampleRun) u128 {
	// step·(n−1) is the run's last value less its first: it fits in 64 bits.
	return addU128(mul128(uint64(r.n), uint64(r.v)), triangle(r.step, r.n-1))
}

// correctedRuns is countedCorrection for a Dist of runs: the base runs stay
// as they are, and each base value v ≥ 2E adds its sequence v−E, v−2E, …,
// counted as a group. A run of equal values is one group; a run of distinct
// values (rare on the deterministic model: a closed loop waiting for fewer
// workers than connections) is one group a value.
func correctedRuns(base *Dist, e int64) *Dist {
	byV := map[int64]int64{}
	for _, r := range base.runs {
		j := int64(0)
		if r.step > 0 && r.v < 2*e { // values below 2E add nothing
			j = min(r.n, ceilDiv(2*e-r.v, r.step))
		}
		for ; j < r.n; j++ {
			if v := r.v + j*r.step; CorrectionCount(v, e) > 0 {
				byV[v] += r.mult
			}
		}
	}
	d := &Dist{n: base.n, sum: base.sum, max: base.max, runs: base.runs, ridx: base.ridx, e: e}
	for v, m := range byV {
		k := CorrectionCount(v, e)
		d.groups = append(d.groups, seqGroup{v, m, k})
		d.n += m * k
		d.sum.addScaled(seqSum(v, e, k), uint64(m))
	}
	sort.Slice(d.groups, func(i, j int) bool { return d.groups[i].v > d.groups[j].v })
	d.indexGroups()
	return d
}

// groupIndex answers corrected counts over many groups: the groups in
// ascending order of value, with prefix sums.
type groupIndex struct {
	v    []int64 // ascending
	mod  []int64 // v mod E
	mult []int64
	cumK []int64 // cumK[i]: Σ mult·k of groups 0 … i−1
	cumM []int64 // cumM[i]: Σ mult of groups 0 … i−1
}

// indexGroups builds the index when there are enough groups to need it.
func (d *Dist) indexGroups() {
	if len(d.groups) <= 64 {
		return
	}
	g := slices.Clone(d.groups)
	sort.Slice(g, func(i, j int) bool { return g[i].v < g[j].v })
	x := &groupIndex{v: make([]int64, len(g)), mod: make([]int64, len(g)), mult: make([]int64, len(g)),
		cumK: make([]int64, len(g)+1), cumM: make([]int64, len(g)+1)}
	for i, gr := range g {
		x.v[i], x.mod[i], x.mult[i] = gr.v, gr.v%d.e, gr.mult
		x.cumK[i+1] = x.cumK[i] + gr.mult*gr.k
		x.cumM[i+1] = x.cumM[i] + gr.mult
	}
	d.gidx = x
}

// manyGroupsAtOrBelow counts corrected values at most x through the index.
// A group of value v ≤ x has all its k(v) values at or below x. For v > x
// write v = aE + b and x = cE + d (0 ≤ b, d < E): the values v − jE ≤ x are
// those with j ≥ ceil((v − x)/E) = a − c + [b > d], and j ≤ k(v) = a − 1,
// so there are c − [b > d] of them (never below 0).
func (d *Dist) manyGroupsAtOrBelow(x int64) int64 {
	g := d.gidx
	p := upperBound(g.v, x)
	c := g.cumK[p]
	if x < d.e {
		return c // every corrected value is at least E
	}
	q, r := x/d.e, x%d.e
	c += q * (g.cumM[len(g.v)] - g.cumM[p])
	for i := p; i < len(g.v); i++ {
		if g.mod[i] > r {
			c -= g.mult[i]
		}
	}
	return c
}

// addDueShaped adds mult copies of each of the cnt values
// a + b·j − due(i0 + j·s), j = 0 … cnt−1, as arithmetic runs: one run on
// an exact schedule; on a rounded one, the runs of equal steps of each of q
// interleaved subsequences (the due times at stride q·s step evenly but for
// rare carries, q chosen from the continued fraction of the schedule).
func addDueShaped(rs *runSet, sched Schedule, a, b, i0, s, cnt, mult int64) {
	if cnt <= 0 {
		return
	}
	if sched.Exact() {
		T := sched.Interval(1)
		rs.add(a-i0*T, b-s*T, cnt, mult)
		return
	}
	forDueRuns(sched, a, b, i0, s, cnt, func(v, step, n int64) { rs.add(v, step, n, mult) })
}

// forDueRuns calls emit(v, step, n) for arithmetic runs whose union is the
// values a + b·j − due(i0 + j·s), j = 0 … cnt−1, on any schedule.
//
// due(i) = floor((2i·10¹² + R)/(2R)) for R the rate in milli-requests per
// second. With C = 2R, A = 2s·10¹² = a₁C + α and 2·i0·10¹² + R = b₀C + β₀,
// due(i0 + j·s) = b₀ + a₁·j + floor((α·j + β₀)/C). Along j = t + q·l the
// floor grows by floor(αq/C) a step, plus one exactly when the remainder
// (α_q·l + β_t) mod C wraps (α_q = αq mod C): runs of equal steps are the
// stretches between changes of that carry, found by a division each.
func forDueRuns(sched Schedule, a, b, i0, s, cnt int64, emit func(v, step, n int64)) {
	R := uint64(sched.rate)
	C := 2 * R
	A := 2 * uint64(s) * nsPerMilliRate
	a1, alpha := int64(A/C), A%C
	hi, lo := bits.Mul64(uint64(i0), 2*nsPerMilliRate)
	lo, cy := bits.Add64(lo, R, 0)
	hi += cy
	b0u, beta0 := bits.Div64(hi, lo, C)
	b0 := int64(b0u)
	q := bestStride(alpha, C, cnt)
	aqf, alphaQ := divMod128(alpha, uint64(q), 0, C) // α·q = aqf·C + α_q
	slope := (b-a1)*q - int64(aqf)
	for t := int64(0); t < q && t < cnt; t++ {
		// β_t and f_t: αt + β₀ = f_t·C + β_t.
		ft, beta := divMod128(alpha, uint64(t), beta0, C)
		base := a - b0 + (b-a1)*t - int64(ft)
		L := (cnt - t + q - 1) / q
		rho, f := beta, int64(0)
		for l := int64(0); l < L; {
			if l == L-1 {
				emit(base+slope*l-f, 0, 1)
				break
			}
			var w int64 // increments equal to the first one, from l on
			wrap := rho+alphaQ >= C
			switch {
			case wrap:
				w = int64(rho / (C - alphaQ))
			case alphaQ == 0:
				w = L
			default:
				w = int64((C - alphaQ - rho + alphaQ - 1) / alphaQ)
			}
			n := min(w, L-1-l) + 1
			step := slope
			if wrap {
				step--
			}
			emit(base+slope*l-f, step, n)
			// Advance l by n: rho + αq·n = carry·C + rho'.
			carry, r2 := divMod128(alphaQ, uint64(n), rho, C)
			f += int64(carry)
			rho = r2
			l += n
		}
	}
}

// divMod128 returns floor((x·y + z)/C) and (x·y + z) mod C, for x·y + z
// below C·2⁶⁴.
func divMod128(x, y, z, C uint64) (uint64, uint64) {
	hi, lo := bits.Mul64(x, y)
	lo, cy := bits.Add64(lo, z, 0)
	hi += cy
	return bits.Div64(hi, lo, C)
}

// bestStride picks the stride q of forDueRuns for cnt values: among 1 and
// the denominators of the continued fraction of α/C up to cnt, the one
// with the fewest runs expected (q subsequences, and about two runs per
// carry change, cnt·min(α_q, C−α_q)/C of them).
func bestStride(alpha, C uint64, cnt int64) int64 {
	cost := func(q int64) float64 {
		_, aq := divMod128(alpha, uint64(q), 0, C)
		return float64(q) + 2*float64(cnt)*float64(min(aq, C-aq))/float64(C)
	}
	best, bestCost := int64(1), cost(1)
	if alpha == 0 {
		return 1
	}
	// Denominators of the convergents of α/C: q₋₁ = 0, q₀ = 1,
	// q_n = a_n·q_{n−1} + q_{n−2}, a_n from Euclid's algorithm on (C, α).
	x, y := C, alpha
	qPrev, q := int64(0), int64(1)
	for y != 0 {
		an := x / y
		x, y = y, x%y
		if an > uint64(cnt) {
			break
		}
		qn := int64(an)*q + qPrev
		if qn > cnt || qn <= 0 {
			break
		}
		qPrev, q = q, qn
		if c := cost(q); c < bestCost {
			best, bestCost = q, c
		}
	}
	return best
}

// CountedRun is Mult copies of each of the N values First, First+Step, …,
// First+(N−1)·Step: a counted run of a long run's recording.
type CountedRun struct{ First, Step, N, Mult int64 }

// Runs returns the samples of an exact Dist kept as counted runs (a long
// deterministic run's recordings; a corrected one returns its base's), in
// order of first value; nil for a Dist that keeps sorted samples
// (Sorted) or a histogram (Histogram).
func (d *Dist) Runs() []CountedRun {
	if d.runs == nil {
		return nil
	}
	out := make([]CountedRun, len(d.runs))
	for i, r := range d.runs {
		out[i] = CountedRun{First: r.v, Step: r.step, N: r.n, Mult: r.mult}
	}
	return out
}
