package tools

import (
	"testing"

	"omission/sim"
)

// TestRateBlind: a tool the fit runs once for every rate (RateBlind)
// prints, writes and reports the same at two rates, with stalls in the
// run; the closed loops are such tools and ab -n, whose request count is
// the rate's, is not.
func TestRateBlind(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=1000&stall=50ms&every=400ms&first=100ms&duration=2s&conns=3&service=200us")
	if err != nil {
		t.Fatal(err)
	}
	blind := map[string]bool{}
	for _, tool := range registry {
		if !tool.RateBlind() {
			continue
		}
		blind[tool.name] = true
		t.Logf("%s: blind to the rate", tool.name)
		other := cfg
		other.Rate = 3 * cfg.Rate
		a, err := RunJSON(cfg, tool.name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := RunJSON(other, tool.name)
		if err != nil {
			t.Fatal(err)
		}
		if a.Text != b.Text || a.JSON != b.JSON || a.File != b.File {
			t.Errorf("%s: said to be blind to the rate, but its files at %s and %s differ", tool.name, cfg.Rate, other.Rate)
		}
	}
	for _, name := range []string{"wrk", "hey", "bombardier", "autocannon"} {
		if !blind[name] {
			t.Errorf("%s: a closed loop whose run does not depend on the rate, not said to be blind to it", name)
		}
	}
	if blind["ab-n"] {
		t.Error("ab-n: its request count is the rate's, but it is said to be blind to the rate")
	}
}
