package article

import (
	"errors"
	"math"

	"omission/sim"
)

// The claims of the article: every sentence whose truth depends on the
// parameters is bound to one of these ([if id name: … | …] in
// article.txt), checked against the simulator's result for the section's
// query, so that a reader who changes a value reads the sentence that holds
// for it. At the article's own values every claim holds (TestClaimsHold):
// the prose reads as written.

// claimCheck tells whether a claim holds for a result. A claim on the
// section as a whole (as-published) has no result and no holds.
type claimCheck struct {
	doc   string
	holds func(res *sim.Result) (bool, error)
}

var claimChecks = map[string]claimCheck{
	"as-published": {doc: "the section shows its own values: the reader changed none"},
	"spare": {doc: "the server has capacity to spare: a request takes less than the slot between two",
		holds: func(r *sim.Result) (bool, error) { return r.Config.Service < r.Slot, nil }},
	"same-timeline": {doc: "the closed and open loops answer every request at the same instant (the simulator's invariant inv.same_timeline.replies)",
		holds: func(r *sim.Result) (bool, error) {
			c := r.CheckFor("inv.same_timeline.replies")
			if c == nil {
				return false, errors.New("the run kept no per-request times to compare")
			}
			return c.Pass, nil
		}},
	"regime": {doc: "every number of the run has a closed form (sim.DeriveClosedForms)",
		holds: func(r *sim.Result) (bool, error) { return sim.DeriveClosedForms(r.Config) != nil, nil }},
	"drains": {doc: "after every stall but the last, the open loop is back to the service time before the next stall begins: each backlog drains",
		holds: func(r *sim.Result) (bool, error) {
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
		}},
	"one-slow-per-stall": {doc: "the closed loop records one sample above the threshold per stall",
		holds: func(r *sim.Result) (bool, error) {
			stalls := r.Clients[sim.ClosedClient].StallsMet
			return stalls > 0 && r.Recordings[sim.Closed].Above == stalls, nil
		}},
	"median-is-service": {doc: "the closed loop's p50 is the service time",
		holds: func(r *sim.Result) (bool, error) { return r.Recordings[sim.Closed].P[sim.P50] == r.Config.Service, nil }},
	"p999-is-service": {doc: "the closed loop's p99 and p99.9 are the service time: only its slowest samples show the stalls",
		holds: func(r *sim.Result) (bool, error) {
			c := &r.Recordings[sim.Closed]
			return c.P[sim.P99] == r.Config.Service && c.P[sim.P999] == r.Config.Service && c.Max > r.Config.Service, nil
		}},
	"paced-skips-stalls": {doc: "the paced client's never-sent requests are the slots inside the stalls, within 5%",
		holds: func(r *sim.Result) (bool, error) {
			c := &r.Clients[sim.PacedClient]
			slots := float64(slotsInStalls(r))
			return slots > 0 && math.Abs(float64(c.Planned-c.Sent)-slots) <= 0.05*slots, nil
		}},
	"note-holds": {doc: "the open loop's p99, mean and p99.9 are within 2% of the note's estimate",
		holds: func(r *sim.Result) (bool, error) {
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
		}},
	"never-drains": {doc: "from the stall on, every request of the open loop waits at least the whole stall",
		holds: func(r *sim.Result) (bool, error) {
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
		}},
	"one-slow-per-conn": {doc: "the closed loop records one sample above the threshold per connection",
		holds: func(r *sim.Result) (bool, error) { return r.Recordings[sim.Closed].Above == int64(r.Config.Conns), nil }},
	"mean-rises": {doc: "the corrected mean is above the closed loop's",
		holds: func(r *sim.Result) (bool, error) {
			return r.Recordings[sim.Corrected].Mean > r.Recordings[sim.Closed].Mean, nil
		}},
	"added-slower": {doc: "the correction's interval E, below which it adds no sample, is at least the closed loop's p50",
		holds: func(r *sim.Result) (bool, error) {
			return r.Recordings[sim.Corrected].Interval >= r.Recordings[sim.Closed].P[sim.P50], nil
		}},
	"correction-lifts": {doc: "the corrected p99 is above the closed loop's",
		holds: func(r *sim.Result) (bool, error) {
			return r.Recordings[sim.Corrected].P[sim.P99] > r.Recordings[sim.Closed].P[sim.P99], nil
		}},
	"corrected-near-open": {doc: "the corrected p99 is within 5% below the open loop's",
		holds: func(r *sim.Result) (bool, error) {
			c, o := float64(r.Recordings[sim.Corrected].P[sim.P99]), float64(r.Recordings[sim.Open].P[sim.P99])
			return c >= 0.95*o && c <= o, nil
		}},
	"corrected-p90-below": {doc: "the corrected p90 is below the open loop's",
		holds: func(r *sim.Result) (bool, error) {
			return r.Recordings[sim.Corrected].P[sim.P90] < r.Recordings[sim.Open].P[sim.P90], nil
		}},
	"e-not-slot": {doc: "the correction's interval E is not the schedule's slot",
		holds: func(r *sim.Result) (bool, error) { return r.Recordings[sim.Corrected].Interval != r.Slot, nil }},
}
