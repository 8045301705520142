package main

import (
	"strings"
	"testing"

	"omission/sim"
)

// TestSimulateLimitError: a run a limit stops mid-way ends in an error that
// names the limit, never in a nil result handed to the page.
func TestSimulateLimitError(t *testing.T) {
	cfg, err := sim.ParseQuery("arrivals=poisson&rate=1000000&duration=3s&service=1s&stall=0s&seed=1")
	if err != nil {
		t.Fatal(err)
	}
	v, err := simulate(1, cfg, func() {})
	if err == nil || v != nil {
		t.Fatalf("view %v, error %v: want a limit", v, err)
	}
	if !strings.Contains(err.Error(), "limit ") {
		t.Errorf("error %q does not name the limit", err)
	}
}

// TestFigureRunBounded: figures and embeds run their query at once, so a
// large one is refused with a pointer to the visualiser instead of holding
// the page.
func TestFigureRunBounded(t *testing.T) {
	if _, err := runQuery("duration=10m"); err == nil || !strings.Contains(err.Error(), "visualiser") {
		t.Errorf("a 3M-request figure: %v", err)
	}
	if res, err := runQuery("preset=tcp"); err != nil || res == nil {
		t.Errorf("a small figure: %v", err)
	}
}
