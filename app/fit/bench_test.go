package fit

import (
	"testing"
	"time"

	"omission/sim"
)

// BenchmarkFit fits a file of the bench preset (20 s, 100000 requests a
// client) per format: ms per fit, the hidden numbers included
// (`make bench`: BENCH fit.<format>.native … ms/fit).
func BenchmarkFit(b *testing.B) {
	cfg := sim.Default()
	for _, format := range []string{"csv", "hlog", "hgrm-open", "wrk", "wrk2", "hey", "ab", "fortio", "locust", "vegeta", "oha-corrected", "k6-arrival"} {
		name, data := fileFor(b, cfg, format)
		b.Run(format, func(b *testing.B) {
			start := time.Now()
			evals := 0
			for i := 0; i < b.N; i++ {
				r, err := Fit(name, data, Options{})
				if err != nil {
					b.Fatal(err)
				}
				evals = r.Evaluations
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/fit")
			b.ReportMetric(float64(evals), "runs/fit")
		})
	}
}
