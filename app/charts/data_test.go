package charts

import (
	"math/rand/v2"
	"slices"
	"testing"

	"omission/sim"
)

// TestDistWalks checks the one-pass rank and count walks against
// sim.Dist's own methods, for exact, counted-correction and histogram
// distributions.
func TestDistWalks(t *testing.T) {
	results := []*sim.Result{bench(t), run(t, "preset=note60-single")}
	if !testing.Short() {
		results = append(results, run(t, "rate=200000&duration=11s"))
	}
	for _, res := range results {
		for _, k := range sim.Kinds() {
			d := res.Recordings[k].Dist
			n := d.Count()
			ranks := []int64{0, 1, 2, n / 3, n / 2, n - 1, n, n + 5}
			for p := 0.5; p < 1; p = (p + 1) / 2 { // dense in the tail
				ranks = append(ranks, sim.RankAt(p, n, sim.RankRound))
			}
			slices.Sort(ranks)
			got := valuesAtRanks(d, ranks)
			for i, r := range ranks {
				if want := d.ValueAtRank(r); got[i] != want {
					t.Errorf("%s %s: value at rank %d = %d, want %d", res.Query, k, r, got[i], want)
				}
			}
			xs := []int64{-1, 0, 1, 100_000, 100_001, 150_000, d.Max() / 2, d.Max() - 1, d.Max(), d.Max() + 1}
			slices.Sort(xs)
			cnt := countsAtOrBelow(d, xs)
			for i, x := range xs {
				if want := d.CountAtOrBelow(x); cnt[i] != want {
					t.Errorf("%s %s: count at or below %d = %d, want %d", res.Query, k, x, cnt[i], want)
				}
			}
		}
	}
}

// TestEnvelopeKeepsSpikes checks that a column's band holds every value in
// it, so the largest latency of all is the top of some column.
func TestEnvelopeKeepsSpikes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, cols = 100_000, 613
	env := newEnvelope(cols)
	xs, ys := make([]float64, n), make([]float64, n)
	top := 0.0
	for i := range xs {
		xs[i], ys[i] = float64(i), 100+r.Float64()
		if i == 54_321 {
			ys[i] = 2e8 // one spike among 163 requests per column
		}
		top = max(top, ys[i])
		env.add(column(xs[i], 0, n, cols), ys[i])
	}
	hi := 0.0
	for j := range cols {
		hi = max(hi, env.hi[j])
	}
	if hi != top {
		t.Errorf("top of the envelope %g, want %g", hi, top)
	}
	for i := range xs {
		j := column(xs[i], 0, n, cols)
		if ys[i] < env.lo[j] || ys[i] > env.hi[j] {
			t.Fatalf("value %g outside column %d's band [%g, %g]", ys[i], j, env.lo[j], env.hi[j])
		}
	}
}

// TestDepthColumns checks the swept per-column peak against counting at
// every event.
func TestDepthColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		m := 1 + r.IntN(400)
		var d depth
		for i := 0; i < m; i++ {
			a := r.Int64N(10_000)
			d.arrive = append(d.arrive, a)
			d.leave = append(d.leave, a+r.Int64N(3_000))
		}
		slices.Sort(d.arrive)
		slices.Sort(d.leave)
		cols := 1 + r.IntN(90)
		x1 := 13_000.0
		if trial%2 == 1 {
			x1 = 10_007 // events past the end land in the last column
		}
		got := d.columns(0, x1, cols)
		want := make([]float64, cols)
		count := func(t int64) int {
			c := 0
			for i := range d.arrive {
				if d.arrive[i] <= t {
					c++
				}
				if d.leave[i] <= t {
					c--
				}
			}
			return c
		}
		// The peak of a column is the count at its first instant or at an
		// event inside it, every event at that instant applied.
		g := newGrid(0, x1, cols)
		for j := 0; j < cols; j++ {
			s := int64(0)
			if j > 0 {
				s = g.start(j)
			}
			want[j] = float64(count(s))
		}
		for _, t0 := range append(slices.Clone(d.arrive), d.leave...) {
			j := column(float64(t0), 0, x1, cols)
			want[j] = max(want[j], float64(count(t0)))
		}
		if !slices.Equal(intsToFloats(got), want) {
			t.Fatalf("trial %d: got %v, want %v", trial, got, want)
		}
		n, _ := d.peak()
		if n != slices.Max(got) {
			t.Fatalf("trial %d: peak %d, columns max %d", trial, n, slices.Max(got))
		}
		// Regridding to fewer columns keeps every peak.
		coarse := regrid(got, 1+r.IntN(cols))
		if slices.Max(coarse) != n {
			t.Fatalf("trial %d: regrid lost the peak", trial)
		}
		for j, v := range got {
			k := j * len(coarse) / len(got)
			if coarse[k] < v {
				t.Fatalf("trial %d: fine column %d (%d) above its coarse column %d (%d)", trial, j, v, k, coarse[k])
			}
		}
	}
}

// TestAlternate checks the one-request-at-a-time shortcut against the
// merge, on sequences that alternate and on ones that nearly do.
func TestAlternate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(50)
		a, l := make([]int64, n), make([]int64, n)
		t0 := int64(0)
		for i := range a {
			t0 += r.Int64N(3)
			a[i] = t0
			t0 += r.Int64N(3)
			l[i] = t0
		}
		slices.Sort(l)
		got := make([]int32, n)
		p, at := arrivalCounts(a, l, got)
		// The merge, written plainly.
		want, wp, wat := make([]int32, n), 0, int64(0)
		for i, t := range a {
			c := 0
			for k := range a {
				if a[k] <= t {
					c++
				}
				if l[k] <= t {
					c--
				}
			}
			want[i] = int32(c)
			if c > wp {
				wp, wat = c, t
			}
		}
		if !slices.Equal(got, want) || p != wp || at != wat {
			t.Fatalf("trial %d: a %v l %v: got %v (%d at %d), want %v (%d at %d)", trial, a, l, got, p, at, want, wp, wat)
		}
	}
}

// TestQueueDepthBench checks the queue of the bench preset against its
// closed form: a 200 ms stall at 5000/s leaves 1000 requests due, plus the
// one in service.
func TestQueueDepthBench(t *testing.T) {
	res := bench(t)
	sent, due, _, ok := clientDepth(res, sim.OpenClient, new([]int64))
	if !ok {
		t.Fatal("no per-request data")
	}
	n, at := sent.peak()
	if n != 1001 {
		t.Errorf("open loop peak %d, want 1001", n)
	}
	if m, at2 := due.peak(); m != n || at2 != at {
		t.Errorf("open loop: due peak %d at %d, sent peak %d at %d; they should be one", m, at2, n, at)
	}
	sent, due, _, _ = clientDepth(res, sim.ClosedClient, new([]int64))
	if n, _ := sent.peak(); n != 1 {
		t.Errorf("closed loop: %d sent and unanswered, want 1", n)
	}
	if n, _ := due.peak(); n != 1001 {
		t.Errorf("closed loop: %d due and unanswered, want 1001", n)
	}
}

func intsToFloats(a []int) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = float64(v)
	}
	return out
}
