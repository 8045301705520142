//go:build !wasm

package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// reportJSONOf runs report -json with args and decodes the recordings,
// the comparison and the deltas.
func reportJSONOf(t *testing.T, args ...string) (recs map[string]map[string]float64, vs map[string]any, delta map[string]map[string]float64) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, append([]string{"report", "-json"}, args...)); err != nil {
		if exitCode(err, &stderr) != 1 { // 1: a check failed, the JSON stands
			t.Fatalf("%v: %v %s", args, err, stderr.String())
		}
	}
	var out struct {
		Recordings map[string]map[string]any
		Vs         map[string]any
		Delta      map[string]map[string]float64
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	recs = map[string]map[string]float64{}
	for k, r := range out.Recordings {
		recs[k] = map[string]float64{}
		for m, v := range r {
			if f, ok := v.(float64); ok {
				recs[k][m] = f
			}
		}
	}
	return recs, out.Vs, out.Delta
}

// TestReportVsDelta holds report -vs's delta to the two runs reported on
// their own: every metric of every recording is the second's less the
// first's, and the vs= key of a share URL does what -vs does.
func TestReportVsDelta(t *testing.T) {
	a, noVs, noDelta := reportJSONOf(t, "preset=bench")
	if noVs != nil || noDelta != nil {
		t.Fatalf("a report without -vs has vs %v, delta %v", noVs, noDelta)
	}
	b, _, _ := reportJSONOf(t, "preset=clients10")
	_, vs, delta := reportJSONOf(t, "-vs", "preset=clients10", "preset=bench")
	if vs == nil || len(delta) != len(a) {
		t.Fatalf("vs %v, delta for %d recordings, want %d", vs != nil, len(delta), len(a))
	}
	n := 0
	for k, d := range delta {
		for m, got := range d {
			want := b[k][m] - a[k][m]
			if _, ok := a[k][m]; !ok {
				t.Errorf("delta.%s.%s is no metric of the recordings", k, m)
			}
			if got != want {
				t.Errorf("delta.%s.%s = %v, want %v − %v", k, m, got, b[k][m], a[k][m])
			}
			n++
		}
	}
	if n < 5*9 {
		t.Errorf("%d deltas, want 9 per recording", n)
	}
	_, _, fromURL := reportJSONOf(t, "https://example.org/?preset=bench&vs=preset%3Dclients10")
	for k, d := range delta {
		for m, v := range d {
			if fromURL[k][m] != v {
				t.Errorf("vs= in the URL: delta.%s.%s = %v, -vs gives %v", k, m, fromURL[k][m], v)
			}
		}
	}
}

// TestReportVsText is the text report with -vs against its golden file, and
// a -vs query that is refused.
func TestReportVsText(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"vs_clients10_bench", []string{"report", "-vs", "preset=clients10", "preset=bench"}, 0},
		{"vs_invalid", []string{"report", "-vs", "rate=-4", "preset=bench"}, 2},
	} {
		cliGolden(t, tc.name, tc.args, tc.code)
	}
}
