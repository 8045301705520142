package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// exactRates are rates (per second) whose interval is a whole number of ns.
var exactRates = []int64{125, 200, 250, 400, 500, 800, 1000, 1250, 2000, 2500, 4000, 5000, 8000, 10000, 20000, 25000, 50000}

// randomRegime draws a configuration inside the closed forms' regime.
func randomRegime(r *rand.Rand) Config {
	for {
		rate := exactRates[r.IntN(len(exactRates))]
		T := int64(1e9) / rate
		c := Default()
		c.Rate = RateOf(rate)
		c.Service = 1 + r.Int64N(T-1)
		if r.IntN(8) == 0 {
			c.Service = 0
		}
		c.Stall = T/2 + r.Int64N(200*T)
		J := ceilDiv(c.Stall, T-c.Service)
		c.First = T * r.Int64N(50)
		c.Every = 0
		if r.IntN(4) != 0 {
			c.Every = T * (J + r.Int64N(3*J+2))
			if c.Every <= c.Stall {
				continue
			}
		}
		c.Duration = c.First + T*(J+r.Int64N(20*J+100))
		if N := ceilDiv(c.Duration, T); N > 300000 {
			continue
		}
		c.Above = r.Int64N(c.Stall + c.Service + T)
		c.Rank = Rank(r.IntN(2))
		if r.IntN(3) == 0 {
			c.Interval = 1 + r.Int64N(3*T) // a custom expected interval
		}
		if ok, _ := Regime(c); ok {
			return c
		}
	}
}

// TestClosedFormRandom: on random parameter sets in the regime, every
// closed form equals the simulation.
func TestClosedFormRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	for n := 0; n < 60; n++ {
		cfg := randomRegime(r)
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		closedForm := 0
		for _, c := range res.Checks {
			if c.Kind == "closed-form" {
				closedForm++
			}
			if !c.Pass {
				t.Errorf("%s: %s: closed form %v, simulated %v", cfg.Query(), c.ID, c.Want, c.Got)
			}
		}
		// closed, open, paced (count, five percentiles, max, above, mean)
		// and the three clients' four counters at least.
		if closedForm < 3*9+12 {
			t.Errorf("%s: only %d closed-form checks", cfg.Query(), closedForm)
		}
	}
}

// TestRegimeReasons: outside the regime, the reasons name what breaks it and
// no closed-form check is made.
func TestRegimeReasons(t *testing.T) {
	for q, want := range map[string]string{
		"conns=2":              "one connection",
		"workers=4":            "one worker",
		"rate=3000":            "whole number of nanoseconds",
		"service=200us":        "no spare capacity",
		"first=500100us":       "due instants",
		"every=300ms":          "still draining",
		"duration=19800ms":     "past the end",
		"preset=note60":        "one worker",
		"preset=note60-single": "no spare capacity",
	} {
		res := run(t, q)
		ok, why := Regime(res.Config)
		if ok || !containsAny(why, want) {
			t.Errorf("%s: regime %v, reasons %q; want one with %q", q, ok, why, want)
		}
		for _, c := range res.Checks {
			if c.Kind == "closed-form" {
				t.Errorf("%s: closed-form check %s outside the regime", q, c.ID)
			}
		}
		if len(res.Notes) == 0 {
			t.Errorf("%s: no note saying why nothing has a closed form", q)
		}
	}
}

func containsAny(list []string, sub string) bool {
	for _, s := range list {
		if len(s) >= len(sub) && fmt.Sprint(s) != "" && indexOf(s, sub) >= 0 {
			return true
		}
	}
	return false
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestRegimeEventDriven: a random or bounded configuration has no closed form.
func TestRegimeEventDriven(t *testing.T) {
	for _, q := range []string{"arrivals=poisson", "dist=exponential", "timeout=50ms", "queue=10"} {
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if ok, why := Regime(cfg); ok || len(why) == 0 || DeriveClosedForms(cfg) != nil {
			t.Errorf("%s: in the regime (%v)", q, why)
		}
	}
}

// TestPacedFormBounded: a run with a great many stalls keeps its closed
// forms for closed, open and corrected, skips the paced client's
// stall-by-stall one, and finishes quickly.
func TestPacedFormBounded(t *testing.T) {
	res := run(t, "rate=10000&service=50us&stall=40us&every=100us&first=0s&duration=50s")
	if res.CheckFor("open.p99") == nil || res.CheckFor("paced.p99") != nil || res.CheckFor("paced.sent") != nil {
		t.Errorf("closed forms: open.p99 %v, paced.p99 %v", res.CheckFor("open.p99") != nil, res.CheckFor("paced.p99") != nil)
	}
	for _, c := range res.Checks {
		if !c.Pass {
			t.Errorf("%s failed", c.ID)
		}
	}
	if !containsAny(res.Notes, "stall-by-stall") {
		t.Errorf("no note on the paced closed form: %q", res.Notes)
	}
}
