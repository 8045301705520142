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
		cliGolden(t, tc.name, tc.args, tc.code)
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

// cliGolden runs the command line with args and holds its exit status to
// code and its stdout and stderr to testdata/name.stdout (go test -update
// rewrites the file).
func cliGolden(t *testing.T, name string, args []string, code int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := exitCode(cli(&stdout, &stderr, args), &stderr)
	if got != code {
		t.Errorf("%s: exit %d, want %d (stderr %s)", name, got, code, stderr.String())
	}
	out := stdout.String() + "--- stderr\n" + stderr.String()
	path := filepath.Join("testdata", name+".stdout")
	if *update {
		os.WriteFile(path, []byte(out), 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if string(want) != out {
		t.Errorf("%s: output differs from %s (go test -update rewrites it):\n%s", name, path, out)
	}
}
