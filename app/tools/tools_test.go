package tools

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/sim"
)

var update = flag.Bool("update", false, "rewrite golden files")

func mustConfig(t *testing.T, q string) sim.Config {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestGolden pins every tool's printed text for two runs (testdata/*.golden;
// go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, q := range []struct{ name, query string }{{"bench", ""}, {"clients10", "preset=clients10&duration=12s"}} {
		cfg := mustConfig(t, q.query)
		for _, n := range Names() {
			o, err := Run(cfg, n)
			if err != nil {
				t.Fatalf("%s %s: %v", q.name, n, err)
			}
			got := fmt.Sprintf("$ %s\n%s--- planned %d sent %d recorded %d dropped %d; p50 %d p90 %d p99 %d p99.9 %d p99.99 %d max %d ns\n",
				o.Command, o.Text, o.Planned, o.Sent, o.Recorded, o.Dropped, o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns, o.MaxNs)
			path := filepath.Join("testdata", q.name+"."+n+".golden")
			if *update {
				os.WriteFile(path, []byte(got), 0o644)
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if string(want) != got {
				t.Errorf("%s: differs from %s (go test -update rewrites it):\n%s", n, path, got)
			}
		}
	}
}

// TestWrkClosedForm: on seed 001's tcp run wrk's numbers are arithmetic.
// One connection, 10 µs service, four 500 ms stalls in 20 s: 1 800 000
// requests, the last answered at exactly 20 s (not counted), four of
// 500 010 µs. I = 20 000 000 / 1 799 999 = 11 µs; each slow sample adds
// 500 010 − 11j for j = 1 … ⌈500010/11⌉ − 2 = 45 454.
func TestWrkClosedForm(t *testing.T) {
	cfg := mustConfig(t, "preset=tcp")
	o, err := Run(cfg, "wrk")
	if err != nil {
		t.Fatal(err)
	}
	const fast, slow, v, e, k = int64(1799995), int64(4), int64(500010), int64(11), int64(45454)
	count := fast + slow + slow*k
	if o.Recorded != fast+slow || !strings.Contains(o.Text, "1799999 requests in 20.00s") {
		t.Fatalf("recorded %d\n%s", o.Recorded, o.Text)
	}
	// p99: rank ⌊0.99·count⌋ + 1 lands among the added values, four of each
	// distinct value, the smallest being v − kE.
	rank := count*99/100 + 1
	want := v - k*e + e*((rank-fast-1)/slow)
	if o.P99Ns != want*1000 {
		t.Errorf("p99 %d ns, closed form %d µs", o.P99Ns, want)
	}
	sum := fast*10 + slow*v + slow*(k*v-e*k*(k+1)/2)
	mean := fmt.Sprintf("%.2fms", float64(sum)/float64(count)/1000)
	if !strings.Contains(o.Text, "Latency    "+mean) {
		t.Errorf("mean: want %s in\n%s", mean, o.Text)
	}
	if o.MaxNs != v*1000 || !strings.Contains(o.Text, fmt.Sprintf("99%%  %.2fms", float64(want)/1000)) {
		t.Errorf("max %d\n%s", o.MaxNs, o.Text)
	}
}

// TestWrk2Spectrum: wrk2's README prints, for 39 500 samples, the
// percentile column 0, 0.1, …, 0.5, 0.55, …, 0.999976 then 1.000000 with
// inf, and "Buckets = 27". Other data gives the same
// column, which depends only on hdr_percentile_iter's ticks.
func TestWrk2Spectrum(t *testing.T) {
	us := make([]int64, 39500)
	for i := range us {
		us[i] = int64(1000 + i%1000)
		if i >= 39400 { // the slowest each in a bucket of its own, as in the README's run
			us[i] = int64(100000 + 1000*(i-39400))
		}
	}
	h, err := newCHdr(us)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	h.percentilesPrint(&b, 5, 1000.0)
	var col []string
	for _, l := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(l); len(f) == 4 && !strings.HasPrefix(l, "#") && f[0] != "Value" {
			col = append(col, f[1]+" "+f[3])
		}
	}
	// From the README (https://github.com/giltene/wrk2/blob/44a94c1/README.md, lines 116–194).
	readme := "0.000000 1.00|0.100000 1.11|0.200000 1.25|0.300000 1.43|0.400000 1.67|0.500000 2.00|0.550000 2.22|0.600000 2.50|0.650000 2.86|0.700000 3.33|0.750000 4.00|0.775000 4.44|0.800000 5.00|0.825000 5.71|0.850000 6.67|0.875000 8.00|0.887500 8.89|0.900000 10.00|0.912500 11.43|0.925000 13.33|0.937500 16.00|0.943750 17.78|0.950000 20.00|0.956250 22.86|0.962500 26.67|0.968750 32.00|0.971875 35.56|0.975000 40.00|0.978125 45.71|0.981250 53.33|0.984375 64.00|0.985938 71.11|0.987500 80.00|0.989062 91.43|0.990625 106.67|0.992188 128.00|0.992969 142.22|0.993750 160.00|0.994531 182.86|0.995313 213.33|0.996094 256.00|0.996484 284.44|0.996875 320.00|0.997266 365.71|0.997656 426.67|0.998047 512.00|0.998242 568.89|0.998437 640.00|0.998633 731.43|0.998828 853.33|0.999023 1024.00|0.999121 1137.78|0.999219 1280.00|0.999316 1462.86|0.999414 1706.67|0.999512 2048.00|0.999561 2275.56|0.999609 2560.00|0.999658 2925.71|0.999707 3413.33|0.999756 4096.00|0.999780 4551.11|0.999805 5120.00|0.999829 5851.43|0.999854 6826.67|0.999878 8192.00|0.999890 9102.22|0.999902 10240.00|0.999915 11702.86|0.999927 13653.33|0.999939 16384.00|0.999945 18204.44|0.999951 20480.00|0.999957 23405.71|0.999963 27306.67|0.999969 32768.00|0.999973 36408.89|0.999976 40960.00|1.000000 inf"
	if got := strings.Join(col, "|"); got != readme {
		t.Errorf("percentile column:\n%s\nREADME:\n%s", got, readme)
	}
	if !strings.Contains(b.String(), "#[Buckets =           27, SubBuckets     =         2048]") {
		t.Errorf("footer:\n%s", b.String())
	}
}

// TestK6Formatting checks the JavaScript number rules the legacy summary
// uses: toFixed rounds exact ties up (0.0078125 is one), durations are cut,
// not rounded.
func TestK6Formatting(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{jsToFixed(0.0078125, 6), "0.007813"},
		{jsToFixed(2.5, 0), "3"},
		{jsNumber(8000), "8000"},
		{jsNumber(1.0 / 3), "0.333333"},
		{k6Duration(0.12499), "124.99µs"},
		{k6Duration(200.1), "200.1ms"},
		{k6Duration(0.0005), "500ns"},
		{k6Duration(61500), "1m1s"},
		{k6Duration(1999.999), "1.99s"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestWrkUnits checks wrk's unit formatting and padding (src/units.c,
// print_units).
func TestWrkUnits(t *testing.T) {
	var b strings.Builder
	printUnits(&b, ldInt(100), formatTimeUs, 10)
	printUnits(&b, ldInt(849999), formatTimeUs, 10)
	printUnits(&b, ldInt(850000), formatTimeUs, 10)
	printUnits(&b, ldInt(60000000), formatTimeUs, 10)
	printUnits(&b, ldInt(9170), formatMetric, 9)
	if got, want := b.String(), "  100.00us  850.00ms  850.00ms    1.00m    9.17k "; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if r := wrkRank(99, 100); r != 100 {
		t.Errorf("rank(99, 100) = %d, want 100", r)
	}
	if r := wrkRank(50, 3); r != 2 {
		t.Errorf("rank(50, 3) = %d, want 2", r)
	}
}

// TestInvariants: for every tool on random runs, sent + dropped = planned,
// recorded ≤ sent, and its percentiles never decrease up to its maximum.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 6; n++ { // kept small: make test runs this under -race
		cfg := sim.Default()
		cfg.Rate = []sim.Rate{sim.RateOf(200), sim.RateOf(1000), 333333}[rng.IntN(3)]
		cfg.Service = []int64{50e3, 1e6, 3e6}[rng.IntN(3)]
		cfg.Stall = []int64{0, 30e6, 300e6}[rng.IntN(3)]
		cfg.Every = []int64{0, 1e9}[rng.IntN(2)]
		cfg.First = 400e6
		cfg.Duration = []int64{2e9, 11e9}[rng.IntN(2)]
		cfg.Conns = 1 + rng.IntN(4)
		cfg.Workers = rng.IntN(3)
		if cfg.Validate() != nil {
			continue
		}
		for _, name := range Names() {
			o, err := Run(cfg, name)
			if err != nil {
				t.Fatalf("%s %s: %v", cfg.Query(), name, err)
			}
			p := o.P()
			if o.Sent+o.Dropped != o.Planned || o.Recorded > o.Sent && name != "wrk" {
				t.Errorf("%s %s: planned %d sent %d dropped %d recorded %d", cfg.Query(), name, o.Planned, o.Sent, o.Dropped, o.Recorded)
			}
			for i := 1; i < len(p); i++ {
				if p[i] < p[i-1] {
					t.Errorf("%s %s: percentiles %v decrease", cfg.Query(), name, p)
				}
			}
			// wrk2 prints hdr_max, the lowest value equivalent to the largest,
			// and its percentiles as the highest equivalent: its p99.99 can
			// pass its max (src/hdr_histogram.c 301–314, 335–358). locust's
			// percentiles are its dict's rounded keys, its max the exact
			// value: 146 ms is kept as 150 (locust/stats.py 124–142).
			// Artillery's percentiles are its DDSketch's bins, read back at
			// γ^key·2/(1 + γ), up to 1 % above the values in them, its max
			// the exact value (sketches-js DDSketch.js 79-95).
			if o.Recorded > 0 && o.MaxNs < p[4] && name != "wrk2" && name != "locust" && !strings.HasPrefix(name, "artillery") {
				t.Errorf("%s %s: max %d below p99.99 %d", cfg.Query(), name, o.MaxNs, p[4])
			}
			if o.Text == "" || o.Mechanics == "" || !strings.HasPrefix(o.Source, "https://github.com/") {
				t.Errorf("%s: missing text, mechanics or source", name)
			}
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList("wrk2, wrk,,wrk2")
	if err != nil || fmt.Sprint(got) != "[wrk2 wrk]" {
		t.Errorf("%v %v", got, err)
	}
	if _, err := ParseList("wrk,siege"); err == nil || !strings.Contains(err.Error(), `tools: "siege" is not allowed: allowed wrk, wrk2`) {
		t.Errorf("err %v", err)
	}
}

// TestVariants: on seed 000's bench run the configured E reproduces the
// corrected recording, and the closed loop keeps its schedule outside the
// stalls, so its mean and median send intervals are that E too. Correcting
// the open loop again (double correction) adds samples below its tail and
// moves its percentiles down. A closed loop that cannot keep up (300 µs
// service at 5000/s) sends every 300 µs: its measured E is the service.
func TestVariants(t *testing.T) {
	res, err := sim.Run(sim.Default())
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Variants(res)
	if err != nil {
		t.Fatal(err)
	}
	corr := res.Recordings[sim.Corrected]
	by := map[string]Variant{}
	for _, v := range vs {
		by[v.Name] = v
		t.Logf("%-10s E %8d count %8d p90 %9d→%9d p99 %9d→%9d p99.9 %9d→%9d", v.Name, v.E, v.Count, v.BeforeP90, v.P90, v.BeforeP99, v.P99, v.BeforeP999, v.P999)
	}
	c := by["configured"]
	if c.E != 200e3 || c.Count != corr.Count || c.P90 != corr.P[1] || c.P99 != corr.P[2] || c.P999 != corr.P[3] {
		t.Errorf("configured %+v, corrected recording %+v", c, corr.P)
	}
	if by["mean"].E != 200e3 || by["median"].E != 200e3 {
		t.Errorf("mean %d median %d", by["mean"].E, by["median"].E)
	}
	d := by["double"]
	open := res.Recordings[sim.Open]
	if d.BeforeP99 != open.P[2] || d.Count <= open.Count || d.P90 >= d.BeforeP90 {
		t.Errorf("double %+v", d)
	}
	cfg := sim.Default()
	cfg.Service, cfg.Stall, cfg.Duration = 300e3, 0, 1e9
	res, err = sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	vs, err = Variants(res)
	if err != nil {
		t.Fatal(err)
	}
	if vs[1].E != 300e3 || vs[2].E != 300e3 || vs[0].E != 200e3 {
		t.Errorf("behind schedule: E %d %d %d", vs[0].E, vs[1].E, vs[2].E)
	}
}

// TestLocustRounding works locust's rule by hand on eight response times
// (ms): 0.4 2.5 3.5 99.5 145 146 1050 10500. bucket_response_time keeps
// them as 0 2 4 100 140 150 1000 10000: round() to the ms below 100 ms,
// then to 10, 100 and 1000 ms, ties to even (2.5 → 2, 3.5 → 4, 99.5 → 100,
// 145 → 140, 1050 → 1000, 10500 → 10000). calculate_response_time_percentile
// with n = 8 walks the keys from the top until n − counted ≤ int(8·p):
// p 0.5 → 4 → 140 (8 − 4 counted); 0.66 → 5 → 150; 0.75 → 6 → 1000;
// 0.9 → 7 → 10000; 1.0 → 8 → 10000. median_from_dict: pos (8 − 1)/2 = 3.5
// passes 0, 2 and 4 and stops in 100. (CPython 3.11 on stats.py's own
// functions gives the same.)
func TestLocustRounding(t *testing.T) {
	e := &locustEntry{times: map[int64]int64{}}
	for _, v := range []float64{0.4, 2.5, 3.5, 99.5, 145, 146, 1050, 10500} {
		e.log(v, 0)
	}
	if got := fmt.Sprint(e.times); got != "map[0:1 2:1 4:1 100:1 140:1 150:1 1000:1 10000:1]" {
		t.Errorf("buckets %s", got)
	}
	for _, c := range []struct {
		p    float64
		want int64
	}{{0.5, 140}, {0.66, 150}, {0.75, 1000}, {0.9, 10000}, {1.0, 10000}} {
		if got := locustPercentile(e.times, e.n, c.p); got != c.want {
			t.Errorf("p%g = %d, want %d", c.p, got, c.want)
		}
	}
	if m := e.median(); m != 100 {
		t.Errorf("median %g, want 100", m)
	}
	for _, c := range []struct {
		x    float64
		k    int
		want float64
	}{{155, 1, 160}, {1150, 2, 1200}, {11500, 3, 12000}, {999.9, 1, 1000}, {3432, 2, 3400}, {58760, 3, 59000}} {
		if got := locustRoundDigits(c.x, c.k); got != c.want {
			t.Errorf("round(%g, -%d) = %g, want %g", c.x, c.k, got, c.want)
		}
	}
	var labels []string
	for _, p := range locustPercentiles {
		labels = append(labels, locustReadable(p))
	}
	if got := strings.Join(labels, " "); got != "50% 66% 75% 80% 90% 95% 98% 99% 99.9% 99.99% 100%" {
		t.Errorf("labels %s", got)
	}
}

// TestFortioHistogram works fortio's histogram by hand on latencies of
// 0.5, 1.5, 1.5, 2.5 and 2 ms (buckets of 1 ms, each (prev, value]: 2 ms
// itself is in (1, 2]). Exported: [min 0.5, 1] 20 %, (1, 2] 80 %, (2, max
// 2.5] 100 %. CalcPercentile starts at pp = 100/5 = 20 % (the min):
// p50 = 1 + (50 − 20)/(80 − 20)·1 = 1.5 ms; p90 = 2 + (90 − 80)/(100 −
// 80)·0.5 = 2.25 ms; p99 = 2 + 19/20·0.5 = 2.475 ms; p10 (≤ 20 %) is the
// min, p100 the max. The mean is 1.6 ms, σ = √(15/5 − 1.6²) = √0.44 =
// 0.6633 ms (the squares 0.25 + 2.25 + 2.25 + 6.25 + 4 = 15 ms²).
func TestFortioHistogram(t *testing.T) {
	h := newFortioHist(0, 0.001)
	for _, v := range []float64{0.0005, 0.0015, 0.0015, 0.0025, 0.002} {
		h.record(v)
	}
	var b strings.Builder
	h.print(&b, "Aggregated Function Time", []float64{10, 50, 90, 99})
	want := `Aggregated Function Time : count 5 avg 0.0016 +/- 0.0006633 min 0.0005 max 0.0025 sum 0.008
# range, mid point, percentile, count
>= 0.0005 <= 0.001 , 0.00075 , 20.00, 1
> 0.001 <= 0.002 , 0.0015 , 80.00, 3
> 0.002 <= 0.0025 , 0.00225 , 100.00, 1
# target 10% 0.0005
# target 50% 0.0015
# target 90% 0.00225
# target 99% 0.002475
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if p := h.percentile(100); p != 0.0025 {
		t.Errorf("p100 %g", p)
	}
	// The calls of one goroutine at 1000/s for 10 ms: n = 10, call i at
	// (i + i/9)/1000 s; call 9 at exactly 10 ms.
	if got := []int64{fortioTarget(1, 10, 1000), fortioTarget(9, 10, 1000)}; got[0] != 1111111 || got[1] != 10000000 {
		t.Errorf("targets %v", got)
	}
}
