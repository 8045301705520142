package tools

import (
	"strings"
	"testing"

	"omission/sim"
)

// TestTexts: every tool says what it does in sentences for people, apart
// from its rule in formulas, and Describe and Run give the same texts.
func TestTexts(t *testing.T) {
	for _, name := range Names() {
		plain, rule, source, ok := Describe(name)
		if !ok || plain == "" || rule == "" || plain == rule || !strings.HasPrefix(source, "https://github.com/") {
			t.Errorf("%s: plain %q, rule %q, source %q", name, plain, rule, source)
			continue
		}
		// A sentence for people: capitalised, ended, no formula's signs.
		if r := plain[0]; r < 'A' || r > 'Z' || !strings.HasSuffix(plain, ".") {
			t.Errorf("%s: %q is not sentences", name, plain)
		}
		for _, sign := range []string{"⌊", "−", "·", "/", "=", "≥", "≤", "#(", "rate/conns"} {
			if strings.Contains(plain, sign) {
				t.Errorf("%s: its sentence for people has %q: %s", name, sign, plain)
			}
		}
		// The rule is the formula the sentence stands for.
		if !strings.ContainsAny(rule, "=/·−⌊") {
			t.Errorf("%s: its rule has no formula: %s", name, rule)
		}
	}
}

// TestZeroWords: locust keeps the bench run's 100 µs replies as 0 ms; its
// output says how it prints that and why, and the words hold for its
// rounding (half a millisecond or less is 0, more is 1). No tool reports a
// 0 percentile of replies that took time without saying why.
func TestZeroWords(t *testing.T) {
	o, err := Run(sim.Default(), "locust")
	if err != nil {
		t.Fatal(err)
	}
	if o.P99Ns != 0 || o.Zero == nil || o.Zero.Printed != "0" || o.Zero.Unit != "ms" {
		t.Fatalf("locust at the bench preset: p99 %d, zero %+v", o.P99Ns, o.Zero)
	}
	if !strings.Contains(o.Text, " 0 ") {
		t.Errorf("locust's printout has no 0: %s", o.Text)
	}
	for _, w := range []string{"whole milliseconds", "2 significant digits", "half a millisecond or less is kept as 0 ms"} {
		if !strings.Contains(o.Zero.Why, w) {
			t.Errorf("locust's why lacks %q: %s", w, o.Zero.Why)
		}
	}
	if locustBucket(0.5) != 0 || locustBucket(0.5001) != 1 || locustBucket(0.1) != 0 {
		t.Errorf("locust keeps 0.5 ms as %d, 0.5001 ms as %d", locustBucket(0.5), locustBucket(0.5001))
	}
	if locustBucket(146) != 150 || locustBucket(99.4) != 99 {
		t.Errorf("2 significant digits: 146 ms kept as %d, 99.4 ms as %d", locustBucket(146), locustBucket(99.4))
	}
	o.Zero.Why = "changed"
	if again, _ := Run(sim.Default(), "locust"); again.Zero.Why == "changed" {
		t.Error("an output's Zero is shared with the tool's")
	}
	for _, q := range []string{"", "service=50us&stall=0s", "preset=tcp"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range Names() {
			o, err := Run(cfg, name)
			if err != nil {
				t.Fatalf("%s %s: %v", q, name, err)
			}
			for _, p := range o.P() {
				if p == 0 && o.Recorded > 0 && o.Zero == nil {
					t.Errorf("%q %s: a 0 percentile of %d replies, and no word why", q, name, o.Recorded)
				}
			}
		}
	}
}
