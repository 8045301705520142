package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestErlangC against values known in closed form: M/M/1 waits with
// chance ρ and Wq = ρS/(1 − ρ); M/M/2 at a = 1 waits with chance 1/3.
func TestErlangC(t *testing.T) {
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	p, w, ok := ErlangC(0.8e-4, 1e4, 1) // λ = 0.8/S
	near("M/M/1 C", p, 0.8)
	near("M/M/1 Wq", w, 0.8*1e4/0.2)
	p, w, _ = ErlangC(1e-4, 1e4, 2)
	near("M/M/2 C", p, 1.0/3)
	near("M/M/2 Wq", w, 1.0/3*1e4/(2-1))
	if _, _, ok = ErlangC(1e-4, 1e4, 1); ok {
		t.Errorf("ρ = 1 is not stable")
	}
	// Many workers at moderate load hardly ever wait.
	if p, _, _ := ErlangC(0.5, 1000, 1000); !(p >= 0 && p < 1e-20) {
		t.Errorf("c = 1000 at ρ = 0.5: C = %v", p)
	}
}

// TestErlangCBand: over 40 seeds the 99.9 % band holds the simulated mean
// wait nearly always (2 misses in 1200 runs over ρ from 0.5 to 0.95 and c
// from 1 to 16 when it was calibrated); 3 or more misses in 40 would have
// a chance below 10⁻⁵.
func TestErlangCBand(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical")
	}
	miss := 0
	for seed := 0; seed < 40; seed++ {
		cfg := parse(t, fmt.Sprintf("arrivals=poisson&dist=exponential&service=100us&stall=0&workers=2&rate=16000&duration=3s&seed=%d", seed))
		s := newEngSim(OpenClient, cfg, false)
		for s.pending() {
			s.step(1 << 30)
		}
		b, note := erlangBand(cfg, &s.st)
		if note != "" {
			t.Fatal(note)
		}
		if math.Abs(b.got-b.want) > b.half {
			miss++
		}
	}
	if miss >= 3 {
		t.Errorf("%d of 40 runs outside the 99.9%% band", miss)
	}
	// A run too short for a band says so instead of checking.
	res, err := Run(parse(t, "arrivals=poisson&dist=exponential&service=100us&stall=0&workers=1&rate=9500&duration=1s"))
	if err != nil {
		t.Fatal(err)
	}
	if res.CheckFor("erlang.open.wait") != nil || !engineHasNote(res, "too short for a confident band") {
		t.Errorf("ρ = 0.95 over 1 s: check %v, notes %q", res.CheckFor("erlang.open.wait"), res.Notes)
	}
}

func engineHasNote(res *Result, s string) bool {
	for _, n := range res.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// TestEngineSeries: the time series add up to the run's own totals.
func TestEngineSeries(t *testing.T) {
	for _, q := range []string{
		"arrivals=burst&bursts=1s-1300ms@9000&dist=exponential&service=300us&workers=2&conns=3&queue=200&timeout=40ms&duration=3s&seed=5",
		"preset=bench&arrivals=poisson&duration=2s&outages=700ms-800ms",
	} {
		res, err := Run(parse(t, q))
		if err != nil {
			t.Fatal(err)
		}
		s := res.Engine.Series
		if s.IntervalNs != SeriesInterval(res.Config.Duration) || s.IntervalNs%1e6 != 0 || s.IntervalNs*120 < res.Config.Duration {
			t.Errorf("%s: interval %d", q, s.IntervalNs)
		}
		for c := range s.Clients {
			cs := s.Clients[c]
			ec := res.Engine.Clients[c]
			if len(cs.Replies) != s.Points || len(cs.QueueMean) != s.Points || len(cs.P99) != s.Points {
				t.Fatalf("%s %s: %d points, columns %d", q, Client(c), s.Points, len(cs.Replies))
			}
			var replies, rejected, failed, timed int64
			var area float64
			for j := 0; j < s.Points; j++ {
				replies += cs.Replies[j]
				rejected += cs.Rejected[j]
				failed += cs.Failed[j]
				timed += cs.TimedOut[j]
				span := min(s.IntervalNs, ec.End-int64(j)*s.IntervalNs)
				if span > 0 {
					area += cs.QueueMean[j] * float64(span)
				}
				if cs.Utilisation != nil && (cs.Utilisation[j] < 0 || cs.Utilisation[j] > 1+1e-12) {
					t.Errorf("%s %s: utilisation %v at %d", q, Client(c), cs.Utilisation[j], j)
				}
				if cs.Replies[j] > 0 && !(cs.P50[j] <= cs.P90[j] && cs.P90[j] <= cs.P99[j] && cs.P99[j] <= cs.Max[j]) {
					t.Errorf("%s %s: percentiles out of order at %d", q, Client(c), j)
				}
				if float64(cs.QueueMax[j]) < cs.QueueMean[j]-1e-9 {
					t.Errorf("%s %s: queue max %d below its mean %v at %d", q, Client(c), cs.QueueMax[j], cs.QueueMean[j], j)
				}
			}
			if replies != ec.Replies || rejected != ec.Rejected || failed != ec.Failed || timed != ec.TimedOut {
				t.Errorf("%s %s: series count %d/%d/%d/%d, run %d/%d/%d/%d", q, Client(c), replies, rejected, failed, timed, ec.Replies, ec.Rejected, ec.Failed, ec.TimedOut)
			}
			if want := ec.st.areaQ.Float(); math.Abs(area-want) > 1e-9*want+1 {
				t.Errorf("%s %s: Σ queue mean × span = %v, ∫Q dt = %v", q, Client(c), area, want)
			}
		}
	}
}

// TestCoarseBuckets: the histogram mode's per-interval buckets hold each
// value within 1/64 of it, and their highest values never decrease.
func TestCoarseBuckets(t *testing.T) {
	prev := int64(-1)
	for i := 0; i < coarseBuckets; i++ {
		h := coarseHighest(i)
		if h <= prev {
			t.Fatalf("bucket %d highest %d after %d", i, h, prev)
		}
		prev = h
	}
	g := newStream(5, "coarse")
	for i := 0; i < 100000; i++ {
		v := int64(g.next() >> uint(20+g.next()%44))
		h := coarseHighest(coarseIndex(v))
		if h < v || float64(h-v) > float64(v)/64+1 {
			t.Fatalf("%d in a bucket up to %d", v, h)
		}
	}
}

// TestHistogramModeEngine: a run over the exact bound keeps counts, means
// and maxima exact, and its percentiles within the histogram's precision
// of the exact run's.
func TestHistogramModeEngine(t *testing.T) {
	// The exact bound lowered, so that a run of 250000 requests takes the
	// histogram path.
	defer func(n int64) { limitExact = n }(limitExact)
	limitExact = 100000
	cfg := parse(t, "arrivals=poisson&rate=50000&dist=exponential&service=15us&stall=20ms&every=1s&first=500ms&duration=5s&conns=2&workers=2&seed=4")
	hist, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if hist.Exact || hist.Engine.Series.ExactPercentiles || !engineHasNote(hist, "hdrhistogram-go") {
		t.Fatalf("%.0f arrivals ran exact", cfg.ExpectedArrivals())
	}
	exact := runEngineExact(t, cfg)
	for k := range hist.Recordings {
		a, b := hist.Recordings[k], exact.Recordings[k]
		if a.Count != b.Count || a.Max != b.Max || a.Above != b.Above || a.Dist.Sum() != b.Dist.Sum() {
			t.Errorf("%s: histogram count %d max %d above %d; exact %d %d %d", Kind(k), a.Count, a.Max, a.Above, b.Count, b.Max, b.Above)
		}
		for i := range a.P {
			if d := a.P[i] - b.P[i]; d < 0 || d > b.P[i]/1000+1 {
				t.Errorf("%s %s: histogram %d, exact %d", Kind(k), percentiles[i].Name, a.P[i], b.P[i])
			}
		}
	}
	for _, c := range hist.Checks {
		if !c.Pass {
			t.Errorf("%s failed: want %v got %v", c.ID, c.Want, c.Got)
		}
	}
}

// runEngineExact runs cfg in exact mode whatever its size.
func runEngineExact(t *testing.T, cfg Config) *Result {
	t.Helper()
	e := newEngineRun(cfg)
	e.exact = true
	for c := range e.sims {
		e.sims[c] = newEngSim(Client(c), cfg, true)
	}
	for !e.step(1 << 30) {
	}
	if e.err != nil {
		t.Fatal(e.err)
	}
	return e.result()
}
