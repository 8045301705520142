package measure

import (
	"bytes"
	"testing"
	"time"
)

// BenchmarkExport writes the bench preset's recordings (20 s, 100000
// requests a client) in each format: ms per export (FromResult included)
// and the file's size.
func BenchmarkExport(b *testing.B) {
	res := run(b, "")
	for _, format := range []string{"hgrm", "hlog", "csv"} {
		b.Run(format, func(b *testing.B) {
			var size int
			start := time.Now()
			for i := 0; i < b.N; i++ {
				set, err := FromResult(res)
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				switch format {
				case "hgrm":
					err = WriteHgrm(&buf, set.Source("open").Hist)
				case "hlog":
					err = set.WriteHlog(&buf)
				case "csv":
					err = set.WriteCSV(&buf)
				}
				if err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/export")
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

// BenchmarkParse reads the largest file this package meets in its tests:
// the .hlog of an hour at 500 requests/s (3600 one-second intervals, five
// tags), and the bench preset's .hlog.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, q string }{{"hlog_1h", "rate=500&duration=1h"}, {"hlog_bench", ""}} {
		_, set := exportSet(b, c.q)
		var buf bytes.Buffer
		if err := set.WriteHlog(&buf); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		b.Run(c.name, func(b *testing.B) {
			start := time.Now()
			for i := 0; i < b.N; i++ {
				f, err := Parse(c.name, data)
				if err != nil || len(f.Dists) != 5 {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/parse")
			b.ReportMetric(float64(len(data)), "bytes")
		})
	}
}
