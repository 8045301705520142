package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/app/measure"
	"omission/sim"
)

// samples is where the tools' sample files are kept: with the .hgrm and
// .hlog samples of package measure (testdata/README.md there says how each
// was made; golden files and the page's tests name them there).
var samples = filepath.Join("..", "measure", "testdata")

// TestRealPrintouts reads the real printouts in ../measure/testdata/real (see its
// README.md) and holds what each parser reads to the numbers the file
// prints, read by eye from the file.
func TestRealPrintouts(t *testing.T) {
	ms := int64(1e6)
	for _, c := range []struct {
		file   string
		format measure.Format
		count  int64
		// p50, p90, p99, p99.9 in ns; -1: the file does not print it.
		p   [4]int64
		min int64
		max int64
	}{
		{"ab-c2-t5.txt", FormatAb, 44062, [4]int64{0, 0, 0, -1}, 0, 101 * ms},
		{"hey-c2-z5s.txt", FormatHey, 39193, [4]int64{200_000, 300_000, 400_000, -1}, 100_000, 100_800_000},
		{"hey-c2-q500-z5s.txt", FormatHey, 4454, [4]int64{300_000, 400_000, 1_000_000, -1}, 100_000, 100_500_000},
		{"fortio-qps1000-c2-t5s.txt", FormatFortio, 5000, [4]int64{558_762, 916_764, 997_315, 100 * ms}, 111_438, 100_259_512},
		{"locust-u2-t5s.txt", FormatLocust, 868, [4]int64{1 * ms, 2 * ms, 96 * ms, 100 * ms}, 0, 100 * ms},
		{"vegeta-rate1000-5s.json", FormatVegeta, 5000, [4]int64{286414, 10590796, 91401072, -1}, 141826, 101061729},
		{"wrk2-c2-R1000-d5s.txt", FormatWrk2, 4997, [4]int64{980_000, 12_060_000, 92_540_000, 100_290_000}, 115_000, 102_592_000},
		{"wrk-c2-d5s.txt", FormatWrk, 43306, [4]int64{200_000, 837_000, 90_400_000, -1}, -1, 106_150_000},
		{"bombardier-c2-d5s.txt", FormatBombardier, 98423, [4]int64{60_000, 127_000, 652_000, -1}, -1, 108_110_000},
		{"bombardier-c2-d5s-progress.txt", FormatBombardier, 75148, [4]int64{60_000, 116_000, 1_730_000, -1}, -1, 102_230_000},
		{"bombardier-c2-d5s.json", FormatBombardierJSON, 94753, [4]int64{58_000, 116_000, 712_000, -1}, -1, 101_668_000},
		{"bombardier-rate1000-c2-d5s.txt", FormatBombardier, 4528, [4]int64{225_000, 354_000, 556_000, -1}, -1, 100_770_000},
		{"bombardier-rate1000-c2-d5s.json", FormatBombardierJSON, 4546, [4]int64{223_000, 348_000, 522_000, -1}, -1, 100_618_000},
		{"autocannon-c2-d5.txt", FormatAutocannon, -1, [4]int64{0, -1, 0, -1}, -1, 100 * ms},
		{"autocannon-c2-d5.json", FormatAutocannonJSON, 105783, [4]int64{0, 0, 0, 0}, -1, 102 * ms},
		// -R's correction: 39,794 latencies of 38,682 replies.
		{"autocannon-R8000-c2-d5.txt", FormatAutocannon, -1, [4]int64{0, -1, 62 * ms, -1}, -1, 101 * ms},
		{"autocannon-R8000-c2-d5.json", FormatAutocannonJSON, 39794, [4]int64{0, 0, 61 * ms, 97 * ms}, -1, 101 * ms},
		{"artillery-rate1000-d5.txt", FormatArtillery, 5000, [4]int64{0, -1, 92_800_000, -1}, 0, 105 * ms},
		{"artillery-rate1000-d5.json", FormatArtilleryJSON, 5000, [4]int64{0, 19_900_000, 92_800_000, 100_500_000}, 0, 105 * ms},
		// maxVusers 10: 950 sent, 50 skipped.
		{"artillery-maxvusers10-rate200-d5.txt", FormatArtillery, 950, [4]int64{0, -1, 89_100_000, -1}, 0, 98 * ms},
		{"artillery-maxvusers10-rate200-d5.json", FormatArtilleryJSON, 950, [4]int64{0, 1 * ms, 89_100_000, 98_500_000}, 0, 98 * ms},
		{"jmeter-2.13-t2-d5s.jtl", FormatJTL, 8640, [4]int64{0, 1 * ms, 5 * ms, 101 * ms}, 0, 258 * ms},
		{"jmeter-2.13-t2-d5s-header.jtl", FormatJTL, 13259, [4]int64{0, 1 * ms, 5 * ms, 50 * ms}, 0, 193 * ms},
	} {
		data, err := os.ReadFile(filepath.Join(samples, "real", c.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := measure.Parse(c.file, data)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if f.Format != c.format {
			t.Errorf("%s: format %s, want %s", c.file, f.Format, c.format)
			continue
		}
		d := f.Dists[0]
		if d.Count != c.count {
			t.Errorf("%s: count %d, want %d", c.file, d.Count, c.count)
		}
		for i, want := range c.p {
			got := d.P[i]
			if want < 0 {
				if got.How != measure.Missing && got.How != measure.FromHistogram {
					t.Errorf("%s: %s %v (%s), want missing", c.file, got.Name, got.Ns, got.How)
				}
				continue
			}
			if got.How == measure.Missing || got.Ns != want {
				t.Errorf("%s: %s %d (%s), want %d", c.file, got.Name, got.Ns, got.How, want)
			}
		}
		if d.MinNs != c.min || d.MaxNs != c.max {
			t.Errorf("%s: min %d max %d, want %d and %d", c.file, d.MinNs, d.MaxNs, c.min, c.max)
		}
	}
}

// TestToolTextErrors: a printout cut before its counts names the format
// and what it expected.
func TestToolTextErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"This is ApacheBench, Version 2.3\n", "ApacheBench (ab) output: expected a \"Complete requests: N\" line, found none"},
		{"Response time histogram:\n", "hey output: expected a \"Summary:\" block, found none"},
		{"Response time percentiles (approximated)\n", "locust summary: expected locust's Aggregated rows, found none"},
	} {
		_, err := measure.Parse("x.txt", []byte(c.text))
		if err == nil || err.Error() != "x.txt:1: "+c.want {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// TestToolSamples reads a real file of each tool's in ../measure/testdata
// and checks what it says against the file's own text.
func TestToolSamples(t *testing.T) {
	type want struct {
		label string
		count int64
		p     map[string]int64 // ns, for the percentiles the file prints
		how   measure.How      // how the others are known
		max   int64
	}
	// How each tool got the percentiles it prints.
	printed := map[measure.Format]measure.How{FormatK6: measure.Interpolated, FormatVegeta: measure.Estimated}
	for _, c := range []struct {
		file   string
		format measure.Format
		dists  []want
	}{
		// "50% 121.00us", "90% 19.28ms", "99% 82.54ms", "Latency 5.69ms 15.78ms 100.20ms", "13845 requests"
		{"wrk-4.1.txt", FormatWrk, []want{{"latency", 13845, map[string]int64{"p50": 121000, "p90": 19280000, "p99": 82540000}, measure.Missing, 100200000}}},
		// "50.000% 1.30ms" … "99.990% 106.05ms"; footers "Total count = 2996", "Max = 105.984" (and 104.832)
		{"wrk2.txt", FormatWrk2, []want{
			{"recorded", 2996, map[string]int64{"p50": 1300000, "p90": 42240000, "p99": 97660000, "p99_9": 104380000, "p99_99": 106050000}, measure.Stated, 105984000},
			{"uncorrected", 2996, map[string]int64{"p50": 127000, "p90": 155000, "p99": 2710000, "p99_9": 30750000, "p99_99": 104890000}, measure.Stated, 104832000}}},
		// "50th":236718, "90th":21167449, "99th":91406308, "max":100558243, "requests":2999
		{"vegeta.json", FormatVegeta, []want{{"latencies", 2999, map[string]int64{"p50": 236718, "p90": 21167449, "p99": 91406308}, measure.Missing, 100558243}}},
		// "med": 0.25526499999999996 ms, "p(99.9)": 98.2740993230001, "max": 99.133845, "count": 2940
		{"k6-summary.json", FormatK6, []want{
			{"http_req_duration", 2940, map[string]int64{"p50": 255265, "p90": 7246047, "p99": 93191029, "p99_9": 98274099}, measure.Missing, 99133845},
			{"http_req_duration{expected_response:true}", 2940, map[string]int64{"p50": 255265, "p90": 7246047, "p99": 93191029, "p99_9": 98274099}, measure.Missing, 99133845}}},
		{"oha-constructed.json", FormatOha, []want{{"latency", 3000, map[string]int64{"p50": 162003, "p90": 336122, "p99": 89112019, "p99_9": 99512337, "p99_99": 100689012}, measure.Stated, 100689012}}},
	} {
		data, err := os.ReadFile(filepath.Join(samples, c.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := measure.Parse(c.file, data)
		if err != nil {
			t.Fatal(err)
		}
		if f.Format != c.format || len(f.Dists) != len(c.dists) {
			t.Errorf("%s: %s with %d distributions, want %s with %d", c.file, f.Format, len(f.Dists), c.format, len(c.dists))
			continue
		}
		for i, w := range c.dists {
			d := f.Dists[i]
			if d.MinNs > d.MaxNs || c.format != FormatWrk && c.format != FormatWrk2 && d.MinNs < 0 {
				t.Errorf("%s %d: min %d, max %d", c.file, i, d.MinNs, d.MaxNs)
			}
			if d.Label != w.label || d.Count != w.count || d.MaxNs != w.max {
				t.Errorf("%s %d: label %q count %d max %d, want %q %d %d", c.file, i, d.Label, d.Count, d.MaxNs, w.label, w.count, w.max)
			}
			for _, p := range d.P {
				if v, ok := w.p[p.Name]; ok {
					ph, ok := printed[c.format]
					if !ok {
						ph = measure.Stated
					}
					if p.How != ph || p.Ns != v {
						t.Errorf("%s %s %s: %d (%s), the file says %d", c.file, d.Label, p.Name, p.Ns, p.How, v)
					}
				} else if p.How != w.how {
					t.Errorf("%s %s %s: %s, want %s", c.file, d.Label, p.Name, p.How, w.how)
				}
			}
		}
	}
	// wrk's socket errors become a note.
	data, _ := os.ReadFile(filepath.Join(samples, "wrk-4.1.txt"))
	f, err := measure.Parse("wrk", []byte(strings.Replace(string(data), "Requests/sec:", "  Socket errors: connect 0, read 0, write 0, timeout 7\nRequests/sec:", 1)))
	if err != nil || !strings.Contains(strings.Join(f.Dists[0].Notes, " "), "7 timed out") {
		t.Errorf("socket errors: %v %v", err, f.Dists[0].Notes)
	}
}

// TestToolParseErrors: a bad tool file's error names the line and column
// where reading stopped and what was expected; a file no reader
// recognises is told what Parse reads, every tool's format named.
func TestToolParseErrors(t *testing.T) {
	wrk, _ := os.ReadFile(filepath.Join(samples, "wrk2.txt"))
	for _, c := range []struct {
		name, data string
		line, col  int
		format     measure.Format
		msg        string
	}{
		{"vegeta.json", `{"latencies": {"mean": -3, "max": 1}, "requests": 2}`, 1, 16, FormatVegeta, "expected a non-negative decimal number"},
		{"what.txt", "hello\nworld\n", 1, 1, "", "expected wrk, wrk2, ab, hey, fortio, locust, bombardier, autocannon or Artillery output, Gatling's console summary, k6 --out csv or --out json output, a JMeter results file (JTL, CSV), an .hgrm percentile distribution, an .hlog interval log, or JSON from k6 --summary-export, vegeta report -type json, oha --json, bombardier -o json, autocannon -j or artillery run --output; found \"hello\""},
		{"what.json", `{"a": 1}`, 1, 1, "", "expected JSON from k6 --summary-export (keys metrics, root_group), vegeta report -type json (latencies, requests), oha --json (summary, latencyPercentiles), bombardier -o json (spec, result), autocannon -j (latency, sampleInt) or artillery run --output (aggregate, intermediate); found keys a"},
		{"wrk2.txt", strings.Replace(string(wrk), "Detailed Percentile spectrum:", "Detailed spectrum:", 1), 16, 1, FormatWrk2, "expected \"Detailed Percentile spectrum:\""},
		{"artillery.txt", "Summary report @ 05:00:48(+0000)\n--------------------------------\n\nhttp.requests: ....... 5\nhttp.response_time:\n  min: ....... 0\n  max: ....... 105\n  mean: ....... 7\n  median: ....... 0\n  p95: ....... 6x1\n  p99: ....... 92.8\nhttp.responses: ....... 5\n", 10, 1, FormatArtillery, "http.response_time's p95"},
		{"artillery.json", `{"aggregate": {"summaries": {"http.response_time": {"min": 0, "max": 1, "count": 2, "mean": 1, "p50": 0, "p75": 1, "p90": 1, "p95": 1, "p99": "x", "p999": 1}}}, "intermediate": []}`, 1, 136, FormatArtilleryJSON, "http.response_time's p99"},
	} {
		_, err := measure.Parse(c.name, []byte(c.data))
		var pe *measure.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a ParseError", c.name, err)
			continue
		}
		if c.line > 0 && (pe.Line != c.line || pe.Col != c.col) || pe.Format != c.format || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v (line %d col %d format %q), want line %d col %d format %q containing %q", c.name, err, pe.Line, pe.Col, pe.Format, c.line, c.col, c.format, c.msg)
		}
	}
}

// seeds adds every sample file to a fuzz target's corpus (the committed
// corpus under testdata/fuzz/ adds the inputs fuzzing found worth keeping).
func seeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(samples, "*.*"))
	for _, p := range files {
		if filepath.Ext(p) == ".md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// k6's CSV output, which no sample holds: a short run's.
	cfg, err := sim.ParseQuery("rate=50&service=2ms&stall=150ms&first=400ms&duration=1s&conns=2")
	if err != nil {
		f.Fatal(err)
	}
	o, err := RunJSON(cfg, "k6-arrival-csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(o.File))
}

// checkParsed fails t when a reader broke what every reader promises
// (measure.CheckRead).
func checkParsed(t *testing.T, file *measure.File, err error) {
	t.Helper()
	if err := measure.CheckRead(file, err); err != nil {
		t.Fatal(err)
	}
}

// FuzzWrk drives the wrk and wrk2 readers directly.
func FuzzWrk(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		ls := measure.SplitLines(data)
		file, err := parseWrk("fuzz", ls)
		checkParsed(t, file, err)
		file, err = parseWrk2("fuzz", ls)
		checkParsed(t, file, err)
	})
}

// FuzzJSON drives the k6, vegeta and oha readers: the one whose keys a
// JSON object has, as measure.Parse does.
func FuzzJSON(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := measure.Parse("fuzz", data)
		checkParsed(t, file, err)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var top map[string]json.RawMessage
		if dec.Decode(&top) != nil {
			return
		}
		for _, r := range readers {
			if r.ReadJSON != nil && keyed(r, top) {
				file, err := r.ReadJSON("fuzz", data, top)
				checkParsed(t, file, err)
				return
			}
		}
	})
}

// TestEachToolsFileIsRead: every file a tool writes that the fit reads as
// its own (its printout, its JSON report, or the file it writes as it
// runs: JMeter's JTL) reads back through
// measure.Parse as one of the tool's formats (for a tool the fit reads no
// file as, hey -q and ab -n, whose printouts say nothing of the mode, a
// format the fit reads as another tool's), with the tool's numbers: its
// count where the file gives one, and its p50, p90, p99 and maximum
// within what the file prints them to.
func TestEachToolsFileIsRead(t *testing.T) {
	cfg := mustConfig(t, "stall=100ms&every=1s&first=500ms&duration=3s&conns=2&rate=1000")
	for _, name := range Names() {
		tool, _ := Lookup(name)
		o, err := RunJSON(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		read := 0
		for _, text := range []string{o.Text, o.JSON, o.File} {
			if text == "" {
				continue
			}
			f, err := measure.Parse(name+".out", []byte(text))
			if err != nil || !tool.Reads(f.Format) && (len(tool.reads) > 0 || len(Writing(f.Format)) == 0) {
				continue
			}
			read++
			if f.Format.Title() == string(f.Format) {
				t.Errorf("%s: format %s has no title", name, f.Format)
			}
			if len(f.Incomplete) > 0 {
				t.Errorf("%s: %s reads as incomplete: %v", name, f.Format, f.Incomplete)
			}
			d := f.Dists[0]
			if d.Count >= 0 && d.Count != o.Recorded {
				t.Errorf("%s: %s count %d, the tool's %d", name, f.Format, d.Count, o.Recorded)
			}
			near := func(what string, got, want int64) {
				// The coarsest a file prints: whole ms (ab, locust); 2
				// significant decimals of wrk's unit.
				if math.Abs(float64(got-want)) > 0.5e6+0.005*float64(want) {
					t.Errorf("%s: %s %s %d ns, the tool's %d", name, f.Format, what, got, want)
				}
			}
			for i, want := range []int64{o.P50Ns, o.P90Ns, o.P99Ns} {
				if p := d.P[i]; p.How != measure.Missing {
					near(p.Name, p.Ns, want)
				}
			}
			if d.MaxNs >= 0 {
				near("max", d.MaxNs, o.MaxNs)
			}
		}
		if read == 0 {
			t.Errorf("%s: none of its files reads back as its own (%q…)", name, measure.TrimTo(o.Text, 80))
		}
	}
}

// keyed is measure's test of a JSON report's keys (Reader.Keys).
func keyed(r *measure.Reader, top map[string]json.RawMessage) bool {
	for _, k := range r.Keys {
		if top[k.A] != nil && (k.B != "" && top[k.B] != nil || k.B == "" && bytes.Contains(top[k.A], []byte(k.Holds))) {
			return true
		}
	}
	return false
}

// TestArtilleryStated: neither Artillery's report nor its console states
// the phase's arrivalRate or duration; the real run's (1,000/s for 5 s)
// are the one pair whose uniform arrivals fit its 5,000 requests and the
// span of its metrics, from either file. A span that no whole rate fits
// states neither.
func TestArtilleryStated(t *testing.T) {
	for _, name := range []string{"artillery-rate1000-d5.json", "artillery-rate1000-d5.txt"} {
		data, f := readReal(t, name)
		s, ok := StatedIn(f.Format, data, &f.Dists[0])
		if !ok || s.Requests != 5000 || s.Rate != sim.RateOf(1000) || s.Duration != 5e9 || s.RateFrom == "" || s.DurationFrom == "" {
			t.Errorf("%s: stated %+v, want 5,000 requests at 1,000/s for 5 s, and how", name, s)
		}
	}
	// maxVusers 10 at 200/s for 5 s: 950 sent and 50 skipped, whose 1,000
	// arrivals give the phase.
	for _, name := range []string{"artillery-maxvusers10-rate200-d5.json", "artillery-maxvusers10-rate200-d5.txt"} {
		data, f := readReal(t, name)
		s, ok := StatedIn(f.Format, data, &f.Dists[0])
		if !ok || s.Requests != 950 || s.Dropped != 50 || s.Rate != sim.RateOf(200) || s.Duration != 5e9 {
			t.Errorf("%s: stated %+v, want 950 requests, 50 skipped, 200/s for 5 s", name, s)
		}
	}
	// 1,249/s and 1,250/s tick every 800 µs alike: the whole rate a script
	// holds is taken. 7,500 requests over 5,999 ms fit 1,250/s for 6 s.
	if ph, ok := artilleryFindPhase(7500, 5999, 0, 0); !ok || ph.perSec != 1250 || ph.seconds != 6 {
		t.Errorf("artilleryFindPhase(7500, 5999 ms): %+v (%v), want 1,250/s for 6 s", ph, ok)
	}
	// 1,000 requests whose metrics spanned 8,991 ms: 999 ticks of 9 ms,
	// which no whole rate has (111/s ticks every 9,009 µs, 112/s every
	// 8,928), and an arrivalCount has only as 1,000 over 9 s.
	if ph, ok := artilleryFindPhase(1000, 8991, 0, 0); !ok || ph.perSec != 0 || ph.count != 1000 || ph.seconds != 9 {
		t.Errorf("artilleryFindPhase(1000, 8991 ms): %+v (%v), want arrivalCount 1,000 over 9 s", ph, ok)
	}
	// 1,000 arrivals over 7,000 ms: 999 ticks of about 7,007 µs, which
	// end the 1,000th at 7.007 s, short of any whole D that holds no
	// more of them: no phase.
	if ph, ok := artilleryFindPhase(1000, 7000, 0, 0); ok {
		t.Errorf("artilleryFindPhase(1000, 7000 ms): %+v, want none", ph)
	}
}

// TestArtilleryStatedPeriods: a console of several 10 s periods, whose
// first period's last metric and last one's first fall an arrival's tick
// short of the periods' ends (200/s: 5 ms), and a maxVusers phase's
// skipped arrivals: both files, console and report, give the requests,
// the skipped arrivals, and the rate and duration that fit the arrivals
// sent and skipped together. Before the periods' slack, the console of
// this 10 s run at 200/s stated no rate, and the fit ran at 5,000/s.
func TestArtilleryStatedPeriods(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=200&stall=300ms&every=2s&duration=10s&conns=4")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"artillery", "artillery-maxvusers"} {
		o, err := RunJSON(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "artillery-maxvusers" && o.Dropped == 0 {
			t.Fatalf("%s skipped nothing: the query no longer fills its cap", name)
		}
		for _, text := range []string{o.Text, o.JSON} {
			f, err := measure.Parse("report", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			s, ok := StatedIn(f.Format, []byte(text), &f.Dists[0])
			if !ok || s.Requests != o.Sent || s.Dropped != o.Dropped || s.Rate != sim.RateOf(200) || s.Duration != 10e9 {
				t.Errorf("%s %s: stated %d requests, %d skipped, %v for %v; want %d, %d, 200/s for 10 s", name, f.Format, s.Requests, s.Dropped, s.Rate, s.Duration, o.Sent, o.Dropped)
			}
		}
	}
}

// readReal reads one of the real printouts (measure/testdata/real) and
// parses it.
func readReal(t *testing.T, name string) ([]byte, *measure.File) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(samples, "real", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := measure.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return data, f
}

// TestLocustRamp: the log's spawn, from "Ramping to" to "All users
// spawned", is a ramp when it takes more than 1 % of the run, across
// midnight too; without both lines, or within 1 %, it is none.
func TestLocustRamp(t *testing.T) {
	log := func(from, to string) []byte {
		return []byte("[2026-12-07 " + from + "] vm/INFO/locust.runners: Ramping to 4 users at a rate of 1.00 per second\n" +
			"[2026-12-08 " + to + "] vm/INFO/locust.runners: All users spawned: {\"U\": 4} (4 total users)\n")
	}
	for _, c := range []struct {
		data     []byte
		duration int64
		ramp     bool
	}{
		{log("20:02:49,041", "20:02:52,045"), 6e9, true},
		{log("23:59:59,500", "00:00:02,504"), 6e9, true}, // past midnight: 3.004 s
		{log("20:02:49,041", "20:02:49,042"), 6e9, false},
		{log("20:02:49,041", "20:02:49,100"), 6e9, false}, // 59 ms of 6 s
		{[]byte("[2026-12-07 20:02:49,041] vm/INFO/locust.runners: Ramping to 4 users at a rate of 1.00 per second\n"), 6e9, false},
	} {
		why := locustRamp(c.data, c.duration)
		if (why != "") != c.ramp {
			t.Errorf("%q over %d ns: %q, want a ramp %v", c.data, c.duration, why, c.ramp)
		}
	}
	if why := locustRamp(log("23:59:59,500", "00:00:02,504"), 6e9); !strings.Contains(why, "spawned 3.004 s later") {
		t.Errorf("past midnight: %q", why)
	}
}
