package worker

import (
	"fmt"
	"time"

	"omission/app/charts"
	"omission/sim"
	"omission/sim/sweep"
)

// A sweep in the worker (issue 25): the query's field moved over a range,
// a run per point (sweep.Sweep, sweep.Point.Run: each point's report is
// its own query's), run after the query's own run and charts, point by
// point. Between two points a newer request supersedes it (the newest
// wins; a Cancel stops it); the points run so far are kept, so that the
// same sweep asked again goes on where it stopped. Points arrive in
// batches (the first at once, then every SweepBatch), each with the
// landscape drawn over the points that came.

// SweepAsk is the sweep a request asks for.
type SweepAsk struct {
	Spec   string // sweep.Parse's text: field:from..to/n
	Metric string // the landscape's metric (charts.LandscapeMetrics; "" is p99)
}

// SweepUpdate is a batch of a sweep's points.
type SweepUpdate struct {
	Spec      string // as asked
	Canon     string `json:",omitempty"` // sweep.Sweep.String
	Field     string `json:",omitempty"`
	Value     string `json:",omitempty"` // the query's own value of the field
	Geometric bool   `json:",omitempty"`
	Total     int    // the sweep's points
	// From is the index of Points[0]: 0 starts the sweep's points afresh
	// (a new sweep, or the same one drawn again).
	From   int
	Points []sweep.Point `json:",omitempty"`
	Ran    int           // the points run or refused so far, these included
	Chart  *charts.Chart `json:",omitempty"` // the landscape of the points so far
	Done   bool          `json:",omitempty"` // every point came
	Err    string        `json:",omitempty"` // the spec is invalid: no point runs
	Ms     float64       `json:",omitempty"` // with Done: the points' running time, ms
}

// SweepBatch is how long the worker runs points before it posts them (the
// first point goes at once).
const SweepBatch = 60 * time.Millisecond

// SweepBudget is what one point may cost: the page's budget for one run.
// A point over it is refused alone, with the budget's reason.
func SweepBudget() sim.Budget { return sim.PageBudget() }

// sweepWork is what the points of one sweep may cost together, in the
// estimate's ns of native work (sim.Config.Estimate): the page's budget for
// one run. A point that would pass it is refused alone, with the reason;
// the points after it that fit still run.
var sweepWork = sim.PageBudget().Work

// sweepState is the sweep the worker keeps: its key (query and spec), the
// points and how many have run. A point is made when it runs (sim's
// Sweep.Point): until then it has only its value, so that the first point
// runs at once.
type sweepState struct {
	key  string
	sw   sweep.Sweep
	base sim.Config // the query's Config, each point's base
	res  *sweep.Result
	ran  int
	ms   float64 // the running time of the points run
	work float64 // the estimated work of the points run (sweepWork)
}

// runSweep runs the sweep of req over the last result's Config (req's
// query's), posting its points in batches; a newer request between two
// points supersedes it.
func (s *server) runSweep(req Request) *Request {
	ask := req.Sweep
	key := req.Query + "\x00" + ask.Spec
	st := &s.sweep
	if st.key != key || st.res == nil {
		sw, err := sweep.Parse(ask.Spec)
		if err != nil {
			*st = sweepState{}
			s.post(Response{ID: req.ID, Gen: req.Gen, Sweep: &SweepUpdate{Spec: ask.Spec, Err: err.Error(), Done: true}})
			return nil
		}
		res := sw.Result(s.last.Config)
		for _, v := range sw.Values() {
			x, _ := sw.Number(v)
			res.Points = append(res.Points, sweep.Point{Value: v, X: x})
		}
		*st = sweepState{key: key, sw: sw, base: s.last.Config, res: res}
	}
	res := st.res
	posted := 0
	post := func(done bool) {
		u := &SweepUpdate{Spec: ask.Spec, Canon: res.Spec, Field: res.Field, Value: res.Value, Geometric: res.Geometric,
			Total: len(res.Points), From: posted, Points: res.Points[posted:st.ran], Ran: st.ran, Done: done}
		if done {
			u.Ms = st.ms
		}
		if req.Charts.Width > 0 {
			u.Chart = s.landscape(req, res, st.ran)
		}
		posted = st.ran
		s.post(Response{ID: req.ID, Gen: req.Gen, Sweep: u})
	}
	last := time.Time{}
	for st.ran < len(res.Points) {
		s.yield()
		if next := s.newer(); next != nil {
			return next
		}
		t0 := time.Now()
		b := SweepBudget()
		pt := st.sw.Point(st.base, st.ran, &b)
		q := res.Query
		if q == "" {
			q = "preset=bench"
		}
		if pt.Refused == "" {
			if w := pt.Config.Estimate().Work; st.work+w > sweepWork {
				pt.Refused = fmt.Sprintf("over the sweep's budget: the points run before it are estimated at %.2f s of work and this one at %.2f s, "+
					"beyond the %.0f s the page gives a whole sweep (fewer or shorter points; or the command line runs it: go run ./app report -sweep '%s' '%s')",
					st.work/1e9, w/1e9, sweepWork/1e9, res.Spec, q)
			} else {
				st.work += w
			}
		}
		res.Points[st.ran] = pt
		res.Points[st.ran].Run()
		st.ran++
		st.ms += float64(time.Since(t0).Microseconds()) / 1000
		if last.IsZero() || time.Since(last) >= SweepBatch {
			if st.ran < len(res.Points) {
				post(false)
			}
			last = time.Now()
		}
	}
	post(true)
	return nil
}

// landscape draws the landscape of res's first ran points (the others
// not run yet), or nil when it cannot be drawn.
func (s *server) landscape(req Request, res *sweep.Result, ran int) *charts.Chart {
	part := *res
	if ran < len(res.Points) {
		part.Points = append([]sweep.Point(nil), res.Points...)
		for i := ran; i < len(part.Points); i++ {
			part.Points[i].PointReport, part.Points[i].Refused = nil, ""
		}
	}
	opts := chartOptions(charts.Landscape, req.Charts)
	opts.Sweep, opts.Metric = &part, req.Sweep.Metric
	ch, err := charts.Render(s.last, charts.Landscape, opts)
	if err != nil {
		return nil
	}
	return ch
}
