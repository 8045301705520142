package profile

import (
	"fmt"

	"omission/sim"
)

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
//
// wrk adds k' = ⌈v/E⌉ − 2 samples for v ≥ 2E, which is
// sim.CorrectionCount(v−1, E): the samples less 1 are corrected with
// HdrHistogram's rule and the 1 is added back to every sample of the
// result (sim's correctDist, which the Dist's own parts need).
func CorrectDist(d *sim.Dist, e int64, rule CorrectionRule) (*sim.Dist, error) {
	return correctDist(d, e, rule == WrkCorrection)
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
