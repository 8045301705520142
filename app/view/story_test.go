package view

import (
	"strings"
	"testing"

	"omission/sim"
)

// storyHolds re-derives, from the result alone, whether a story's claim
// holds: the rule each variant is chosen by, written again here from the
// recordings and the stalls the run met.
func storyHolds(claim string, res *sim.Result) bool {
	closed, open := res.Recordings[sim.Closed].P[sim.P99], res.Recordings[sim.Open].P[sim.P99]
	agree := 10*open <= 11*closed
	stalls := res.StallCount() > 0
	failed := false
	if e := res.Engine; e != nil {
		cc, oc := &e.Clients[sim.ClosedClient], &e.Clients[sim.OpenClient]
		failed = cc.Replies < cc.Sent || oc.Replies < oc.Sent
	}
	switch claim {
	case ClaimFailed:
		return res.Config.EventDriven() && failed
	case ClaimEvent:
		return res.Config.EventDriven() && !failed
	case ClaimNoStallSame:
		return !res.Config.EventDriven() && !stalls && agree
	case ClaimNoStallQ:
		return !res.Config.EventDriven() && !stalls && !agree
	case ClaimShown:
		return !res.Config.EventDriven() && stalls && agree
	case ClaimHidden:
		return !res.Config.EventDriven() && stalls && !agree
	}
	return false
}

// TestStoryFollowsTheRun: the sentence beside the headline is chosen by a
// check on the run, every variant is reached, and the canned sentence of
// the one-connection case is never shown where it does not hold.
func TestStoryFollowsTheRun(t *testing.T) {
	queries := []string{
		"", "preset=tcp", "preset=note60", "preset=note60-single", "preset=clients10",
		"conns=10000&duration=2s", "stall=0s&duration=2s", "stall=0s&rate=20000&duration=1s",
		"conns=2&duration=2s", "conns=64&duration=2s", "stall=900ms&every=1s&duration=3s",
		"arrivals=poisson&duration=2s", "dist=exponential&duration=2s", "outages=1s-1200ms&duration=2s",
		"rate=100&stall=50ms&every=100ms&duration=2s", "service=0s&duration=2s", "service=0s&stall=0s&duration=1s",
	}
	seen := map[string]bool{}
	for _, q := range queries {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		s := Build(1, res, 0).Headline.Story
		seen[s.Claim] = true
		if !storyHolds(s.Claim, res) {
			t.Errorf("%s: story %q does not hold: %s", q, s.Claim, s.Text)
		}
		if s.Text == "" || strings.Contains(s.Text, "—") {
			t.Errorf("%s: story text %q", q, s.Text)
		}
		if cfg.Conns > 1 && strings.Contains(s.Text, "one connection") {
			t.Errorf("%s: %d connections, yet the story says one: %s", q, cfg.Conns, s.Text)
		}
		if (res.StallCount() == 0 || s.Claim == ClaimShown) && strings.Contains(s.Text, "waits out each stall") {
			t.Errorf("%s: the stall story where it does not hold: %s", q, s.Text)
		}
	}
	for _, c := range []string{ClaimFailed, ClaimEvent, ClaimNoStallSame, ClaimNoStallQ, ClaimShown, ClaimHidden} {
		if !seen[c] {
			t.Errorf("no query reached the story %q", c)
		}
	}
}
