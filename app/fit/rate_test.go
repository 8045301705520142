package fit

import (
	"strings"
	"testing"

	"omission/sim"
)

// TestParseRate: the rate a reader pins a fit with, and each refusal
// naming the field and its range.
func TestParseRate(t *testing.T) {
	for s, want := range map[string]sim.Rate{"": 0, " ": 0, "1000": 1000000, "0.001": 1, " 2.5 ": 2500} {
		if got, err := ParseRate(s); err != nil || got != want {
			t.Errorf("ParseRate(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"-5", "fast", "0", "0.0001", "1e3", "1000000000000000"} {
		_, err := ParseRate(s)
		if err == nil || !strings.HasPrefix(err.Error(), "rate: ") || !strings.Contains(err.Error(), "allowed 0.001 to "+sim.MaxRate.String()+" requests per second") {
			t.Errorf("ParseRate(%q): %v, want a refusal naming rate and its range", s, err)
		}
	}
}

// TestWords: the residuals' keys as the panel and report -fit name them.
func TestWords(t *testing.T) {
	for k, want := range map[string]string{"count": "requests", "mean_ns": "mean", "p99_9_ns": "p99.9", "p50_ns": "p50", "max_ns": "max",
		"spectrum (worst of 66 rows)": "spectrum (worst of 66 rows)"} {
		if got := Words(k); got != want {
			t.Errorf("Words(%q) = %q, want %q", k, got, want)
		}
	}
}
