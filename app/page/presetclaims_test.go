package page

import (
	"strings"
	"testing"

	"omission/sim"
)

// TestPresetWordsHold: each sentence of a preset's words that says
// something of its run is checked against that run (issue 26: no canned
// story); a preset without such a sentence only names where it comes from.
func TestPresetWordsHold(t *testing.T) {
	run := func(name string) *sim.Result {
		t.Helper()
		cfg, ok := sim.PresetConfig(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	claims := map[string]struct {
		says  string
		holds func(r *sim.Result) bool
	}{
		// seed 004: the note's p99 ≈ 400 ms and mean ≈ 9.3 ms of the open loop.
		"note60": {"Its estimates hold", func(r *sim.Result) bool {
			o := r.Recordings[sim.Open]
			return r.Config.Workers == 0 && within(o.P[sim.P99], 400e6, 0.05) && within(int64(o.Mean), 9.3e6, 0.05)
		}},
		// one worker busy all the time: the stall's backlog is still there at the end.
		"note60-single": {"never drains", func(r *sim.Result) bool {
			c := r.Config
			return c.Workers == 1 && c.Service*int64(c.Rate)/1000 == 1e9 && r.Clients[sim.OpenClient].LastCompletion >= c.Duration+c.Stall
		}},
		"clients10": {"ten connections", func(r *sim.Result) bool { return r.Config.Conns == 10 }},
		"retry-storm": {"more than double the attempts", func(r *sim.Result) bool {
			c := r.Config
			open, closed := r.Engine.Clients[sim.OpenClient].Retry, r.Engine.Clients[sim.ClosedClient].Retry
			busy := float64(c.Service) * float64(c.Rate) / 1000 / 1e9
			outage := c.OutageWindows()
			return within(int64(busy*1000), 800, 0) && len(outage) == 1 && outage[0].To-outage[0].From == 5e8 &&
				open.Attempts > 2*r.Clients[sim.OpenClient].Planned && 2*r.Engine.Clients[sim.OpenClient].Wasted > open.Attempts &&
				closed.FailedCalls == 2
		}},
	}
	for _, w := range presetWords {
		c, ok := claims[w.Name]
		if !ok {
			continue
		}
		if !strings.Contains(w.From, c.says) {
			t.Errorf("%s: its words no longer say %q: %s", w.Name, c.says, w.From)
		}
		if !c.holds(run(w.Name)) {
			t.Errorf("%s: %q does not hold for its run", w.Name, c.says)
		}
	}
}

func within(got, want int64, tol float64) bool {
	d := float64(got - want)
	return d <= tol*float64(want) && -d <= tol*float64(want)
}
