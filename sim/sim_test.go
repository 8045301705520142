package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func run(t testing.TB, q string) *Result {
	t.Helper()
	cfg, err := ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", q, err)
	}
	return res
}

// TestBenchPreset pins seed 000's published numbers through the report JSON.
func TestBenchPreset(t *testing.T) {
	res := run(t, "preset=bench")
	b, err := json.Marshal(res.Report())
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Recordings map[string]map[string]any
		Clients    map[string]map[string]float64
		Failed     int
		Checks     []Check
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"closed":    {"count": 100000, "p50_ns": 100000, "p90_ns": 100000, "p99_ns": 100000, "p99_9_ns": 100000, "max_ns": 200100000, "above": 20},
		"open":      {"count": 100000, "p50_ns": 100000, "p90_ns": 150100000, "p99_ns": 195100000, "p99_9_ns": 199600000, "max_ns": 200100000, "above": 39820},
		"corrected": {"count": 119980, "p90_ns": 80300000, "p99_ns": 188100000, "p99_9_ns": 198900000, "max_ns": 200100000, "above": 19920},
	}
	for rec, metrics := range want {
		for m, v := range metrics {
			if got := rep.Recordings[rec][m]; got != any(v) {
				t.Errorf("%s.%s = %v, want %v", rec, m, got, v)
			}
		}
	}
	for _, c := range []string{"closed", "open"} {
		if got := rep.Clients[c]["stalls"]; got != 20 {
			t.Errorf("%s stalls = %v, want 20", c, got)
		}
	}
	// Shares as the seed prints them.
	if s := res.Recordings[Open].Share(); fmt.Sprintf("%.4f", 100*s) != "39.8200" {
		t.Errorf("open share above 1ms = %.4f%%, want 39.8200%%", 100*s)
	}
	if s := res.Recordings[Corrected].Share(); fmt.Sprintf("%.4f", 100*s) != "16.6028" {
		t.Errorf("corrected share = %.4f%%, want 16.6028%%", 100*s)
	}
	if rep.Failed != 0 || len(rep.Checks) < 60 {
		t.Errorf("checks: %d failed of %d", rep.Failed, len(rep.Checks))
	}
	if got := res.CheckFor("open.p99"); got == nil || got.Kind != "closed-form" || !got.Pass {
		t.Errorf("open.p99 check = %+v", got)
	}
}

// TestBenchCeil: the nearest-rank rule moves only the corrected p99 and p99.9.
func TestBenchCeil(t *testing.T) {
	round, ceil := run(t, ""), run(t, "rank=ceil")
	for k := range round.Recordings {
		a, b := round.Recordings[k], ceil.Recordings[k]
		for i, p := range percentiles {
			changed := Kind(k) == Corrected && (p.Name == "p99" || p.Name == "p99_9")
			if changed == (a.P[i] == b.P[i]) {
				t.Errorf("%s.%s: round %d, ceil %d (changed: %v)", Kind(k), p.Name, a.P[i], b.P[i], changed)
			}
		}
		if a.Count != b.Count || a.Max != b.Max || a.Above != b.Above || a.Mean != b.Mean {
			t.Errorf("%s: counts or mean moved with the rank rule", Kind(k))
		}
	}
	if c := ceil.Recordings[Corrected]; c.P[2] != 188300000 || c.P[3] != 199100000 {
		t.Errorf("ceil corrected p99, p99.9 = %d, %d; want 188300000, 199100000", c.P[2], c.P[3])
	}
	if p, n := ceil.Passed(); p != n {
		t.Errorf("ceil: %d of %d checks passed", p, n)
	}
}

// TestNote60 holds seed 004's figures to what the simulator computes: they
// hold with enough workers to answer the backlog at once, and not with one.
func TestNote60(t *testing.T) {
	res := run(t, "preset=note60")
	open := res.Recordings[Open]
	near := func(name string, got, want, tol float64) {
		if d := got - want; d > tol || d < -tol {
			t.Errorf("%s = %.0f, want about %.0f (±%.0f)", name, got, want, tol)
		}
	}
	near("note60 open p99", float64(open.P[2]), 400e6, 2e6)
	near("note60 open mean", open.Mean, 9.3e6, 0.1e6)
	near("note60 open p99.9", float64(open.P[3]), 940e6, 2e6)
	if c := res.Recordings[Closed]; c.P[2] != 1e6 || c.P[3] != 1e6 || c.P[4] != 1e6 {
		t.Errorf("note60 closed p99, p99.9, p99.99 = %v, want 1ms", c.P[2:])
	}
	single := run(t, "preset=note60-single")
	so := single.Recordings[Open]
	// With one worker at 100 % utilisation every request from the stall on
	// waits the whole stall: 30000 samples of 1001 ms, none drained.
	if so.Above != 30000 || so.Dist.CountAtOrBelow(1000e6) != 30000 || so.P[2] != 1001e6 {
		t.Errorf("note60-single: open above %d, p99 %d: the backlog should never drain", so.Above, so.P[2])
	}
	if single.Clients[OpenClient].LastCompletion != 61e9 {
		t.Errorf("note60-single: last reply at %d, want 61s (the whole stall carried to the end)", single.Clients[OpenClient].LastCompletion)
	}
}

// TestClients10 checks seed 003's arithmetic: ten connections during a 1 s
// stall give ten slow samples, the open loop a thousand; and its claim that
// the corrected and measured means are equal does not hold.
func TestClients10(t *testing.T) {
	res := run(t, "preset=clients10")
	slowClosed := res.Recordings[Closed].Count - res.Recordings[Closed].Dist.CountAtOrBelow(100e6)
	slowOpen := res.Recordings[Open].Count - res.Recordings[Open].Dist.CountAtOrBelow(10e6)
	if slowClosed != 10 {
		t.Errorf("closed samples over 100ms = %d, want 10 (one per blocked connection)", slowClosed)
	}
	// 1000 slots fall in the stall, and the 9 requests in service when it
	// began (due in the last 10 ms before it, but not the one that completes
	// exactly as it begins) are stretched by it too.
	if slowOpen != 1000+9 {
		t.Errorf("open samples over 10ms = %d, want 1009 (1000 slots in the stall, 9 in service)", slowOpen)
	}
	c, k := res.Recordings[Closed].Mean, res.Recordings[Corrected].Mean
	if c == k {
		t.Errorf("corrected mean equals measured mean (%.0f): the claim would hold", c)
	}
	if !(k > c) {
		t.Errorf("corrected mean %.0f not above measured %.0f", k, c)
	}
}

// TestTCP: seed 001's paced client never sends the slots its stalls covered.
func TestTCP(t *testing.T) {
	res := run(t, "preset=tcp")
	p := res.Clients[PacedClient]
	if p.Planned != 20000 || p.Sent >= p.Planned {
		t.Fatalf("paced planned %d sent %d", p.Planned, p.Sent)
	}
	never := p.Planned - p.Sent
	if never < 1900 || never > 2100 {
		t.Errorf("paced never sent %d, want about 2000 (four 500 ms stalls at 1000/s)", never)
	}
	// The post's estimate is 4 stalls × 400 requests (those due in the first
	// 400 ms of each stall). The queue behind each stall adds a few: request j
	// after a stall waits L + S − j·(T − S), above 100 ms for
	// j < (500.01 − 100) / 0.99, so 405 a stall. The post measured 1608.
	above := run(t, "preset=tcp&above=100ms").Recordings[Open].Above
	if above != 4*405 {
		t.Errorf("open over 100 ms = %d, want 4 × 405", above)
	}
}

// TestPresetsPass: every preset passes every check that applies.
func TestPresetsPass(t *testing.T) {
	for _, p := range Presets() {
		res, err := Run(p.Config)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: %s want %v got %v", p.Name, c.ID, c.Want, c.Got)
			}
		}
		if len(res.Checks) == 0 {
			t.Errorf("%s: no checks", p.Name)
		}
	}
}

// TestGoldenTrace pins the event trace of small runs, every client.
func TestGoldenTrace(t *testing.T) {
	for name, q := range map[string]string{
		"stall":    "rate=1000&service=300us&stall=2500us&every=10ms&first=2ms&duration=20ms",
		"midstall": "rate=1000&service=800us&stall=1500us&every=4ms&first=2300us&duration=12ms",
		"workers":  "rate=3000&service=900us&stall=2ms&every=7ms&first=1ms&duration=10ms&conns=3&workers=2",
	} {
		res := run(t, q)
		var b strings.Builder
		fmt.Fprintf(&b, "query %s\n", res.Query)
		sched := res.Schedule()
		for _, c := range res.Clients {
			fmt.Fprintf(&b, "client %s planned %d sent %d stalls %d last %d\n", c.Client, c.Planned, c.Sent, c.StallsMet, c.LastCompletion)
			for i := range c.Done {
				send := sched.Due(int64(i))
				if c.Send != nil {
					send = c.Send[i]
				}
				fmt.Fprintf(&b, "  %3d due %9d send %9d done %9d latency %9d\n", i, sched.Due(int64(i)), send, c.Done[i], c.Latency(i, sched))
			}
		}
		golden(t, filepath.Join("testdata", "trace_"+name+".golden"), b.String())
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(al), len(bl))
}

// TestGoldenReports pins the whole report of every preset. The same golden
// files are read by the native and the js/wasm test runs, so the two agree.
func TestGoldenReports(t *testing.T) {
	for _, p := range Presets() {
		for _, q := range []string{p.Config.Query(), p.Config.Query() + "&rank=ceil"} {
			cfg, err := ParseQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.MarshalIndent(res.Report(), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			name := p.Name
			if strings.HasSuffix(q, "ceil") {
				name += "_ceil"
			}
			golden(t, filepath.Join("testdata", "report_"+name+".golden.json"), string(b)+"\n")
		}
	}
}

// TestPacedNoDrift: with no stall the paced client keeps the schedule's
// count exactly, even when 1/rate is not a whole number of nanoseconds (a
// rounded slot added again and again would drift).
func TestPacedNoDrift(t *testing.T) {
	for _, q := range []string{"rate=2860411.899&service=100ns&stall=0s&duration=500ms", "rate=3&service=1ms&stall=0s&duration=1h", "rate=7000&stall=0s&service=10us"} {
		res := run(t, q)
		if p := res.Clients[PacedClient]; p.Sent != p.Planned {
			t.Errorf("%s: paced sent %d of %d planned with nothing to delay it", q, p.Sent, p.Planned)
		}
	}
}
