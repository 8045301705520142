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

// randomAny draws any valid configuration of modest size.
func randomAny(r *rand.Rand) Config {
	for {
		c := Default()
		c.Rate = Rate(1000 + r.Int64N(20_000_000))
		T := NewSchedule(c.Rate).Interval(1)
		c.Service = r.Int64N(3 * T)
		c.Stall = r.Int64N(100 * T)
		c.Every = 0
		if r.IntN(3) != 0 {
			c.Every = c.Stall + 1 + r.Int64N(200*T)
		}
		c.First = r.Int64N(50 * T)
		c.Duration = 1 + r.Int64N(3000*T)
		c.Conns = 1 + r.IntN(12)
		c.Workers = r.IntN(6)
		c.Above = r.Int64N(10 * T)
		c.Rank = Rank(r.IntN(2))
		if r.IntN(4) == 0 {
			c.Interval = 1 + r.Int64N(2*T)
		}
		if c.Validate() == nil {
			return c
		}
	}
}

// TestInvariantsRandom: outside the regime too, every invariant holds.
func TestInvariantsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 150; n++ {
		cfg := randomAny(r)
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		inv := 0
		for _, c := range res.Checks {
			if c.Kind == "invariant" {
				inv++
			}
			if !c.Pass {
				t.Errorf("%s: %s failed: want %v got %v", cfg.Query(), c.ID, c.Want, c.Got)
			}
		}
		if inv < 8 {
			t.Errorf("%s: %d invariants checked", cfg.Query(), inv)
		}
	}
}

// reference is a naive model of the server written apart from server.go: it
// walks an explicit list of stalls for every request.
type reference struct {
	stalls  [][2]int64 // [start, end)
	service int64
}

func newReference(c Config, horizon int64) *reference {
	ref := &reference{service: c.Service}
	if c.Stall == 0 {
		return ref
	}
	for s := c.First; s < horizon; s += c.Every {
		ref.stalls = append(ref.stalls, [2]int64{s, s + c.Stall})
		if c.Every == 0 {
			break
		}
	}
	return ref
}

func (ref *reference) serve(t int64) int64 {
	start := t
	for _, s := range ref.stalls {
		if s[0] <= start && start < s[1] {
			start = s[1]
		}
	}
	done := start + ref.service
	for _, s := range ref.stalls {
		if start < s[0] && s[0] < done {
			done += s[1] - s[0]
		}
	}
	return done
}

// TestAgainstReference compares every reply time with the naive model, for
// every client, on small random configurations.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for n := 0; n < 200; n++ {
		cfg := randomAny(r)
		if NewSchedule(cfg.Rate).Count(cfg.Duration) > 400 {
			continue
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sched := res.Schedule()
		N := int(res.Planned)
		horizon := int64(0)
		for _, c := range res.Clients {
			horizon = max(horizon, c.LastCompletion+1)
		}
		ref := newReference(cfg, horizon)
		// The reference pools: a naive scan for the earliest free slot.
		earliest := func(free []int64) int {
			b := 0
			for i := range free {
				if free[i] < free[b] {
					b = i
				}
			}
			return b
		}
		workers := cfg.Workers
		if workers == 0 {
			workers = N + 1
		}
		check := func(name string, sends []int64, got *ClientRun) {
			wf := make([]int64, workers)
			for i := 0; i < len(sends); i++ {
				k := earliest(wf)
				ready := max(sends[i], wf[k])
				done := ref.serve(ready)
				wf[k] = done
				if got.Done[i] != done {
					t.Fatalf("%s %s: request %d ready %d: reply %d, reference %d", cfg.Query(), name, i, ready, got.Done[i], done)
				}
			}
		}
		// Open: sends at due times.
		opens := make([]int64, N)
		for i := range opens {
			opens[i] = sched.Due(int64(i))
		}
		check("open", opens, &res.Clients[OpenClient])
		// Closed: connection free times from the simulated replies; compare sends.
		cf := make([]int64, cfg.Conns)
		for i := 0; i < N; i++ {
			k := earliest(cf)
			send := max(sched.Due(int64(i)), cf[k])
			if res.Clients[ClosedClient].Send[i] != send {
				t.Fatalf("%s closed: request %d sent %d, reference %d", cfg.Query(), i, res.Clients[ClosedClient].Send[i], send)
			}
			cf[k] = res.Clients[ClosedClient].Done[i]
		}
		check("closed", res.Clients[ClosedClient].Send, &res.Clients[ClosedClient])
		// Paced: one connection, re-anchoring.
		// Slot k after the anchor is at anchor + round(k/rate); a late
		// reply restarts the schedule.
		p := &res.Clients[PacedClient]
		next, anchor, k := int64(0), int64(0), int64(0)
		i := 0
		for ; next < cfg.Duration; i++ {
			done := ref.serve(next)
			if i >= len(p.Done) || p.Send[i] != next || p.Done[i] != done {
				t.Fatalf("%s paced: send %d at %d: reference reply %d", cfg.Query(), i, next, done)
			}
			k++
			next = anchor + sched.Due(k)
			if done > next {
				next, anchor, k = done, done, 0
			}
		}
		if i != len(p.Done) {
			t.Fatalf("%s paced: sent %d, reference %d", cfg.Query(), len(p.Done), i)
		}
	}
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
