package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"omission/sim"
)

// TestRateUnknown fits a closed loop's .hgrm, which records no rate, of
// random queries with no rate given, and holds the answer to every model
// that explains the file: the truth, and random rates, periods and first
// stalls drawn over the whole range (not the search's path). Each whose
// file the fit's own scoring explains must lie within the stated rate
// range, and its open loop's p99 within the stated range of it; the
// stall and service, which the file fixes, within 1 % of the truth.
func TestRateUnknown(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("fits 20 files and runs 20 models of each: make test runs it without the race detector (test-truth)")
	}
	r := rand.New(rand.NewPCG(39, 1))
	for q := 0; q < 20; q++ {
		truth := truthQuery(r)
		truthRes, err := sim.Run(truth)
		if err != nil {
			t.Fatal(err)
		}
		name, data := fileFor(t, truth, "hgrm-closed")
		res, err := Fit(name, data, Options{NoTools: true})
		if err != nil {
			t.Fatalf("%s: %v", truth.Query(), err)
		}
		if truth.Stall == 0 {
			continue
		}
		// The .hgrm prints milliseconds to 3 decimals: a service is known
		// to within half a microsecond, which the fit does not yet state
		// as a range (hgrmUnit).
		const hgrmUnit = 500
		if !within(res.Config.Stall, truth.Stall, 0.01) || !within(res.Config.Service, truth.Service, 0.01) && abs64(res.Config.Service-truth.Service) > hgrmUnit {
			t.Errorf("%s: fitted stall %d ns and service %d ns, want within 1 %% of %d and %d", truth.Query(), res.Config.Stall, res.Config.Service, truth.Stall, truth.Service)
		}
		rg := res.Hidden.OpenP99RangeNs
		rate := freeOf(res, "rate")
		if len(rg) != 2 || rate == nil || rate.Hi == "" {
			t.Errorf("%s: no rate range (%+v) or open p99 range (%v): the file records no rate", truth.Query(), rate, rg)
			continue
		}
		hi, err := ParseRate(rate.Hi)
		if err != nil {
			t.Fatal(err)
		}
		in, err := read(name, data)
		if err != nil {
			t.Fatal(err)
		}
		srcs, err := sources(in)
		if err != nil {
			t.Fatal(err)
		}
		eval, _ := evaluator(in, srcs[0], nil)
		check := func(c sim.Config, what string) {
			_, rs := eval(c)
			if !explains(rs, 0) {
				return
			}
			run, err := sim.Run(c)
			if err != nil {
				return
			}
			p99 := run.Recordings[sim.Open].P[2]
			if c.Rate > hi {
				t.Errorf("%s: %s %s explains the file at a rate above the stated %s", truth.Query(), what, c.Query(), rate.Hi)
			}
			// The range's ends are the grid's: within 1 % of them.
			if float64(p99) < float64(rg[0])*0.99-hgrmUnit || float64(p99) > float64(rg[1])*1.01 {
				t.Errorf("%s: %s %s explains the file with an open p99 of %d ns, outside the stated [%d, %d]", truth.Query(), what, c.Query(), p99, rg[0], rg[1])
			}
		}
		check(truth, "the truth")
		if p99 := truthRes.Recordings[sim.Open].P[2]; p99 < rg[0] || p99 > rg[1] {
			t.Errorf("%s: the true open p99 %d ns is outside the stated [%d, %d]", truth.Query(), p99, rg[0], rg[1])
		}
		N := truthRes.Recordings[sim.Closed].Count
		K := int64(0)
		if truth.Every > 0 {
			K = (truth.Duration-truth.First-1)/truth.Every + 1
		}
		for s := 0; s < 20; s++ {
			c := truth
			// A rate from 1/100 of the truth's to the server's capacity,
			// log-uniform; the run the count's at it; K stalls placed at
			// random in it.
			capacity := 1e12 / float64(truth.Service)
			lo := float64(truth.Rate) / 100
			c.Rate = sim.Rate(math.Round(lo * math.Pow(capacity/lo, r.Float64())))
			T := sim.NewSchedule(c.Rate).Interval(1)
			c.Duration = N * T
			if K > 1 {
				maxEvery := (c.Duration - c.Stall) / (K - 1)
				if maxEvery <= c.Stall+T {
					continue
				}
				c.Every = c.Stall + T + r.Int64N(maxEvery-c.Stall-T)
				c.First = r.Int64N(max(c.Duration-(K-1)*c.Every-c.Stall, 1))
			} else {
				c.First = r.Int64N(max(c.Duration-c.Stall, 1))
			}
			c.Every, c.First = c.Every/T*T, c.First/T*T
			if c.Validate() != nil {
				continue
			}
			check(c, "a drawn model")
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
