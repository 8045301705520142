package sim

import "testing"

// BenchmarkEngine times the event engine for one client on Poisson
// arrivals and exponential service at 4 workers (utilisation 0.8), the
// closed client with 4 connections: ns per simulated request, the run's
// sorting, checks and hash left out.
func BenchmarkEngine(b *testing.B) {
	cfg, err := ParseQuery("arrivals=poisson&rate=32000&dist=exponential&service=100us&stall=0&workers=4&conns=4&duration=10s&seed=1")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []Client{ClosedClient, OpenClient} {
		b.Run(c.String(), func(b *testing.B) {
			var reqs int64
			for i := 0; i < b.N; i++ {
				s := newEngSim(c, cfg, true)
				for s.pending() {
					s.step(1 << 30)
				}
				reqs += s.st.sent
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(reqs), "ns/request")
		})
	}
}

// BenchmarkEngineRun is a whole event-driven run: three clients, five
// recordings, series, checks and hash.
func BenchmarkEngineRun(b *testing.B) {
	cfg, err := ParseQuery("arrivals=poisson&rate=32000&dist=exponential&service=100us&stall=0&workers=4&conns=4&duration=10s&seed=1")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := Run(cfg); err != nil {
			b.Fatal(err)
		}
	}
}
