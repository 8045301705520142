package sim

import "fmt"

// CorrectionRule is how a tool re-records its samples after a run.
type CorrectionRule uint8

const (
	// HdrCorrection is HdrHistogram's recordValueWithExpectedInterval: each
	// sample v adds v − E, v − 2E, … while at least E.
	HdrCorrection CorrectionRule = iota
	// WrkCorrection is wrk 4.x's stats_correct (src/stats.c 33–43): each
	// value n ≥ 2E adds its count at n − E, n − 2E, … while strictly above E.
	WrkCorrection
)

// CorrectDist returns d re-recorded under rule with expected interval e
// (exact: the added samples are counted as arithmetic sequences, or
// written out, or go into a histogram beyond the exact bounds, as the
// closed loop's corrected recording). d must hold exact samples.
func CorrectDist(d *Dist, e int64, rule CorrectionRule) (*Dist, error) {
	if e <= 0 {
		return nil, fmt.Errorf("correction: the expected interval must be positive, got %d ns", e)
	}
	if d.hist != nil || d.groups != nil {
		return nil, fmt.Errorf("correction: the samples must be exact and uncorrected")
	}
	if rule == HdrCorrection {
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

// MaxWrkCorrectSteps bounds the additions WrkStatsCorrect may make.
const MaxWrkCorrectSteps = int64(50_000_000)

// WrkStatsCorrect is wrk 4.x's stats_correct on its per-value count array
// (data[n] samples of n microseconds, n ≤ max): for each n from 2E to max,
// it adds data[n] at n − E, n − 2E, … while strictly above E (src/stats.c
// 33–43). It returns the samples added. wrk itself loops forever when E is
// 0; so do we not: that, and a correction over MaxWrkCorrectSteps, is an
// error naming the limit.
func WrkStatsCorrect(data []int64, max, e int64) (int64, error) {
	if e <= 0 {
		return 0, fmt.Errorf("wrk's correction: the interval runtime/(requests/connections) is %d µs; wrk's stats_correct never ends for it", e)
	}
	var steps int64
	for n := 2 * e; n <= max; n++ {
		if data[n] != 0 && n > 2*e {
			steps += (n - 1) / e
		}
	}
	if steps > MaxWrkCorrectSteps {
		return 0, fmt.Errorf("limit wrk correction steps: wrk's correction would make %d additions, over the limit of %d", steps, MaxWrkCorrectSteps)
	}
	var added int64
	for n := 2 * e; n <= max; n++ {
		count := data[n]
		for m := n - e; count != 0 && m > e; m -= e {
			data[m] += count
			added += count
		}
	}
	return added, nil
}
