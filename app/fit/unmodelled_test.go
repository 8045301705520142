package fit

import (
	"errors"
	"strings"
	"testing"

	"omission/app/internal/k6gauge"
	"omission/sim"
)

// TestFitRealRamps: real runs that ramped their load up, kept in
// measure/testdata/real (its README says how each was made). The model
// runs one constant rate with every connection from the start, so it
// cannot replay them: the fit refuses each and says what the file shows,
// rather than fit the ramp as the run.
//   - Artillery, one phase from 50/s to 200/s (rampTo): 2,500 arrivals in
//     20 s, the total and span of one phase of 125/s, which the fit stated
//     until it held the period reports' counts to that phase.
//   - Artillery, a warm-up phase of 20/s for 4 s and then 100/s for 8 s:
//     no one phase gives its total and span, and the fit read its rate as
//     free and fitted a run of 4.4 s at 200/s, not explained. Its console
//     names both phases; its report's periods count what no one phase
//     makes.
//   - JMeter 2.13, 2 threads with a ramp-up of 1 s: the second thread's
//     first sample 196 ms after the first's, 7 % of the run (a run of 10
//     threads so was fitted with an 893 ms period for the server's 1 s).
//   - locust, 4 users spawned at 1 a second: all spawned 3 s into 6 s.
//
// The same tools' real runs without a ramp are fitted.
func TestFitRealRamps(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"artillery-rampto-50-200-d20.txt", []string{"162, 1,089, 1,249 arrivals", "arrivalRate: 125", "rampTo"}},
		{"artillery-rampto-50-200-d20.json", []string{"162, 1,089, 1,249 arrivals", "arrivalRate: 125", "rampTo"}},
		{"artillery-phases-20-100.txt", []string{`2 phases ("warm up for 4s", "sustained for 8s")`}},
		{"artillery-phases-20-100.json", []string{"514, 366 arrivals", "one phase of their total over their span makes one every 13.6 ms"}},
		{"jmeter-2.13-t2-rampup1-d3s.jtl", []string{"2 threads' first samples started over 196 ms", "ramp-up"}},
		{"locust-u4-r1-t6s.txt", []string{`"Ramping to 4 users at a rate of 1.00 per second"`, "spawned 3.004 s later, of its 6 s"}},
	} {
		f, err := fitReal(t, c.name)
		var u *UnmodelledError
		if !errors.As(err, &u) {
			if err == nil {
				t.Errorf("%s: fitted %s; want the fit refused", c.name, f.Query)
			} else {
				t.Errorf("%s: %v; want an UnmodelledError", c.name, err)
			}
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
	}
	for _, name := range []string{"artillery-rate1000-d5.json", "artillery-rate1000-d5.txt", "jmeter-2.13-t2-d5s.jtl", "jmeter-2.13-t2-d5s-header.jtl", "jmeter-2.13-t2-d5s-ctt6000.jtl", "locust-u2-t5s.txt"} {
		if _, err := fitReal(t, name); err != nil {
			t.Errorf("%s, no ramp: %v", name, err)
		}
	}
}

// k6Gauge rewrites the vus ticks of k6's JSON output to active(t), t in
// ns from the epoch of its times.
func k6Gauge(t *testing.T, file string, active func(at int64) int64) string {
	out, n, err := k6gauge.Rewrite(file, false, active)
	if err != nil || n == 0 {
		t.Fatalf("the file's vus ticks: %d rewritten, %v", n, err)
	}
	return out
}

// TestFitK6Executors: k6's vus gauge reads every VU at each tick of a
// constant-vus run, and the VUs in an iteration at each tick of a
// constant-arrival-rate run (tools/k6executor.go cites k6's source).
//   - The model's constant-arrival-rate JSON output, its gauge rewritten as
//     a real run's (2 VUs busy at each tick but the first), is fitted as
//     k6-arrival-json's, back to its query.
//   - The model's constant-vus output through a 1 s stall, its gauge
//     rewritten as ramping-vus's (1, 2, then all 3 VUs), is refused: the gauge
//     rules out constant-vus, and sends that stop for a second rule out
//     one arrival rate.
func TestFitK6Executors(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=200&stall=100ms&every=1s&first=300ms&duration=4s&conns=8&service=1ms")
	if err != nil {
		t.Fatal(err)
	}
	name, data := fileFor(t, cfg, "k6-arrival-json")
	file := k6Gauge(t, string(data), func(at int64) int64 { return 2 })
	r, err := Fit(name, []byte(file), Options{NoTools: true})
	if err != nil {
		t.Fatalf("constant-arrival-rate, busy gauge: %v", err)
	}
	if !strings.Contains(r.Source, "k6-arrival-json") || r.Config.Stall != cfg.Stall || r.Config.Every != cfg.Every || r.Config.Rate != cfg.Rate {
		t.Errorf("constant-arrival-rate, busy gauge: fitted %s as %s, want %s as k6-arrival-json's", r.Query, r.Source, cfg.Query())
	}

	cfg, err = sim.ParseQuery("rate=200&stall=1s&every=0s&first=500ms&duration=4s&conns=3&service=1ms")
	if err != nil {
		t.Fatal(err)
	}
	name, data = fileFor(t, cfg, "k6-vus-json")
	file = k6Gauge(t, string(data), func(at int64) int64 { return min(at/1e9, 3) })
	_, err = Fit(name, []byte(file), Options{NoTools: true})
	var um *UnmodelledError
	if !errors.As(err, &um) || !strings.Contains(err.Error(), "vus gauge read from 1 to 2 VUs at 2 of its ticks") || !strings.Contains(err.Error(), "first half") {
		t.Errorf("ramping-vus: %v, want it refused, naming the gauge and the sends", err)
	}
}
