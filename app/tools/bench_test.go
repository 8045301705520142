package tools

import (
	"testing"

	"omission/sim"
)

// BenchmarkTools measures one tool's whole run (profile, summary, text) on
// the bench preset, in ms per run.
func BenchmarkTools(b *testing.B) {
	cfg := sim.Default()
	for _, n := range Names() {
		b.Run(n, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(cfg, n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/run")
		})
	}
}
