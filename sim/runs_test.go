package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDueRuns: the runs forDueRuns emits hold exactly the values
// a + b·j − due(i0 + j·s), for exact and rounded schedules.
func TestDueRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 16))
	rates := []Rate{RateOf(5000), RateOf(3000), RateOf(7000), 333333, RateOf(12345), 2860411899, RateOf(10_000_000), 1, 7, RateOf(999983)}
	for trial := 0; trial < 400; trial++ {
		sched := NewSchedule(rates[r.IntN(len(rates))])
		s := 1 + r.Int64N(12)
		cnt := 1 + r.Int64N(3000)
		i0 := r.Int64N(1 << 20)
		if sched.rate < 1000 {
			i0 = r.Int64N(1000)
		}
		b := r.Int64N(2 * sched.Interval(s))
		a := sched.Due(i0+(cnt-1)*s) + r.Int64N(1000)
		var want, got []int64
		for j := int64(0); j < cnt; j++ {
			want = append(want, a+b*j-sched.Due(i0+j*s))
		}
		runs := 0
		forDueRuns(sched, a, b, i0, s, cnt, func(v, step, n int64) {
			runs++
			for k := int64(0); k < n; k++ {
				got = append(got, v+k*step)
			}
		})
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			t.Fatalf("rate %s i0 %d s %d cnt %d a %d b %d: the runs hold other values (%d vs %d)", sched.rate, i0, s, cnt, a, b, len(got), len(want))
		}
		if sched.Exact() && runs != 1 {
			t.Fatalf("exact schedule: %d runs, want 1", runs)
		}
	}
}

// TestDueRunsFew: on a rounded schedule a long stretch is still a handful of
// runs (rate 3000/s repeats every 3 requests; 7000/s every 7).
func TestDueRunsFew(t *testing.T) {
	for _, c := range []struct {
		rate Rate
		most int
	}{{RateOf(3000), 3}, {RateOf(7000), 7}, {RateOf(12345), 3000}, {2860411899, 3000}} {
		sched := NewSchedule(c.rate)
		runs := 0
		forDueRuns(sched, 1e15, 500, 17, 1, 1e8, func(v, step, n int64) { runs++ })
		if runs > c.most {
			t.Errorf("rate %s: %d runs for 10⁸ values, want at most %d", c.rate, runs, c.most)
		}
	}
}

// TestRunDist: a Dist of counted runs answers every rank and count as the
// sorted samples do, and so does its counted correction.
func TestRunDist(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	for trial := 0; trial < 60; trial++ {
		var rs runSet
		var samples []int64
		for k := 0; k < 1+r.IntN(200); k++ {
			v, step, n, mult := r.Int64N(5000), r.Int64N(40)-20, 1+r.Int64N(30), 1+r.Int64N(3)
			if r.IntN(3) == 0 {
				step = 0
			}
			if v+(n-1)*step < 0 {
				continue
			}
			rs.add(v, step, n, mult)
			for m := int64(0); m < mult; m++ {
				for j := int64(0); j < n; j++ {
					samples = append(samples, v+j*step)
				}
			}
		}
		d, want := rs.dist(), exactDist(slices.Clone(samples))
		if d.Count() != want.Count() || d.Sum() != want.Sum() || d.Max() != want.Max() || d.Mean() != want.Mean() {
			t.Fatalf("count/sum/max differ: %d %d", d.Count(), want.Count())
		}
		for k := int64(1); k <= d.Count(); k += 1 + k/50 {
			if d.ValueAtRank(k) != want.ValueAtRank(k) {
				t.Fatalf("rank %d: %d, want %d", k, d.ValueAtRank(k), want.ValueAtRank(k))
			}
		}
		e := 1 + r.Int64N(300)
		cd, cw := countedCorrection(d, e), correctedDist(want, e)
		if cd.Count() != cw.Count() || cd.Sum() != cw.Sum() || cd.Max() != cw.Max() {
			t.Fatalf("e %d: corrected count/sum/max differ: %d vs %d", e, cd.Count(), cw.Count())
		}
		for x := int64(-3); x < 6000; x += 1 + r.Int64N(97) {
			if cd.CountAtOrBelow(x) != cw.CountAtOrBelow(x) {
				t.Fatalf("e %d: corrected count at or below %d: %d, want %d", e, x, cd.CountAtOrBelow(x), cw.CountAtOrBelow(x))
			}
		}
		for _, p := range percentiles {
			for _, rk := range []Rank{RankRound, RankCeil} {
				if a, b := cd.Percentile(p.PPM, rk), cw.Percentile(p.PPM, rk); a != b {
					t.Fatalf("e %d %s %s: %d, want %d", e, p.Name, rk, a, b)
				}
			}
		}
	}
}

// TestManyGroups: the index over many correction groups counts as the
// group-by-group loop does.
func TestManyGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for trial := 0; trial < 40; trial++ {
		e := 1 + r.Int64N(100)
		var samples []int64
		for k := 0; k < 100+r.IntN(400); k++ {
			samples = append(samples, r.Int64N(60*e))
		}
		d := countedCorrection(exactDist(samples), e)
		if d.gidx == nil {
			continue
		}
		for x := int64(-2); x < 61*e; x += 1 + r.Int64N(e) {
			var loop int64
			for _, g := range d.groups {
				loop += g.mult * seqAtOrBelow(g.v, d.e, g.k, x)
			}
			if got := d.manyGroupsAtOrBelow(x); got != loop {
				t.Fatalf("e %d x %d: index %d, loop %d", e, x, got, loop)
			}
		}
	}
}
