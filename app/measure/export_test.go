package measure

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"omission/sim"
)

// run simulates a query.
func run(t testing.TB, q string) *sim.Result {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exported caches each query's run and set: several tests read them and
// none changes them.
var exported sync.Map // query -> *exportedRun

type exportedRun struct {
	once sync.Once
	res  *sim.Result
	set  *Set
	err  error
}

func exportSet(t testing.TB, q string) (*sim.Result, *Set) {
	t.Helper()
	v, _ := exported.LoadOrStore(q, &exportedRun{})
	e := v.(*exportedRun)
	e.once.Do(func() {
		cfg, err := sim.ParseQuery(q)
		if err == nil {
			e.res, err = sim.Run(cfg)
		}
		if err == nil {
			e.set, err = FromResult(e.res)
		}
		e.err = err
	})
	if e.err != nil {
		t.Fatal(e.err)
	}
	return e.res, e.set
}

// queries the export tests run: exact fast-path runs of three presets, a
// run beyond ExactSamples (exact counted runs, no per-request data) and an
// event-engine run.
var exportQueries = []string{"duration=2s", "preset=tcp&duration=6s", "preset=clients10&duration=35s", "rate=200000&duration=15s&stall=20ms&every=500ms&first=250ms&service=2us", "arrivals=poisson&duration=2s&seed=7"}

// TestExportCounts: every exported recording holds the model's count, and
// its percentiles are the model's within the histogram's precision (the
// bucket holding the exact value).
func TestExportCounts(t *testing.T) {
	for _, q := range exportQueries {
		res, set := exportSet(t, q)
		for _, k := range sim.Kinds() {
			rec := &res.Recordings[k]
			src := set.Source(k.String())
			if src == nil || src.Hist.TotalCount() != rec.Count || src.Count != rec.Count {
				t.Fatalf("%s %s: count %d/%d, model %d", q, k, src.Hist.TotalCount(), src.Count, rec.Count)
			}
			if rec.Count == 0 {
				continue
			}
			for i, p := range sim.Percentiles() {
				got := src.Hist.ValueAtQuantile(float64(p.PPM) / 1e4)
				if !src.Hist.ValuesAreEquivalent(got, rec.P[i]) && res.Config.Rank == sim.RankRound {
					t.Errorf("%s %s %s: histogram %d, model %d (not in the same bucket)", q, k, p.Name, got, rec.P[i])
				}
			}
			if !src.Hist.ValuesAreEquivalent(src.Hist.Max(), rec.Max) {
				t.Errorf("%s %s: max %d, model %d", q, k, src.Hist.Max(), rec.Max)
			}
		}
		// Per-request data: a run of the fast path up to ExactSamples (a
		// longer one is exact too, as counted runs).
		if set.PerRequest() != (res.Engine == nil && res.Clients[sim.ClosedClient].Done != nil) {
			t.Errorf("%s: per-request %v, exact %v engine %v", q, set.PerRequest(), res.Exact, res.Engine != nil)
		}
	}
}

// javaJar is Debian's libhdrhistogram-java.
const javaJar = "/usr/share/java/hdrhistogram.jar"

// needJava skips a test when java or the HdrHistogram jar is missing.
func needJava(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed (apt-get install default-jre-headless libhdrhistogram-java): the Java comparison is skipped")
	}
	if _, err := os.Stat(javaJar); err != nil {
		t.Skip(javaJar + " is missing (apt-get install libhdrhistogram-java): the Java comparison is skipped")
	}
}

// javaOut runs testdata/java/HgrmOut.java.
func javaOut(t *testing.T, mode string, highest int64, input string) string {
	t.Helper()
	cmd := exec.Command("java", "-cp", javaJar, filepath.Join("testdata", "java", "HgrmOut.java"), mode, strconv.FormatInt(highest, 10))
	cmd.Stdin = strings.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v: %s", err, stderr.String())
	}
	return string(out)
}

// bars writes a histogram's counts as "value count" lines.
func bars(h *hdrhistogram.Histogram) string {
	var b strings.Builder
	for _, x := range h.Distribution() {
		if x.Count > 0 {
			fmt.Fprintf(&b, "%d %d\n", x.From, x.Count)
		}
	}
	return b.String()
}

// TestHgrmMatchesJava: WriteHgrm prints what Java HdrHistogram's
// outputPercentileDistribution prints for the same counts, byte for byte.
func TestHgrmMatchesJava(t *testing.T) {
	needJava(t)
	var input strings.Builder
	var want []string
	var highest int64
	for _, q := range exportQueries {
		_, set := exportSet(t, q)
		for _, src := range set.Sources {
			if highest == 0 {
				highest = src.Hist.HighestTrackableValue()
			}
			if src.Hist.HighestTrackableValue() != highest {
				t.Fatalf("%s %s: highest %d, not %d", q, src.Name, src.Hist.HighestTrackableValue(), highest)
			}
			input.WriteString(bars(src.Hist) + "#end\n")
			var b bytes.Buffer
			if err := WriteHgrm(&b, src.Hist); err != nil {
				t.Fatal(err)
			}
			want = append(want, q+" "+src.Name+"\n"+b.String())
		}
	}
	got := strings.Split(javaOut(t, "hgrm", highest, input.String()), "#end\n")
	if len(got) != len(want)+1 {
		t.Fatalf("java printed %d distributions, want %d", len(got)-1, len(want))
	}
	for i, w := range want {
		name, body, _ := strings.Cut(w, "\n")
		if got[i] != body {
			t.Errorf("%s: differs from Java's outputPercentileDistribution:\n%s", name, firstDiff(got[i], body))
		}
	}
}

func firstDiff(java, ours string) string {
	a, b := strings.Split(java, "\n"), strings.Split(ours, "\n")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d\n java: %q\n ours: %q", i+1, x, y)
		}
	}
	return ""
}

// plainHgrm is an independent reader of the Java layout: rows of value (ms),
// percentile, total count and 1/(1-percentile), the last row without the
// last, then the footer.
type plainRow struct {
	ms    float64
	pct   float64
	count int64
}

func plainHgrm(t *testing.T, text string) (rows []plainRow, footer map[string]float64) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	footer = map[string]float64{}
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		switch {
		case n == 1:
			if strings.Join(strings.Fields(l), " ") != "Value Percentile TotalCount 1/(1-Percentile)" {
				t.Fatalf("header %q", l)
			}
		case l == "":
		case strings.HasPrefix(l, "#["):
			for _, kv := range strings.Split(strings.Trim(l, "#[]"), ",") {
				k, v, _ := strings.Cut(kv, "=")
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					t.Fatalf("footer %q", l)
				}
				footer[strings.TrimSpace(k)] = f
			}
		default:
			f := strings.Fields(l)
			if len(f) != 4 && len(f) != 3 {
				t.Fatalf("row %q", l)
			}
			ms, _ := strconv.ParseFloat(f[0], 64)
			p, _ := strconv.ParseFloat(f[1], 64)
			c, _ := strconv.ParseInt(f[2], 10, 64)
			rows = append(rows, plainRow{ms, p, c})
		}
	}
	return rows, footer
}

// TestHgrmPlainReader: a plain reader of the Java layout finds the model's
// count in the footer and the last row, every row's total count equal to
// the model's samples at or below its value (to the printed µs), and each
// percentile of the model between the rows around its rank.
func TestHgrmPlainReader(t *testing.T) {
	for _, q := range exportQueries {
		res, set := exportSet(t, q)
		for _, k := range sim.Kinds() {
			rec := &res.Recordings[k]
			var b bytes.Buffer
			if err := WriteHgrm(&b, set.Source(k.String()).Hist); err != nil {
				t.Fatal(err)
			}
			rows, footer := plainHgrm(t, b.String())
			if rec.Count == 0 {
				continue
			}
			if int64(footer["Total count"]) != rec.Count || rows[len(rows)-1].count != rec.Count || rows[len(rows)-1].pct != 1 {
				t.Errorf("%s %s: footer count %v, last row %+v, model %d", q, k, footer["Total count"], rows[len(rows)-1], rec.Count)
			}
			mx := footer["Max"] * 1e6
			if mx < float64(rec.Max)-500 || mx > float64(rec.Max)*1.001+500 {
				t.Errorf("%s %s: footer max %v ms, model %d ns", q, k, footer["Max"], rec.Max)
			}
			d := rec.Dist
			for _, r := range rows {
				v := int64(r.ms*1e6 + 0.5)
				lo, hi := d.CountAtOrBelow(v-500), d.CountAtOrBelow(v+500)
				if r.count < lo || r.count > hi {
					t.Errorf("%s %s: row %.3f ms counts %d; the model has %d to %d samples at or below it", q, k, r.ms, r.count, lo, hi)
				}
			}
			for i, p := range sim.Percentiles() {
				rank := sim.RankOf(p.PPM, rec.Count, sim.RankRound)
				j := slices.IndexFunc(rows, func(r plainRow) bool { return r.count >= rank })
				upper := rows[j].ms*1e6 + 500
				lower := -1.0
				if j > 0 {
					lower = rows[j-1].ms*1e6 - 500
				}
				if exact := float64(rec.P[i]); exact > upper || exact < lower {
					t.Errorf("%s %s %s: model %d ns outside the rows' [%.0f, %.0f]", q, k, p.Name, rec.P[i], lower, upper)
				}
			}
		}
	}
}

// TestHlogHdrHistogramGo: hdrhistogram-go's own reader reads the exported
// log: every tag's intervals add up to the model's count, intervals are in
// order and one second long (for a per-request run).
func TestHlogHdrHistogramGo(t *testing.T) {
	for _, q := range exportQueries {
		res, set := exportSet(t, q)
		var b bytes.Buffer
		if err := set.WriteHlog(&b); err != nil {
			t.Fatal(err)
		}
		r := hdrhistogram.NewHistogramLogReader(&b)
		counts := map[string]int64{}
		lines := 0
		for {
			h, err := r.NextIntervalHistogram()
			if err != nil {
				t.Fatal(err)
			}
			if h == nil {
				break
			}
			lines++
			counts[h.Tag()] += h.TotalCount()
			if set.PerRequest() && h.EndTimeMs()-h.StartTimeMs() != 1000 {
				t.Errorf("%s: interval %d-%d ms", q, h.StartTimeMs(), h.EndTimeMs())
			}
		}
		for _, k := range sim.Kinds() {
			if counts[k.String()] != res.Recordings[k].Count {
				t.Errorf("%s %s: the log holds %d samples, the model %d", q, k, counts[k.String()], res.Recordings[k].Count)
			}
		}
		want := 5
		if set.PerRequest() {
			want = 5 * int(set.Span/1e9+1)
		}
		if lines != want {
			t.Errorf("%s: %d interval lines, want %d", q, lines, want)
		}
	}
}

// npmDir is where the tests install hdr-histogram-js (gitignored).
func npmDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "test-output", "npm")
}

// needHdrJS installs hdr-histogram-js into test-output/npm when node and
// npm are there, or skips.
func needHdrJS(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (apt-get install nodejs): the HdrHistogramJS check is skipped")
	}
	dir := npmDir(t)
	mod := filepath.Join(dir, "node_modules", "hdr-histogram-js")
	if _, err := os.Stat(mod); err == nil {
		return filepath.Join(dir, "node_modules")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: cannot install hdr-histogram-js, the HdrHistogramJS check is skipped")
	}
	os.MkdirAll(dir, 0o755)
	cmd := exec.Command("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", dir, "hdr-histogram-js@3.0.1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install hdr-histogram-js failed (%v): the HdrHistogramJS check is skipped\n%s", err, out)
	}
	return filepath.Join(dir, "node_modules")
}

// TestHlogHdrHistogramJS: HdrHistogramJS's HistogramLogReader reads the
// exported log; per tag its intervals add up to the model's count, and the
// percentiles it computes (Java's rank, ceil) are the model's within the
// histogram's precision.
func TestHlogHdrHistogramJS(t *testing.T) {
	nodePath := needHdrJS(t)
	for _, q := range exportQueries {
		res, set := exportSet(t, q)
		var b bytes.Buffer
		if err := set.WriteHlog(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "run.hlog")
		os.WriteFile(path, b.Bytes(), 0o644)
		cmd := exec.Command("node", filepath.Join("testdata", "js", "read_hlog.js"), path)
		cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: node: %v\n%s", q, err, out)
		}
		got := map[string][]int64{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(l)
			for _, x := range f[1:] {
				v, _ := strconv.ParseInt(x, 10, 64)
				got[f[0]] = append(got[f[0]], v)
			}
		}
		for _, k := range sim.Kinds() {
			rec := &res.Recordings[k]
			g := got[k.String()]
			if len(g) != 7 || g[0] != rec.Count {
				t.Errorf("%s %s: HdrHistogramJS read %v, the model has %d samples", q, k, g, rec.Count)
				continue
			}
			h := set.Source(k.String()).Hist
			for i, p := range sim.Percentiles() {
				exact := rec.Dist.Percentile(p.PPM, sim.RankCeil)
				if !h.ValuesAreEquivalent(g[1+i], exact) {
					t.Errorf("%s %s %s: HdrHistogramJS %d, model (ceil rank) %d", q, k, p.Name, g[1+i], exact)
				}
			}
			if !h.ValuesAreEquivalent(g[6], rec.Max) {
				t.Errorf("%s %s max: HdrHistogramJS %d, model %d", q, k, g[6], rec.Max)
			}
		}
	}
}

// TestCSVSamples: the per-sample CSV holds every sample of the model: its
// exact percentiles and maxima are the model's.
func TestCSVSamples(t *testing.T) {
	for _, q := range exportQueries[:3] {
		res, set := exportSet(t, q)
		var b bytes.Buffer
		if err := set.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != CSVSamplesHeader {
			t.Fatalf("%s: header %v", q, rows[0])
		}
		vals := map[string][]int64{}
		for _, r := range rows[1:] {
			v, _ := strconv.ParseInt(r[2], 10, 64)
			vals[r[0]] = append(vals[r[0]], v)
		}
		for _, k := range sim.Kinds() {
			rec := &res.Recordings[k]
			v := vals[k.String()]
			slices.Sort(v)
			if int64(len(v)) != rec.Count {
				t.Fatalf("%s %s: %d rows, model %d", q, k, len(v), rec.Count)
			}
			for i, p := range sim.Percentiles() {
				if got := v[sim.RankOf(p.PPM, rec.Count, res.Config.Rank)-1]; got != rec.P[i] {
					t.Errorf("%s %s %s: csv %d, model %d", q, k, p.Name, got, rec.P[i])
				}
			}
			if v[len(v)-1] != rec.Max {
				t.Errorf("%s %s max: csv %d, model %d", q, k, v[len(v)-1], rec.Max)
			}
		}
	}
	// Without per-request data: one row per recording over the run.
	_, set := exportSet(t, exportQueries[3])
	var b bytes.Buffer
	set.WriteCSV(&b)
	rows, _ := csv.NewReader(&b).ReadAll()
	if strings.Join(rows[0], ",") != CSVIntervalsHeader || len(rows) != 6 {
		t.Errorf("histogram run: %d rows, header %v", len(rows), rows[0])
	}
	// A per-request run over the bound given: per-interval percentiles, one
	// row per recording and second of the 2 s run (3 intervals: 0, 1, 2 s).
	_, small := exportSet(t, exportQueries[0])
	if !small.CSVSamples(small.rows()) || small.CSVSamples(small.rows()-1) {
		t.Errorf("CSVSamples at the bound: %v, below it: %v", small.CSVSamples(small.rows()), small.CSVSamples(small.rows()-1))
	}
	b.Reset()
	if err := small.WriteCSVWithin(&b, small.rows()-1); err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(&b).ReadAll()
	if strings.Join(rows[0], ",") != CSVIntervalsHeader || len(rows) != 1+5*3 {
		t.Errorf("over the bound: %d rows, header %v", len(rows), rows[0])
	}
}

func TestJavaFixed(t *testing.T) {
	for _, c := range []struct {
		x    float64
		prec int
		want string
	}{
		{0.0625, 3, "0.063"}, {0.125, 2, "0.13"}, {2.5, 0, "3"}, {0, 3, "0.000"}, {1e-7, 3, "0.000"},
		{123456.7895, 3, "123456.790"}, {9.9995, 3, "10.000"}, {0.999023437500, 12, "0.999023437500"},
		{1.0 / 3, 2, "0.33"}, {5120, 2, "5120.00"}, {0.55, 12, "0.550000000000"}, {1e21, 2, "1000000000000000000000.00"},
	} {
		if got := javaFixed(c.x, c.prec); got != c.want {
			t.Errorf("javaFixed(%v, %d) = %q, want %q", c.x, c.prec, got, c.want)
		}
	}
}

// TestFileName: a download is named after its run (preset and hash), with
// nothing but letters, digits, '-' and the format's dot, whatever it is
// given.
func TestFileName(t *testing.T) {
	for _, c := range []struct{ run, format, recording, want string }{
		{RunName("", "0123456789abcdef"), "hgrm", "open", "omission-bench-01234567-open.hgrm"},
		{RunName("tcp", "fedcba9876543210"), "hlog", "", "omission-tcp-fedcba98.hlog"},
		{RunName("note60-single", "ab"), "csv", "", "omission-note60-single-ab.csv"},
		{RunName("../x y", "12/34<56>78\"90ab"), "hgrm", "a/../b", "omission-xy-12345678-ab.hgrm"},
		{"", "csv", "", "omission.csv"},
	} {
		if got := FileName(c.run, c.format, c.recording); got != c.want {
			t.Errorf("FileName(%q, %q, %q) = %q, want %q", c.run, c.format, c.recording, got, c.want)
		}
	}
}
