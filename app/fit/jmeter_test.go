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
	if testing.Short() || raceOn {
		t.Skip("40 fits: not under -short or -race")
	}
	r := rand.New(rand.NewPCG(41, 2026))
	tally := map[string]int{}
	for i := 0; i < 40; i++ {
		truth, res := jmeterTruth(t, r)
		name, data := fileFor(t, truth, "jmeter")
		// A closed loop's JTL holds no due times, so no rate: every other
		// file is fitted with its rate given, as report -fit FILE rate=R.
		opt := Options{NoTools: true}
		if i%2 == 1 {
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
		v := judge(f, truth, res.Recordings[sim.Open].P[2], "jmeter")
		if v.stall == "off" || v.stall == "free-out" || v.every == "off" || v.every == "free-out" || v.service == "off" || v.service == "free-out" || !v.explained {
			t.Errorf("%s: stall %s every %s service %s explained %v; %s", truth.Query(), v.stall, v.every, v.service, v.explained, v.detail)
		}
		for _, c := range []string{"stall " + v.stall, "service " + v.service, "every " + v.every} {
			tally[c]++
		}
	}
	t.Logf("jmeter round trip: %v", tally)
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
