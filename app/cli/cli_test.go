//go:build !wasm

package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"omission/app/units"
	"omission/app/view"
	"omission/sim"
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
	if err := run(&stdout, &stderr, []string{"report", "-json", "preset=bench"}); err != nil {
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
	err := run(&stdout, &stderr, []string{"report", "-json", "stall=-5ms&rate=abc"})
	if code := exitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), "stall") || !strings.Contains(stderr.String(), "rate") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	// Fields valid alone but not together: both named, with each other's
	// value, exit 2 and nothing printed; so is a fallback over a limit
	// (sim.ParseQuery, the page's rule).
	for _, c := range []struct {
		q     string
		words []string
	}{
		{"rate=20000&every=100ms", []string{"stall: \"200ms\" is not allowed with every", "shorter than every (100ms)", "every: \"100ms\" is not allowed with stall", "longer than stall (200ms)"}},
		{"service=24h&stall=24h", []string{"stall", "every (1s)", "every: \"1s\""}},
		{"conns=abc&rate=10000000&duration=24h&stall=1us&every=2us&first=0s", []string{"conns", "duration", "limit requests"}},
		{"arrivals=ramp", []string{"to: required with arrivals=ramp"}},
	} {
		stdout.Reset()
		stderr.Reset()
		err := run(&stdout, &stderr, []string{"report", c.q})
		code := exitCode(err, &stderr)
		if code != 2 || stdout.Len() != 0 {
			t.Errorf("%s: exit %d, %d bytes printed", c.q, code, stdout.Len())
		}
		for _, w := range c.words {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%s: stderr %q does not say %q", c.q, stderr.String(), w)
			}
		}
	}
}

// cliGolden runs the command line with args and holds its exit status to
// code and its stdout and stderr to testdata/name.stdout (go test -update
// rewrites the file).
func cliGolden(t *testing.T, name string, args []string, code int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := exitCode(run(&stdout, &stderr, args), &stderr)
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

// TestReportTextReadsTheView: the text table has the page's rows in the
// page's order under the page's labels (the samples row named count), and
// its numbers are the result's.
func TestReportTextReadsTheView(t *testing.T) {
	cfg, err := sim.ParseQuery("above=100ms&duration=2s")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeText(&b, res)
	var labels []string
	for _, r := range view.Build(0, res, 0).Rows {
		switch r.Metric {
		case "planned", "sent", "above_share":
		case "count":
			labels = append(labels, "count")
		default:
			labels = append(labels, r.Label)
		}
	}
	lines := strings.Split(b.String(), "\n")
	// The headline's words come first, as the page shows them.
	said := view.Build(0, res, 0).Headline.Said()
	if lines[3] != "server: "+said.Summary {
		t.Errorf("line 4 %q, want the summary line %q", lines[3], said.Summary)
	}
	for i, c := range said.Cards {
		if want := c.Label + ": " + c.Value + " · " + c.Sub; lines[4+i] != want {
			t.Errorf("line %d %q, want the card %q", 5+i, lines[4+i], want)
		}
	}
	// The table's rows follow its header.
	head := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(strings.TrimSpace(l), "open/closed") })
	if head < 0 {
		t.Fatalf("no table header in %q", b.String())
	}
	lines = lines[head+1:]
	for i, want := range labels {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), want+"  ") {
			t.Errorf("row %d: %q, want the label %q", i, lines[i], want)
		}
	}
	if labels[len(labels)-1] != "above 100 ms" {
		t.Errorf("the threshold's row is %q, want it in words", labels[len(labels)-1])
	}
	// Cells are apart by two spaces at least; a cell's own words by one.
	cells := func(line string) []string { return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1) }
	p99 := cells(lines[slices.Index(labels, "p99")])
	openCol := 1 // the open loop's column, as the view orders them
	for i, c := range view.Build(0, res, 0).Columns {
		if c.Recording == sim.Open.String() {
			openCol = 1 + i
		}
	}
	if open := res.Recordings[sim.Open]; p99[openCol] != units.Duration(open.P[sim.P99]) {
		t.Errorf("p99 row %q: open is not %s", p99, units.Duration(open.P[sim.P99]))
	}
	above := cells(lines[len(labels)-1])
	if c := res.Recordings[sim.Closed]; above[1] != fmt.Sprintf("%d (%.4f%%)", c.Above, 100*c.Share()) {
		t.Errorf("above row %q: closed is not %d (%.4f%%)", above, c.Above, 100*c.Share())
	}
}

// TestSweepCommand pins one sweep as text, JSON and CSV, and the messages
// of a bad one (go test -update rewrites the files).
func TestSweepCommand(t *testing.T) {
	const q, spec = "preset=bench&duration=2s", "stall:0..1s/5"
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"sweep_stall", []string{"report", "-sweep", spec, q}, 0},
		{"sweep_stall_json", []string{"report", "-json", "-sweep", spec, q}, 0},
		{"sweep_url", []string{"report", "http://localhost:8000/?preset=tcp&duration=2s&sweep=conns:1..8/x2"}, 0},
		{"sweep_csv", []string{"export", "-format", "csv", "-sweep", spec, q}, 0},
		{"sweep_invalid", []string{"report", "-sweep", "rank:round..ceil/2", q}, 2},
		{"sweep_bad_format", []string{"export", "-format", "hlog", "-sweep", spec, q}, 2},
		{"sweep_with_vs", []string{"report", "-sweep", spec, "-vs", "preset=tcp", q}, 2},
	} {
		cliGolden(t, tc.name, tc.args, tc.code)
	}
}

// TestSweepJSONPoints: each point of report -sweep -json holds the numbers
// of report -json of its own query, to the digit.
func TestSweepJSONPoints(t *testing.T) {
	var out, stderr bytes.Buffer
	if err := run(&out, &stderr, []string{"report", "-json", "-sweep", "conns:1..4/x2", "preset=tcp&duration=1s&stall=300ms&every=600ms"}); err != nil {
		t.Fatal(err, stderr.String())
	}
	var sw struct {
		Sweep struct {
			Field, Spec string
			Points      []map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(out.Bytes(), &sw); err != nil {
		t.Fatal(err)
	}
	if sw.Sweep.Field != "conns" || sw.Sweep.Spec != "conns:1..4/x2" || len(sw.Sweep.Points) != 3 {
		t.Fatalf("sweep %s %s with %d points", sw.Sweep.Field, sw.Sweep.Spec, len(sw.Sweep.Points))
	}
	for _, p := range sw.Sweep.Points {
		var q string
		json.Unmarshal(p["query"], &q)
		var own bytes.Buffer
		if err := run(&own, &stderr, []string{"report", "-json", q}); err != nil {
			t.Fatal(err)
		}
		var rep map[string]json.RawMessage
		if err := json.Unmarshal(own.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"query", "hash", "recordings", "clients", "passed", "failed"} {
			if !bytes.Equal(compact(t, p[k]), compact(t, rep[k])) {
				t.Errorf("%s: %s is %s, its own report's %s", q, k, p[k], rep[k])
			}
		}
	}
}

func compact(t *testing.T, b json.RawMessage) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return out.Bytes()
}

// TestSweepTextWidth: report -sweep prints a table per recording, each
// with a row per point, and no line wider than 100 columns, whatever the
// sweep: long durations, a refused point's reason, a long query.
func TestSweepTextWidth(t *testing.T) {
	for _, args := range [][]string{
		{"-sweep", "stall:0..1s/5", "preset=bench&duration=2s"},
		{"http://localhost:8000/?preset=tcp&duration=2s&sweep=conns:1..8/x2"},
		{"-sweep", "service:1ms..2s/3", "rate=2&duration=20s&stall=3s&every=10s&first=1s&conns=3&workers=2&arrivals=poisson&dist=exponential&above=250ms"},
		{"-sweep", "every:200ms..20s/x10", "preset=clients10&duration=60s&stall=500ms"},
	} {
		var out, stderr bytes.Buffer
		code := exitCode(run(&out, &stderr, append([]string{"report"}, args...)), &stderr)
		if code == 2 {
			t.Fatalf("%v: exit 2: %s", args, stderr.String())
		}
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		for i, l := range lines {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("%v: line %d is %d columns: %q", args, i+1, n, l)
			}
		}
		for _, k := range sim.Kinds() {
			if !slices.Contains(lines, k.String()) {
				t.Errorf("%v: no table for %s:\n%s", args, k, out.String())
			}
		}
	}
}

// TestCommandExamples runs the examples -h gives for report and export, as
// a reader would paste them at the module's root (without export's
// redirection): each exits 0 and prints something. experiment's, static's
// and serve's run servers or need the built site: TestHelp holds that they
// are given.
func TestCommandExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	for _, cmd := range []string{"report", "export"} {
		for _, ex := range commandExamples[cmd] {
			ex, _, _ = strings.Cut(ex, " > ")
			var args []string
			for _, w := range strings.Fields(strings.TrimPrefix(ex, "go run ./app ")) {
				args = append(args, strings.Trim(w, "'"))
			}
			var stdout, stderr bytes.Buffer
			if code := exitCode(run(&stdout, &stderr, args), &stderr); code != 0 || stdout.Len() == 0 {
				t.Errorf("%s: exit %d, %d bytes out, stderr %q", ex, code, stdout.Len(), stderr.String())
			}
		}
	}
}

// TestHelp: -h and -help after any command print that command's usage, an
// example, and each of its flags on stdout, and exit 0, whatever follows them; so do -h
// and help alone, for the program.
func TestHelp(t *testing.T) {
	flags := map[string][]string{
		"report":     {"-json", "-tool", "-measured", "-vs", "-sweep", "-fit"},
		"export":     {"-format", "-recording", "-sweep"},
		"experiment": {"-json", "-out", "-with"},
		"static":     {"-web", "-out", "-prefix"},
		"serve":      {"-addr", "-web", "-out"},
	}
	for cmd, want := range flags {
		for _, h := range []string{"-h", "-help", "--help"} {
			for _, args := range [][]string{{cmd, h}, {cmd, h, "preset=bench"}, {cmd, "-json", h}} {
				if cmd != "report" && cmd != "experiment" && args[1] == "-json" {
					continue
				}
				var stdout, stderr bytes.Buffer
				code := exitCode(run(&stdout, &stderr, args), &stderr)
				out := stdout.String()
				if code != 0 || stderr.Len() != 0 {
					t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
				}
				if !strings.HasPrefix(out, "usage: app "+cmd+" ") {
					t.Errorf("%v: stdout does not start with the command's usage: %q", args, out)
				}
				if !strings.Contains(out, "\nexamples:\n  go run ./app "+cmd+" ") {
					t.Errorf("%v: the help gives no example:\n%s", args, out)
				}
				for _, f := range want {
					if !strings.Contains(out, "\n  "+f+" ") && !strings.Contains(out, "\n  "+f+"\n") {
						t.Errorf("%v: the help does not describe %s:\n%s", args, f, out)
					}
				}
			}
		}
	}
	for _, args := range [][]string{{"-h"}, {"help"}} {
		var stdout, stderr bytes.Buffer
		if code := exitCode(run(&stdout, &stderr, args), &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "usage: app <command>") {
			t.Errorf("%v: exit %d, stdout %q", args, code, stdout.String())
		}
	}
	// A flag the command does not have is still an error (exit 2).
	var stdout, stderr bytes.Buffer
	if code := exitCode(run(&stdout, &stderr, []string{"static", "-frobnicate"}), &stderr); code != 2 || stdout.Len() != 0 {
		t.Errorf("static -frobnicate: exit %d, stdout %q", code, stdout.String())
	}
}
