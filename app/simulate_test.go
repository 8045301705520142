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
