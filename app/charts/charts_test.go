package charts

import (
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"omission/app/units"
	"omission/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.svg from the current output")

var (
	benchOnce sync.Once
	benchRes  *sim.Result
)

// bench returns the bench preset's result, computed once.
func bench(t testing.TB) *sim.Result {
	benchOnce.Do(func() { benchRes = run(t, "preset=bench") })
	return benchRes
}

func run(t testing.TB, q string) *sim.Result {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", q, err)
	}
	return res
}

func render(t testing.TB, res *sim.Result, k Kind, o Options) *Chart {
	t.Helper()
	ch, err := Render(res, k, o)
	if err != nil {
		t.Fatalf("Render(%s): %v", k, err)
	}
	return ch
}

// TestGolden pins every chart of the bench preset, byte for byte, at the
// default size in both themes and with each toggle. Run with -update to
// regenerate testdata/*.golden.svg after a deliberate change, and look at
// the files before committing them.
func TestGolden(t *testing.T) {
	res := bench(t)
	cases := []struct {
		name string
		kind Kind
		o    Options
	}{
		{"spectrum", Spectrum, Options{}},
		{"spectrum-linear-dark", Spectrum, Options{Y: YLinear, Theme: Dark}},
		{"distribution", Distribution, Options{}},
		{"distribution-cdf", Distribution, Options{CDF: true}},
		{"latency-time", LatencyTime, Options{}},
		{"latency-time-log-dark", LatencyTime, Options{Y: YLog, Theme: Dark}},
		{"queue-depth", QueueDepth, Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(t, res, c.kind, c.o).SVG
			path := filepath.Join("testdata", c.name+".golden.svg")
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
			if got != string(want) {
				t.Errorf("%s differs from %s (%d bytes, want %d): %s; run go test ./app/charts -update if the change is meant",
					c.name, path, len(got), len(want), firstDiff(got, string(want)))
			}
		})
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return "first difference at byte " + itoa(i) + ": got …" + a[lo:min(len(a), i+40)] + "… want …" + b[lo:min(len(b), i+40)] + "…"
}

// options lists every display variant.
var options = []Options{
	{},
	{Theme: Dark},
	{Y: YLog},
	{Y: YLinear, Theme: Dark},
	{CDF: true},
	{CDF: true, Y: YLinear, Width: 300, Height: 200},
	{Width: 1, Height: 1},        // clamped to the minimum
	{Width: 5000, Height: 10000}, // clamped to the maximum
}

// empty is a result whose recordings and clients hold no sample: sim never
// produces one (a run plans at least one request), so it is built by hand.
func empty() *sim.Result {
	res := &sim.Result{Config: sim.Default(), Exact: true}
	res.Query = res.Config.Query()
	for _, k := range sim.Kinds() {
		res.Recordings[k] = sim.Recording{Kind: k, Dist: &sim.Dist{}}
	}
	for c := range res.Clients {
		res.Clients[c] = sim.ClientRun{Client: sim.Client(c), Done: []int64{}}
		if sim.Client(c) != sim.OpenClient {
			res.Clients[c].Send = []int64{}
		}
	}
	return res
}

// TestEdgeCases renders every chart with every option for results that
// break naive plotting: no samples, one sample, every sample equal, every
// sample zero (a log axis panics on zero), one stall longer than the run.
func TestEdgeCases(t *testing.T) {
	cases := map[string]*sim.Result{
		"empty":      empty(),
		"one-sample": run(t, "duration=1ns"),
		"all-equal":  run(t, "stall=0s&duration=1s"),
		"all-zero":   run(t, "stall=0s&service=0s&duration=100ms"),
		"huge-stall": run(t, "stall=5s&every=0s&first=0s&duration=1s"),
		"few":        run(t, "rate=1&duration=3s&stall=500ms&every=0s&first=0s"),
		// The event engine: random arrivals and service, a full queue, a
		// timeout and an outage leave requests without a reply.
		"engine":      run(t, "arrivals=poisson&service=100us&timeout=50ms&queue=500&outages=1s-1300ms&duration=2s&conns=2&rank=ceil"),
		"engine-tiny": run(t, "rate=1000&service=1500us&queue=1&timeout=2ms&outages=4ms-6ms&stall=0&duration=12ms&conns=2"),
	}
	for name, res := range cases {
		for _, k := range Kinds() {
			for _, o := range options {
				ch, err := Render(res, k, o)
				if err != nil {
					t.Errorf("%s %s %+v: %v", name, k, o, err)
					continue
				}
				checkChart(t, name, ch)
			}
		}
	}
	one := cases["one-sample"]
	for _, k := range sim.Kinds() {
		if n := one.Recordings[k].Count; n != 1 {
			t.Errorf("one-sample: %s has %d samples, want 1", k, n)
		}
	}
	eq := cases["all-equal"].Recordings[sim.Open].Dist
	if eq.ValueAtRank(1) != eq.Max() || eq.Count() < 2 {
		t.Errorf("all-equal: open samples range %d..%d", eq.ValueAtRank(1), eq.Max())
	}
	if z := cases["all-zero"].Recordings[sim.Open].Max; z != 0 {
		t.Errorf("all-zero: open max %d, want 0", z)
	}
}

// checkChart checks what every chart promises: one well-formed <svg>
// element of the stated size with a title and the chosen font stack, a
// caption, and a rectangular table.
func checkChart(t *testing.T, name string, ch *Chart) {
	t.Helper()
	where := name + " " + ch.Kind.String()
	if !strings.HasPrefix(ch.SVG, "<svg ") || !strings.HasSuffix(ch.SVG, "</svg>\n") {
		t.Errorf("%s: SVG is not a single <svg> element: %.60q … %q", where, ch.SVG, ch.SVG[max(0, len(ch.SVG)-20):])
	}
	if err := wellFormed(ch.SVG); err != nil {
		t.Errorf("%s: SVG is not well-formed XML: %v", where, err)
	}
	size := fmt.Sprintf(`width="%d" height="%d" viewBox="0 0 %d %d"`, ch.Width, ch.Height, ch.Width, ch.Height)
	if !strings.Contains(ch.SVG, size) {
		t.Errorf("%s: SVG lacks %s", where, size)
	}
	minH := MinHeight
	if ch.Kind == LatencyTime || ch.Kind == QueueDepth {
		minH = MinStackHeight
	}
	if ch.Width < MinWidth || ch.Width > MaxWidth || ch.Height < minH || ch.Height > MaxHeight {
		t.Errorf("%s: size %d×%d outside the limits", where, ch.Width, ch.Height)
	}
	if !strings.Contains(ch.SVG, "<title>"+ch.Kind.Title()+"</title>") {
		t.Errorf("%s: SVG has no <title>", where)
	}
	if strings.Count(ch.SVG, "font-family:") != strings.Count(ch.SVG, "font-family:"+FontFamily+";") {
		t.Errorf("%s: a text names a font family other than %s", where, FontFamily)
	}
	checkGlyphs(t, where, ch.SVG)
	if ch.Caption == "" || strings.Contains(ch.Caption, "NaN") || strings.Contains(ch.Caption, "Inf") {
		t.Errorf("%s: caption %q", where, ch.Caption)
	}
	if strings.Contains(ch.SVG, "NaN") || strings.Contains(ch.SVG, "Inf") {
		t.Errorf("%s: SVG holds NaN or Inf", where)
	}
	if ch.Available {
		if len(ch.Table.Header) < 2 {
			t.Errorf("%s: table header %q", where, ch.Table.Header)
		}
		for i, row := range ch.Table.Rows {
			if len(row) != len(ch.Table.Header) {
				t.Errorf("%s: table row %d has %d cells, header %d", where, i, len(row), len(ch.Table.Header))
			}
		}
	}
}

// wellFormed reads s as XML to the end.
func wellFormed(s string) error {
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// TestBenchCharts checks the four bench charts' captions (their key
// numbers), tables and markers.
func TestBenchCharts(t *testing.T) {
	res := bench(t)
	charts, err := RenderAll(res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[Kind]*Chart{}
	for _, ch := range charts {
		checkChart(t, "bench", ch)
		if !ch.Available || len(ch.Table.Rows) == 0 {
			t.Errorf("%s: available %v, %d table rows", ch.Kind, ch.Available, len(ch.Table.Rows))
		}
		by[ch.Kind] = ch
	}
	rec := func(k sim.Kind) *sim.Recording { return &res.Recordings[k] }
	want := map[Kind][]string{
		Spectrum: {
			"p99: ", "p99.99: ", "open " + units.Duration(rec(sim.Open).P[2]),
			"closed " + units.Duration(rec(sim.Closed).P[4]), "corrected " + units.Duration(rec(sim.Corrected).Max),
		},
		Distribution: {
			"Median: closed " + units.Duration(rec(sim.Closed).P[0]),
			"open " + units.Share(rec(sim.Open).Share()) + " (" + units.Count(rec(sim.Open).Above) + ")",
			"Above 1 ms",
		},
		LatencyTime: {"20 stalls of 200 ms shaded", "closed " + units.Duration(rec(sim.Closed).Max) + " at ",
			"open " + units.Count(rec(sim.Open).Above) + " of 100,000"},
		QueueDepth: {"closed: at most 1 sent and unanswered", "paced: at most 1 sent", "open: at most 1,00"},
	}
	for k, subs := range want {
		for _, s := range subs {
			if !strings.Contains(by[k].Caption, s) {
				t.Errorf("%s caption lacks %q:\n%s", k, s, by[k].Caption)
			}
		}
	}
	// The spectrum's table repeats the recordings' numbers.
	tab := by[Spectrum].Table
	if got, want := tab.Rows[2][3], units.Duration(rec(sim.Open).P[2]); tab.Rows[2][0] != "p99" || got != want {
		t.Errorf("spectrum table p99 open = %q (row %q), want %q", got, tab.Rows[2][0], want)
	}
	// The bench queue: the open loop's backlog is the stall's worth of
	// requests (200 ms at 5000/s), and the closed loop never has more
	// than its one connection outstanding.
	if !strings.Contains(by[QueueDepth].Caption, "open: at most 1,00") {
		t.Errorf("queue caption: %s", by[QueueDepth].Caption)
	}
	if t.Failed() {
		for _, ch := range charts {
			t.Logf("%s: %s", ch.Kind, ch.Caption)
		}
	}
}

// TestMarkers checks that the spectrum exposes a marker for every
// percentile of every recording, where it drew it, with its check's id.
func TestMarkers(t *testing.T) {
	res := bench(t)
	ch := render(t, res, Spectrum, Options{})
	if len(ch.Markers) != len(sim.Kinds())*sim.NumPercentiles {
		t.Fatalf("%d markers, want %d", len(ch.Markers), len(sim.Kinds())*sim.NumPercentiles)
	}
	last := map[sim.Kind]Marker{}
	for i, m := range ch.Markers {
		k, pc := m.Recording, sim.Percentiles()[i%sim.NumPercentiles]
		if m.Percentile != pc.Name || m.Value != res.Recordings[k].P[i%sim.NumPercentiles] {
			t.Errorf("marker %d: %+v, want %s at %d", i, m, pc.Name, res.Recordings[k].P[i%sim.NumPercentiles])
		}
		if m.Check != k.String()+"."+pc.Name || m.HasCheck != (res.CheckFor(m.Check) != nil) {
			t.Errorf("marker %d: check %q (has %v)", i, m.Check, m.HasCheck)
		}
		if m.X < 0 || m.X > float64(ch.Width) || m.Y < 0 || m.Y > float64(ch.Height) {
			t.Errorf("marker %d at (%g, %g) is outside the chart", i, m.X, m.Y)
		}
		if p, ok := last[k]; ok && (m.X <= p.X || (m.Value > p.Value) != (m.Y < p.Y)) {
			t.Errorf("marker %d (%+v) is not right of / above %+v", i, m, p)
		}
		last[k] = m
		// The glyph is in the SVG at that place (gonum's y grows upwards).
		if k == sim.Closed {
			at := fmt.Sprintf("M%.5g,%.5g", m.X+3.5, float64(ch.Height)-m.Y)
			if !strings.Contains(ch.SVG, at) {
				t.Errorf("marker %d: no circle drawn at %s", i, at)
			}
		}
	}
	has := 0
	for _, m := range ch.Markers {
		if m.HasCheck {
			has++
		}
	}
	if has == 0 {
		t.Errorf("no marker has a check on the bench preset")
	}
}

// TestSpectrumChanges checks that a parameter change shows in the
// spectrum, and that the same result draws the same bytes.
func TestSpectrumChanges(t *testing.T) {
	a := render(t, bench(t), Spectrum, Options{})
	again := render(t, bench(t), Spectrum, Options{})
	if a.SVG != again.SVG {
		t.Errorf("two renders of one result differ")
	}
	for _, q := range []string{"preset=bench&stall=100ms", "preset=bench&rate=2000"} {
		b := render(t, run(t, q), Spectrum, Options{})
		if a.SVG == b.SVG {
			t.Errorf("%s: the spectrum did not change", q)
		}
		if a.Caption == b.Caption {
			t.Errorf("%s: the caption did not change", q)
		}
	}
}

// TestUnavailable checks the placeholder of the time series when the run
// kept no per-request data, and that the other two charts still draw.
func TestUnavailable(t *testing.T) {
	res := *bench(t)
	res.Exact = false
	res.Planned = 3_000_000
	for c := range res.Clients {
		res.Clients[c].Send, res.Clients[c].Done = nil, nil
	}
	for _, k := range Kinds() {
		ch := render(t, &res, k, Options{})
		checkChart(t, "no per-request data", ch)
		needs := k == LatencyTime || k == QueueDepth
		if ch.Available == needs {
			t.Errorf("%s: available %v", k, ch.Available)
		}
		if needs {
			for _, s := range []string{"not available beyond 2,000,000 samples", "3,000,000"} {
				if !strings.Contains(ch.Caption, s) || !strings.Contains(ch.SVG, s) {
					t.Errorf("%s: caption or SVG lacks %q: %s", k, s, ch.Caption)
				}
			}
		}
	}
}

// TestHistogramMode renders the spectrum and distribution of an event-driven
// run beyond the exact bound, whose recordings are hdrhistogram-go
// histograms.
func TestHistogramMode(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2.2M-request run")
	}
	res := run(t, "arrivals=poisson&rate=200000&service=2us&stall=0&duration=11s")
	if res.Exact || res.Recordings[sim.Open].Dist.Histogram() == nil {
		t.Fatalf("expected a histogram-mode run")
	}
	for _, k := range Kinds() {
		for _, o := range []Options{{}, {CDF: true}} {
			checkChart(t, "histogram mode", render(t, res, k, o))
		}
	}
}

// TestLongRun renders the spectrum and distribution of a deterministic run
// beyond the exact bound: its recordings are exact counted runs, and it
// keeps no per-request data.
func TestLongRun(t *testing.T) {
	res := run(t, "rate=200000&service=2us&stall=20ms&every=1s&first=500ms&duration=1h")
	if !res.Exact || res.Recordings[sim.Open].Dist.Histogram() != nil || res.Clients[sim.OpenClient].Done != nil {
		t.Fatalf("expected an exact long run")
	}
	for _, k := range []Kind{Spectrum, Distribution} {
		for _, o := range []Options{{}, {CDF: true}} {
			checkChart(t, "long run", render(t, res, k, o))
		}
	}
}

// TestConcurrent renders from several goroutines at once (run with -race):
// Render shares no mutable state.
func TestConcurrent(t *testing.T) {
	res := bench(t)
	want := make(map[Kind]string)
	for _, k := range Kinds() {
		want[k] = render(t, res, k, Options{}).SVG
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(k Kind) {
			defer wg.Done()
			ch, err := Render(res, k, Options{})
			if err != nil || ch.SVG != want[k] {
				t.Errorf("%s: concurrent render differs (err %v)", k, err)
			}
		}(Kinds()[i%len(Kinds())])
	}
	wg.Wait()
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render(nil, Spectrum, Options{}); err != ErrNoResult {
		t.Errorf("nil result: %v", err)
	}
	if _, err := Render(bench(t), Kind(9), Options{}); err == nil {
		t.Errorf("unknown kind: no error")
	}
	for _, k := range Kinds() {
		if got, ok := ParseKind(k.String()); !ok || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, ok)
		}
	}
	if _, ok := ParseKind("pie"); ok {
		t.Errorf("ParseKind(pie) ok")
	}
}

// TestEngine checks the time series of an event-engine run: requests are
// placed at the engine's own due times, the ones without a reply are left
// out and counted, and outages are shaded.
func TestEngine(t *testing.T) {
	res := run(t, "arrivals=poisson&service=100us&timeout=50ms&queue=500&outages=1s-1300ms&duration=2s&conns=2&rank=ceil")
	if res.Engine == nil || res.Engine.Due == nil {
		t.Fatal("not an exact event-engine run")
	}
	lt := render(t, res, LatencyTime, Options{})
	if !strings.Contains(lt.Caption, "no reply") {
		t.Errorf("latency caption does not count the requests without a reply: %s", lt.Caption)
	}
	for _, ch := range []*Chart{lt, render(t, res, QueueDepth, Options{})} {
		if !strings.Contains(ch.SVG, ">outage</text>") {
			t.Errorf("%s: no outage in the legend", ch.Kind)
		}
	}
	checkScan(t, res)
	checkScan(t, bench(t))
}

// TestSlowdownShaded: slowdown windows are shaded in the latency and queue
// charts, named in the legend with their factor and in the captions.
func TestSlowdownShaded(t *testing.T) {
	res := run(t, "rate=1000&service=800us&stall=0s&duration=2s&slow=500ms-800ms@x4")
	for _, k := range []Kind{LatencyTime, QueueDepth} {
		ch := render(t, res, k, Options{})
		if !strings.Contains(ch.SVG, ">slowdown ×4</text>") {
			t.Errorf("%s: no slowdown in the legend", ch.Kind)
		}
		if !strings.Contains(ch.Caption, "slowdown window") {
			t.Errorf("%s: the caption does not say the slowdowns are shaded: %s", ch.Kind, ch.Caption)
		}
	}
	// Two factors: the legend says slowdown alone, the caption each window.
	res = run(t, "rate=1000&service=800us&stall=0s&duration=2s&slow=500ms-800ms@x4,1s-1200ms@x1.5")
	ch := render(t, res, LatencyTime, Options{})
	if !strings.Contains(ch.SVG, ">slowdown</text>") || !strings.Contains(ch.Caption, "×1.5 from 1 s to 1.2 s") {
		t.Errorf("two factors: legend or caption wrong: %s", ch.Caption)
	}
}

// checkScan checks that the requests drawn over time are the recordings'
// samples: as many, with the same largest.
func checkScan(t *testing.T, res *sim.Result) {
	t.Helper()
	for _, k := range measured() {
		rq, ok := requestsOf(res, k)
		if !ok {
			t.Fatalf("%s: no per-request data", k)
		}
		g := newGrid(0, float64(res.Config.Duration), 500)
		bw, nb := timeBuckets(res.Config, res.Config.Duration)
		st := rq.scan(g, newEnvelope(g.n), bw, nb)
		rec := &res.Recordings[k]
		if int64(st.n) != rec.Count || st.max != rec.Max {
			t.Errorf("%s %s: %d drawn up to %d, recording %d up to %d", res.Query, k, st.n, st.max, rec.Count, rec.Max)
		}
	}
}

// TestKindTable checks the table of charts: every Kind has a row with a
// name, a title and a draw function, and no two rows share a name; Kinds
// and SweepKinds part the table.
func TestKindTable(t *testing.T) {
	if len(Kinds())+len(SweepKinds()) != int(numKinds) {
		t.Fatalf("Kinds() has %d charts and SweepKinds() %d, the table %d", len(Kinds()), len(SweepKinds()), numKinds)
	}
	for _, k := range Kinds() {
		if k.DrawsSweep() {
			t.Errorf("%s: a chart of a sweep among Kinds()", k)
		}
	}
	seen := map[string]Kind{}
	for k := Kind(0); k < numKinds; k++ {
		spec := kinds[k]
		if spec.name == "" || spec.title == "" || spec.draw == nil {
			t.Errorf("kind %d: incomplete row %+v", k, spec)
		}
		if prev, dup := seen[spec.name]; dup {
			t.Errorf("kinds %d and %d are both %q", prev, k, spec.name)
		}
		seen[spec.name] = k
		if w, h := DefaultSize(k); spec.stacked && h < MinStackHeight || w < MinWidth {
			t.Errorf("%s: default size %d×%d below its minimum", k, w, h)
		}
	}
}
