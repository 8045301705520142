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
		// The lab's four incidents (sim/rival_test.go sets them beside its
		// own figures): each sentence about the run, on the run.
		"pause": {"more than twice the closed loop's", func(r *sim.Result) bool {
			return incident(r, 7000, 1400e6) && p99(r, sim.Open) > 2*p99(r, sim.Closed) && r.Config.Workers > r.Config.Conns
		}},
		"brownout": {"the workers cannot keep up. The open loop's p99 comes out more than six times the closed loop's", func(r *sim.Result) bool {
			c := r.Config
			behind := c.MeanService()*3.8*float64(c.Rate)/1000/1e9 > float64(c.Workers) // in the window
			return incident(r, 3800, 7e9) && behind && p99(r, sim.Open) > 6*p99(r, sim.Closed)
		}},
		"saturation": {"passes 10 s, while the closed loop's stays under half a second", func(r *sim.Result) bool {
			c := r.Config
			tooFew := c.MeanService()*float64(c.Rate)/1000/1e9 > float64(c.Workers)
			return incident(r, 2500, 13e9) && tooFew && p99(r, sim.Open) > 10e9 && p99(r, sim.Closed) < 500e6
		}},
		"baseline": {"agree within 5 %", func(r *sim.Result) bool {
			return incident(r, 1150, 2e9) && r.Config.Workers > r.Config.Conns && within(p99(r, sim.Open), p99(r, sim.Closed), 0.05)
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

func p99(r *sim.Result, k sim.Kind) int64 { return r.Recordings[k].P[sim.P99] }

// incident reports whether the run has one slowdown window of factor k
// (×1000) and length d, and think time: one of the lab's incidents.
func incident(r *sim.Result, k sim.Rate, d int64) bool {
	ws := r.Config.SlowWindows()
	return len(ws) == 1 && ws[0].Rate == k && ws[0].To-ws[0].From == d && r.Config.Think > 0
}
