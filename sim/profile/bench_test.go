package profile

import (
	"testing"

	"omission/sim"
)

// BenchmarkProfile measures the profile runner in ns per request sent: the
// closed loop's profile on the bench preset (to set beside the fast path's
// BenchmarkSim), wrk's back-to-back loop on the tcp preset (1.8 M requests),
// and wrk2's pacing on the bench preset.
func BenchmarkProfile(b *testing.B) {
	tcp, _ := sim.PresetConfig("tcp")
	for _, c := range []struct {
		name string
		cfg  sim.Config
		p    Profile
	}{
		{"closed", sim.Default(), Profile{Conc: Connections, Conns: 1, Send: CatchUp, SendsAll: true}},
		{"wrk-tcp", tcp, Profile{Conc: Connections, Conns: 1, Send: BackToBack, Clock: 1000, RecordUntil: tcp.Duration}},
		{"wrk2", sim.Default(), Profile{Conc: Connections, Conns: 1, Send: Wrk2Pace, Rate: sim.RateOf(5000), Stagger: 5e6, FromIntended: true, Clock: 1000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var reqs int64
			for b.Loop() {
				pr, err := Run(c.cfg, c.p)
				if err != nil {
					b.Fatal(err)
				}
				reqs += pr.Attempts
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(reqs), "ns/request")
		})
	}
}
