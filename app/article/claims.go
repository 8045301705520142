package article

import (
	"errors"
	"fmt"
	"math"

	"omission/sim"
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
	"corrected-p90-below", "e-not-slot",
}

// claimOnSection tells whether a claim is on the section as a whole: it
// holds when the reader changed none of the section's values.
func claimOnSection(id string) bool { return id == "as-published" }

// claimHolds tells whether claim id holds for a result, each case saying
// what it holds.
func claimHolds(id string, r *sim.Result) (bool, error) {
	switch id {
	case "spare":
		// The server has capacity to spare: a request takes less than the slot between
		// two.
		return r.Config.Service < r.Slot, nil
	case "same-timeline":
		// The closed and open loops answer every request at the same instant (the
		// simulator's invariant inv.same_timeline.replies).
		c := r.CheckFor("inv.same_timeline.replies")
		if c == nil {
			return false, errors.New("the run kept no per-request times to compare")
		}
		return c.Pass, nil
	case "regime":
		// Every number of the run has a closed form (sim.DeriveClosedForms).
		return sim.DeriveClosedForms(r.Config) != nil, nil
	case "drains":
		// After every stall but the last, the open loop is back to the service time before
		// the next stall begins: each backlog drains.
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
	case "one-slow-per-stall":
		// The closed loop records one sample above the threshold per stall.
		stalls := r.Clients[sim.ClosedClient].StallsMet
		return stalls > 0 && r.Recordings[sim.Closed].Above == stalls, nil
	case "median-is-service":
		// The closed loop's p50 is the service time.
		return r.Recordings[sim.Closed].P[sim.P50] == r.Config.Service, nil
	case "p999-is-service":
		// The closed loop's p99 and p99.9 are the service time: only its slowest samples
		// show the stalls.
		c := &r.Recordings[sim.Closed]
		return c.P[sim.P99] == r.Config.Service && c.P[sim.P999] == r.Config.Service && c.Max > r.Config.Service, nil
	case "paced-skips-stalls":
		// The paced client's never-sent requests are the slots inside the stalls, within
		// 5%.
		c := &r.Clients[sim.PacedClient]
		slots := float64(slotsInStalls(r))
		return slots > 0 && math.Abs(float64(c.Planned-c.Sent)-slots) <= 0.05*slots, nil
	case "note-holds":
		// The open loop's p99, mean and p99.9 are within 2% of the note's estimate.
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
	case "never-drains":
		// From the stall on, every request of the open loop waits at least the whole
		// stall.
		s, _ := r.StallSpan(0)
		if r.Config.Stall == 0 || s >= r.Config.Duration {
			return false, nil
		}
		x := r.TraceIndexOf(sim.OpenClient, s, r.Config.Duration)
		if x == nil {
			return false, errors.New("the run kept no per-request times")
		}
		for j := 0; j < x.Len(); j++ {
			if x.Due(j) >= s && x.Latency(j) < r.Config.Stall {
				return false, nil
			}
		}
		return x.Len() > 0, nil
	case "one-slow-per-conn":
		// The closed loop records one sample above the threshold per connection.
		return r.Recordings[sim.Closed].Above == int64(r.Config.Conns), nil
	case "mean-rises":
		// The corrected mean is above the closed loop's.
		return r.Recordings[sim.Corrected].Mean > r.Recordings[sim.Closed].Mean, nil
	case "added-slower":
		// The correction's interval E, below which it adds no sample, is at least the
		// closed loop's p50.
		return r.Recordings[sim.Corrected].Interval >= r.Recordings[sim.Closed].P[sim.P50], nil
	case "correction-lifts":
		// The corrected p99 is above the closed loop's.
		return r.Recordings[sim.Corrected].P[sim.P99] > r.Recordings[sim.Closed].P[sim.P99], nil
	case "corrected-near-open":
		// The corrected p99 is within 5% below the open loop's.
		c, o := float64(r.Recordings[sim.Corrected].P[sim.P99]), float64(r.Recordings[sim.Open].P[sim.P99])
		return c >= 0.95*o && c <= o, nil
	case "corrected-p90-below":
		// The corrected p90 is below the open loop's.
		return r.Recordings[sim.Corrected].P[sim.P90] < r.Recordings[sim.Open].P[sim.P90], nil
	case "e-not-slot":
		// The correction's interval E is not the schedule's slot.
		return r.Recordings[sim.Corrected].Interval != r.Slot, nil
	}
	return false, fmt.Errorf("no claim %q", id)
}
