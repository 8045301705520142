package measure

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRealPrintouts reads the real printouts in testdata/real (see its
// README.md) and holds what each parser reads to the numbers the file
// prints, read by eye from the file.
func TestRealPrintouts(t *testing.T) {
	ms := int64(1e6)
	for _, c := range []struct {
		file   string
		format Format
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
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "real", c.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(c.file, data)
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
				if got.How != Missing && got.How != FromHistogram {
					t.Errorf("%s: %s %v (%s), want missing", c.file, got.Name, got.Ns, got.How)
				}
				continue
			}
			if got.How == Missing || got.Ns != want {
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
		_, err := Parse("x.txt", []byte(c.text))
		if err == nil || err.Error() != "x.txt:1: "+c.want {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}
