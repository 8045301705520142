package measure

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/sim"
)

// sampleQuery is the run behind the samples this package writes itself and
// the Java ones (testdata/README.md).
const sampleQuery = "preset=tcp&duration=6s"

// TestWriteSamples regenerates the samples made with Go and Java from
// sampleQuery (OMISSION_SAMPLES=1 go test -run TestWriteSamples). It is
// skipped otherwise: the files are committed, and TestSamples reads them.
func TestWriteSamples(t *testing.T) {
	if os.Getenv("OMISSION_SAMPLES") == "" {
		t.Skip("set OMISSION_SAMPLES=1 to rewrite testdata's Go and Java samples")
	}
	_, set := exportSet(t, sampleQuery)
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := set.WriteHlog(&b); err != nil {
		t.Fatal(err)
	}
	write("export.hlog", b.Bytes())
	open := set.Source("open").Hist
	b.Reset()
	WriteHgrm(&b, open)
	write("export.hgrm", b.Bytes())
	b.Reset()
	open.PercentilesPrint(&b, 5, 1e6)
	write("go-percentilesprint.hgrm", b.Bytes())
	needJava(t)
	write("java.hgrm", []byte(strings.TrimSuffix(javaOut(t, "hgrm", open.HighestTrackableValue(), bars(open)+"#end\n"), "#end\n")))
	// The Java log: the open and closed recordings, one line per second.
	var in strings.Builder
	for sec := int64(0); sec <= set.Span/1e9; sec++ {
		for _, name := range []string{"open", "closed"} {
			src := set.Source(name)
			for i, at := range src.At {
				if at/1e9 == sec {
					fmt.Fprintf(&in, "%d 1\n", src.Latency[i])
				}
			}
			fmt.Fprintf(&in, "#interval %s %d\n", name, sec*1000)
		}
	}
	write("java.hlog", []byte(javaOut(t, "hlog", open.HighestTrackableValue(), in.String())))
}

func parseSample(t *testing.T, name string) *File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSamples reads a real file of every format and checks what it says
// against the file's own text (the tools' outputs) or against the model
// run that produced it (the Java, Go and HdrHistogramJS files).
func TestSamples(t *testing.T) {
	type want struct {
		label string
		count int64
		p     map[string]int64 // ns, for the percentiles the file prints
		how   How              // how the others are known
		max   int64
	}
	for _, c := range []struct {
		file   string
		format Format
		dists  []want
	}{
		// The recorded spectrum of wrk2.txt alone: C's hdr_percentiles_print;
		// its rows bound the percentiles ("Total count = 2996", "Max = 105.984").
		{"c-hdr_percentiles_print.hgrm", FormatHgrmC, []want{{"hgrm", 2996, nil, FromSpectrum, 105984000}}},
		// write_hlog.js: per tag 3×1000 values of 100-149 µs; open adds 100 ms, 99 ms, … 1 ms, closed one 100 ms.
		{"hdrhistogramjs.hlog", FormatHlog, []want{{"open", 3100, nil, FromHistogram, 100031000}, {"closed", 3001, nil, FromHistogram, 100031000}}},
	} {
		f := parseSample(t, c.file)
		if f.Format != c.format || len(f.Dists) != len(c.dists) {
			t.Errorf("%s: %s with %d distributions, want %s with %d", c.file, f.Format, len(f.Dists), c.format, len(c.dists))
			continue
		}
		for i, w := range c.dists {
			d := f.Dists[i]
			if d.MinNs > d.MaxNs || d.MinNs < 0 {
				t.Errorf("%s %d: min %d, max %d", c.file, i, d.MinNs, d.MaxNs)
			}
			if d.Label != w.label || d.Count != w.count || d.MaxNs != w.max {
				t.Errorf("%s %d: label %q count %d max %d, want %q %d %d", c.file, i, d.Label, d.Count, d.MaxNs, w.label, w.count, w.max)
			}
			for _, p := range d.P {
				if v, ok := w.p[p.Name]; ok {
					if p.How != Stated || p.Ns != v {
						t.Errorf("%s %s %s: %d (%s), the file says %d", c.file, d.Label, p.Name, p.Ns, p.How, v)
					}
				} else if p.How != w.how {
					t.Errorf("%s %s %s: %s, want %s", c.file, d.Label, p.Name, p.How, w.how)
				}
			}
		}
	}
	// The files written from the model: counts and percentiles are the
	// model's within the precision each file carries.
	res := run(t, sampleQuery)
	for _, c := range []struct {
		file   string
		format Format
		tags   []string
	}{
		{"java.hlog", FormatHlog, []string{"open", "closed"}},
		{"export.hlog", FormatHlog, []string{"closed", "paced", "open", "corrected", "paced_corrected"}},
		{"java.hgrm", FormatHgrmJava, []string{"open"}},
		{"export.hgrm", FormatHgrmJava, []string{"open"}},
		{"go-percentilesprint.hgrm", FormatHgrmGo, []string{"open"}},
	} {
		f := parseSample(t, c.file)
		if f.Format != c.format || len(f.Dists) != len(c.tags) {
			t.Fatalf("%s: %s with %d distributions", c.file, f.Format, len(f.Dists))
		}
		for i, tag := range c.tags {
			d := f.Dists[i]
			rec := res.Recording(tag)
			if d.Count != rec.Count {
				t.Errorf("%s %s: count %d, model %d", c.file, tag, d.Count, rec.Count)
			}
			for k, p := range d.P {
				exact := rec.P[k]
				switch p.How {
				case FromHistogram:
					if !d.Hist.ValuesAreEquivalent(p.Ns, exact) {
						t.Errorf("%s %s %s: %d, model %d", c.file, tag, p.Name, p.Ns, exact)
					}
				case FromSpectrum:
					rank := sim.RankRound
					if c.format == FormatHgrmJava {
						rank = sim.RankCeil // the Java layout's rule (parseHgrm)
					}
					exact = rec.Dist.Percentile(sim.Percentiles()[k].PPM, rank)
					if exact > p.Ns+500 || exact <= p.LowNs-500 {
						t.Errorf("%s %s %s: model %d outside (%d, %d]", c.file, tag, p.Name, exact, p.LowNs, p.Ns)
					}
				default:
					t.Errorf("%s %s %s: %s", c.file, tag, p.Name, p.How)
				}
			}
			if d.MaxNs < rec.Max-500 || float64(d.MaxNs) > float64(rec.Max)*1.001+500 {
				t.Errorf("%s %s: max %d, model %d", c.file, tag, d.MaxNs, rec.Max)
			}
		}
	}
}
