//go:build !wasm

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestReportCommand runs the report command as a user would and compares its
// output with testdata/*.stdout, and its exit status.
func TestReportCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"bench", []string{"report", "preset=bench"}, 0},
		{"tcp_url", []string{"report", "http://localhost:8000/?preset=tcp"}, 0},
		{"clients10", []string{"report", "preset=clients10"}, 0},
		{"invalid", []string{"report", "stall=-5ms&rate=abc"}, 2},
		{"usage", []string{}, 2},
		{"unknown", []string{"frobnicate"}, 2},
	} {
		var stdout, stderr bytes.Buffer
		code := exitCode(cli(&stdout, &stderr, tc.args), &stderr)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stderr %s)", tc.name, code, tc.code, stderr.String())
		}
		got := stdout.String() + "--- stderr\n" + stderr.String()
		path := filepath.Join("testdata", tc.name+".stdout")
		if *update {
			os.WriteFile(path, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update creates it)", err)
		}
		if string(want) != got {
			t.Errorf("%s: output differs from %s (go test -update rewrites it):\n%s", tc.name, path, got)
		}
	}
}

// TestReportJSON checks the JSON contract other tools read.
func TestReportJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := cli(&stdout, &stderr, []string{"report", "-json", "preset=bench"}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Query      string
		Recordings map[string]map[string]any
		Checks     []struct {
			ID        string
			Want, Got float64
			Pass      bool
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"closed", "open", "corrected", "paced", "paced_corrected"} {
		for _, m := range []string{"count", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "p99_99_ns", "max_ns", "above"} {
			if _, ok := rep.Recordings[r][m]; !ok {
				t.Errorf("recordings.%s.%s missing", r, m)
			}
		}
	}
	if rep.Recordings["open"]["p99_ns"] != float64(195100000) {
		t.Errorf("open p99 %v", rep.Recordings["open"]["p99_ns"])
	}
	if len(rep.Checks) == 0 || rep.Checks[0].ID == "" {
		t.Error("no checks")
	}
	for _, c := range rep.Checks {
		if !c.Pass {
			t.Errorf("check %s failed", c.ID)
		}
	}
	// An invalid query names both fields on stderr and exits 2.
	stdout.Reset()
	err := cli(&stdout, &stderr, []string{"report", "-json", "stall=-5ms&rate=abc"})
	if code := exitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), "stall") || !strings.Contains(stderr.String(), "rate") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
