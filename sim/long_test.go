package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// runLongPath runs a deterministic cfg through the long path, whatever its
// size.
func runLongPath(t testing.TB, cfg Config) *Result {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	n := NewSchedule(cfg.Rate).Count(cfg.Duration)
	r := &Runner{cfg: cfg, planned: n, long: newLongRun(cfg, n)}
	res := r.Result()
	if res == nil {
		t.Fatalf("%s: %v", cfg.Query(), r.Err())
	}
	return res
}

// runWalkPath runs a deterministic cfg request by request, whatever its size.
func runWalkPath(t testing.TB, cfg Config) *Result {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return startWalk(cfg, NewSchedule(cfg.Rate).Count(cfg.Duration)).Result()
}

// sameResult requires two results of one configuration to be the same:
// every number of the report, every check, the hash.
func sameResult(t *testing.T, name string, walk, long *Result) {
	t.Helper()
	a, _ := json.Marshal(walk.Report())
	b, _ := json.Marshal(long.Report())
	if string(a) != string(b) || walk.Hash != long.Hash {
		for k := range walk.Recordings {
			x, y := walk.Recordings[k], long.Recordings[k]
			if x.Count != y.Count || x.Mean != y.Mean || x.P != y.P || x.Max != y.Max || x.Above != y.Above {
				t.Errorf("%s %s: walk count %d mean %v P %v max %d above %d; long count %d mean %v P %v max %d above %d",
					name, Kind(k), x.Count, x.Mean, x.P, x.Max, x.Above, y.Count, y.Mean, y.P, y.Max, y.Above)
			}
		}
		for c := range walk.Clients {
			x, y := walk.Clients[c], long.Clients[c]
			if x.Sent != y.Sent || x.LastCompletion != y.LastCompletion || x.StallsMet != y.StallsMet {
				t.Errorf("%s %s: walk sent %d last %d stalls %d; long sent %d last %d stalls %d", name, Client(c), x.Sent, x.LastCompletion, x.StallsMet, y.Sent, y.LastCompletion, y.StallsMet)
			}
		}
		for i := range walk.Checks {
			if i < len(long.Checks) && (walk.Checks[i].ID != long.Checks[i].ID || walk.Checks[i].Got != long.Checks[i].Got || walk.Checks[i].Pass != long.Checks[i].Pass) {
				t.Errorf("%s: check %s got %v pass %v; long %s got %v pass %v", name, walk.Checks[i].ID, walk.Checks[i].Got, walk.Checks[i].Pass, long.Checks[i].ID, long.Checks[i].Got, long.Checks[i].Pass)
			}
		}
		if len(walk.Checks) != len(long.Checks) {
			t.Errorf("%s: %d checks walked, %d long", name, len(walk.Checks), len(long.Checks))
		}
		t.Errorf("%s: reports differ (hash %s vs %s)", name, walk.Hash, long.Hash)
	}
}

// randomLongConfig draws a deterministic configuration of a few thousand
// requests, leaning on the edges: rounded and exact rates, service times at
// and around the due gaps of the slots, services longer than the stall
// period, no service, unlimited workers, fewer workers than connections.
func randomLongConfig(r *rand.Rand) Config {
	rates := []Rate{RateOf(1000), RateOf(5000), RateOf(100000), RateOf(3000), RateOf(7000), 333333, RateOf(12345), 2860411899, RateOf(2500), 1500}
	for {
		c := Default()
		c.Rate = rates[r.IntN(len(rates))]
		if r.IntN(4) == 0 {
			c.Rate = Rate(1000 + r.Int64N(20_000_000))
		}
		sched := NewSchedule(c.Rate)
		T := sched.Interval(1)
		c.Conns = 1 + r.IntN(6)
		c.Workers = r.IntN(5)
		if r.IntN(3) == 0 {
			c.Conns, c.Workers = 1, 1
		}
		k := int64(max(1, min(c.Conns, max(c.Workers, 1))))
		G := int64(uint64(k) * nsPerMilliRate / uint64(c.Rate))
		switch r.IntN(8) {
		case 0:
			c.Service = 0
		case 1:
			c.Service = G
		case 2:
			c.Service = G + 1
		case 3:
			c.Service = T*int64(c.Conns) + r.Int64N(3) - 1
		case 4:
			c.Service = int64(nsPerMilliRate/uint64(c.Rate)) + 1 // the paced client's awkward case
		default:
			c.Service = r.Int64N(3 * T * k)
		}
		c.Service = max(c.Service, 0)
		c.Stall = r.Int64N(60 * T)
		c.Every = 0
		if r.IntN(4) != 0 {
			c.Every = c.Stall + 1 + r.Int64N(150*T)
		}
		if r.IntN(8) == 0 && c.Stall > 0 {
			c.Every = c.Stall + 1 + r.Int64N(max(1, c.Service/2+1)) // services spanning stalls
		}
		c.First = r.Int64N(40 * T)
		if r.IntN(3) == 0 {
			c.First = T * r.Int64N(40)
		}
		c.Duration = 1 + r.Int64N(3000*T)
		c.Above = r.Int64N(10 * T)
		c.Rank = Rank(r.IntN(2))
		if r.IntN(4) == 0 {
			c.Interval = 1 + r.Int64N(2*T)
		}
		if c.Validate() == nil {
			return c
		}
	}
}

// TestLongMatchesWalk: the long path gives the walk's result, report and
// hash, on random configurations of every kind.
func TestLongMatchesWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2026))
	n := 1500
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		cfg := randomLongConfig(r)
		sameResult(t, cfg.Query(), runWalkPath(t, cfg), runLongPath(t, cfg))
		if t.Failed() {
			t.Fatalf("stopped at configuration %d", i)
		}
	}
}

// TestLongMatchesWalkPresets: the presets and the golden traces'
// configurations, through both paths.
func TestLongMatchesWalkPresets(t *testing.T) {
	qs := []string{"", "rank=ceil", "preset=tcp", "preset=tcp&rank=ceil", "preset=note60", "preset=note60-single", "preset=clients10", "preset=clients10&workers=7&rank=ceil",
		"rate=1000&service=300us&stall=2500us&every=10ms&first=2ms&duration=20ms",
		"rate=1000&service=800us&stall=1500us&every=4ms&first=2300us&duration=12ms",
		"rate=3000&service=900us&stall=2ms&every=7ms&first=1ms&duration=10ms&conns=3&workers=2",
		"rate=333.333&service=2ms&stall=40ms&every=700ms&first=10ms&duration=3s&conns=4&workers=3"}
	for _, q := range qs {
		cfg := parse(t, q)
		sameResult(t, fmt.Sprintf("%q", q), runWalkPath(t, cfg), runLongPath(t, cfg))
	}
}

// TestLongClosedForms: at 1 h and 24 h, in the closed forms' regime, every
// closed form equals the long path's number, to the nanosecond.
func TestLongClosedForms(t *testing.T) {
	r := rand.New(rand.NewPCG(60, 24))
	rates := []int64{1000, 10000, 100000, 200000, 1000000, 10000000}
	checked := 0
	for trial := 0; trial < 200 && checked < 40; trial++ {
		c := Default()
		rate := rates[r.IntN(len(rates))]
		T := int64(1e9) / rate
		c.Rate = RateOf(rate)
		c.Service = r.Int64N(T)
		c.Duration = []int64{3600e9, 86400e9}[r.IntN(2)]
		c.Stall = T + r.Int64N(100e6)
		J := ceilDiv(c.Stall, T-c.Service)
		c.Every = 0
		if r.IntN(4) != 0 {
			c.Every = T * (J + r.Int64N(max(1, 60e9/T)))
			if c.Every <= c.Stall {
				continue
			}
		}
		c.First = T * r.Int64N(1e10/T)
		c.Above = r.Int64N(c.Stall + c.Service + T)
		c.Rank = Rank(r.IntN(2))
		if r.IntN(3) == 0 {
			c.Interval = 1 + r.Int64N(3*T)
		}
		if ok, _ := Regime(c); !ok || c.Validate() != nil {
			continue
		}
		res, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if res.long == nil {
			t.Fatalf("%s: not on the long path", c.Query())
		}
		forms := 0
		for _, ch := range res.Checks {
			if ch.Kind == "closed-form" {
				forms++
			}
			if !ch.Pass {
				t.Errorf("%s: %s: closed form %v, long path %v", c.Query(), ch.ID, ch.Want, ch.Got)
			}
		}
		want := 3*9 + 12 // closed, open, corrected; three clients' counters
		if res.CheckFor("paced.sent") == nil {
			want -= 4 // more than maxPacedStalls stalls: the paced derivation is not run
		}
		if forms < want {
			t.Errorf("%s: only %d closed-form checks", c.Query(), forms)
		}
		checked++
	}
	if checked < 30 {
		t.Errorf("only %d configurations in the regime", checked)
	}
}

// TestCompareTimelines: the member-by-member count the long path falls back
// to, when the closed and open clients' stretches differ, finds every reply
// shared on runs where they agree.
func TestCompareTimelines(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "rate=3000&service=300us&stall=2ms&every=7ms&first=1ms&duration=200ms"} {
		cfg := parse(t, q)
		n := NewSchedule(cfg.Rate).Count(cfg.Duration)
		l := newLongRun(cfg, n)
		for !l.step(1 << 30) {
		}
		want := l.tal.sameReplies
		l.tal.sameReplies = -1
		l.compareTimelines()
		if l.tal.sameReplies != want || want != n {
			t.Errorf("%q: compared %d, hashes said %d, of %d", q, l.tal.sameReplies, want, n)
		}
	}
}
