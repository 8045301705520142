package worker

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"omission/app/charts"
	"omission/app/compute"
	"omission/sim"
	"omission/sim/sweep"
)

// sweepOf gathers a request's sweep updates into its points, checking that
// they arrive in order, each batch after the last, the first one point.
func sweepOf(t *testing.T, got []Response) (pts []sweep.Point, ups []*SweepUpdate) {
	t.Helper()
	for _, r := range got {
		u := r.Sweep
		if u == nil {
			continue
		}
		if u.Err != "" {
			ups = append(ups, u)
			continue
		}
		if u.From != len(pts) && u.From != 0 || u.Ran != u.From+len(u.Points) || u.Ran > u.Total {
			t.Fatalf("update from %d with %d points, ran %d of %d, after %d points", u.From, len(u.Points), u.Ran, u.Total, len(pts))
		}
		pts = append(pts[:u.From], u.Points...)
		ups = append(ups, u)
	}
	return pts, ups
}

// TestSweepTruth runs random sweeps through the worker and holds every
// point it sends to a fresh run of the point's own query, to the digit:
// its report's keys (hash, counts, every percentile, the clients). A
// refused point says why, and its query is indeed refused.
func TestSweepTruth(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	bases := []string{"duration=1s", "preset=tcp&duration=3s", "duration=1s&conns=3&stall=150ms&every=400ms", "rate=2000&duration=2s&workers=2", "duration=800ms&service=1ms&rate=800"}
	specs := func() string {
		n := 2 + rng.Intn(6)
		switch rng.Intn(6) {
		case 0:
			return fmt.Sprintf("stall:%dms..%dms/%d", rng.Intn(100), 150+rng.Intn(900), n)
		case 1:
			return fmt.Sprintf("rate:%d..%d/%d", 100+rng.Intn(900), 2000+rng.Intn(6000), n)
		case 2:
			return fmt.Sprintf("conns:1..%d/x2", 2+rng.Intn(15))
		case 3:
			return fmt.Sprintf("service:%dus..%dus/%d", rng.Intn(50), 100+rng.Intn(400), n)
		case 4:
			return fmt.Sprintf("stall:0s..%dms/%dms", 200+rng.Intn(700), 100+rng.Intn(100))
		}
		return fmt.Sprintf("duration:%dms..%dms/%d", 100+rng.Intn(400), 600+rng.Intn(900), n)
	}
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	ran, refused := 0, 0
	for i := 0; i < 14; i++ {
		q, spec := bases[rng.Intn(len(bases))], specs()
		c.got = nil
		l.Send(Request{ID: int64(i + 1), Query: q, Sweep: &SweepAsk{Spec: spec}})
		pts, ups := sweepOf(t, c.got)
		last := ups[len(ups)-1]
		sw, err := sweep.Parse(spec)
		if err != nil {
			if last.Err == "" || len(pts) > 0 {
				t.Errorf("%s: invalid spec ran %d points (%s)", spec, len(pts), err)
			}
			continue
		}
		if !last.Done || len(pts) != len(sw.Values()) || last.Total != len(pts) || last.Canon != sw.String() {
			t.Fatalf("%s over %s: done %v, %d points of %d, canon %q", spec, q, last.Done, len(pts), len(sw.Values()), last.Canon)
		}
		for _, p := range pts {
			cfg, err := sim.ParseQuery(p.Query)
			if p.Refused != "" {
				refused++
				b := SweepBudget()
				if err == nil && cfg.Validate() == nil && cfg.Within(b) == nil {
					if _, rerr := sim.Run(cfg); rerr == nil {
						t.Errorf("%s: point %s refused (%s), its query runs", spec, p.Query, p.Refused)
					}
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: point query %q: %v", spec, p.Query, err)
			}
			res, err := sim.Run(cfg)
			if err != nil {
				t.Fatalf("%s: point %s: %v", spec, p.Query, err)
			}
			got, _ := json.Marshal(p.PointReport)
			want, _ := json.Marshal(sweep.PointReportOf(res.Report()))
			if string(got) != string(want) {
				t.Errorf("%s: point %s differs from its own run:\n got %s\nwant %s", spec, p.Query, got, want)
			}
			ran++
		}
	}
	t.Logf("%d points compared, %d refused", ran, refused)
	if ran < 30 || refused == 0 {
		t.Errorf("%d points compared, %d refused: the random sweeps test too little", ran, refused)
	}
}

// TestSweepProgressive: the first point comes alone, at once, with the
// landscape of that one point; the last batch has every point and its
// landscape a spot per point. The same sweep asked again runs nothing and
// sends every point afresh; a new metric only redraws.
func TestSweepProgressive(t *testing.T) {
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	req := Request{ID: 1, Query: "duration=2s", Charts: ChartsOptions{Width: 480}, Sweep: &SweepAsk{Spec: "stall:0s..1s/9"}}
	l.Send(req)
	pts, ups := sweepOf(t, c.got)
	first, last := ups[0], ups[len(ups)-1]
	if len(ups) < 2 || first.Ran != 1 || first.Chart == nil || len(first.Chart.Spots) != 1 || first.Done {
		t.Fatalf("%d updates; first ran %d, chart %v", len(ups), first.Ran, first.Chart != nil)
	}
	if !last.Done || len(pts) != 9 || last.Chart == nil || len(last.Chart.Spots) != 9 || last.Chart.Kind != charts.Landscape {
		t.Fatalf("last: done %v, %d points", last.Done, len(pts))
	}
	for i, r := range c.got {
		if r.Sweep != nil && r.Done || r.Done && (i+1 >= len(c.got) || c.got[i+1].Sweep == nil) {
			t.Errorf("response %d: the charts' Done comes once, before the sweep's points", i)
		}
	}
	c.got = nil
	again := req
	again.ID, again.SweepOnly, again.Sweep = 2, true, &SweepAsk{Spec: req.Sweep.Spec, Metric: "max"}
	l.Send(again)
	pts2, ups2 := sweepOf(t, c.got)
	if len(c.got) != 1 || len(ups2) != 1 || ups2[0].From != 0 || len(pts2) != 9 || ups2[0].Chart == nil || !ups2[0].Done {
		t.Fatalf("asked again: %d responses, %d updates", len(c.got), len(ups2))
	}
	if !strings.HasPrefix(ups2[0].Chart.Caption, "The max latency of each recording") || ups2[0].Chart.Table.Rows[4][1] == last.Chart.Table.Rows[4][1] {
		t.Errorf("the max landscape: %s / row %q", ups2[0].Chart.Caption, ups2[0].Chart.Table.Rows[4])
	}
}

// TestSweepSuperseded: a newer request between two points stops the
// sweep (its last batch never comes), a Cancel too; the same sweep asked
// again goes on from the points it had run, and a new query's sweep starts
// afresh.
func TestSweepSuperseded(t *testing.T) {
	var c collect
	var srv *server
	inject := func(after int, r Request) {
		srv.yield = func() {
			if srv.sweep.ran == after {
				srv.yield = func() {}
				srv.in <- r
			}
		}
	}
	srv = newServer(compute.Settings{Simulate: true, Slice: time.Hour}, c.deliver, func() {})
	ask := &SweepAsk{Spec: "stall:0s..900ms/10"}
	inject(3, Request{ID: 1, Cancel: true})
	if next := srv.handle(Request{ID: 1, Query: "duration=1s", Sweep: ask}); next == nil || !next.Cancel {
		t.Fatalf("the cancel did not stop the sweep: %+v", next)
	}
	_, ups := sweepOf(t, c.got)
	if len(ups) == 0 || ups[len(ups)-1].Done || srv.sweep.ran != 3 {
		t.Fatalf("cancelled after 3 points: %d updates, ran %d", len(ups), srv.sweep.ran)
	}
	// Asked again: it goes on from point 4, and every point comes.
	c.got = nil
	runs := 0
	srv.yield = func() { runs++ }
	srv.handle(Request{ID: 2, Query: "duration=1s", Sweep: ask, SweepOnly: true})
	pts, ups := sweepOf(t, c.got)
	if len(pts) != 10 || !ups[len(ups)-1].Done || runs != 7 {
		t.Errorf("resumed: %d points, %d run anew", len(pts), runs)
	}
	// A newer query supersedes the sweep in progress, and its own sweep
	// starts from its first point.
	c.got = nil
	srv.sweep = sweepState{}
	inject(2, Request{ID: 4, Query: "duration=1s&conns=2", Sweep: ask})
	next := srv.handle(Request{ID: 3, Query: "duration=1s", Sweep: ask})
	if next == nil || next.ID != 4 {
		t.Fatalf("not superseded: %+v", next)
	}
	srv.handle(*next)
	var done3, done4 bool
	for _, r := range c.got {
		if r.Sweep != nil && r.Sweep.Done {
			done3, done4 = done3 || r.ID == 3, done4 || r.ID == 4
		}
	}
	if done3 || !done4 || srv.sweep.res.Query != "duration=1s&conns=2" {
		t.Errorf("done 3 %v, done 4 %v, sweep of %q", done3, done4, srv.sweep.res.Query)
	}
}

// TestSweepBudget: the points of a sweep share one budget: a point that
// would pass it is refused, saying so and how to run it natively, and the
// points before it run.
func TestSweepBudget(t *testing.T) {
	sw, _ := sweep.Parse("duration:1s..4s/4")
	base := sim.Default()
	var est []float64
	for _, p := range sw.Points(base, nil) {
		est = append(est, p.Config.Estimate().Work)
	}
	defer func(w float64) { sweepWork = w }(sweepWork)
	sweepWork = est[0] + est[1] + est[2]/2 // the third passes it
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	l.Send(Request{ID: 1, Query: "", Sweep: &SweepAsk{Spec: "duration:1s..4s/4"}})
	pts, _ := sweepOf(t, c.got)
	if len(pts) != 4 || pts[0].Refused != "" || pts[1].Refused != "" {
		t.Fatalf("%d points; the first two refused %q, %q", len(pts), pts[0].Refused, pts[1].Refused)
	}
	for _, p := range pts[2:] {
		if !strings.HasPrefix(p.Refused, "over the sweep's budget: ") || !strings.Contains(p.Refused, "go run ./app report -sweep 'duration:1s..4s/4' 'preset=bench'") || p.PointReport != nil {
			t.Errorf("point %s: refused %q", p.Value, p.Refused)
		}
	}
}
