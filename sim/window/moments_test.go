package window

import (
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// TestEngineWindows: the windows of event-driven runs hold every request
// open in them, with the order the type promises: due ≤ send, sends and
// starts in order, no outcome before its send.
func TestEngineWindows(t *testing.T) {
	for _, q := range []string{
		"arrivals=poisson&dist=exponential&service=150us&workers=2&conns=3&rate=8000&stall=20ms&every=400ms&first=100ms&duration=2s&seed=5",
		"arrivals=poisson&service=100us&timeout=5ms&queue=50&outages=500ms-600ms,1200ms-1250ms&duration=2s&conns=2&stall=0",
		"arrivals=burst&bursts=1s-1200ms@30000&dist=uniform&service=50us&service_max=300us&queue=20&workers=2&conns=8&duration=2s",
		"rate=1000&service=1500us&queue=1&timeout=2ms&outages=4ms-6ms&stall=0&duration=12ms&conns=2",
	} {
		res := simtest.Run(t, q)
		ms := EngineMoments(res, 3)
		if len(ms) == 0 || ms[len(ms)-1].Kind != "worst" {
			t.Fatalf("%s: moments %+v", q, ms)
		}
		for _, m := range ms {
			if m.From > m.Start || m.To < m.End {
				t.Errorf("%s: %s %d [%d, %d) outside its window [%d, %d]", q, m.Kind, m.Index, m.Start, m.End, m.From, m.To)
			}
			for c := range res.Clients {
				cl := sim.Client(c)
				tr := EngineTraceWindow(res, cl, m.From, m.To)
				cr := &res.Clients[c]
				want := 0
				for i := range cr.Send {
					if cr.Send[i] <= m.To && cr.Done[i] >= m.From {
						want++
					}
				}
				if len(tr.Requests) != want {
					t.Fatalf("%s %s: %d requests in [%d, %d], want %d", q, cl, len(tr.Requests), m.From, m.To, want)
				}
				var prev EngineRequest
				lastStart := int64(-1)
				for j, r := range tr.Requests {
					if r.Send < r.Due || r.Done < r.Send || r.Start >= 0 && (r.Start < r.Send || r.Start > r.Done && r.Outcome == sim.OutcomeReply) {
						t.Fatalf("%s %s: request %+v out of order", q, cl, r)
					}
					if j > 0 && (r.Send < prev.Send || r.Due < prev.Due || r.Index <= prev.Index) {
						t.Fatalf("%s %s: request %+v after %+v", q, cl, r, prev)
					}
					if r.Start >= 0 {
						if r.Start < lastStart {
							t.Fatalf("%s %s: start %d before an earlier request's %d", q, cl, r.Start, lastStart)
						}
						lastStart = r.Start
					}
					if (r.Outcome == sim.OutcomeReply) != (r.Latency >= 0) || r.Outcome == sim.OutcomeReply && r.Latency != r.Done-r.Send {
						t.Fatalf("%s %s: latency %d for %s", q, cl, r.Latency, r.Outcome)
					}
					prev = r
				}
			}
		}
	}
}

// TestEngineWindowsMatchFastPath: on the deterministic model the engine's
// windows are the fast path's, request by request.
func TestEngineWindowsMatchFastPath(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "preset=clients10&workers=7", "rate=3000&service=900us&stall=2ms&every=7ms&first=1ms&duration=10ms&conns=3&workers=2"} {
		cfg := simtest.Parse(t, q)
		fast, eng := simtest.Run(t, q), simtest.RunEngine(t, cfg)
		for k := 0; k < min(fast.StallCount(), 2); k++ {
			from, to := StallWindow(fast, k)
			for c := range fast.Clients {
				x := TraceIndexOf(fast, sim.Client(c), from, to)
				tr := EngineTraceWindow(eng, sim.Client(c), from, to)
				got := map[int64]EngineRequest{}
				for _, r := range tr.Requests {
					got[r.Index] = r
				}
				for j := 0; j < x.Len(); j++ {
					w := x.At(j)
					g, ok := got[w.Index]
					if !ok {
						if w.Done >= from {
							t.Fatalf("%q %s: request %d missing from the engine's window", q, sim.Client(c), w.Index)
						}
						continue
					}
					if g.Due != w.Due || g.Send != w.Send || g.Start != w.Start || g.Done != w.Done || g.Latency != w.Latency {
						t.Fatalf("%q %s: engine %+v, fast path %+v", q, sim.Client(c), g, w)
					}
				}
			}
		}
	}
}
