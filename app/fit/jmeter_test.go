package fit

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"omission/app/measure"
	"omission/sim"
)

// jmeterTruth draws a query for JMeter's thread group: truthAtConns's,
// with a service of 0.3 ms or more (a closed loop sends duration/service
// requests a thread, a JTL line each: within measure.MaxFileSize).
func jmeterTruth(t *testing.T, r *rand.Rand) (sim.Config, *sim.Result) {
	for {
		truth, res := truthAtConns(t, r)
		if truth.Service >= 300e3 {
			return truth, res
		}
	}
}

// TestRoundTripJMeter: the JTL of JMeter's thread group (conns threads
// back to back, whole ms) for random deterministic queries at one to four
// threads is fitted back to its query. The JTL lists every sample with
// its start and elapsed time, so the fit reads the stalls from the times:
// the stall and the period are met within 1 % or left free with the truth
// inside the range the fit gives; the service within 5 % or free with the
// truth inside; and every number of the file explained. Every other file
// is fitted with its rate given: the JTL of a closed loop holds none.
func TestRoundTripJMeter(t *testing.T) {
	jtlRoundTrip(t, "jmeter", 41, func(i int) bool { return i%2 == 1 }, false)
}

// TestRoundTripJMeterCTT: the same for a thread group paced by a Constant
// Throughput Timer (jmeter-ctt: each thread's targets a whole number of
// milliseconds apart, a late thread sending at once and counting from
// there), whose JTL holds its rate, to the whole ms of its period: the
// open loop's p99 is held too, within 1 % or inside the range the fit
// gives. Every fourth file is fitted with its rate given, as report -fit
// FILE rate=R.
func TestRoundTripJMeterCTT(t *testing.T) {
	jtlRoundTrip(t, "jmeter-ctt", 43, func(i int) bool { return i%4 == 3 }, true)
}

// jtlRoundTrip fits the JTLs tool writes for 40 random queries (seeded
// with seed), each with its rate given when rateGiven says so, and holds
// the fits to the round trips' bar; holdOpen holds the open loop's p99
// too.
func jtlRoundTrip(t *testing.T, tool string, seed uint64, rateGiven func(i int) bool, holdOpen bool) {
	if testing.Short() || raceOn {
		t.Skip("40 fits: not under -short or -race")
	}
	r := rand.New(rand.NewPCG(seed, 2026))
	tally := map[string]int{}
	for i := 0; i < 40; i++ {
		truth, res := jmeterTruth(t, r)
		name, data := fileFor(t, truth, tool)
		opt := Options{NoTools: true}
		if rateGiven(i) {
			opt.Rate = truth.Rate
		}
		f, err := Fit(name, data, opt)
		if err != nil {
			t.Errorf("%s: %v", truth.Query(), err)
			continue
		}
		if f.Config.Conns != truth.Conns {
			t.Errorf("%s: fitted %s: the JTL's threads are the connections", truth.Query(), f.Query)
		}
		open := res.Recordings[sim.Open].P[2]
		v := judge(f, truth, open, tool)
		if v.stall == "off" || v.stall == "free-out" || v.every == "off" || v.every == "free-out" || v.service == "off" || v.service == "free-out" || !v.explained {
			t.Errorf("%s: stall %s every %s service %s explained %v; %s", truth.Query(), v.stall, v.every, v.service, v.explained, v.detail)
		}
		if rg := f.Hidden.OpenP99RangeNs; holdOpen && !within(f.Hidden.OpenP99Ns, open, 0.01) && (len(rg) != 2 || open < rg[0] || open > rg[1]) {
			t.Errorf("%s: the open loop's p99 %d, range %v, truth %d; %s", truth.Query(), f.Hidden.OpenP99Ns, rg, open, v.detail)
		}
		for _, c := range []string{"stall " + v.stall, "service " + v.service, "every " + v.every} {
			tally[c]++
		}
	}
	t.Logf("%s round trip: %v", tool, tally)
}

// TestFitRealJMeterCTT: the JTL of a real JMeter 2.13 run paced by a
// Constant Throughput Timer (2 threads every 10 ms against the
// experiment's server stalling 100 ms every 1 s; measure/testdata/real's
// README) is fitted as jmeter-ctt's and explained, its stall and period
// within 5 % of the server's, the ranges it states for the stall and the
// rate holding the truth.
func TestFitRealJMeterCTT(t *testing.T) {
	f, err := fitReal(t, "jmeter-2.13-t2-d5s-ctt6000.jtl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Source, "jmeter-ctt") || !f.Explained || f.Config.Conns != 2 {
		t.Errorf("fitted as %s, explained %v, %d threads; want jmeter-ctt's, explained, 2", f.Source, f.Explained, f.Config.Conns)
	}
	if !within(f.Config.Stall, 100e6, 0.05) || !within(f.Config.Every, 1e9, 0.05) {
		t.Errorf("fitted %s: stall and period not within 5 %% of 100 ms and 1 s", f.Query)
	}
	if p := freeOf(f, "stall"); p != nil {
		if lo, hi, err := p.DurationSpan(); err != nil || lo > 100e6 || hi < 100e6 {
			t.Errorf("the stall stated within [%s, %s], which does not hold 100 ms", p.Lo, p.Hi)
		}
	}
	if p := freeOf(f, "rate"); p == nil {
		t.Error("the rate stated as one value: the timer's whole-ms period leaves it free")
	} else if lo, err1 := sim.ParseRate(p.Lo); err1 != nil || lo > sim.RateOf(200) {
		t.Errorf("the rate stated from %s, above 200/s", p.Lo)
	} else if hi, err2 := sim.ParseRate(p.Hi); err2 != nil || hi < sim.RateOf(200) {
		t.Errorf("the rate stated up to %s, below 200/s", p.Hi)
	}
}

// TestJTLCut: a JTL whose last line is cut short of its columns (the file
// cut as JMeter wrote it) is refused as incomplete, naming that line; a
// malformed one is a ParseError at its line and column.
func TestJTLCut(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=500&service=1ms&stall=100ms&every=1s&first=300ms&duration=3s&conns=2")
	if err != nil {
		t.Fatal(err)
	}
	_, data := fileFor(t, cfg, "jmeter")
	whole := string(data)
	cut := whole[:len(whole)-30] // inside the last sample's URL
	_, err = Fit("cut.jtl", []byte(cut), Options{NoTools: true})
	var inc *IncompleteError
	if !errors.As(err, &inc) || !strings.Contains(err.Error(), "cut after 13 of the 17 columns") {
		t.Errorf("cut: %v", err)
	}
	bad := strings.Replace(whole, ",HTTP Request,", ",HTTP Request,200,", 1)
	_, err = Fit("bad.jtl", []byte(bad), Options{NoTools: true})
	var pe *measure.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Col != 92 {
		t.Errorf("bad: %v", err)
	}
	if _, err := Fit("whole.jtl", data, Options{NoTools: true}); err != nil {
		t.Errorf("whole: %v", err)
	}
}
