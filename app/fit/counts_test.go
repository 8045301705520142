package fit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/sim"
)

// TestRealPrintouts: the real printouts of the tools, run against the
// experiment's server stalling 100 ms every 1 s from 500 ms for 5 s at two
// connections (app/measure/testdata/real/README.md: five stalls), hold no
// times, so the stall count is what their counts, means and slowest
// replies allow. Each is explained within 5 % (vegeta's since its p90 is
// held by the share of samples above it, Residual.Ranked); each range the fit states for
// the period and the first stall holds the truth, and a period stated as
// one value is within 1 %; the stall is within 5 % of the server's, or,
// where the file's slowest reply is itself more than 5 % above it (the
// client's own delay on top), within 5 % of that reply; and the open
// loop's p99 on that server, run at the fitted service, lies in the range
// stated (1 % either side), or, stated as one value, is within 1 % of it:
// a file explained within the bound but not exactly states the stall over
// every stall that explains it, and the open loop's p99 over those (before,
// wrk2's and vegeta's open p99 were one value, 2 % from the truth). wrk2's p90 is 16 % off in value
// and 2 % in the share of samples above it (Residual.Ranked): before that
// rule the printout was NOT EXPLAINED. Before the counts were each asked
// (countSpan), the wrk printout was NOT EXPLAINED with four stalls of 106 ms, and the
// bombardier one stated 19 stalls and every period in [108 ms, 277.8 ms];
// before a fortio count tied by the verdict's rule, the fortio printouts'
// period ranges stopped short of 1 s, and their open p99 ranges of the
// truth.
func TestRealPrintouts(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("eleven fits of real files: not under -short or -race")
	}
	// The experiment's server serves one request at a time (the query's
	// default workers); the bombardier and autocannon files' minimal
	// net/http server gives each request its own (README.md).
	const server = "rate=1000&stall=100ms&every=1s&first=500ms&duration=5s&conns=2"
	for _, file := range []struct {
		name      string
		unlimited bool
	}{
		{name: "wrk-c2-d5s.txt"}, {name: "ab-c2-t5.txt"}, {name: "hey-c2-z5s.txt"},
		{name: "bombardier-c2-d5s.txt", unlimited: true}, {name: "bombardier-c2-d5s.json", unlimited: true},
		{name: "bombardier-c2-d5s-progress.txt", unlimited: true}, {name: "autocannon-c2-d5.json", unlimited: true},
		{name: "fortio-qps1000-c2-t5s.txt"}, {name: "fortio-nocatchup-qps1000-c2-t5s.txt"},
		{name: "vegeta-rate1000-5s.json"}, {name: "wrk2-c2-R1000-d5s.txt"},
		// bombardier --rate 1000: its -o json says the rate, and is fitted
		// as bombardier-rate; its printout does not, and is read as
		// bombardier's closed loop, with that condition stated.
		{name: "bombardier-rate1000-c2-d5s.json"}, {name: "bombardier-rate1000-c2-d5s.txt"},
	} {
		name := file.name
		q := server
		if file.unlimited {
			q += "&workers=unlimited"
		}
		truth, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		r, err := fitReal(t, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		holdsModel(t, name, r)
		if !r.Explained {
			t.Errorf("%s: not explained (worst %+.2f %%): %s", name, r.Worst*100, r.Query)
		}
		for _, p := range []struct {
			name      string
			got, want int64
		}{{"every", r.Config.Every, truth.Every}, {"first", r.Config.First, truth.First}} {
			f := freeOf(r, p.name)
			if f == nil {
				if !within(p.got, p.want, 0.01) {
					t.Errorf("%s: %s stated as %s, truth %s", name, p.name, sim.FormatDuration(p.got), sim.FormatDuration(p.want))
				}
				continue
			}
			lo, hi, err := f.DurationSpan()
			if err != nil || p.want < lo || p.want > hi {
				t.Errorf("%s: %s's range [%s, %s] leaves out the truth %s (%v)", name, p.name, f.Lo, f.Hi, sim.FormatDuration(p.want), err)
			}
		}
		stallWant := truth.Stall
		if m := maxMeasured(r); float64(m) > 1.05*float64(truth.Stall) {
			stallWant = m // the slowest reply the file holds is the client's as well
		}
		if f := freeOf(r, "stall"); f != nil {
			lo, hi, err := f.DurationSpan()
			in := func(v int64) bool { return float64(v) >= 0.95*float64(lo) && float64(v) <= 1.05*float64(hi) }
			if err != nil || !in(truth.Stall) && !in(stallWant) {
				t.Errorf("%s: stall's range [%s, %s] is more than 5 %% from %s (%v)", name, f.Lo, f.Hi, sim.FormatDuration(stallWant), err)
			}
		} else if !within(r.Config.Stall, stallWant, 0.05) {
			t.Errorf("%s: stall %s, want within 5 %% of %s", name, sim.FormatDuration(r.Config.Stall), sim.FormatDuration(stallWant))
		}
		c := truth
		c.Service = r.Config.Service
		res, err := sim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		open := res.Recordings[sim.Open].P[2]
		v := verdict{openP99: "ok"}
		if !within(r.Hidden.OpenP99Ns, open, 0.01) {
			v.openP99 = "off"
			inOpenRange(&v, r, open)
		}
		if v.openP99 != "ok" && v.openP99 != "free" {
			t.Errorf("%s: the open loop's p99 %s is outside what the fit states: %s, range %v", name, sim.FormatDuration(open), sim.FormatDuration(r.Hidden.OpenP99Ns), r.Hidden.OpenP99RangeNs)
		}
		t.Logf("%s: %s, explained %v (worst %+.2f %%), open p99 %v ns, truth %s", name, r.Query, r.Explained, r.Worst*100, r.Hidden.OpenP99RangeNs, sim.FormatDuration(open))
	}
}

// maxMeasured is the slowest reply the file states (0 when none).
func maxMeasured(r *Result) int64 {
	if x := byMetric(r.Residuals, "max_ns"); x != nil {
		return int64(x.Measured)
	}
	return 0
}

// TestHeyAssumed: hey's printout does not say whether it ran with -q, and
// the fit reads it as a run without: the real printout of a -q run (five
// stalls at 1,000/s, whose open loop's p99 of 91 ms lies outside what the
// closed reading gives) comes back with that condition beside what it hid,
// and the reading among what the file leaves free. So do bombardier's
// printout, which does not say whether it ran with --rate (its -o json
// does), and autocannon's -j output with no latency added by -R's
// correction.
func TestHeyAssumed(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("four fits of real files: not under -short or -race")
	}
	for _, c := range []struct{ name, flag string }{
		{"hey-c2-q500-z5s.txt", "-q"}, {"hey-c2-z5s.txt", "-q"},
		{"bombardier-rate1000-c2-d5s.txt", "--rate"}, {"autocannon-c2-d5.json", "-R"},
	} {
		name := c.name
		r, err := fitReal(t, name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Hidden.Assumes, "without "+c.flag) {
			t.Errorf("%s: the open loop's p99 %s is given without the condition it holds under: %q", name, r.Hidden.OpenP99Words(), r.Hidden.Assumes)
		}
		if f := freeOf(r, "assumed"); f == nil || !strings.Contains(f.Why, c.flag) {
			t.Errorf("%s: the reading the fit takes is not among what the file leaves free: %+v", name, r.Ambiguous)
		}
		holdsModel(t, name, r)
	}
}

// TestNoFit: autocannon -R's -j output, whose latencies -R's correction
// added to (more values than replies), is autocannon-rate's, a reading the
// fit does not regenerate: the real file and the model's own are refused
// with why, not fitted as a closed loop (which left the real one NOT
// EXPLAINED, its p99 −100 % off); so is Gatling's summary.
func TestNoFit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "measure", "testdata", "real", "autocannon-R8000-c2-d5.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sim.ParseQuery("rate=8000&stall=100ms&every=1s&first=300ms&duration=5s&conns=2&service=100us")
	if err != nil {
		t.Fatal(err)
	}
	_, model := fileFor(t, cfg, "autocannon-rate")
	for name, data := range map[string][]byte{"autocannon-R8000-c2-d5.json": data, "model.json": model} {
		_, err := Fit(name, data, Options{NoTools: true})
		var nf *NoFitError
		if !errors.As(err, &nf) || nf.Tool != "autocannon-rate" || !strings.Contains(err.Error(), "correction") {
			t.Errorf("%s: fitted or refused otherwise (%v), want autocannon-rate's reading refused with why", name, err)
		}
	}
	// A JTL whose threads a Constant Throughput Timer paced is fitted as
	// jmeter-ctt's (TestRoundTripJMeterCTT), not refused nor read as a
	// closed thread group's.
	cfg, err = sim.ParseQuery("rate=200&stall=100ms&every=1s&first=300ms&duration=4s&conns=2&service=1ms")
	if err != nil {
		t.Fatal(err)
	}
	name, jtl := fileFor(t, cfg, "jmeter-ctt")
	if r, err := Fit(name, jtl, Options{NoTools: true}); err != nil || !strings.Contains(r.Source, "jmeter-ctt") {
		t.Errorf("a paced JTL: %v, want it fitted as jmeter-ctt's", err)
	}
	// Gatling's summary, of either injection: refused with why, naming
	// both, not read as the one whose fit happens to come out best.
	for _, tool := range []string{"gatling-open", "gatling-closed"} {
		name, sum := fileFor(t, cfg, tool)
		_, err = Fit(name, sum, Options{NoTools: true})
		if nf := (*NoFitError)(nil); !errors.As(err, &nf) || nf.Tool != "gatling-open or gatling-closed" || !strings.Contains(err.Error(), "injected open") {
			t.Errorf("%s's summary: fitted or refused otherwise (%v), want both injections named, refused with why", tool, err)
		}
	}
}

// holdsModel fails when a range the fit states for a duration leaves out
// the fitted model's own value (the real hey -q printout's service was
// stated within [584.5 µs, 1.101 ms] while the model ran 290.7 µs).
func holdsModel(t *testing.T, name string, r *Result) {
	t.Helper()
	for _, p := range []struct {
		name string
		v    int64
	}{{"service", r.Config.Service}, {"stall", r.Config.Stall}, {"every", r.Config.Every}, {"first", r.Config.First}} {
		f := freeOf(r, p.name)
		if f == nil || f.Lo == "" && f.Hi == "" || p.v <= 0 && p.name != "first" {
			continue
		}
		lo, hi, err := f.DurationSpan()
		if err != nil || p.v < lo || p.v > hi {
			t.Errorf("%s: %s's range [%s, %s] leaves out the model's own %s (%v)", name, p.name, f.Lo, f.Hi, sim.FormatDuration(p.v), err)
		}
	}
}
