package sim

import (
	"math/rand/v2"
	"testing"
)

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
