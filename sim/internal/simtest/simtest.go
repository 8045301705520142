package simtest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"omission/sim"
	"omission/sim/internal/hook"
)

// nsPerMilliRate is ns per second × 1000: due(i) = i·1e12/rate (sim's
// schedule.go).
const nsPerMilliRate = 1e12

// Run parses q and runs it as sim.Run does, failing t on an error.
func Run(t testing.TB, q string) *sim.Result {
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

// Parse parses q, failing t on an error.
func Parse(t testing.TB, q string) sim.Config {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	return cfg
}

// runOn is sim's runOn (hooks_tests.go): cfg run on the event engine
// ("engine"), the long path ("long") or the walk, whatever path sim.Run
// would take. The hook is read at each call, not at initialisation, so
// that only the tests that run a path need sim's test hooks.
func runOn(cfg sim.Config, path string) (*sim.Result, error) {
	return hook.RunOn.(func(cfg sim.Config, path string) (*sim.Result, error))(cfg, path)
}

// RunEngine runs cfg on the event engine, whatever path sim.Run would take.
func RunEngine(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	return runPath(t, cfg, "engine")
}

// RunLongPath runs a deterministic cfg on the long path, whatever its size.
func RunLongPath(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	return runPath(t, cfg, "long")
}

// RunWalkPath runs a deterministic cfg request by request, whatever its size.
func RunWalkPath(t testing.TB, cfg sim.Config) *sim.Result {
	t.Helper()
	return runPath(t, cfg, "walk")
}

// runPath runs cfg on path (runOn's), failing t on an error.
func runPath(t testing.TB, cfg sim.Config, path string) *sim.Result {
	t.Helper()
	res, err := runOn(cfg, path)
	if err != nil {
		t.Fatalf("%s on the %s path: %v", cfg.Query(), path, err)
	}
	return res
}

// Stream returns sim's random stream of purpose, seeded with seed: each
// call gives its next output, as sim's own draws of that stream do.
func Stream(seed uint64, purpose string) func() uint64 { return hook.Stream(seed, purpose) }

// RandomAny draws any valid configuration of modest size.
func RandomAny(r *rand.Rand) sim.Config {
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

// RandomLongConfig draws a deterministic configuration of a few thousand
// requests, leaning on the edges: rounded and exact rates, service times at
// and around the due gaps of the slots, services longer than the stall
// period, no service, unlimited workers, fewer workers than connections.
func RandomLongConfig(r *rand.Rand) sim.Config {
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

// RetryQuery draws, from the stream next, the query of one random run with
// retries of the mix that sim's TestAttemptTraceRandom and sim/window's
// TestAttemptsWindowRandom share: every feature the retry rules touch
// (queues, timeouts, outages, stalls, random arrivals and service, several
// workers and connections). Both draw from Stream(2424,
// "test.attempt-trace"), and two more outputs a client after each query,
// so that they hold the same runs.
func RetryQuery(next func() uint64) string {
	pick := func(xs ...string) string { return xs[next()%uint64(len(xs))] }
	return strings.Join([]string{
		"rate=" + pick("200", "1000", "3000", "777"),
		"service=" + pick("50us", "300us", "900us", "2ms"),
		"workers=" + pick("1", "2", "unlimited"),
		"conns=" + pick("1", "3"),
		"queue=" + pick("unbounded", "0", "5"),
		"timeout=" + pick("0s", "0s", "2ms", "20ms"),
		"outages=" + pick("", "50ms-120ms", "20ms-40ms,200ms-260ms", "0s-30ms"),
		"attempts=" + pick("2", "3", "5", "10"),
		"backoff=" + pick("0s", "1ms", "15ms", "7300us"),
		"duration=" + pick("100ms", "300ms"),
		"stall=" + pick("0s", "0s", "5ms"), "every=100ms", "first=" + pick("10ms", "60ms"),
		"arrivals=" + pick("constant", "poisson"),
		"dist=" + pick("fixed", "exponential"),
		"seed=" + pick("1", "2", "3"),
	}, "&")
}
