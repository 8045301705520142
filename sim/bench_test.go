package sim

import (
	"runtime"
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

// BenchmarkLong is a whole long deterministic run (the long path: three
// clients, five exact recordings, every check and the hash): real time and
// allocated memory a run. The C loop of ../shared/bench/limit.c walks the
// 1 h run's 360M requests in about 0.36 s on the reference machine.
func BenchmarkLong(b *testing.B) {
	for _, c := range []struct{ name, q string }{
		{"1h_100k", "rate=100000&service=5us&stall=50ms&every=30s&first=10s&duration=1h"},
		{"24h_10m", "rate=10000000&service=50ns&stall=1ms&every=30s&first=10s&duration=24h"},
		// Saturated (100 µs of service every 100 ns): the backlog never
		// drains, and each of its 25000 stalls leaves runs of its own.
		{"saturated_10m", "rate=10000000"},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg, err := ParseQuery(c.q)
			if err != nil {
				b.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < b.N; i++ {
				res, err := Run(cfg)
				if err != nil {
					b.Fatal(err)
				}
				if !res.Exact || res.long == nil {
					b.Fatal("not an exact long run")
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/run")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6/float64(b.N), "MB/run")
		})
	}
}
