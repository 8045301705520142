package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The profiles equivalent to today's clients, as Profile values.
func closedProfile(cfg Config) Profile {
	return Profile{Conc: Connections, Conns: cfg.Conns, Send: CatchUp, SendsAll: true}
}
func pacedProfile() Profile { return Profile{Conc: Connections, Conns: 1, Send: Reanchor} }
func openProfile() Profile {
	return Profile{Conc: Unbounded, Send: CatchUp, SendsAll: true, FromIntended: true}
}

// randomFastConfig draws a small valid configuration of the deterministic
// model (the fast path).
func randomFastConfig(rng *rand.Rand) Config {
	for {
		c := Default()
		rates := []Rate{RateOf(1000), RateOf(5000), RateOf(3), 333333, 7777, RateOf(20000), 1500}
		c.Rate = rates[rng.IntN(len(rates))]
		c.Service = []int64{0, 10e3, 100e3, 333e3, 1e6, 2e6}[rng.IntN(6)]
		c.Stall = []int64{0, 5e6, 50e6, 200e6}[rng.IntN(4)]
		c.Every = []int64{0, 300e6, 1e9}[rng.IntN(3)]
		c.First = []int64{0, 7e6, 250e6}[rng.IntN(3)]
		c.Duration = []int64{50e6, 1e9, 2e9, 3e9}[rng.IntN(4)]
		c.Conns = 1 + rng.IntN(5)
		c.Workers = rng.IntN(4)
		if c.Validate() == nil && NewSchedule(c.Rate).Count(c.Duration) < 50000 {
			return c
		}
	}
}

// TestProfilesReproduceFastPath: the generic runner, given the profiles of
// the closed, paced and open clients, reproduces the fast path request for
// request (same Send, same Done) on random configurations. This is the rule
// "the event engine runs any profile; the fast path stays exact for the
// ones it covers".
func TestProfilesReproduceFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for n := 0; n < 150; n++ {
		cfg := randomFastConfig(rng)
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sched := NewSchedule(cfg.Rate)
		for _, tc := range []struct {
			client Client
			p      Profile
		}{{ClosedClient, closedProfile(cfg)}, {PacedClient, pacedProfile()}, {OpenClient, openProfile()}} {
			pr, err := RunProfile(cfg, tc.p)
			if err != nil {
				t.Fatalf("%s %s: %v", cfg.Query(), tc.client, err)
			}
			cr := res.Clients[tc.client]
			if pr.Sent != cr.Sent || int64(len(pr.Done)) != cr.Sent {
				t.Fatalf("%s %s: sent %d (%d replies), fast path %d", cfg.Query(), tc.client, pr.Sent, len(pr.Done), cr.Sent)
			}
			if pr.Planned != cr.Planned || pr.Dropped != cr.Planned-cr.Sent {
				t.Fatalf("%s %s: planned %d dropped %d, fast path planned %d sent %d", cfg.Query(), tc.client, pr.Planned, pr.Dropped, cr.Planned, cr.Sent)
			}
			for i := range cr.Done {
				send := sched.Due(int64(i))
				if cr.Send != nil {
					send = cr.Send[i]
				}
				if pr.Send[i] != send || pr.Done[i] != cr.Done[i] {
					t.Fatalf("%s %s request %d: send %d done %d, fast path send %d done %d",
						cfg.Query(), tc.client, i, pr.Send[i], pr.Done[i], send, cr.Done[i])
				}
			}
			// The recorded latencies are the recording's, sample for sample.
			rec := res.Recordings[map[Client]Kind{ClosedClient: Closed, PacedClient: Paced, OpenClient: Open}[tc.client]]
			if pr.Recorded != rec.Count || pr.Dist.Max() != rec.Max || pr.Dist.Sum() != rec.Dist.Sum() {
				t.Fatalf("%s %s: recorded %d max %d, recording %d max %d", cfg.Query(), tc.client, pr.Recorded, pr.Dist.Max(), rec.Count, rec.Max)
			}
			for i, pp := range Percentiles {
				if got := pr.Dist.Percentile(pp.PPM, cfg.Rank); got != rec.P[i] {
					t.Fatalf("%s %s %s: %d, recording %d", cfg.Query(), tc.client, pp.Name, got, rec.P[i])
				}
			}
		}
	}
}

func ExampleRunProfile() {
	cfg := Default() // seed 000's bench run
	pr, _ := RunProfile(cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack})
	fmt.Println(pr.Planned, pr.Sent, pr.Recorded, pr.Dist.Max())
	// Output: 160000 160000 160000 200100000
}
