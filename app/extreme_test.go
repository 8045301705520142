//go:build !wasm

package main

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"omission/app/anim"
	"omission/app/charts"
	"omission/sim"
	"omission/sim/window"
)

// extremes are valid configurations at the far ends of the ranges, which
// once made the page draw for a minute or run out of memory: a service of a
// day, a stall every 2 ns, ten thousand connections, a single request
// spanning millions of stalls.
var extremes = []string{
	"service=24h&rate=0.001&duration=24h",
	"service=10s",
	"service=1h&rate=1&duration=1h",
	"stall=1ns&every=2ns&first=0s",
	"stall=1ns&every=2ns&first=0s&rate=0.001&duration=24h&service=1h",
	"conns=10000",
	"conns=10000&workers=unlimited&rate=100000&duration=2s",
	"workers=10000&rate=1000000&duration=1s&service=10ms",
	"preset=note60-single&duration=24h&rate=20",
	"arrivals=poisson&dist=exponential&service=24h&rate=0.01&duration=24h",
	"arrivals=burst&bursts=1s-1500ms@10000000&duration=3s&queue=1000000",
	"outages=0s-24h&duration=24h&rate=0.1",
}

// Budgets of what the charts and the animation may take for one
// configuration: their cost follows the pixels drawn and the samples
// simulated, never the virtual time or the stall count. The time bound is a
// guard against a hang, not a speed measure (benchmarks measure speed).
const (
	drawBytes = 256 << 20
	drawTime  = 20 * time.Second
)

func TestExtremeConfigurationsDraw(t *testing.T) {
	for _, q := range extremes {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Logf("%s: refused at run time: %v", q, err)
			continue
		}
		drawWithin(t, q, res)
	}
}

// drawWithin renders every chart and the animation model of the first and
// last stall within the budgets.
func drawWithin(t *testing.T, q string, res *sim.Result) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	done := make(chan string, 1)
	go func() {
		for _, k := range charts.Kinds() {
			for _, o := range []charts.Options{{}, {Width: 4096, Y: charts.YLog, CDF: true}} {
				if _, err := charts.Render(res, k, o); err != nil {
					done <- k.String() + ": " + err.Error()
					return
				}
			}
		}
		if err := window.Animatable(res); err == nil {
			for _, k := range []int{0, window.AnimWindows(res) - 1} {
				m, err := window.Summarise(res, k)
				var refusal *window.Refusal
				if errors.As(err, &refusal) {
					continue // an event-driven run's window whose requests are not answered in order
				}
				if err != nil {
					done <- "animation: " + err.Error()
					return
				}
				for _, at := range []int64{m.From, (m.From + m.To) / 2, m.To} {
					anim.DrawFrame(m, at, 960)
				}
			}
		}
		done <- ""
	}()
	limit := drawTime
	if raceEnabled {
		limit *= 10
	}
	select {
	case msg := <-done:
		if msg != "" {
			t.Errorf("%s: %s", q, msg)
		}
	case <-time.After(limit):
		t.Fatalf("%s: drawing took more than %v", q, limit)
	}
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > drawBytes {
		t.Errorf("%s: drawing allocated %d MB, over the %d MB budget", q, a>>20, drawBytes>>20)
	}
	t.Logf("%s: drawn in %v, %d MB allocated", q, time.Since(t0).Round(time.Millisecond), (after.TotalAlloc-before.TotalAlloc)>>20)
}

// TestLargestRuns runs the largest run each engine allows, then draws it:
// the fast path's day at 10,000,000 requests a second (8.64·10¹¹ requests a
// client, on the long path; also with fewer workers than connections) and
// the event engine's 10,000,000 arrivals. (Without the race detector: make
// test-large.)
func TestLargestRuns(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("the largest runs take minutes under the race detector: make test-large runs them")
	}
	for _, q := range []string{
		"rate=10000000&service=50ns&stall=1ms&every=30s&first=10s&duration=24h",
		"rate=10000000&service=350ns&stall=1ms&every=30s&first=10s&duration=24h&conns=8&workers=4",
		"arrivals=poisson&rate=1000000&duration=10s&service=100ns&workers=4",
	} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v (it should be the largest run allowed)", q, err)
		}
		t0 := time.Now()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		runtime.ReadMemStats(&after)
		if p, total := res.Passed(); p != total {
			t.Errorf("%s: %d of %d checks passed", q, p, total)
		}
		t.Logf("%s: %d planned, run in %v, %d MB allocated", q, res.Planned, time.Since(t0).Round(time.Millisecond), (after.TotalAlloc-before.TotalAlloc)>>20)
		drawWithin(t, q, res)
	}
}
