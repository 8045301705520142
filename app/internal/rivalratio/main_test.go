package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRatios reads a results.json of the benchmark's shape and prints each
// figure's medians and their ratio; a figure one side lacks is said to be
// not measured.
func TestRatios(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "results.json")
	os.WriteFile(f, []byte(`{"apps":{
		"omission":{"bytes":{"total":{"raw":10,"gz":8,"wire":6}},
			"cold":[{"cold":{"first":100,"ready":900},"warm":{"first":50,"ready":400}},{"cold":{"first":300,"ready":1100},"warm":{"first":70,"ready":600}}],
			"recompute":[{"ms":40,"settledMs":90},{"ms":60,"settledMs":110},{"ms":50,"settledMs":100}]},
		"rival":{"bytes":{"total":{"raw":5,"gz":4,"wire":3}},
			"cold":[{"cold":{"first":200,"hydrated":500},"warm":{"first":100,"hydrated":200}}],
			"recompute":[{"ms":25,"settledMs":25}]}}}`), 0o644)
	out, err := exec.Command("go", "run", ".", f).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"BENCH page.bytes.wire.vs_rival 2.00 ratio",
		"BENCH page.first_result.cold.omission 200.0 ms", // the median of 100 and 300
		"BENCH page.first_result.cold.vs_rival 1.00 ratio",
		"BENCH page.interactive.cold.vs_rival 2.00 ratio", // 1000 ÷ the rival's first commit, 500
		"BENCH page.step.result.vs_rival 2.00 ratio",
		"BENCH page.step.last_dom_change.vs_rival 4.00 ratio",
		"# page.drag.updates.vs_rival: not measured",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
