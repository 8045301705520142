package sim

import (
	"testing"
)

// BenchmarkSim times each client's simulation loop on the bench preset, as
// seed 000 does: ns per simulated request, without sorting or checks.
func BenchmarkSim(b *testing.B) {
	cfg := Default()
	n := NewSchedule(cfg.Rate).Count(cfg.Duration)
	for _, c := range []Client{ClosedClient, PacedClient, OpenClient} {
		b.Run(c.String(), func(b *testing.B) {
			s := newClientSim(c, cfg, n)
			b.ResetTimer()
			var reqs int64
			for i := 0; i < b.N; i++ {
				*s = *newClientSimReuse(s, c, cfg, n)
				s.step(n)
				reqs += s.i
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(reqs), "ns/request")
		})
	}
}

// newClientSimReuse resets a client simulation, keeping its buffers.
func newClientSimReuse(old *clientSim, c Client, cfg Config, n int64) *clientSim {
	s := *old
	s.i, s.finished, s.free, s.last, s.next = 0, false, 0, 0, 0
	s.due = newDueIter(cfg.Rate)
	s.sv = newServer(cfg)
	return &s
}

// BenchmarkRun is a whole run of the bench preset: three clients, five
// distributions, every check.
func BenchmarkRun(b *testing.B) {
	cfg := Default()
	for i := 0; i < b.N; i++ {
		if _, err := Run(cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/run")
}
