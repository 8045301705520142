package tools

import (
	"math"
	"strings"

	"omission/sim"
)

// cArray is wrk 4.x's stats: a count per integer value (microseconds, or
// requests per second), its min and max as recorded, and its count. Its
// loops run from min to max (src/stats.c 45–107), so samples that the
// correction adds below min are counted but never seen by them.
type cArray struct {
	vals, counts []int64 // the nonzero values in [min, max], ascending
	count        int64
	min, max     int64
	empty        bool // nothing recorded: min is UINT64_MAX
}

func newCArray(dense []int64, min, max, count int64) cArray {
	a := cArray{count: count, min: min, max: max, empty: count == 0}
	if a.empty {
		a.max = 0
		return a
	}
	for v := min; v <= max; v++ {
		if dense[v] != 0 {
			a.vals = append(a.vals, v)
			a.counts = append(a.counts, dense[v])
		}
	}
	return a
}

// sparseCArray records values one by one, as stats_record does.
func sparseCArray(values []int64, limit int64) cArray {
	m := map[int64]int64{}
	a := cArray{min: math.MaxInt64}
	for _, v := range values {
		if v >= limit {
			continue
		}
		m[v]++
		a.count++
		a.min, a.max = min(a.min, v), max(a.max, v)
	}
	if a.count == 0 {
		return cArray{empty: true}
	}
	for v := range m {
		a.vals = append(a.vals, v)
	}
	sortInt64s(a.vals)
	for _, v := range a.vals {
		a.counts = append(a.counts, m[v])
	}
	return a
}

// mean is stats_mean: the exact sum over the count, in long double.
func (a cArray) mean() ld {
	if a.count == 0 {
		return ldInt(0)
	}
	var sum uint64
	for i, v := range a.vals {
		sum += uint64(v) * uint64(a.counts[i])
	}
	return ldUint(sum).quo(ldInt(a.count))
}

// stdev is stats_stdev: sqrtl(Σ powl(i − mean, 2)·data[i] / (count − 1)).
func (a cArray) stdev(mean ld) ld {
	if a.count < 2 {
		return ldInt(0)
	}
	sum := ldInt(0)
	for i, v := range a.vals {
		d := ldInt(v).sub(mean)
		sum = sum.add(d.mul(d).mul(ldInt(a.counts[i])))
	}
	return sum.quo(ldInt(a.count - 1)).sqrt()
}

// within is stats_within_stdev: the share of samples within n deviations.
// It returns ok false for the 0/0 of an empty array (printed as -nan).
func (a cArray) within(mean, stdev ld, n int64) (ld, bool) {
	if a.count == 0 {
		return ld{}, false
	}
	upper := mean.add(stdev.mul(ldInt(n)))
	lower := mean.sub(stdev.mul(ldInt(n)))
	var sum int64
	for i, v := range a.vals {
		x := ldInt(v)
		if x.cmp(lower) >= 0 && x.cmp(upper) <= 0 {
			sum += a.counts[i]
		}
	}
	return ldInt(sum).quo(ldInt(a.count)).mul(ldInt(100)), true
}

// wrkRank is stats_percentile's rank: round((p / 100.0) * count + 0.5),
// computed in long double and handed to the double round().
func wrkRank(p float64, count int64) int64 {
	x := ldF(p).quo(ldF(100)).mul(ldInt(count)).add(ldF(0.5))
	return int64(math.Round(x.float()))
}

// percentile is stats_percentile: the first value whose running count
// reaches the rank, or 0 when it never does.
func (a cArray) percentile(p float64) int64 {
	rank := wrkRank(p, a.count)
	var total int64
	for i, v := range a.vals {
		total += a.counts[i]
		if total >= rank {
			return v
		}
	}
	return 0
}

// printStats is wrk's print_stats (src/wrk.c 563–573).
func (a cArray) printStats(b *strings.Builder, name string, f func(ld) string) {
	mean := a.mean()
	stdev := a.stdev(mean)
	b.WriteString("    " + name + strings.Repeat(" ", max(0, 10-len(name))))
	printUnits(b, mean, f, 8)
	printUnits(b, stdev, f, 10)
	printUnits(b, ldInt(a.max), f, 9)
	w, ok := a.within(mean, stdev, 1)
	b.WriteString(padLeft(pctText(w, ok), 8) + "%\n")
}

func pctText(w ld, ok bool) string {
	if !ok {
		return "-nan"
	}
	return w.fixed(2)
}

func sortInt64s(a []int64) { sim.SortInt64s(a) }
