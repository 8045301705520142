package page

import (
	"strings"
	"testing"
)

// TestStepText: a number box steps along the article's ladder (rate 5000
// → 6250, durations and counts down to 0, Page Up three rungs), a seed by
// one; a word or a typo is left as typed, and a choice or a list of
// windows never steps. Every number box says in its hint that it steps.
func TestStepText(t *testing.T) {
	for _, c := range []struct {
		field, text string
		steps       int
		want        string
		ok          bool
	}{
		{"rate", "5000", 1, "6250", true},
		{"rate", "5000", -1, "4000", true},
		{"rate", " 5000 ", 3, "10000", true},
		{"rate", "5100", 1, "6250", true},
		{"rate", "5100", -1, "5000", true},
		{"rate", "0.5", 1, "1", true},
		{"service", "10us", 1, "12500ns", true}, // the query's writing
		{"stall", "200ms", -1, "160ms", true},
		{"stall", "1us", -1, "0s", true},
		{"stall", "0s", 1, "1us", true},
		{"every", "1s", 3, "2s", true},
		{"conns", "3", 1, "4", true},
		{"conns", "10", 1, "16", true},
		{"queue", "1", -1, "0", true},
		{"seed", "41", 1, "42", true},
		{"seed", "0", -1, "", false},
		{"rate", "lots", 1, "", false},
		{"interval", "auto", 1, "", false},
		{"workers", "unlimited", -1, "", false},
		{"rank", "round", 1, "", false},
		{"outages", "5s-6s", 1, "", false},
	} {
		got, ok := stepText(specOf(c.field), c.text, c.steps)
		if got != c.want || ok != c.ok {
			t.Errorf("%s=%q %+d: %q %v, want %q %v", c.field, c.text, c.steps, got, ok, c.want, c.ok)
		}
	}
	for _, name := range fieldNames {
		if s := specOf(name); s.steps() && !strings.HasSuffix(s.hint(), stepHint) {
			t.Errorf("%s steps, and its hint %q does not say so", name, s.hint())
		}
	}
}
