package sim

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TestRankOf compares the exact integer ranks with the definitions, and pins
// the case a naive float ceiling gets wrong.
func TestRankOf(t *testing.T) {
	if got := RankOf(999000, 100000, RankCeil); got != 99900 {
		t.Errorf("ceil p99.9 of 100000 = %d, want 99900 (a float ceil gives 99901)", got)
	}
	if got := RankOf(990000, 119980, RankRound); got != 118780 {
		t.Errorf("round p99 of 119980 = %d, want 118780", got)
	}
	if got := RankOf(990000, 119980, RankCeil); got != 118781 {
		t.Errorf("ceil p99 of 119980 = %d, want 118781", got)
	}
	for n := int64(1); n < 3000; n++ {
		for _, p := range percentiles {
			// round: floor(p/100 n + 1/2) = floor((ppm n + 5e5) / 1e6), by big rationals.
			num := p.PPM * n
			round := max(1, min(n, (num+500000)/1000000))
			ceil := max(1, min(n, (num+999999)/1000000))
			if RankOf(p.PPM, n, RankRound) != round || RankOf(p.PPM, n, RankCeil) != ceil {
				t.Fatalf("n %d %s: %d %d", n, p.Name, RankOf(p.PPM, n, RankRound), RankOf(p.PPM, n, RankCeil))
			}
		}
	}
	// Where float arithmetic is exact, the round rule is hdrhistogram-go's.
	h := hdrhistogram.New(1, 1<<20, 5)
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v)
	}
	for _, p := range percentiles {
		if got, want := RankOf(p.PPM, 1000, RankRound), h.ValueAtQuantile(float64(p.PPM)/1e4); got != want {
			t.Errorf("%s: rank %d, hdrhistogram-go value %d", p.Name, got, want)
		}
	}
}

func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 5, 63, 64, 1000, 100000} {
		for _, spread := range []int64{1, 3, 40, 4000, 4096, 4097, 5000, 1 << 20, 1 << 45, math.MaxInt64} {
			a := make([]int64, n)
			for i := range a {
				a[i] = r.Int64N(spread)
			}
			b := slices.Clone(a)
			radixSort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Fatalf("n %d spread %d: radix sort differs", n, spread)
			}
		}
	}
}

// TestCorrectedCounted: the counted correction (sequences never written out)
// answers every rank and count as the written-out one does, and both match
// hdrhistogram-go's RecordCorrectedValue.
func TestCorrectedCounted(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 30; trial++ {
		e := 1 + r.Int64N(50)
		var samples []int64
		for i := 0; i < 1+r.IntN(300); i++ {
			samples = append(samples, r.Int64N(40*e))
			if r.IntN(3) == 0 {
				samples = append(samples, samples[len(samples)-1]) // duplicates
			}
		}
		base := exactDist(slices.Clone(samples))
		counted := correctedDist(base, e)
		var all []int64
		h := hdrhistogram.New(1, 1<<20, 5) // exact below 2^20 at 5 digits
		for _, v := range samples {
			all = append(all, v)
			for m := v - e; v > e && m >= e; m -= e {
				all = append(all, m)
			}
			if v > 0 {
				h.RecordCorrectedValue(v, e)
			}
		}
		written := exactDist(all)
		if counted.Count() != written.Count() || counted.Sum() != written.Sum() || counted.Max() != written.Max() {
			t.Fatalf("e %d: count/sum/max differ", e)
		}
		for k := int64(1); k <= written.Count(); k++ {
			if counted.ValueAtRank(k) != written.ValueAtRank(k) {
				t.Fatalf("e %d: rank %d: counted %d, written %d", e, k, counted.ValueAtRank(k), written.ValueAtRank(k))
			}
		}
		for x := int64(-1); x < 41*e; x += 7 {
			if counted.CountAbove(x) != written.CountAbove(x) {
				t.Fatalf("e %d: above %d differs", e, x)
			}
		}
		zeros := int64(0)
		for _, v := range samples {
			if v == 0 {
				zeros++
			}
		}
		if h.TotalCount()+zeros != written.Count() {
			t.Fatalf("e %d: hdrhistogram-go corrected count %d, ours %d", e, h.TotalCount()+zeros, written.Count())
		}
	}
}

// TestHugeCorrection: a 1 h stall at 100k requests/s adds 360M corrected
// samples; they are counted, not allocated.
func TestHugeCorrection(t *testing.T) {
	cfg, err := ParseQuery("rate=100000&service=5us&stall=1h&every=0s&first=500ms&duration=1s")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	c := res.Recordings[Corrected]
	v := int64(3600e9 + 5e3)
	if want := res.Planned + (v/10e3 - 1); c.Count != want {
		t.Errorf("corrected count %d, want %d", c.Count, want)
	}
	// The 360M added samples average half the stall: the mean is exact in
	// 128 bits (it overflowed 64).
	if c.Mean < 1795e9 || c.Mean > 1805e9 {
		t.Errorf("corrected mean %.0f ns, want about half an hour", c.Mean)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("allocated %d MB for a counted correction", alloc>>20)
	}
	if p, n := res.Passed(); p != n {
		t.Errorf("%d of %d checks passed", p, n)
	}
	if c.P[2] < 3500e9 {
		t.Errorf("corrected p99 %d: the added samples should dominate", c.P[2])
	}
}

// TestLongExact: beyond ExactSamples a deterministic run takes the long
// path, and its recordings stay exact: every closed form holds to the
// nanosecond, with no tolerance.
func TestLongExact(t *testing.T) {
	res := run(t, "rate=100000&service=5us&stall=20ms&every=1s&first=500ms&duration=25s")
	if !res.Exact || res.Planned <= ExactSamples || res.long == nil {
		t.Fatalf("planned %d exact %v long %v: want the long path, exact", res.Planned, res.Exact, res.long != nil)
	}
	closedForm := 0
	for _, c := range res.Checks {
		if c.Kind == "closed-form" {
			closedForm++
			if c.Tolerance != "" {
				t.Errorf("%s has a tolerance: %s", c.ID, c.Tolerance)
			}
		}
		if !c.Pass {
			t.Errorf("%s: want %v got %v (%s)", c.ID, c.Want, c.Got, c.Tolerance)
		}
	}
	if closedForm < 40 {
		t.Errorf("%d closed-form checks", closedForm)
	}
	cf := DeriveClosedForms(res.Config)
	for _, k := range []Kind{Closed, Open, Corrected} {
		if r := res.Recordings[k]; r.Above != cf.Recordings[k].Above || r.Dist.Sum() != cf.Recordings[k].Sum || r.P != cf.Recordings[k].P {
			t.Errorf("%s: above, sum or percentiles differ from the closed form", k)
		}
	}
}

func TestEquivalentRange(t *testing.T) {
	h := newHist()
	for _, v := range []int64{1, 2047, 2048, 2049, 4095, 4096, 100000, 200100000, 1 << 40} {
		lo, w := lowestEquivalent(v), equivalentRange(v)
		if !h.ValuesAreEquivalent(lo, v) || !h.ValuesAreEquivalent(lo+w-1, v) || h.ValuesAreEquivalent(lo+w, v) || (lo > 0 && h.ValuesAreEquivalent(lo-1, v)) {
			t.Errorf("v %d: range [%d, %d) does not match hdrhistogram-go", v, lo, lo+w)
		}
	}
}

// TestLongStallExact: a 24 h latency in a long run is recorded as it is,
// and no percentile passes the maximum.
func TestLongStallExact(t *testing.T) {
	res := run(t, "rate=10000&duration=300s&stall=24h&every=0s&first=1s&service=10us")
	if !res.Exact || res.long == nil {
		t.Fatal("want the long path, exact")
	}
	for _, r := range res.Recordings {
		if r.Max != 86400e9+10e3 {
			t.Errorf("%s: max %d, want 24 h + 10 µs", r.Kind, r.Max)
		}
		for i, p := range r.P {
			if p > r.Max {
				t.Errorf("%s: %s = %d above the max %d", r.Kind, percentiles[i].Name, p, r.Max)
			}
		}
	}
	// One slow sample of 24 h among 3M: the closed mean is exact.
	if c := res.Recordings[Closed]; c.Mean != (float64(res.Planned)*10e3+86400e9)/float64(res.Planned) {
		t.Errorf("closed mean %.3f", c.Mean)
	}
	for _, c := range res.Checks {
		if !c.Pass {
			t.Errorf("%s failed", c.ID)
		}
	}
}
