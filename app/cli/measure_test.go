//go:build !wasm

package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestMeasureCommands runs export, report -measured and experiment's
// refusals as a user would and compares stdout and stderr with
// testdata/*.stdout (go test -update rewrites them), and the exit status.
func TestMeasureCommands(t *testing.T) {
	small := "rate=20&duration=2s&stall=100ms&every=1s&first=500ms"
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"export_hgrm", []string{"export", "-format", "hgrm", "-recording", "open", "preset=tcp&duration=6s"}, 0},
		{"export_hlog", []string{"export", "-format", "hlog", small}, 0},
		{"export_csv", []string{"export", "-format", "csv", "-recording", "corrected", small}, 0},
		{"export_hgrm_all", []string{"export", "-format", "hgrm", "preset=tcp"}, 2},
		{"export_bad_format", []string{"export", "-format", "png", "preset=tcp"}, 2},
		{"export_bad_recording", []string{"export", "-format", "hlog", "-recording", "fast", "preset=tcp"}, 2},
		{"report_measured", []string{"report", "-measured", filepath.Join("..", "measure", "testdata", "wrk-4.1.txt"), "service=100us&stall=100ms&every=1s&first=500ms&duration=3s"}, 0},
		{"report_measured_bad", []string{"report", "-measured", filepath.Join("..", "measure", "testdata", "README.md"), "preset=tcp"}, 2},
		{"experiment_refused", []string{"experiment", "rate=60000&duration=40s&conns=300&interval=10ms"}, 2},
		{"experiment_bad_with", []string{"experiment", "-with", "wrk,gatling-open", "preset=tcp"}, 2},
	} {
		cliGolden(t, tc.name, tc.args, tc.code)
	}
}

// TestReportMeasuredJSON checks the JSON contract: measured.{count,
// mean_ns, p50_ns, …, max_ns, format}, null where the file does not say.
func TestReportMeasuredJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"report", "-json", "-measured", filepath.Join("..", "measure", "testdata", "wrk2.txt"), "preset=tcp"}); err != nil {
		t.Fatal(err, stderr.String())
	}
	var rep struct {
		Recordings   map[string]map[string]any
		Measured     map[string]any
		MeasuredMore []map[string]any `json:"measured_more"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"count", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "p99_99_ns", "max_ns", "format", "how", "precision"} {
		if _, ok := rep.Measured[k]; !ok {
			t.Errorf("measured.%s missing", k)
		}
	}
	// wrk2.txt: "Total count = 2996", " 50.000%    1.30ms", "-U": a second spectrum.
	if rep.Measured["format"] != "wrk2" || rep.Measured["count"] != float64(2996) || rep.Measured["p50_ns"] != float64(1300000) ||
		len(rep.MeasuredMore) != 1 || rep.MeasuredMore[0]["label"] != "uncorrected" {
		t.Errorf("measured %v, more %v", rep.Measured, rep.MeasuredMore)
	}
	if rep.Recordings["open"] == nil {
		t.Error("the model's recordings are missing")
	}
	// A file without p99.9 has null there.
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"report", "-json", "-measured", filepath.Join("..", "measure", "testdata", "vegeta.json"), "preset=tcp"}); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(stdout.Bytes(), &rep)
	if v, ok := rep.Measured["p99_9_ns"]; !ok || v != nil {
		t.Errorf("vegeta p99_9_ns %v (present %v), want null", v, ok)
	}
}
