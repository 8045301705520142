//go:build !wasm

package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestReportTool runs report -tool as a user would, against
// testdata/tool_*.stdout, and its exit status.
func TestReportTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"tool_wrk_tcp", []string{"report", "-tool", "wrk", "preset=tcp"}, 0},
		{"tool_wrk2_bench", []string{"report", "-tool", "wrk2", "tools=wrk2"}, 0},
		{"tool_k6_arrival", []string{"report", "-tool", "k6-arrival", "preset=clients10"}, 0},
		{"tool_k6_arrival_csv", []string{"report", "-tool", "k6-arrival-csv", "rate=50&service=2ms&stall=150ms&first=400ms&duration=1500ms&conns=2"}, 0},
		{"tool_locust_bench", []string{"report", "-tool", "locust", "preset=bench"}, 0},
		{"tool_fortio_clients10", []string{"report", "-tool", "fortio", "preset=clients10&duration=12s"}, 0},
		{"tool_jmeter_bench", []string{"report", "-tool", "jmeter", "preset=bench&duration=65s"}, 0},
		{"tool_unknown", []string{"report", "-tool", "siege", "preset=tcp"}, 2},
		{"tool_list_unknown", []string{"report", "-json", "tools=wrk,gatling"}, 2},
	} {
		cliGolden(t, tc.name, tc.args, tc.code)
	}
}

// TestReportJSONTools checks the tools part of the JSON contract.
func TestReportJSONTools(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"report", "-json", "tools=wrk,k6-arrival"}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Recordings map[string]map[string]any
		Tools      map[string]map[string]any
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tools) != 2 || rep.Recordings["open"] == nil {
		t.Fatalf("tools %v", rep.Tools)
	}
	for name, tool := range rep.Tools {
		for _, k := range []string{"planned", "sent", "recorded", "dropped", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "p99_99_ns", "max_ns", "text"} {
			if _, ok := tool[k]; !ok {
				t.Errorf("tools.%s.%s missing", name, k)
			}
		}
	}
	// k6's pool of one VU at 5000/s: every iteration that finds the VU busy
	// is dropped; sent + dropped = planned.
	k6 := rep.Tools["k6-arrival"]
	if k6["sent"].(float64)+k6["dropped"].(float64) != k6["planned"].(float64) || k6["planned"].(float64) != 100000 {
		t.Errorf("k6-arrival %v", k6)
	}
	// Without tools= the JSON has no tools member (the contract is unchanged).
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"report", "-json", "preset=bench"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stdout.Bytes(), []byte(`"tools"`)) {
		t.Error("tools member without tools=")
	}
}
