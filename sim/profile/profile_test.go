package profile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"omission/sim"
)

// The profiles equivalent to today's clients, as Profile values.
func closedProfile(cfg sim.Config) Profile {
	return Profile{Conc: Connections, Conns: cfg.Conns, Send: CatchUp, SendsAll: true}
}
func pacedProfile() Profile { return Profile{Conc: Connections, Conns: 1, Send: Reanchor} }
func openProfile() Profile {
	return Profile{Conc: Unbounded, Send: CatchUp, SendsAll: true, FromIntended: true}
}

// clientProfiles is each of today's clients, its recording and its profile.
func clientProfiles(cfg sim.Config) []struct {
	client sim.Client
	kind   sim.Kind
	p      Profile
} {
	return []struct {
		client sim.Client
		kind   sim.Kind
		p      Profile
	}{{sim.ClosedClient, sim.Closed, closedProfile(cfg)}, {sim.PacedClient, sim.Paced, pacedProfile()}, {sim.OpenClient, sim.Open, openProfile()}}
}

// randomFastConfig draws a small valid configuration of the deterministic
// model (the fast path).
func randomFastConfig(rng *rand.Rand) sim.Config {
	for {
		c := sim.Default()
		rates := []sim.Rate{sim.RateOf(1000), sim.RateOf(5000), sim.RateOf(3), 333333, 7777, sim.RateOf(20000), 1500}
		c.Rate = rates[rng.IntN(len(rates))]
		c.Service = []int64{0, 10e3, 100e3, 333e3, 1e6, 2e6}[rng.IntN(6)]
		c.Stall = []int64{0, 5e6, 50e6, 200e6}[rng.IntN(4)]
		c.Every = []int64{0, 300e6, 1e9}[rng.IntN(3)]
		c.First = []int64{0, 7e6, 250e6}[rng.IntN(3)]
		c.Duration = []int64{50e6, 1e9, 2e9, 3e9}[rng.IntN(4)]
		c.Conns = 1 + rng.IntN(5)
		c.Workers = rng.IntN(4)
		if c.Validate() == nil && sim.NewSchedule(c.Rate).Count(c.Duration) < 50000 {
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
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sched := sim.NewSchedule(cfg.Rate)
		for _, tc := range clientProfiles(cfg) {
			pr, err := Run(cfg, tc.p)
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
			sameRecording(t, cfg.Query()+" "+tc.client.String(), pr, res.Recordings[tc.kind], cfg.Rank)
		}
	}
}

// sameRecording fails t unless a profile's recorded latencies are rec's:
// count, max, sum and every percentile.
func sameRecording(t *testing.T, what string, pr *Result, rec sim.Recording, rank sim.Rank) {
	t.Helper()
	if pr.Recorded != rec.Count || pr.Dist.Max() != rec.Max || pr.Dist.Sum() != rec.Dist.Sum() {
		t.Fatalf("%s: recorded %d max %d sum %d, recording %d max %d sum %d", what,
			pr.Recorded, pr.Dist.Max(), pr.Dist.Sum(), rec.Count, rec.Max, rec.Dist.Sum())
	}
	for i, pp := range sim.Percentiles() {
		if got := pr.Dist.Percentile(pp.PPM, rank); got != rec.P[i] {
			t.Fatalf("%s %s: %d, recording %d", what, pp.Name, got, rec.P[i])
		}
	}
}

func ExampleRun() {
	cfg := sim.Default() // seed 000's bench run
	pr, _ := Run(cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack})
	fmt.Println(pr.Planned, pr.Sent, pr.Recorded, pr.Dist.Max())
	// Output: 160000 160000 160000 200100000
}

// hand is a small deterministic server for the hand-worked cases.
func hand(rate sim.Rate, service, stall, first, every, duration int64, workers int) sim.Config {
	c := sim.Default()
	c.Rate, c.Service, c.Stall, c.First, c.Every, c.Duration, c.Workers = rate, service, stall, first, every, duration, workers
	return c
}

func mustRun(t *testing.T, cfg sim.Config, p Profile) *Result {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	pr, err := Run(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	checkProfileInvariants(t, pr)
	return pr
}

// checkProfileInvariants: sent + dropped = planned, recorded ≤ replies ≤
// sent, attempts = sent + retries, time never runs backwards for a request.
func checkProfileInvariants(t *testing.T, pr *Result) {
	t.Helper()
	if pr.Sent+pr.Dropped != pr.Planned || pr.Dropped < 0 {
		t.Errorf("sent %d + dropped %d != planned %d", pr.Sent, pr.Dropped, pr.Planned)
	}
	if pr.Recorded > pr.Replies || pr.Replies > pr.Sent || pr.Attempts != pr.Sent+pr.Retries {
		t.Errorf("recorded %d replies %d sent %d attempts %d retries %d", pr.Recorded, pr.Replies, pr.Sent, pr.Attempts, pr.Retries)
	}
	for i := range pr.Done {
		if pr.Done[i] < pr.Send[i] || pr.Send[i] < pr.Intended[i] && pr.Profile.Send != BackToBack {
			t.Errorf("request %d: intended %d send %d done %d", i, pr.Intended[i], pr.Send[i], pr.Done[i])
		}
	}
}

func eq(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// k6 constant-arrival-rate: iteration i at i ms; a 5 ms stall from 2 ms
// holds the only VU until 7.1 ms, so the iterations at 3…7 ms are dropped.
// With maxVUs 2 the drop at 3 ms starts a VU that takes the 4 ms iteration.
func TestProfileDropLate(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 5e6, 2e6, 0, 10e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: VUPool, Conns: 1, Send: DropLate})
	eq(t, "send", pr.Send, []int64{0, 1e6, 2e6, 8e6, 9e6})
	eq(t, "latency", pr.Latency, []int64{100e3, 100e3, 5100e3, 100e3, 100e3})
	if pr.Planned != 10 || pr.Dropped != 5 {
		t.Errorf("planned %d dropped %d, want 10 and 5", pr.Planned, pr.Dropped)
	}
	pr = mustRun(t, cfg, Profile{Conc: VUPool, Conns: 1, MaxVUs: 2, Send: DropLate})
	eq(t, "send", pr.Send, []int64{0, 1e6, 2e6, 4e6, 8e6, 9e6})
	eq(t, "done", pr.Done, []int64{100e3, 1100e3, 7100e3, 7200e3, 8100e3, 9100e3})
	if pr.Dropped != 4 {
		t.Errorf("dropped %d, want 4", pr.Dropped)
	}
}

// hey -q: ticks every 1 ms; the request at 3 ms waits out the stall to
// 6.6 ms; the tick of 4 ms waited in the channel (5 and 6 were dropped), so
// it sends at once at 6.6 ms, then on the grid again.
func TestProfileSkipTicks(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 4e6, 2500e3, 0, 10e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: SkipTicks, Period: 1e6})
	eq(t, "send", pr.Send, []int64{1e6, 2e6, 3e6, 6600e3, 7e6, 8e6, 9e6})
	eq(t, "latency", pr.Latency, []int64{100e3, 100e3, 3600e3, 100e3, 100e3, 100e3, 100e3})
	if pr.Planned != 9 || pr.Dropped != 2 {
		t.Errorf("planned %d dropped %d, want 9 and 2", pr.Planned, pr.Dropped)
	}
}

// Two paced connections on slots 0, 2, 4… and 1, 3, 5… ms: each is late
// after the stall, sends at 6.6 ms and restarts its slots there.
func TestProfileReanchorConns(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 4e6, 2500e3, 0, 10e6, 0)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: Reanchor})
	eq(t, "send", pr.Send, []int64{0, 1e6, 2e6, 3e6, 4e6, 6600e3, 6600e3, 8600e3, 8600e3})
	if pr.Planned != 10 || pr.Dropped != 1 {
		t.Errorf("planned %d dropped %d, want 10 and 1", pr.Planned, pr.Dropped)
	}
}

// wrk2 at 1000/s on one connection: on pace it waits for a timer of whole
// milliseconds, which fires that many milliseconds after it was set (the
// reply at 0.1 ms sets 1 ms: the send due at 1 ms leaves at 1.1 ms); the
// send at 2.2 ms meets the stall to 3.5 ms, the next is 600 µs late and
// leaves at once, then it is on pace again, 700 µs behind its due time.
func TestProfileWrk2(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 2e6, 1500e3, 0, 5e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: Wrk2Pace, FromIntended: true, Clock: 1000, RecordUntil: 5e6})
	eq(t, "send", pr.Send, []int64{0, 1100e3, 2200e3, 3600e3, 4700e3})
	eq(t, "intended", pr.Intended, []int64{0, 1e6, 2e6, 3e6, 4e6})
	eq(t, "latency", pr.Latency, []int64{100e3, 200e3, 1600e3, 700e3, 800e3})
	if pr.Planned != 5 {
		t.Errorf("planned %d, want 5", pr.Planned)
	}
}

// Seed 002's retry policy on a connection: the request at 2 ms waits out
// the stall (reply 4.1 ms), times out at 3 ms, is sent again at 3.5 ms and
// answered at 4.2 ms, after the server finished the abandoned one.
func TestProfileRetry(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 2500e3, 1500e3, 0, 3e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: CatchUp, Timeout: 1e6, Attempts: 2, Backoff: 500e3})
	eq(t, "send", pr.Send, []int64{0, 1e6, 3500e3})
	eq(t, "done", pr.Done, []int64{100e3, 1100e3, 4200e3})
	if pr.Attempts != 4 || pr.Retries != 1 || pr.TimedOut != 1 || pr.Failed != 0 {
		t.Errorf("attempts %d retries %d timed out %d failed %d", pr.Attempts, pr.Retries, pr.TimedOut, pr.Failed)
	}
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: CatchUp, Timeout: 1e6, Attempts: 1})
	if pr.Failed != 1 || len(pr.Done) != 2 {
		t.Errorf("without retries: failed %d, replies %d", pr.Failed, len(pr.Done))
	}
}

// wrk2's calibration discards what was recorded before it, retrying while
// nothing was.
func TestProfileCalibration(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 1e6, 0, 0, 0, 5e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack, RecordUntil: 5e6, Calibrate: 2500e3})
	if pr.Calibrated != 2500e3 || pr.Recorded != 2 || pr.Replies != 4 {
		t.Errorf("calibrated %d recorded %d replies %d, want 2.5ms, 2, 4", pr.Calibrated, pr.Recorded, pr.Replies)
	}
	cfg = hand(sim.RateOf(1000), 1e6, 3e6, 0, 0, 10e6, 1)
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack, RecordUntil: 10e6, Calibrate: 1e6, CalibrateRetry: 1e6})
	if pr.Calibrated != 5e6 || pr.Recorded != 5 {
		t.Errorf("calibrated %d recorded %d, want 5ms and 5", pr.Calibrated, pr.Recorded)
	}
}

// A profile too large for the runner is refused before it runs, naming the
// limit; so is a back-to-back client against a zero service time.
func TestProfileRefusals(t *testing.T) {
	cfg := sim.Default()
	cfg.Rate, cfg.Duration = sim.RateOf(1000000), 10e9
	if _, err := Run(cfg, Profile{Conc: Unbounded, Send: CatchUp}); err == nil || !strings.Contains(err.Error(), "limit tool sends") {
		t.Errorf("err %v", err)
	}
	cfg = sim.Default()
	cfg.Service = 0
	if _, err := Run(cfg, Profile{Send: BackToBack}); err == nil || !strings.Contains(err.Error(), "service") {
		t.Errorf("err %v", err)
	}
	cfg = sim.Default()
	cfg.Arrivals = sim.ArrivalsPoisson
	if _, err := Run(cfg, Profile{Send: BackToBack}); err == nil || !strings.Contains(err.Error(), "event engine") {
		t.Errorf("err %v", err)
	}
}

// wrk's stats_correct on its array and CorrectDist(WrkCorrection) agree,
// and both add ⌈v/E⌉ − 2 samples per value v ≥ 2E.
func TestWrkCorrection(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 50; n++ {
		e := int64(1 + rng.IntN(30))
		var samples []int64
		data := make([]int64, 1001)
		var mx int64
		for k := 0; k < 1+rng.IntN(40); k++ {
			v := int64(1 + rng.IntN(1000))
			samples = append(samples, v)
			data[v]++
			mx = max(mx, v)
		}
		want := int64(0)
		for _, v := range samples {
			if v >= 2*e {
				want += (v+e-1)/e - 2
			}
		}
		added, err := WrkStatsCorrect(data, mx, e)
		if err != nil || added != want {
			t.Fatalf("E %d: added %d (%v), want %d", e, added, err, want)
		}
		d, err := CorrectDist(exactDist(append([]int64(nil), samples...)), e, WrkCorrection)
		if err != nil || d.Count() != int64(len(samples))+want {
			t.Fatalf("E %d: CorrectDist count %d (%v)", e, d.Count(), err)
		}
		for x := int64(0); x <= mx; x++ {
			var c int64
			for v := int64(0); v <= x; v++ {
				c += data[v]
			}
			if got := d.CountAtOrBelow(x); got != c {
				t.Fatalf("E %d: CountAtOrBelow(%d) %d, array %d", e, x, got, c)
			}
		}
	}
	if _, err := WrkStatsCorrect(make([]int64, 10), 9, 0); err == nil {
		t.Error("E = 0 must be refused (wrk loops forever)")
	}
}

// Two locust-like paced connections started together (Aligned): both on
// slots 0, 2, 4… ms; both are late after the stall (2.5 to 6.5 ms), send at
// 6.6 ms and restart their slots there.
func TestProfileReanchorAligned(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 4e6, 2500e3, 0, 10e6, 0)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: Reanchor, Aligned: true})
	eq(t, "send", pr.Send, []int64{0, 0, 2e6, 2e6, 4e6, 4e6, 6600e3, 6600e3, 8600e3, 8600e3})
	if fmt.Sprint(pr.Conn) != "[0 1 0 1 0 1 0 1 0 1]" {
		t.Errorf("conn %v", pr.Conn)
	}
	if pr.Planned != 10 || pr.Dropped != 0 {
		t.Errorf("planned %d dropped %d, want 10 and 0", pr.Planned, pr.Dropped)
	}
}

// fortio at 1000/s for 10 ms on one connection: ⌊1000·0.01⌋ = 10 calls,
// call i due at (i + i/9)/1000 s = i·10/9 ms, truncated to the ns: 0,
// 1 111 111, 2 222 222, 3 333 333, …, 8 888 888 and 10 000 000 (the last
// at the duration). A 4 ms stall from 2.5 ms holds call 3 to 6.6 ms; calls
// 4, 5 and 6 (due 4.44, 5.56, 6.67 ms) are late and leave as soon as the
// previous one is done: 6.6, 6.7, 6.8 ms; call 7 is on time again. With
// NoCatchUp calls 4 and 5 are skipped and call 6 waits for its 6.67 ms.
func TestProfileFortio(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 4e6, 2500e3, 0, 10e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: FortioPace})
	eq(t, "intended", pr.Intended, []int64{0, 1111111, 2222222, 3333333, 4444444, 5555555, 6666666, 7777777, 8888888, 10000000})
	eq(t, "send", pr.Send, []int64{0, 1111111, 2222222, 3333333, 6600e3, 6700e3, 6800e3, 7777777, 8888888, 10000000})
	eq(t, "done", pr.Done, []int64{100e3, 1211111, 2322222, 6600e3, 6700e3, 6800e3, 6900e3, 7877777, 8988888, 10100000})
	if pr.Planned != 10 || pr.Dropped != 0 {
		t.Errorf("planned %d dropped %d, want 10 and 0", pr.Planned, pr.Dropped)
	}
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: FortioPace, NoCatchUp: true})
	eq(t, "send (no catch-up)", pr.Send, []int64{0, 1111111, 2222222, 3333333, 6666666, 7777777, 8888888, 10000000})
	if pr.Planned != 10 || pr.Dropped != 2 {
		t.Errorf("no catch-up: planned %d dropped %d, want 10 and 2", pr.Planned, pr.Dropped)
	}
	// Two connections: 5 calls each at (i + i/4)/500 s = 0, 2.5, 5, 7.5,
	// 10 ms, both at once; the one worker serves them one after the other.
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: FortioPace})
	eq(t, "send (2 connections)", pr.Send[:4], []int64{0, 0, 2500e3, 2500e3})
	eq(t, "done (2 connections)", pr.Done[:4], []int64{100e3, 200e3, 6600e3, 6700e3})
	if fmt.Sprint(pr.Conn[:4]) != "[0 1 0 1]" || pr.Planned != 10 {
		t.Errorf("conn %v planned %d", pr.Conn, pr.Planned)
	}
}

// fortio past its duration: a stall from 7.5 to 11.5 ms answers call 7 at
// 11.6 ms; call 8 would leave after the 10 ms end and is neither of the
// first two nor the last, so the connection stops (calls 8 and 9 dropped).
// With the stall from 8.5 ms it is call 8 that ends at 12.6 ms and the
// next is the last call, which fortio still sends.
func TestProfileFortioEnd(t *testing.T) {
	pr := mustRun(t, hand(sim.RateOf(1000), 100e3, 4e6, 7500e3, 0, 10e6, 1), Profile{Conc: Connections, Conns: 1, Send: FortioPace})
	if pr.Sent != 8 || pr.Dropped != 2 || pr.Done[7] != 11600e3 {
		t.Errorf("sent %d dropped %d done %v", pr.Sent, pr.Dropped, pr.Done)
	}
	pr = mustRun(t, hand(sim.RateOf(1000), 100e3, 4e6, 8500e3, 0, 10e6, 1), Profile{Conc: Connections, Conns: 1, Send: FortioPace})
	if pr.Sent != 10 || pr.Send[9] != 12600e3 {
		t.Errorf("sent %d send %v", pr.Sent, pr.Send)
	}
	if _, err := Run(hand(sim.RateOf(1000), 100e3, 0, 0, 0, 10e6, 1), Profile{Conc: Connections, Conns: 6, Send: FortioPace}); err == nil || !strings.Contains(err.Error(), "at most 5 connections") {
		t.Errorf("err %v", err)
	}
}

// A request that fails after its last attempt is kept in Fails: with a
// 1 ms timeout, fortio's call 3 (sent 3.33 ms, in the stall to 6.5 ms)
// fails at 4.33 ms, calls 4 and 5 (sent on time at 4.44 and 5.56 ms) fail
// too, call 6 at 6.67 ms is answered.
func TestProfileFails(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 4e6, 2500e3, 0, 10e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: FortioPace, Timeout: 1e6})
	want := "[{3333333 3333333 4333333 0} {4444444 4444444 5444444 0} {5555555 5555555 6555555 0}]"
	if got := fmt.Sprint(pr.Fails); got != want || pr.Failed != 3 || pr.Sent != 10 || len(pr.Done) != 7 {
		t.Errorf("fails %s (want %s), failed %d sent %d replies %d", got, want, pr.Failed, pr.Sent, len(pr.Done))
	}
	eq(t, "send", pr.Send, []int64{0, 1111111, 2222222, 6666666, 7777777, 8888888, 10000000})
}

// Aligned slots: with 3 connections at 1000/s for 10 ms each connection
// has the slots due(3k) < 10 ms, 0, 3, 6, 9 ms: 4 each, 12 planned.
func TestProfileReanchorAlignedPlanned(t *testing.T) {
	pr := mustRun(t, hand(sim.RateOf(1000), 100e3, 0, 0, 0, 10e6, 0), Profile{Conc: Connections, Conns: 3, Send: Reanchor, Aligned: true})
	if pr.Planned != 12 || pr.Sent != 12 || pr.Dropped != 0 {
		t.Errorf("planned %d sent %d dropped %d, want 12, 12, 0", pr.Planned, pr.Sent, pr.Dropped)
	}
}

// The client's own time per request (Profile.Client, issue 27): two
// connections back to back on one worker, 100 µs of service and 300 µs of
// client time. The server serves connection 0 over [0, 100) µs and
// connection 1 over [100, 200) µs; each reply reaches its tool 300 µs
// later, which sends again at once; the server is idle meanwhile, so the
// round trips are 400 µs, but 500 µs for the request that queued behind
// the other. Nothing is sent at or after the 1 ms duration.
func TestProfileClientTime(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 0, 0, 0, 1e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: BackToBack, Client: 300e3})
	eq(t, "send", pr.Send, []int64{0, 0, 400e3, 500e3, 800e3, 900e3})
	eq(t, "done", pr.Done, []int64{400e3, 500e3, 800e3, 900e3, 1200e3, 1300e3})
	eq(t, "latency", pr.Latency, []int64{400e3, 500e3, 400e3, 400e3, 400e3, 400e3})
	if _, err := Run(cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack, Client: -1}); err == nil || !strings.Contains(err.Error(), "the client's time per request") {
		t.Errorf("Client −1: %v", err)
	}
}

// TestProfilesRandomService: with a service distribution the profile
// runner draws each request's service from the "service" stream in the
// order it serves them, as the event engine draws one for each request it
// makes, so the profiles of the closed, paced and open clients reproduce
// the engine's recordings of them, sample for sample, on random
// configurations with each distribution.
func TestProfilesRandomService(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 23))
	dists := []sim.ServiceDist{sim.ServiceExponential, sim.ServiceLognormal, sim.ServiceUniform}
	for n := 0; n < 60; n++ {
		cfg := randomFastConfig(rng)
		if cfg.Service == 0 {
			cfg.Service = 50e3
		}
		cfg.Dist = dists[n%3]
		switch cfg.Dist {
		case sim.ServiceLognormal:
			cfg.ServiceP95 = 3 * cfg.Service
		case sim.ServiceUniform:
			cfg.ServiceMax = 2 * cfg.Service
		}
		cfg.Seed = uint64(n + 1)
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		for _, tc := range clientProfiles(cfg) {
			pr, err := Run(cfg, tc.p)
			if err != nil {
				t.Fatalf("%s %s: %v", cfg.Query(), tc.kind, err)
			}
			sameRecording(t, cfg.Query()+" "+tc.kind.String()+" (the engine's)", pr, res.Recordings[tc.kind], cfg.Rank)
		}
	}
	// A back-to-back client whose draws run past the send limit is
	// stopped with the limit's message, not left to run.
	cfg := sim.Default()
	cfg.Dist, cfg.Service, cfg.ServiceMax, cfg.Stall = sim.ServiceUniform, 0, 2e3, 0
	cfg.Duration = 60e9
	if _, err := Run(cfg, Profile{Conc: Connections, Conns: 1, Send: BackToBack}); err == nil || !strings.Contains(err.Error(), "limit tool sends") {
		t.Errorf("a back-to-back run of some %d sends: err %v", cfg.Duration/1e3, err)
	}
}

// bombardier --rate 1000 on one connection (a bucket of 10 tokens, 10 more
// every 10 ms, juju/ratelimit's NewBucketWithQuantum(10ms, 10, 10)):
// ten requests 100 µs apart at the start of each 10 ms, the next waiting
// for the tick. The one sent at 30 ms waits out the stall (25 to 45 ms) and
// is answered at 45.1 ms; the bucket, full again (its reserved token and
// the tokens of two ticks, capped at 10), lets ten leave at once, and the
// eleventh would wait for 50 ms, the duration: 41 sent of 50 planned, the
// 19 the stall held back never sent.
func TestProfileTokenBucket(t *testing.T) {
	cfg := hand(sim.RateOf(1000), 100e3, 20e6, 25e6, 0, 50e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: TokenBucket, Period: 10e6, Quantum: 10, FromIntended: true})
	var send, lat []int64
	for _, start := range []int64{0, 10e6, 20e6} {
		for j := int64(0); j < 10; j++ {
			send, lat = append(send, start+j*100e3), append(lat, 100e3)
		}
	}
	send, lat = append(send, 30e6), append(lat, 15100e3)
	for j := int64(1); j <= 10; j++ {
		send, lat = append(send, 45e6+j*100e3), append(lat, 100e3)
	}
	eq(t, "send", pr.Send, send)
	eq(t, "latency", pr.Latency, lat)
	if pr.Planned != 50 || pr.Dropped != 9 {
		t.Errorf("planned %d dropped %d, want 50 and 9", pr.Planned, pr.Dropped)
	}
	// Without a stall, two connections send exactly the rate: 100 in
	// 100 ms, ten in each tick's 10 ms.
	cfg = hand(sim.RateOf(1000), 100e3, 0, 0, 0, 100e6, 1)
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: TokenBucket, Period: 10e6, Quantum: 10, FromIntended: true})
	per := map[int64]int{}
	for _, s := range pr.Send {
		per[s/10e6]++
	}
	if len(pr.Send) != 100 || len(per) != 10 {
		t.Errorf("sent %d over %d ticks, want 100 over 10", len(pr.Send), len(per))
	}
	for k, n := range per {
		if n != 10 {
			t.Errorf("tick %d: %d sent, want 10", k, n)
		}
	}
}

// autocannon -R on one connection (a share of 5 requests in each 10 ms
// window, 1 ms a request): five back to back from each window's start,
// then a wait for the next. The stall (12 to 15 ms) holds the third of
// window 1 to 16 ms; the window's last two still fit after it, so no send
// is lost, and window 2's five end the run (the next would be at 30 ms,
// past the duration).
func TestProfileQuota(t *testing.T) {
	cfg := hand(sim.RateOf(500), 1e6, 3e6, 12e6, 0, 25e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: Quota, Period: 10e6, Quantum: 5, FromIntended: true})
	eq(t, "send", pr.Send, []int64{0, 1e6, 2e6, 3e6, 4e6, 10e6, 11e6, 12e6, 16e6, 17e6, 20e6, 21e6, 22e6, 23e6, 24e6})
	eq(t, "latency", pr.Latency, []int64{1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 4e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6})
	// Three connections share 7 a window: 3, 2 and 2 (distributeNums).
	cfg = hand(sim.RateOf(700), 100e3, 0, 0, 0, 10e6, 1)
	pr = mustRun(t, cfg, Profile{Conc: Connections, Conns: 3, Send: Quota, Period: 10e6, Quantum: 7, FromIntended: true})
	per := map[int32]int{}
	for _, c := range pr.Conn {
		per[c]++
	}
	if per[0] != 3 || per[1] != 2 || per[2] != 2 {
		t.Errorf("sends per connection %v, want 3, 2 and 2", per)
	}
}

// Artillery's uniform arrivals at 300/s: one every ⌊1e6/300⌋ = 3,333 µs,
// the first 3,333 µs after the start, ⌊20 ms / 3,333 µs⌋ = 6 in a 20 ms
// phase, each sent when it arrives whatever is in flight. The stall (5 to
// 12 ms, 1 ms of service) holds the second until 12 ms, and the third and
// fourth queue behind it.
func TestProfileUniform(t *testing.T) {
	cfg := hand(sim.RateOf(300), 1e6, 7e6, 5e6, 0, 20e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Unbounded, Send: Uniform, Period: 3333e3})
	eq(t, "send", pr.Send, []int64{3333e3, 6666e3, 9999e3, 13332e3, 16665e3, 19998e3})
	eq(t, "latency", pr.Latency, []int64{1e6, 6334e3, 4001e3, 1668e3, 1e6, 1e6})
	if pr.Planned != 6 || pr.Dropped != 0 {
		t.Errorf("planned %d dropped %d, want 6 and 0", pr.Planned, pr.Dropped)
	}
	for _, p := range []Profile{{Conc: Connections, Conns: 1, Send: Uniform, Period: 1e6}, {Conc: Unbounded, Send: Uniform}} {
		if _, err := Run(cfg, p); err == nil {
			t.Errorf("%+v: run, want refused", p)
		}
	}
}

// The same arrivals with Artillery's maxVusers of 1: the second holds its
// one virtual user until 13 ms, so the third (9.999 ms) finds none and is
// skipped, never sent; the fourth (13.332 ms) finds it free. With a cap of
// 2 the third is sent and the run is the unbounded one. A cap that grows
// is refused.
func TestProfileUniformCap(t *testing.T) {
	cfg := hand(sim.RateOf(300), 1e6, 7e6, 5e6, 0, 20e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: VUPool, Conns: 1, Send: Uniform, Period: 3333e3})
	eq(t, "send", pr.Send, []int64{3333e3, 6666e3, 13332e3, 16665e3, 19998e3})
	eq(t, "latency", pr.Latency, []int64{1e6, 6334e3, 1e6, 1e6, 1e6})
	if pr.Planned != 6 || pr.Dropped != 1 {
		t.Errorf("cap 1: planned %d dropped %d, want 6 and 1", pr.Planned, pr.Dropped)
	}
	eq(t, "cap 1 skipped at", pr.DroppedAt, []int64{9999e3})
	pr = mustRun(t, cfg, Profile{Conc: VUPool, Conns: 2, Send: Uniform, Period: 3333e3})
	eq(t, "cap 2 latency", pr.Latency, []int64{1e6, 6334e3, 4001e3, 1668e3, 1e6, 1e6})
	if pr.Dropped != 0 {
		t.Errorf("cap 2: dropped %d, want 0", pr.Dropped)
	}
	if _, err := Run(cfg, Profile{Conc: VUPool, Conns: 1, MaxVUs: 2, Send: Uniform, Period: 3333e3}); err == nil {
		t.Error("a cap on uniform arrivals that grows: run, want refused")
	}
}

// JMeter's Constant Throughput Timer on two threads, 10 ms each: both send
// at 0, 10 and 20 ms; the stall (12 to 35 ms, one worker, 1 ms of
// service) holds the two sent at 20 to 36 and 37 ms, past their next
// slot (30): each sends again at once and re-anchors there (each of those
// two waits a service behind the other's), and the slot at 30 is never
// sent; 56 and 57 would be past the 50 ms run.
func TestProfileReanchorPeriod(t *testing.T) {
	cfg := hand(sim.RateOf(200), 1e6, 23e6, 12e6, 0, 50e6, 1)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 2, Send: Reanchor, Aligned: true, Period: 10e6})
	eq(t, "send", pr.Send, []int64{0, 0, 10e6, 10e6, 20e6, 20e6, 36e6, 37e6, 46e6, 47e6})
	eq(t, "latency", pr.Latency, []int64{1e6, 2e6, 1e6, 2e6, 16e6, 17e6, 2e6, 2e6, 1e6, 1e6})
	if pr.Planned != 10 {
		t.Errorf("planned %d, want 10", pr.Planned)
	}
	if _, err := Run(cfg, Profile{Conc: Connections, Conns: 2, Send: Reanchor, Period: 10e6}); err == nil {
		t.Error("a period for connections that do not start together: run, want refused")
	}
}

// Gatling's open injection of 5 users over 2 s (Shard.scala): the first
// second holds ⌈5/2⌉ = 3, spread over its milliseconds at 0, 333 and 666
// ms (⌈0.003·(m + 1)⌉ steps at m = 333 and 666), the second 2, at 1000 and
// 1500 ms. A stall from 300 to 700 ms (one worker, 1 ms service) holds
// the users of 333 and 666 ms to 701 and 702 ms.
func TestProfileShards(t *testing.T) {
	cfg := hand(sim.RateOf(3), 1e6, 400e6, 300e6, 0, 2e9, 1)
	pr := mustRun(t, cfg, Profile{Conc: Unbounded, Send: Shards, Quantum: 5, Duration: 2e9})
	eq(t, "send", pr.Send, []int64{0, 333e6, 666e6, 1000e6, 1500e6})
	eq(t, "latency", pr.Latency, []int64{1e6, 368e6, 36e6, 1e6, 1e6})
	if pr.Planned != 5 || pr.Dropped != 0 {
		t.Errorf("planned %d dropped %d, want 5 and 0", pr.Planned, pr.Dropped)
	}
	for _, p := range []Profile{{Conc: Connections, Conns: 1, Send: Shards, Quantum: 5, Duration: 2e9},
		{Conc: Unbounded, Send: Shards, Duration: 2e9}, {Conc: Unbounded, Send: Shards, Quantum: 5, Duration: 1500e6}} {
		if _, err := Run(cfg, p); err == nil {
			t.Errorf("%+v: run, want refused", p)
		}
	}
	// 1000 users a second for 1 s: one each millisecond.
	cfg.Stall = 0
	pr = mustRun(t, cfg, Profile{Conc: Unbounded, Send: Shards, Quantum: 1000, Duration: 1e9})
	for i, s := range pr.Send {
		if s != int64(i)*1e6 {
			t.Fatalf("1000 over 1 s: user %d sent at %d ns, want %d ms", i, s, i)
		}
	}
}

// Gatling's closed injection starts its 3 users at their shards of its
// first second, 0, 333 and 666 ms, each then back to back.
func TestProfileSpread(t *testing.T) {
	cfg := hand(sim.RateOf(3), 100e6, 0, 0, 0, 1e9, 3)
	pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 3, Send: BackToBack, Spread: 1e9})
	eq(t, "send", pr.Send, []int64{0, 100e6, 200e6, 300e6, 333e6, 400e6, 433e6, 500e6, 533e6, 600e6, 633e6, 666e6, 700e6, 733e6, 766e6, 800e6, 833e6, 866e6, 900e6, 933e6, 966e6})
	if got := ShardStarts(3, 1e9); fmt.Sprint(got) != "[0 333000000 666000000]" {
		t.Errorf("ShardStarts(3, 1 s) = %v", got)
	}
	if _, err := Run(cfg, Profile{Conc: Connections, Conns: 3, Send: BackToBack, Spread: 1500}); err == nil {
		t.Error("a spread of part of a millisecond: run, want refused")
	}
}
