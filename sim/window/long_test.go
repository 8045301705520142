package window

import (
	"math/rand/v2"
	"testing"

	"omission/sim"
	"omission/sim/internal/hook"
	"omission/sim/internal/simtest"
)

// traceWindowRef is TraceWindow as it was written before long runs: built
// straight from the per-request data of an exact run, apart from
// TraceIndex. The index (and TraceWindow, now read through it) is tested
// against it.
func traceWindowRef(r *sim.Result, c sim.Client, from, to int64) *Trace {
	cr := &r.Clients[c]
	if cr.Done == nil {
		return nil
	}
	tr := &Trace{Client: c, From: from, To: to, Above: r.Config.Above}
	var never func(i int, from, to int64) (int64, int64)
	if c == sim.PacedClient {
		never = pacedSkippedRef(r)
	}
	st := newStalls(r.Config)
	S := r.Config.Service
	E := map[sim.Client]int64{sim.ClosedClient: r.Recordings[sim.Corrected].Interval, sim.PacedClient: r.Recordings[sim.PacedCorrected].Interval}[c]
	kind := map[sim.Client]sim.Kind{sim.ClosedClient: sim.Corrected, sim.PacedClient: sim.PacedCorrected}[c]
	for i := firstDoneAfter(r, c, from); i < len(cr.Done); i++ {
		due := dueOf(r, c, i)
		if due > to {
			break
		}
		send := due
		if cr.Send != nil {
			send = cr.Send[i]
		}
		done := cr.Done[i]
		start := st.ServiceStart(done, S)
		req := TraceRequest{Index: int64(i), Due: due, Send: send, Start: start, Done: done, Latency: cr.Latency(i, r.Schedule()), Stall: -1}
		if c == sim.PacedClient {
			req.Latency = done - send
		}
		if done-due > S || done-start > S {
			if n := st.Count(done); n > 0 {
				req.Stall = n - 1
			}
		}
		tr.Requests = append(tr.Requests, req)
		if c != sim.OpenClient {
			if k := sim.CorrectionCount(req.Latency, E); k > 0 {
				tr.Synthetic = append(tr.Synthetic, Synthetic{Index: int64(i), At: done, From: req.Latency - E, Step: E, Count: k,
					AboveCount: correctedAbove(req.Latency, E, r.Config.Above) - 1, ReplyLatency: req.Latency, CorrectionFor: kind})
			}
		}
		if c == sim.PacedClient && i+1 < len(cr.Send) {
			// The first skipped slot and how many follow the paced
			// client's rule; later ones are listed a slot apart, as
			// TraceWindow lists them (exact when 1/rate is whole).
			first, n := never(i, from, to)
			for k := int64(0); k < n; k++ {
				tr.NeverSent = append(tr.NeverSent, first+k*r.Config.PacedSlot())
			}
		}
	}
	return tr
}

// sameTrace compares a trace with the reference.
func sameTrace(t *testing.T, name string, got, want *Trace) {
	t.Helper()
	if got == nil || want == nil {
		t.Fatalf("%s: trace %v, reference %v", name, got != nil, want != nil)
	}
	if len(got.Requests) != len(want.Requests) || len(got.Synthetic) != len(want.Synthetic) || len(got.NeverSent) != len(want.NeverSent) {
		t.Fatalf("%s: %d requests, %d synthetic, %d skipped; reference %d, %d, %d", name,
			len(got.Requests), len(got.Synthetic), len(got.NeverSent), len(want.Requests), len(want.Synthetic), len(want.NeverSent))
	}
	for j := range want.Requests {
		if got.Requests[j] != want.Requests[j] {
			t.Fatalf("%s: request %d: %+v, reference %+v", name, j, got.Requests[j], want.Requests[j])
		}
	}
	for j := range want.Synthetic {
		if got.Synthetic[j] != want.Synthetic[j] {
			t.Fatalf("%s: synthetic %d: %+v, reference %+v", name, j, got.Synthetic[j], want.Synthetic[j])
		}
	}
	for j := range want.NeverSent {
		if got.NeverSent[j] != want.NeverSent[j] {
			t.Fatalf("%s: skipped slot %d: %d, reference %d", name, j, got.NeverSent[j], want.NeverSent[j])
		}
	}
}

// TestWindowsMatchWalk: a long run keeps no per-request data; its stall
// windows and its traces, simulated again, are those of the walk.
func TestWindowsMatchWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 7))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		cfg := simtest.RandomLongConfig(r)
		walk, long := simtest.RunWalkPath(t, cfg), simtest.RunLongPath(t, cfg)
		name := cfg.Query()
		if walk.StallCount() != long.StallCount() {
			t.Fatalf("%s: %d stalls walked, %d long", name, walk.StallCount(), long.StallCount())
		}
		var windows [][2]int64
		for k := 0; k < min(walk.StallCount(), 3); k++ {
			a, b := StallWindow(walk, k)
			if c, d := StallWindow(long, k); a != c || b != d {
				t.Fatalf("%s: stall %d window [%d, %d] walked, [%d, %d] long", name, k, a, b, c, d)
			}
			windows = append(windows, [2]int64{a, b})
		}
		from := r.Int64N(cfg.Duration + 1)
		windows = append(windows, [2]int64{from, from + r.Int64N(cfg.Duration/3+1)})
		for _, w := range windows {
			for c := range walk.Clients {
				cl := sim.Client(c)
				sameTrace(t, name+" "+cl.String(), TraceWindow(long, cl, w[0], w[1]), traceWindowRef(walk, cl, w[0], w[1]))
				x, y := TraceIndexOf(long, cl, w[0], w[1]), TraceIndexOf(walk, cl, w[0], w[1])
				if x.Len() != y.Len() {
					t.Fatalf("%s %s: index of %d, walked %d", name, cl, x.Len(), y.Len())
				}
				a, b := x.NeverSentTail()
				if c, d := y.NeverSentTail(); a != c || b != d {
					t.Fatalf("%s %s: tail %d+%d, walked %d+%d", name, cl, a, b, c, d)
				}
			}
		}
	}
}

// TestLongWindow: a stall window of a long run, simulated again, shows the
// stall's backlog and the correction's samples as the walk would.
func TestLongWindow(t *testing.T) {
	res := simtest.Run(t, "rate=100000&service=5us&stall=50ms&every=30s&first=10s&duration=1h")
	if hook.Long(res) == nil || res.Clients[sim.OpenClient].Done != nil {
		t.Fatal("want a long run without per-request data")
	}
	k := 60 // the stall at 30 min 10 s
	from, to := StallWindow(res, k)
	s, e := res.StallSpan(int64(k))
	if from >= s || to <= e {
		t.Fatalf("stall %d [%d, %d) outside its window [%d, %d]", k, s, e, from, to)
	}
	x := TraceIndexOf(res, sim.OpenClient, from, to)
	slow := 0
	for j := 0; j < x.Len(); j++ {
		if x.Latency(j) > res.Config.Service {
			slow++
		}
	}
	// J = ceil(L / (T − S)) = 10000 requests wait; the window shows them.
	if slow != 10000 {
		t.Errorf("%d open requests delayed by stall %d, want 10000", slow, k)
	}
	c := TraceIndexOf(res, sim.ClosedClient, from, to)
	if syn := func() int64 {
		var n int64
		for j := 0; j < c.Len(); j++ {
			if sy, ok := c.Synthetic(j); ok {
				n += sy.Count
			}
		}
		return n
	}(); syn != sim.CorrectionCount(50e6+5e3, 10e3) {
		t.Errorf("closed window adds %d corrected samples, want 4999 for the one slow reply", syn)
	}
}

// TestLongWindowSummary: the animation's summary of a long run's stall,
// built from its windows simulated again, is the walk's.
func TestLongWindowSummary(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 34))
	checked := 0
	for i := 0; i < 120 && checked < 40; i++ {
		cfg := simtest.RandomLongConfig(r)
		walk, long := simtest.RunWalkPath(t, cfg), simtest.RunLongPath(t, cfg)
		if Animatable(walk) != nil {
			continue
		}
		if err := Animatable(long); err != nil {
			t.Fatalf("%s: a long run cannot be animated: %v", cfg.Query(), err)
		}
		for _, k := range []int{0, walk.StallCount() - 1} {
			a, err1 := Summarise(walk, k)
			b, err2 := Summarise(long, k)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s stall %d: %v, %v", cfg.Query(), k, err1, err2)
			}
			if a.From != b.From || a.To != b.To || a.Cut != b.Cut || a.Edges != b.Edges || a.Stalled != b.Stalled || a.ColMax != b.ColMax || a.BinMax != b.BinMax || len(a.Bins) != len(b.Bins) {
				t.Fatalf("%s stall %d: summaries differ: [%d, %d] vs [%d, %d]", cfg.Query(), k, a.From, a.To, b.From, b.To)
			}
			for c := range a.Clients {
				x, y := a.Clients[c], b.Clients[c]
				if x.N != y.N || x.ColAt != y.ColAt || x.NeverAt != y.NeverAt || x.Total != y.Total || len(x.Lane) != len(y.Lane) {
					t.Fatalf("%s stall %d %s: client summaries differ: %+v vs %+v", cfg.Query(), k, x.Client, x.Total, y.Total)
				}
			}
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d runs animated", checked)
	}
}
