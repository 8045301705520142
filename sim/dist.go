package sim

import (
	"fmt"
	"math/bits"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Percentile is one of the percentiles reported for every recording.
type Percentile struct {
	Name string // "p99_9"
	PPM  int64  // in parts per million: 999000
}

// percentiles are indexed by P50 … P9999.
var percentiles = [NumPercentiles]Percentile{{"p50", 500000}, {"p90", 900000}, {"p99", 990000}, {"p99_9", 999000}, {"p99_99", 999900}}

// Percent is the percentile in percent (99.9 for p99_9: the nearest
// float64, as the literal 99.9 is).
func (p Percentile) Percent() float64 { return float64(p.PPM) / 1e4 }

// Percentiles returns the percentiles reported for every recording, in the
// order of Recording.P (a copy: callers may keep or change it).
func Percentiles() []Percentile { return append([]Percentile(nil), percentiles[:]...) }

// RankOf returns the 1-based rank of the ppm/10⁴ percentile among n samples,
// computed exactly in integers: round is floor(p/100·n + 1/2), ceil is
// ceil(p/100·n); both at least 1 and at most n.
func RankOf(ppm, n int64, r Rank) int64 {
	if n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(ppm), uint64(n))
	add := uint64(500000)
	if r == RankCeil {
		add = 999999
	}
	lo, c := bits.Add64(lo, add, 0)
	hi += c
	q, _ := bits.Div64(hi, lo, 1e6)
	k := int64(q)
	if k < 1 {
		k = 1
	}
	if k > n {
		k = n
	}
	return k
}

// Dist is one recording's distribution of latencies. It is exact (sorted
// samples, or counted runs of samples, plus the arithmetic sequences an
// expected-interval correction adds, counted and never materialised) or, for
// the event engine beyond ExactSamples, an hdrhistogram-go histogram with
// HistogramSigf significant digits. Count, sum (so the mean), max and the
// above-threshold count are exact either way.
type Dist struct {
	n      int64
	sum    u128
	max    int64
	sorted []int64
	runs   []sampleRun // instead of sorted: counted runs (runs.go), sorted by first value
	ridx   *runIndex   // many runs: their index (runs.go)

	// correction sequences over sorted: for each group, mult base samples of
	// value v each add v-E, v-2E, …, v-kE.
	e      int64
	groups []seqGroup
	gidx   *groupIndex // many groups: their index (runs.go)

	hist *hdrhistogram.Histogram
}

type seqGroup struct{ v, mult, k int64 }

// Count is the number of samples.
func (d *Dist) Count() int64 { return d.n }

// Max is the largest sample (0 when empty).
func (d *Dist) Max() int64 { return d.max }

// Sum is the exact total of all samples.
func (d *Dist) Sum() u128 { return d.sum }

// Mean is the exact sum over the count.
func (d *Dist) Mean() float64 { return d.sum.div(d.n) }

// Exact reports whether percentiles are exact sample values.
func (d *Dist) Exact() bool { return d.hist == nil }

// Histogram returns the hdrhistogram-go histogram behind an inexact Dist.
func (d *Dist) Histogram() *hdrhistogram.Histogram { return d.hist }

// Sorted returns the exact samples in ascending order when the Dist holds
// them one by one (nil for histogram or counted-sequence distributions).
func (d *Dist) Sorted() []int64 {
	if d.hist != nil || d.groups != nil || d.runs != nil {
		return nil
	}
	return d.sorted
}

// Precision returns the width of the equivalence range at v: 1 when exact.
func (d *Dist) Precision(v int64) int64 {
	if d.hist == nil {
		return 1
	}
	return equivalentRange(v)
}

// Percentile returns the sample at the rank of ppm under convention r.
func (d *Dist) Percentile(ppm int64, r Rank) int64 {
	return d.ValueAtRank(RankOf(ppm, d.n, r))
}

// ValueAtRank returns the k-th smallest sample (1-based); in histogram mode
// the highest value equivalent to it, as HdrHistogram reports.
func (d *Dist) ValueAtRank(k int64) int64 {
	if d.n == 0 || k < 1 {
		return 0
	}
	if k > d.n {
		k = d.n
	}
	switch {
	case d.hist != nil:
		var cum int64
		for _, b := range d.hist.Distribution() {
			cum += b.Count
			if cum >= k {
				return min(b.To, d.max) // the bucket's top, never past the exact max
			}
		}
		return d.max
	case d.groups == nil && d.runs == nil:
		return d.sorted[k-1]
	}
	return d.leastWithRank(k, d.least(), d.max)
}

// ValueAtRankBetween returns ValueAtRank(k) for a caller that knows it lies
// in [lo, hi], searching only there (a counted correction answers a rank by
// a search over values).
func (d *Dist) ValueAtRankBetween(k, lo, hi int64) int64 {
	if k < 1 || d.n == 0 || d.hist != nil || d.groups == nil && d.runs == nil {
		return d.ValueAtRank(k)
	}
	return d.leastWithRank(min(k, d.n), lo, hi)
}

// leastWithRank is the least x in [lo, hi] with CountAtOrBelow(x) >= k.
func (d *Dist) leastWithRank(k, lo, hi int64) int64 {
	for lo < hi {
		mid := lo + (hi-lo)/2
		if d.CountAtOrBelow(mid) >= k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// CountAtOrBelow returns how many samples are <= x (in histogram mode, the
// samples whose equivalence range lies at or below x).
func (d *Dist) CountAtOrBelow(x int64) int64 {
	if d.hist != nil {
		var c int64
		for _, b := range d.hist.Distribution() {
			if b.To > x {
				break
			}
			c += b.Count
		}
		return c
	}
	c := int64(upperBound(d.sorted, x))
	if d.runs != nil {
		c = d.runsAtOrBelow(x)
	}
	return c + d.groupsAtOrBelow(x)
}

// least is a lower bound of every sample, for a search over values.
func (d *Dist) least() int64 {
	lo := int64(0)
	switch {
	case len(d.sorted) > 0:
		lo = d.sorted[0]
	case len(d.runs) > 0:
		lo = d.runs[0].v
	}
	if d.groups != nil {
		lo = min(lo, d.e) // a corrected value is at least E
	}
	return min(lo, d.max)
}

// groupsAtOrBelow counts the corrected values at or below x.
func (d *Dist) groupsAtOrBelow(x int64) int64 {
	if len(d.groups) <= 64 {
		var c int64
		for _, g := range d.groups {
			c += g.mult * seqAtOrBelow(g.v, d.e, g.k, x)
		}
		return c
	}
	return d.manyGroupsAtOrBelow(x)
}

// CountAbove returns how many samples are strictly above a.
func (d *Dist) CountAbove(a int64) int64 {
	if d.hist != nil {
		return d.n - d.CountAtOrBelow(a)
	}
	return d.n - d.CountAtOrBelow(a)
}

// seqAtOrBelow counts j in [1, k] with v - j·e <= x.
func seqAtOrBelow(v, e, k, x int64) int64 {
	if x >= v-e {
		return k
	}
	if x < v-k*e {
		return 0
	}
	lo := (v - x + e - 1) / e // least j with v - j e <= x
	return k - lo + 1
}

// upperBound returns the number of elements of a (ascending) that are <= x.
func upperBound(a []int64, x int64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// CorrectionCount returns how many samples HdrHistogram's expected-interval
// correction adds for one sample v: v-E, v-2E, … while >= E.
func CorrectionCount(v, e int64) int64 {
	if e <= 0 || v < 2*e {
		return 0
	}
	return v/e - 1
}

// exactDist builds an exact Dist from samples, sorting them in place.
func exactDist(samples []int64) *Dist {
	radixSort(samples)
	d := &Dist{n: int64(len(samples)), sorted: samples}
	for _, v := range samples {
		d.sum.add(uint64(v))
	}
	if len(samples) > 0 {
		d.max = samples[len(samples)-1]
	}
	return d
}

// maxMaterialised is the largest corrected set written out sample by sample;
// a larger one is counted as sequences.
const maxMaterialised = 2 * ExactSamples

// maxGroups bounds the sequence groups of a counted correction (each rank
// query costs a binary search over values times the groups); beyond it the
// correction is written out when small, or goes into a histogram.
const maxGroups = 256

// correctedDist returns base re-recorded with the expected-interval
// correction E, without materialising the added samples unless there are few
// (the event engine's rule: beyond maxMaterialised samples with more than
// maxGroups distinct slow values, a histogram).
func correctedDist(base *Dist, e int64) *Dist { return corrected(base, e, false) }

// countedCorrection is correctedDist for the deterministic model: it never
// falls back to a histogram, however many distinct values (runs.go).
func countedCorrection(base *Dist, e int64) *Dist { return corrected(base, e, true) }

func corrected(base *Dist, e int64, exactOnly bool) *Dist {
	if base.runs != nil {
		return correctedRuns(base, e)
	}
	if base.hist != nil {
		h := newHist()
		d := &Dist{hist: h, n: 0}
		for _, b := range base.hist.Distribution() {
			if b.Count == 0 {
				continue
			}
			// HdrHistogram corrects each recorded value; a bucket stands for its
			// highest equivalent value here.
			recordCorrected(d, b.To, b.Count, e)
		}
		return d
	}
	var groups []seqGroup
	added := int64(0)
	s := base.sorted
	for i := len(s) - 1; i >= 0; {
		v := s[i]
		k := CorrectionCount(v, e)
		if k == 0 {
			break // ascending: all smaller values add nothing
		}
		j := i
		for j >= 0 && s[j] == v {
			j--
		}
		groups = append(groups, seqGroup{v, int64(i - j), k})
		added += int64(i-j) * k
		i = j
	}
	total := base.n + added
	if len(groups) <= maxGroups || exactOnly && total > maxMaterialised {
		// Few distinct slow samples (the deterministic model has one per
		// stall shape): count the sequences, never write them out.
		d := &Dist{n: total, sum: base.sum, max: base.max, sorted: s, e: e, groups: groups}
		if len(groups) == 0 {
			d.groups = nil
		}
		for _, g := range groups {
			// Σ_{j=1..k} (v - j e) = k v - e k(k+1)/2
			d.sum.addScaled(seqSum(g.v, e, g.k), uint64(g.mult))
		}
		d.indexGroups()
		return d
	}
	if total <= maxMaterialised {
		out := make([]int64, 0, total)
		out = append(out, s...)
		for _, g := range groups {
			for m := int64(0); m < g.mult; m++ {
				for j := int64(1); j <= g.k; j++ {
					out = append(out, g.v-j*e)
				}
			}
		}
		return exactDist(out)
	}
	h := &Dist{hist: newHist()}
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		recordCorrected(h, s[i], int64(j-i), e)
		i = j
	}
	return h
}

// histHighest is the largest latency a histogram records (about 146
// years; Validate refuses runs whose virtual time could reach it).
const histHighest = int64(1) << 62

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(1, histHighest, HistogramSigf) }

// equivalentRange is the width of the histogram bucket holding v, for the
// geometry of newHist (lowest 1, 3 significant digits: 2048 sub-buckets).
func equivalentRange(v int64) int64 {
	b := 64 - bits.LeadingZeros64(uint64(v|2047)) - 11
	return int64(1) << b
}

func lowestEquivalent(v int64) int64 {
	b := 64 - bits.LeadingZeros64(uint64(v|2047)) - 11
	return v >> b << b
}

// record adds n samples of v to a histogram Dist.
func (d *Dist) record(v, n int64) {
	d.recordHist(v, n)
	d.n += n
	d.sum.addMul(uint64(v), uint64(n))
	if v > d.max {
		d.max = v
	}
}

// recordHist adds n samples of v to the histogram. Validate keeps every
// latency inside its range, so a refusal here is a broken invariant.
func (d *Dist) recordHist(v, n int64) {
	if err := d.hist.RecordValues(v, n); err != nil {
		panic(fmt.Sprintf("sim: recording %d × %d ns: %v", n, v, err))
	}
}

// recordCorrected adds n samples of v and, for each, the corrected sequence
// v-E, v-2E, …, stepping through whole histogram buckets at a time.
func recordCorrected(d *Dist, v, n, e int64) {
	d.record(v, n)
	k := CorrectionCount(v, e)
	if k == 0 {
		return
	}
	d.sum.addScaled(seqSum(v, e, k), uint64(n))
	d.n += n * k
	x := v - e // current top of the remaining sequence
	left := k
	for left > 0 {
		lo := lowestEquivalent(x)
		c := (x-lo)/e + 1
		if c > left {
			c = left
		}
		d.recordHist(x, c*n)
		x -= c * e
		left -= c
	}
}

// radixSort sorts non-negative int64s ascending (LSD, 11-bit digits, passes
// whose digit is the same for every key skipped).
func radixSort(a []int64) {
	if sortFewDistinct(a) || sortByCounting(a) {
		return
	}
	if len(a) < 64 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j] < a[j-1]; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	const bitsPer, buckets, maxPasses = 11, 1 << 11, 6
	var mx uint64
	for _, v := range a {
		mx |= uint64(v)
	}
	passes := (bits.Len64(mx) + bitsPer - 1) / bitsPer
	var counts [maxPasses][buckets]uint32
	c0, c1, c2 := &counts[0], &counts[1], &counts[2]
	for _, v := range a { // three digits cover 33 bits (8.6 s) in one pass
		u := uint64(v)
		c0[u&(buckets-1)]++
		c1[(u>>bitsPer)&(buckets-1)]++
		c2[(u>>(2*bitsPer))&(buckets-1)]++
	}
	for p := 3; p < passes; p++ {
		for _, v := range a {
			counts[p][(uint64(v)>>(p*bitsPer))&(buckets-1)]++
		}
	}
	buf := make([]int64, len(a))
	src, dst := a, buf
	for p := 0; p < passes; p++ {
		c := &counts[p]
		trivial := false
		for _, n := range c {
			if int(n) == len(a) {
				trivial = true
				break
			}
			if n != 0 {
				break
			}
		}
		if trivial {
			continue
		}
		sum := uint32(0)
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		shift := uint(p * bitsPer)
		for _, v := range src {
			b := (uint64(v) >> shift) & (buckets - 1)
			dst[c[b]] = v
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// sortFewDistinct sorts a in one pass when it holds at most 32 distinct
// values (a closed loop records the service time and one value per stall),
// and reports whether it did.
func sortFewDistinct(a []int64) bool {
	const most = 32
	var keys [most]int64
	var counts [most]int
	n, cur := 0, -1
	for _, v := range a {
		if cur >= 0 && keys[cur] == v {
			counts[cur]++
			continue
		}
		cur = -1
		for i := 0; i < n; i++ {
			if keys[i] == v {
				cur = i
				break
			}
		}
		if cur < 0 {
			if n == most {
				return false
			}
			keys[n], cur = v, n
			n++
		}
		counts[cur]++
	}
	ks, cs := keys[:n], counts[:n]
	for i := 1; i < n; i++ { // insertion sort of the distinct values
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	out := a[:0]
	for i, k := range ks {
		for c := 0; c < cs[i]; c++ {
			out = append(out, k)
		}
	}
	return true
}

// sortByCounting sorts a by counting its values in a small hash table when
// it holds at most countingMax distinct values (an open loop's latencies
// repeat the same arithmetic sequence after every stall), and reports
// whether it did. It gives up as soon as the table is full.
func sortByCounting(a []int64) bool {
	const slots = 2 * countingMax // a power of two, at most half full
	if len(a) < 4*countingMax {
		return false
	}
	var keys [slots]int64
	var counts [slots]int32
	used := 0
	for _, v := range a {
		h := uint64(v) * 0x9E3779B97F4A7C15 >> (64 - countingBits - 1)
		for {
			if counts[h] == 0 {
				if used == countingMax {
					return false
				}
				keys[h], counts[h] = v, 1
				used++
				break
			}
			if keys[h] == v {
				counts[h]++
				break
			}
			h = (h + 1) & (slots - 1)
		}
	}
	type kc struct {
		k int64
		c int32
	}
	distinct := make([]kc, 0, used)
	for i := range keys {
		if counts[i] > 0 {
			distinct = append(distinct, kc{keys[i], counts[i]})
		}
	}
	sort.Slice(distinct, func(i, j int) bool { return distinct[i].k < distinct[j].k }) // distinct keys; sort.Slice's code is shared, a generic sort's is not
	out := a[:0]
	for _, d := range distinct {
		for c := int32(0); c < d.c; c++ {
			out = append(out, d.k)
		}
	}
	return true
}

const (
	countingBits = 12
	countingMax  = 1 << countingBits // distinct values sortByCounting takes
)

// correctedAbove counts v and its corrected sequence strictly above a.
func correctedAbove(v, e, a int64) int64 {
	if v <= a {
		return 0
	}
	k := CorrectionCount(v, e)
	// j in [1,k] with v - j e > a  <=>  j e < v - a  <=>  j <= (v-a-1)/e
	m := (v - a - 1) / e
	if m > k {
		m = k
	}
	return 1 + m
}

// correctDist is sim/profile's CorrectDist, which needs the Dist's own
// parts (hooks.go lends it): d re-recorded with expected interval e under
// HdrHistogram's rule, or with wrk, under wrk 4.x's stats_correct (each
// value n ≥ 2E adds its count at n − E, n − 2E, … while strictly above E).
// d must hold exact samples.
func correctDist(d *Dist, e int64, wrk bool) (*Dist, error) {
	if e <= 0 {
		return nil, fmt.Errorf("correction: the expected interval must be positive, got %d ns", e)
	}
	if d.hist != nil || d.groups != nil {
		return nil, fmt.Errorf("correction: the samples must be exact and uncorrected")
	}
	if !wrk {
		return correctedDist(d, e), nil
	}
	// wrk adds k' = ⌈v/E⌉ − 2 samples for v ≥ 2E, which is CorrectionCount(v−1, E):
	// j ≥ 1 with v − jE > E  ⇔  j < v/E − 1.
	shifted := make([]int64, len(d.sorted))
	for i, v := range d.sorted {
		shifted[i] = v - 1
	}
	// Correcting v−1 with HdrHistogram's rule gives the same counts k' at
	// the values v−1−jE; add the 1 back to every sample of the result.
	base := exactDist(shifted)
	c := correctedDist(base, e)
	return c.plusOne(int64(len(d.sorted)))
}

// plusOne adds 1 to every sample of an exact (or counted) Dist that holds n
// base samples, returning a new Dist.
func (d *Dist) plusOne(n int64) (*Dist, error) {
	switch {
	case d.hist != nil:
		return nil, fmt.Errorf("correction: wrk's correction of %d samples exceeds the exact bounds", n)
	case d.groups == nil:
		out := make([]int64, len(d.sorted))
		for i, v := range d.sorted {
			out[i] = v + 1
		}
		return exactDist(out), nil
	}
	out := &Dist{n: d.n, sum: d.sum, max: d.max + 1, e: d.e}
	out.sum.add(uint64(d.n))
	out.sorted = make([]int64, len(d.sorted))
	for i, v := range d.sorted {
		out.sorted[i] = v + 1
	}
	out.groups = make([]seqGroup, len(d.groups))
	for i, g := range d.groups {
		out.groups[i] = seqGroup{g.v + 1, g.mult, g.k}
	}
	return out, nil
}
