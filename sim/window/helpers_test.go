package window

import (
	"math/rand/v2"
	"testing"

	"omission/sim"
	"omission/sim/internal/hook"
)

// The tests' helpers, as sim's own tests have them (sim_test.go,
// engine_test.go, long_test.go, closedform_test.go): the windows are held
// to runs made each way, which sim lends its subpackages' tests through
// sim/internal/hook.

var runOn = hook.RunOn.(func(cfg sim.Config, path string) (*sim.Result, error))

// nsPerMilliRate is ns per second × 1000: due(i) = i·1e12/rate (sim's
// schedule.go).
const nsPerMilliRate = 1e12

func run(t testing.TB, q string) *sim.Result {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", q, err)
	}
	return res
}

func parse(t testing.TB, q string) sim.Config {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	return cfg
}

// runEngine runs cfg on the event engine, whatever path sim.Run would take.
func runEngine(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	res, err := runOn(cfg, "engine")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runLongPath runs a deterministic cfg on the long path, whatever its size.
func runLongPath(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	res, err := runOn(cfg, "long")
	if err != nil {
		t.Fatalf("%s: %v", cfg.Query(), err)
	}
	return res
}

// runWalkPath runs a deterministic cfg request by request, whatever its size.
func runWalkPath(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	res, err := runOn(cfg, "walk")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// stream is sim's random stream of a purpose: next gives its outputs.
type stream struct{ next func() uint64 }

func newStream(seed uint64, purpose string) stream { return stream{next: hook.Stream(seed, purpose)} }

// randomAny draws any valid configuration of modest size.
func randomAny(r *rand.Rand) sim.Config {
	for {
		c := sim.Default()
		c.Rate = sim.Rate(1000 + r.Int64N(20_000_000))
		T := sim.NewSchedule(c.Rate).Interval(1)
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
		c.Rank = sim.Rank(r.IntN(2))
		if r.IntN(4) == 0 {
			c.Interval = 1 + r.Int64N(2*T)
		}
		if c.Validate() == nil {
			return c
		}
	}
}

// randomLongConfig draws a deterministic configuration of a few thousand
// requests, leaning on the edges: rounded and exact rates, service times at
// and around the due gaps of the slots, services longer than the stall
// period, no service, unlimited workers, fewer workers than connections.
func randomLongConfig(r *rand.Rand) sim.Config {
	rates := []sim.Rate{sim.RateOf(1000), sim.RateOf(5000), sim.RateOf(100000), sim.RateOf(3000), sim.RateOf(7000), 333333, sim.RateOf(12345), 2860411899, sim.RateOf(2500), 1500}
	for {
		c := sim.Default()
		c.Rate = rates[r.IntN(len(rates))]
		if r.IntN(4) == 0 {
			c.Rate = sim.Rate(1000 + r.Int64N(20_000_000))
		}
		sched := sim.NewSchedule(c.Rate)
		T := sched.Interval(1)
		c.Conns = 1 + r.IntN(6)
		c.Workers = r.IntN(5)
		if r.IntN(3) == 0 {
			c.Conns, c.Workers = 1, 1
		}
		k := int64(max(1, min(c.Conns, max(c.Workers, 1))))
		G := int64(uint64(k) * nsPerMilliRate / uint64(c.Rate))
		switch r.IntN(8) {
		case 0:
			c.Service = 0
		case 1:
			c.Service = G
		case 2:
			c.Service = G + 1
		case 3:
			c.Service = T*int64(c.Conns) + r.Int64N(3) - 1
		case 4:
			c.Service = int64(nsPerMilliRate/uint64(c.Rate)) + 1 // the paced client's awkward case
		default:
			c.Service = r.Int64N(3 * T * k)
		}
		c.Service = max(c.Service, 0)
		c.Stall = r.Int64N(60 * T)
		c.Every = 0
		if r.IntN(4) != 0 {
			c.Every = c.Stall + 1 + r.Int64N(150*T)
		}
		if r.IntN(8) == 0 && c.Stall > 0 {
			c.Every = c.Stall + 1 + r.Int64N(max(1, c.Service/2+1)) // services spanning stalls
		}
		c.First = r.Int64N(40 * T)
		if r.IntN(3) == 0 {
			c.First = T * r.Int64N(40)
		}
		c.Duration = 1 + r.Int64N(3000*T)
		c.Above = r.Int64N(10 * T)
		c.Rank = sim.Rank(r.IntN(2))
		if r.IntN(4) == 0 {
			c.Interval = 1 + r.Int64N(2*T)
		}
		if c.Validate() == nil {
			return c
		}
	}
}
