package article

import (
	"errors"
	"fmt"
	"math"

	"omission/sim"
	"omission/sim/window"
)

// The claims of the article: every sentence whose truth depends on the
// parameters is bound to one of these ([if id name: … | …] in
// article.txt), checked against the simulator's result for the section's
// query, so that a reader who changes a value reads the sentence that holds
// for it. At the article's own values every claim holds (TestClaimsHold):
// the prose reads as written.

// claimIDs are the claims article.txt may use; as-published, on the
// section as a whole, reads no query.
var claimIDs = []string{
	"as-published", "spare", "same-timeline", "regime", "drains", "one-slow-per-stall",
	"median-is-service", "p999-is-service", "paced-skips-stalls", "note-holds", "never-drains",
	"one-slow-per-conn", "mean-rises", "added-slower", "correction-lifts", "corrected-near-open",
	"corrected-p90-below", "e-not-slot", "p99-agree", "piles-up",
}

// claimOnSection tells whether a claim is on the section as a whole: it
// holds when the reader changed none of the section's values.
func claimOnSection(id string) bool { return id == "as-published" }

// claimHolds tells whether claim id holds for a result.
func claimHolds(id string, r *sim.Result) (bool, error) {
	holds, ok := claimChecks[id]
	if !ok {
		return false, fmt.Errorf("no claim %q", id)
	}
	return holds(r)
}

// claimChecks tells for each claim of claimIDs but as-published whether it
// holds for a result. Each check says what it holds; they follow the
// sections of the article that first make them.
var claimChecks = map[string]func(r *sim.Result) (bool, error){
	// One server, one schedule, two ways to send (#schedule).
	"spare":         claimSpare,
	"same-timeline": claimSameTimeline,
	// What a closed loop does while the server is stalled (#closed).
	"one-slow-per-stall": claimOneSlowPerStall,
	"median-is-service":  claimMedianIsService,
	"p999-is-service":    claimP999IsService,
	"regime":             claimRegime,
	"drains":             claimDrains,
	// Pacing the client does not fix it (#paced).
	"paced-skips-stalls": claimPacedSkipsStalls,
	// A back-of-the-envelope note, and when it holds (#note).
	"note-holds":   claimNoteHolds,
	"never-drains": claimNeverDrains,
	// Ten connections, and the mean (#clients).
	"one-slow-per-conn": claimOneSlowPerConn,
	"mean-rises":        claimMeanRises,
	"added-slower":      claimAddedSlower,
	// Two fixes, and where each one stops (#fixes).
	"correction-lifts":    claimCorrectionLifts,
	"corrected-near-open": claimCorrectedNearOpen,
	"corrected-p90-below": claimCorrectedP90Below,
	"e-not-slot":          claimENotSlot,
	// When it gets bad (#landscape).
	"p99-agree": claimP99Agree,
	"piles-up":  claimPilesUp,
}

// The claims of #schedule.

// claimSpare: the server has capacity to spare: a request takes less than
// the slot between two.
func claimSpare(r *sim.Result) (bool, error) {
	return r.Config.Service < r.Slot, nil
}

// claimSameTimeline: the closed and open loops answer every request at the
// same instant (the simulator's invariant inv.same_timeline.replies).
func claimSameTimeline(r *sim.Result) (bool, error) {
	c := r.CheckFor("inv.same_timeline.replies")
	if c == nil {
		return false, errors.New("the run kept no per-request times to compare")
	}
	return c.Pass, nil
}

// The claims of #closed (one-slow-per-stall is made again in #paced, and
// regime in #fixes).

// claimOneSlowPerStall: the closed loop records one sample above the
// threshold per stall.
func claimOneSlowPerStall(r *sim.Result) (bool, error) {
	stalls := r.Clients[sim.ClosedClient].StallsMet
	return stalls > 0 && r.Recordings[sim.Closed].Above == stalls, nil
}

// claimMedianIsService: the closed loop's p50 is the service time.
func claimMedianIsService(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Closed].P[sim.P50] == r.Config.Service, nil
}

// claimP999IsService: the closed loop's p99 and p99.9 are the service time:
// only its slowest samples show the stalls.
func claimP999IsService(r *sim.Result) (bool, error) {
	c := &r.Recordings[sim.Closed]
	return c.P[sim.P99] == r.Config.Service && c.P[sim.P999] == r.Config.Service && c.Max > r.Config.Service, nil
}

// claimRegime: every number of the run has a closed form
// (sim.DeriveClosedForms).
func claimRegime(r *sim.Result) (bool, error) {
	return sim.DeriveClosedForms(r.Config) != nil, nil
}

// claimDrains: after every stall but the last, the open loop is back to the
// service time before the next stall begins: each backlog drains.
func claimDrains(r *sim.Result) (bool, error) {
	c := &r.Clients[sim.OpenClient]
	if c.Done == nil {
		return false, errors.New("the run kept no per-request times")
	}
	first, last := r.StallsIn(0, r.Config.Duration)
	sched := r.Schedule()
	for k := first; k+1 < last; k++ {
		next, _ := r.StallSpan(k + 1)
		// The last request due before the next stall.
		i := sched.Count(next) - 1
		if i < 0 || i >= int64(len(c.Done)) || c.Latency(int(i), sched) != r.Config.Service {
			return false, nil
		}
	}
	return last-first >= 2, nil
}

// The claims of #paced.

// claimPacedSkipsStalls: the paced client's never-sent requests are the
// slots inside the stalls, within 5%.
func claimPacedSkipsStalls(r *sim.Result) (bool, error) {
	c := &r.Clients[sim.PacedClient]
	slots := float64(slotsInStalls(r))
	return slots > 0 && math.Abs(float64(c.Planned-c.Sent)-slots) <= 0.05*slots, nil
}

// The claims of #note.

// claimNoteHolds: the open loop's p99, mean and p99.9 are within 2% of the
// note's estimate.
func claimNoteHolds(r *sim.Result) (bool, error) {
	o := &r.Recordings[sim.Open]
	for _, m := range []struct {
		name string
		got  float64
	}{{"p99", float64(o.P[sim.P99])}, {"mean", o.Mean}, {"p99_9", float64(o.P[sim.P999])}} {
		est, ok := noteEstimate(r, m.name)
		if !ok || math.Abs(m.got-est) > 0.02*est {
			return false, nil
		}
	}
	return true, nil
}

// claimNeverDrains: from the stall on, every request of the open loop waits
// at least the whole stall.
func claimNeverDrains(r *sim.Result) (bool, error) {
	s, _ := r.StallSpan(0)
	if r.Config.Stall == 0 || s >= r.Config.Duration {
		return false, nil
	}
	x := window.TraceIndexOf(r, sim.OpenClient, s, r.Config.Duration)
	if x == nil {
		return false, errors.New("the run kept no per-request times")
	}
	for j := 0; j < x.Len(); j++ {
		if x.Due(j) >= s && x.Latency(j) < r.Config.Stall {
			return false, nil
		}
	}
	return x.Len() > 0, nil
}

// The claims of #clients.

// claimOneSlowPerConn: the closed loop records one sample above the
// threshold per connection.
func claimOneSlowPerConn(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Closed].Above == int64(r.Config.Conns), nil
}

// claimMeanRises: the corrected mean is above the closed loop's.
func claimMeanRises(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Corrected].Mean > r.Recordings[sim.Closed].Mean, nil
}

// claimAddedSlower: the correction's interval E, below which it adds no
// sample, is at least the closed loop's p50.
func claimAddedSlower(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Corrected].Interval >= r.Recordings[sim.Closed].P[sim.P50], nil
}

// The claims of #fixes.

// claimCorrectionLifts: the corrected p99 is above the closed loop's.
func claimCorrectionLifts(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Corrected].P[sim.P99] > r.Recordings[sim.Closed].P[sim.P99], nil
}

// claimCorrectedNearOpen: the corrected p99 is within 5% below the open
// loop's.
func claimCorrectedNearOpen(r *sim.Result) (bool, error) {
	c, o := float64(r.Recordings[sim.Corrected].P[sim.P99]), float64(r.Recordings[sim.Open].P[sim.P99])
	return c >= 0.95*o && c <= o, nil
}

// claimCorrectedP90Below: the corrected p90 is below the open loop's.
func claimCorrectedP90Below(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Corrected].P[sim.P90] < r.Recordings[sim.Open].P[sim.P90], nil
}

// claimENotSlot: the correction's interval E is not the schedule's slot.
func claimENotSlot(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Corrected].Interval != r.Slot, nil
}

// The claims of #landscape.

// claimP99Agree: the closed and open loops record the same p99.
func claimP99Agree(r *sim.Result) (bool, error) {
	return r.Recordings[sim.Closed].P[sim.P99] == r.Recordings[sim.Open].P[sim.P99], nil
}

// claimPilesUp: the run meets at least two stalls and the open loop is
// not back to the service time before every next one: a stall's backlog
// is still queued when the next stall begins (claimDrains fails).
func claimPilesUp(r *sim.Result) (bool, error) {
	drains, err := claimDrains(r)
	if err != nil {
		return false, err
	}
	first, last := r.StallsIn(0, r.Config.Duration)
	return !drains && last-first >= 2, nil
}
