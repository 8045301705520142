package charts

import (
	"testing"
	"time"

	"omission/sim"
)

// benchRender renders one chart of the bench preset b.N times and reports
// the mean in ms per plot (`make bench` turns it into a BENCH line).
func benchRender(b *testing.B, k Kind, o Options) {
	res := bench(b)
	if _, err := Render(res, k, o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := Render(res, k, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/plot")
}

func BenchmarkRenderSpectrum(b *testing.B)     { benchRender(b, Spectrum, Options{}) }
func BenchmarkRenderDistribution(b *testing.B) { benchRender(b, Distribution, Options{}) }
func BenchmarkRenderCDF(b *testing.B)          { benchRender(b, Distribution, Options{CDF: true}) }
func BenchmarkRenderLatencyTime(b *testing.B)  { benchRender(b, LatencyTime, Options{}) }
func BenchmarkRenderQueueDepth(b *testing.B)   { benchRender(b, QueueDepth, Options{}) }

// BenchmarkUpdate is what the page does when a parameter changes: run the
// bench preset and draw the four charts.
func BenchmarkUpdate(b *testing.B) {
	cfg, _ := sim.ParseQuery("preset=bench")
	b.ReportAllocs()
	start := time.Now()
	for range b.N {
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := RenderAll(res, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/update")
}
