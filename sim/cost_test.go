package sim

import (
	"strings"
	"testing"
)

func TestEstimateAndPageBudget(t *testing.T) {
	mustCfg := func(q string) Config {
		t.Helper()
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return cfg
	}
	bench := mustCfg("")
	c := bench.Estimate()
	if c.Path != "exact" || c.Requests != 100000 || c.Stalls != 20 {
		t.Errorf("bench estimate %+v", c)
	}
	if fe := bench.Within(PageBudget()); fe != nil {
		t.Errorf("the page refuses bench: %v", fe)
	}
	// Every exact run fits the page, and so do long runs with few stalls:
	// a day at 10M requests a second, a stall every 30 s.
	if fe := mustCfg("rate=100000&duration=20s").Within(PageBudget()); fe != nil {
		t.Errorf("the page refuses the largest exact run: %v", fe)
	}
	day := mustCfg("rate=10000000&service=50ns&stall=1ms&every=30s&first=10s&duration=24h")
	if c := day.Estimate(); c.Path != "long" || c.Requests != 864e9 {
		t.Errorf("a day at 10M/s: %+v", c)
	}
	if fe := day.Within(PageBudget()); fe != nil {
		t.Errorf("the page refuses a day at 10M/s with few stalls: %v", fe)
	}
	// A long run whose stretches pass the page's budget (a stall every
	// 30 ms for a day) but not the simulator's limit.
	big := mustCfg("rate=10000000&service=1ns&stall=1ms&every=30ms&duration=24h")
	if big.Validate() != nil {
		t.Fatal("the run should be inside the simulator's limits")
	}
	fe := big.Within(PageBudget())
	if fe == nil || fe.Field != "duration" || fe.Reason != ReasonLimit {
		t.Fatalf("2.9M stalls: %v", fe)
	}
	for _, want := range []string{"limit of the page", "864000000000 requests a client", "long path", "shorten the duration or lower the rate", "go run ./app report"} {
		if !strings.Contains(fe.Error(), want) {
			t.Errorf("message %q lacks %q", fe.Error(), want)
		}
	}
	// Cost grows with the requests, and the engine's with its arrivals.
	small, large := mustCfg("arrivals=poisson&duration=1s").Estimate(), mustCfg("arrivals=poisson&duration=100s").Estimate()
	if small.Path != "event" || large.Work <= small.Work || large.Requests != 500000 {
		t.Errorf("engine estimates %+v %+v", small, large)
	}
	// A budget's suggestion is a run it accepts.
	if fe := mustCfg("arrivals=poisson&rate=1000000&duration=10s").Within(PageBudget()); fe == nil {
		t.Error("10M Poisson arrivals fit the page")
	}
}

func TestLimitReason(t *testing.T) {
	_, err := ParseQuery("rate=10000000&duration=24h&stall=1us&every=2us&first=0s")
	fe := asErrs(err).Field("duration")
	if fe == nil || fe.Reason != ReasonLimit {
		t.Errorf("request limit: %v", err)
	}
	_, err = ParseQuery("rate=abc")
	if fe := asErrs(err).Field("rate"); fe == nil || fe.Reason != ReasonInvalid {
		t.Errorf("invalid rate: %v", err)
	}
}

// A refusal names the part of the budget that refused, with its own figure:
// a run within its work budget but over its memory is refused for memory.
func TestWithinNamesTheLimit(t *testing.T) {
	b := PageBudget()
	for _, q := range []string{
		"arrivals=poisson&rate=300000&duration=10s",
		"arrivals=poisson&rate=350000&duration=10s",
		"arrivals=poisson&rate=400000&duration=10s",
		"arrivals=poisson&rate=1000000&duration=10s",
		"rate=10000000&duration=10s&stall=0s",
	} {
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cost := cfg.Estimate()
		fe := cfg.Within(b)
		if (cost.Work > b.Work || cost.Bytes > b.Bytes) != (fe != nil) {
			t.Fatalf("%s: cost %+v, refusal %v", q, cost, fe)
		}
		if fe == nil {
			continue
		}
		memory := strings.Contains(fe.Allowed, "MiB of memory")
		work := strings.Contains(fe.Allowed, "s of work, over its budget")
		if memory != (cost.Bytes > b.Bytes) || work != (cost.Work > b.Work) {
			t.Errorf("%s: cost %+v (work over %v, memory over %v), message %q", q, cost, cost.Work > b.Work, cost.Bytes > b.Bytes, fe.Allowed)
		}
	}
}
