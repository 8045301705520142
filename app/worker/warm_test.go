package worker

import (
	"testing"
	"time"

	"omission/app/compute"
	"omission/sim"
)

// TestWarmRun: the worker's own run of the address the page was loaded
// with posts nothing; the page's first request of that query takes its
// view (the same result, under the request's number) without running
// again; a request of another query runs its own; a query that does not
// parse is not run; and a request that comes while a sliced warm run is
// going waits for it, with the run's progress under its own number.
func TestWarmRun(t *testing.T) {
	var got []Response
	s := newServer(compute.Settings{Simulate: true, Slice: time.Hour}, func(r Response) { got = append(got, r) }, func() {})
	s.warmUp("preset=tcp&stall=400ms&tools=wrk") // a page key is allowed
	s.warmUp("stall=banana")                     // refused: queues nothing
	if len(s.in) != 1 {
		t.Fatalf("%d warm runs queued, want 1", len(s.in))
	}
	warm := <-s.in
	if next := s.handle(warm); next != nil || len(got) != 0 {
		t.Fatalf("the warm run posted %d responses, returned %v", len(got), next)
	}
	if s.warm == nil || s.warm.Result == nil {
		t.Fatal("the warm run kept no view")
	}
	res := s.warm.Result
	cfg, err := sim.ParseQuery("preset=tcp&stall=400ms")
	if err != nil {
		t.Fatal(err)
	}
	drain(s, Request{ID: 3, Query: cfg.Query()})
	if len(got) != 2 || got[0].View == nil || got[0].View.Result != res || got[0].View.Seq != 3 || got[0].ID != 3 || !got[1].Done {
		t.Fatalf("the page's request of the warm query: %+v", got)
	}
	if s.warm != nil || s.last != res {
		t.Error("the warm view was not taken as the last result")
	}
	// Another query runs its own.
	got = nil
	s.warmUp("preset=tcp")
	s.handle(<-s.in)
	other, err := sim.ParseQuery("preset=tcp&stall=200ms")
	if err != nil {
		t.Fatal(err)
	}
	drain(s, Request{ID: 4, Query: other.Query()})
	if len(got) == 0 || got[0].View == nil || got[0].View.Query != other.Query() || s.warm != nil {
		t.Fatalf("another query after a warm run: %+v", got)
	}

	// A sliced warm run: the page's request that comes meanwhile waits.
	got = nil
	long, err := sim.ParseQuery("arrivals=poisson&rate=50000&duration=10s")
	if err != nil {
		t.Fatal(err)
	}
	var sl *server
	sent := false
	sl = newServer(compute.Settings{Simulate: true, Slice: time.Microsecond}, func(r Response) { got = append(got, r) }, func() {
		if !sent {
			sent = true
			sl.in <- Request{ID: 9, Query: long.Query()}
		}
	})
	sl.warmUp(long.Query())
	w := <-sl.in
	next := sl.handle(w)
	if next == nil || next.ID != 9 {
		t.Fatalf("the request that came during the warm run was not returned: %v", next)
	}
	if len(got) == 0 || !got[0].Sliced || got[0].ID != 9 {
		t.Fatalf("no progress of the warm run under the waiting request's number: %+v", got)
	}
	res = sl.warm.Result
	drain(sl, *next)
	var view *Response
	for i := range got {
		if got[i].View != nil {
			view = &got[i]
		}
	}
	if view == nil || view.ID != 9 || view.View.Result != res {
		t.Fatalf("the waiting request did not take the warm run's view: %+v", view)
	}
}

// drain handles req and the requests that supersede it.
func drain(s *server, req Request) {
	for next := &req; next != nil; {
		next = s.handle(*next)
	}
}
