package window

import (
	"math/rand/v2"
	"sync"
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// randomOneWorker returns an event-driven configuration whose requests are
// answered in the order they were sent everywhere: one worker, an unbounded
// queue, no timeout, no outage; random arrivals (or constant ones on a whole
// number of nanoseconds) and random service times.
func randomOneWorker(r *rand.Rand) sim.Config {
	for {
		c := sim.Default()
		c.Arrivals = []sim.Arrivals{sim.ArrivalsPoisson, sim.ArrivalsPoisson, sim.ArrivalsConstant, sim.ArrivalsRamp}[r.IntN(4)]
		rate := []int64{500, 1000, 2000, 5000}[r.IntN(4)]
		c.Rate = sim.RateOf(rate)
		if c.Arrivals == sim.ArrivalsRamp {
			c.RateTo = sim.RateOf(rate / 2 * (1 + r.Int64N(4)))
		}
		gap := int64(1e9) / rate
		c.Service = gap * (1 + r.Int64N(8)) / 10
		c.Dist = sim.ServiceExponential
		if r.IntN(2) == 0 {
			c.Dist = sim.ServiceLognormal
			c.ServiceP95 = c.Service * (2 + r.Int64N(5))
		}
		c.Stall = []int64{0, 5e6, 30e6, 120e6}[r.IntN(4)]
		c.First = r.Int64N(300e6)
		c.Every = 0
		if c.Stall > 0 && r.IntN(2) == 0 {
			c.Every = c.Stall + 50e6 + r.Int64N(400e6)
		}
		c.Duration = 300e6 + r.Int64N(1700e6)
		c.Conns = 1 + r.IntN(4)
		c.Workers = 1
		c.Above = gap * (1 + r.Int64N(20))
		if r.IntN(3) == 0 {
			c.Interval = gap * (1 + r.Int64N(3))
		}
		c.Seed = r.Uint64()
		if c.Validate() == nil && c.ExpectedArrivals() < 12000 {
			return c
		}
	}
}

func runCfg(t *testing.T, cfg sim.Config) *sim.Result {
	t.Helper()
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Query(), err)
	}
	return res
}

// engineRefCounts counts client c's counters at t straight from the run's
// per-request arrays: the requests of the window are those answered after
// from and due by to.
func engineRefCounts(res *sim.Result, c sim.Client, from, to, t int64) (st State, n ClientCounts) {
	cr, ec := &res.Clients[c], &res.Engine.Clients[c]
	e := res.Recordings[sim.Corrected].Interval
	if c == sim.PacedClient {
		e = res.Recordings[sim.PacedCorrected].Interval
	}
	for i := range cr.Send {
		due := cr.Send[i]
		if c == sim.ClosedClient {
			due = res.Engine.Due[i]
		}
		if cr.Done[i] <= from || due > to || due > t {
			continue
		}
		st.Due++
		switch send, start, done := cr.Send[i], ec.Start[i], cr.Done[i]; {
		case send > t:
			n.NotSent++
		case start > t:
			st.Send++
			n.Queued++
		case done > t:
			st.Send++
			st.Start++
			n.Serving++
		default:
			st.Send++
			st.Start++
			st.Done++
			lat := done - send
			n.Recorded++
			n.Slowest = max(n.Slowest, lat)
			if lat > res.Config.Above {
				n.Above++
			}
			if c != sim.OpenClient {
				n.Synthetic += sim.CorrectionCount(lat, e)
			}
		}
	}
	n.Waiting = int64(st.Due - st.Done)
	return st, n
}

// engineETWCounts counts the same from EngineTraceWindow's requests, those
// answered after from (it also lists those answered at from, which the
// summary counts before the window): sent, answered, in service, queued and
// above the threshold by t.
func engineETWCounts(res *sim.Result, c sim.Client, from, to, t int64) (sent, answered, serving, queued, above int64) {
	tr := EngineTraceWindow(res, c, from, to)
	for _, q := range tr.Requests {
		if q.Done <= from || q.Send > t {
			continue
		}
		sent++
		switch {
		case q.Start > t:
			queued++
		case q.Done > t:
			serving++
		default:
			answered++
			if q.Latency > tr.Above {
				above++
			}
		}
	}
	return
}

// engineCheckSummary compares the summary's counters at t with the direct
// counts, client by client.
func engineCheckSummary(t *testing.T, m *Summary, at int64) {
	t.Helper()
	res := m.Result()
	for _, a := range m.Clients {
		var got ClientCounts
		st := a.Counts(m, at, &got, nil)
		wst, want := engineRefCounts(res, a.Client, m.From, m.To, at)
		want.NeverSent = got.NeverSent // checked apart (engineCheckNever)
		if st != wst || got != want {
			t.Fatalf("%s %s [%d, %d] at %d: summary %+v %+v, direct %+v %+v", res.Query, a.Client, m.From, m.To, at, st, got, wst, want)
		}
		if at > m.To {
			continue // the engine's window lists no request sent after it
		}
		sent, answered, serving, queued, above := engineETWCounts(res, a.Client, m.From, m.To, at)
		if a.Client == sim.ClosedClient {
			// The engine's window lists no request due by to but sent after
			// it: those are not sent yet, and not counted here.
			sent, queued = sent+got.NotSent, queued+got.NotSent
		}
		if sent != int64(st.Due) || answered != got.Recorded || serving != got.Serving || queued != got.Queued+got.NotSent || above != got.Above {
			t.Fatalf("%s %s at %d: engine window: sent %d answered %d serving %d queued %d above %d; summary %+v %+v",
				res.Query, a.Client, at, sent, answered, serving, queued, above, st, got)
		}
	}
}

// engineCheckNever: the paced client's skipped slots passed by t are those
// of its plans (checked against its sends by TestEnginePacedPlans) between
// each send and the next, inside the window.
func engineCheckNever(t *testing.T, m *Summary, at int64) {
	t.Helper()
	res := m.Result()
	a := m.Clients[1]
	cr := &res.Clients[sim.PacedClient]
	p := pacedPlans(res)
	var want int64
	for i := range cr.Send {
		if cr.Done[i] <= m.From || cr.Send[i] > m.To {
			continue
		}
		end := min(res.Config.Duration, m.To+1)
		if i+1 < len(cr.Send) {
			end = min(cr.Send[i+1], m.To)
		}
		for _, s := range planSlots(res, p, i) {
			if s >= m.From && s < end && s <= at {
				want++
			}
		}
	}
	var got ClientCounts
	a.Counts(m, at, &got, nil)
	if got.NeverSent != want {
		t.Fatalf("%s paced at %d: %d slots skipped, direct %d", res.Query, at, got.NeverSent, want)
	}
}

// planSlots lists the slots the paced client let pass after send i, while
// it waited for the answer.
func planSlots(res *sim.Result, p *pacedPlan, i int) []int64 {
	plan, done := p.plan[i], res.Clients[sim.PacedClient].Done[i]
	if plan < 0 || done <= plan {
		return nil
	}
	if p.anchor == nil {
		return []int64{plan}
	}
	var out []int64
	sched := res.Schedule()
	for q := sched.Count(plan - p.anchor[i]); p.anchor[i]+sched.Due(q) < done; q++ {
		out = append(out, p.anchor[i]+sched.Due(q))
	}
	return out
}

// TestEngineAnimCounts: on random one-worker event-driven runs every window
// is drawn, and the summary's counters at many instants are a direct count
// over the run's requests, client by client.
func TestEngineAnimCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	windows := 0
	var recorded, never int64
	for n := 0; n < 40; n++ {
		cfg := randomOneWorker(r)
		res := runCfg(t, cfg)
		if err := Animatable(res); err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		for _, k := range []int{0, r.IntN(AnimWindows(res)), AnimWindows(res) - 1} {
			m, err := Summarise(res, k)
			if err != nil {
				t.Fatalf("%s window %d: %v", cfg.Query(), k, err)
			}
			windows++
			if res.StallCount() > 0 && (m.Kind != "stall" || m.Start != newStalls(cfg).Start(int64(k))) {
				t.Fatalf("%s: window %d is %s at %d", cfg.Query(), k, m.Kind, m.Start)
			}
			for i := 0; i < 60; i++ {
				at := m.From - 1 + r.Int64N(m.To-m.From+3)
				engineCheckSummary(t, m, at)
				engineCheckNever(t, m, at)
			}
			engineCheckSummary(t, m, m.To)
			engineCheckNever(t, m, m.To)
			for _, a := range m.Clients {
				recorded += a.Total.Recorded
				never += a.Total.NeverSent
			}
		}
	}
	if windows < 100 || recorded < 10000 || never == 0 {
		t.Errorf("only %d windows checked, %d replies, %d skipped slots", windows, recorded, never)
	}
}

// TestEngineIndexOrder: on random windows of one-worker runs the index holds
// exactly the requests answered after from and due by to, its instants never
// decrease, and its accessors agree with At.
func TestEngineIndexOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 6))
	for n := 0; n < 30; n++ {
		cfg := randomOneWorker(r)
		res := runCfg(t, cfg)
		for w := 0; w < 4; w++ {
			from := r.Int64N(cfg.Duration)
			to := from + 1 + r.Int64N(cfg.Duration/3)
			if w%2 == 1 { // on a reply and a due instant: the bounds' edges
				oc := &res.Clients[sim.OpenClient]
				i := r.IntN(len(oc.Done))
				from, to = oc.Done[i], oc.Send[min(len(oc.Send)-1, i+r.IntN(50))]
			}
			for c := range res.Clients {
				x := TraceIndexOf(res, sim.Client(c), from, to)
				if j, why := x.engineOrder(); why != breakNone {
					t.Fatalf("%s %s [%d, %d]: request %d breaks the order (%d)", cfg.Query(), sim.Client(c), from, to, j, why)
				}
				st, _ := engineRefCounts(res, sim.Client(c), from, to, to)
				if x.Len() != st.Due {
					t.Fatalf("%s %s: index holds %d requests, %d answered after %d and due by %d", cfg.Query(), sim.Client(c), x.Len(), st.Due, from, to)
				}
				var prev TraceRequest
				for j := 0; j < x.Len(); j++ {
					q := x.At(j)
					if x.Due(j) != q.Due || x.Send(j) != q.Send || x.Start(j) != q.Start || x.Done(j) != q.Done || x.Latency(j) != q.Latency {
						t.Fatalf("%s %s: request %d: accessors disagree with At", cfg.Query(), sim.Client(c), j)
					}
					if q.Send < q.Due || q.Start < q.Send || q.Done < q.Start || q.Done <= from || q.Due > to {
						t.Fatalf("%s %s: request %+v out of order or out of the window", cfg.Query(), sim.Client(c), q)
					}
					if j > 0 && (q.Due < prev.Due || q.Send < prev.Send || q.Start < prev.Start || q.Done < prev.Done) {
						t.Fatalf("%s %s: request %+v after %+v", cfg.Query(), sim.Client(c), q, prev)
					}
					prev = q
				}
			}
		}
	}
}

// TestEnginePacedPlans: the paced client's plans, rebuilt from its sends and
// answers, give every one of its next sends: at the plan, or at the answer
// when it came later (random and constant arrivals, with the outcomes that
// end a request early).
func TestEnginePacedPlans(t *testing.T) {
	for _, q := range []string{
		"arrivals=poisson&dist=exponential&service=150us&rate=5000&stall=30ms&every=200ms&first=50ms&duration=1s&seed=1",
		"arrivals=ramp&to=8000&dist=lognormal&service=100us&service_p95=900us&rate=2000&stall=20ms&every=0s&first=300ms&duration=1s&seed=2",
		"arrivals=burst&bursts=200ms-300ms@20000&rate=1000&service=200us&timeout=3ms&outages=500ms-520ms&stall=10ms&every=150ms&first=0s&duration=1s&seed=3",
		"rate=3000&dist=exponential&service=250us&stall=15ms&every=100ms&first=20ms&duration=1s&seed=4",
		"rate=5000&dist=uniform&service=50us&service_max=400us&timeout=1ms&stall=5ms&every=50ms&first=10ms&duration=500ms&seed=5",
	} {
		res := simtest.Run(t, q)
		cr := &res.Clients[sim.PacedClient]
		p := pacedPlans(res)
		skipped := 0
		for i := 0; i+1 < len(cr.Send); i++ {
			want := p.plan[i]
			if d := cr.Done[i]; d > want {
				want = d
			}
			if p.plan[i] < 0 || cr.Send[i+1] != want {
				t.Fatalf("%s: send %d at %d, answered at %d, planned %d: next send %d", q, i, cr.Send[i], cr.Done[i], p.plan[i], cr.Send[i+1])
			}
			skipped += len(planSlots(res, p, i))
		}
		if skipped == 0 {
			t.Errorf("%s: the paced client never skipped a slot", q)
		}
	}
}

// TestEngineTraceResult: an event-driven run finished for the animation alone
// has the full result's per-request data and gives the same windows.
func TestEngineTraceResult(t *testing.T) {
	for _, q := range []string{
		"arrivals=poisson&dist=exponential&service=150us&rate=5000&stall=30ms&every=200ms&first=50ms&duration=1s&seed=1",
		"arrivals=poisson&dist=lognormal&service=100us&service_p95=400us&rate=2000&outages=300ms-320ms&stall=0s&duration=1s&seed=6",
	} {
		full := simtest.Run(t, q)
		r, err := sim.Start(simtest.Parse(t, q))
		if err != nil {
			t.Fatal(err)
		}
		for !r.Step(1 << 16) { // in slices, as the panel runs it
		}
		tr := r.TraceResult()
		if tr == nil || AnimWindows(tr) != AnimWindows(full) || len(tr.Clients[1].Done) != len(full.Clients[1].Done) {
			t.Fatalf("%s: trace result %+v", q, tr)
		}
		for k := 0; k < AnimWindows(full); k++ {
			a, err1 := Summarise(full, k)
			b, err2 := Summarise(tr, k)
			if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
				t.Fatalf("%s window %d: %v / %v", q, k, err1, err2)
			}
			if err1 == nil && (a.From != b.From || a.To != b.To || a.Clients[0].Total != b.Clients[0].Total || a.Clients[1].Total != b.Clients[1].Total) {
				t.Errorf("%s window %d: windows differ", q, k)
			}
		}
	}
}

// TestEngineStallWindow: an event-driven run's stall windows are its
// moments', around each stall.
func TestEngineStallWindow(t *testing.T) {
	res := simtest.Run(t, "arrivals=poisson&dist=exponential&service=150us&rate=5000&stall=30ms&every=200ms&first=50ms&duration=1s&seed=1")
	ms := EngineMoments(res, 3)
	for k := 0; k < 3; k++ {
		from, to := StallWindow(res, k)
		s, e := res.StallSpan(int64(k))
		if ms[k].Kind != "stall" || from != ms[k].From || to != ms[k].To || from > s || to < e {
			t.Errorf("stall %d [%d, %d): window [%d, %d], moment %+v", k, s, e, from, to, ms[k])
		}
	}
	if n := res.StallCount(); n != 5 {
		t.Errorf("%d stalls, want 5", n)
	}
}

// TestEngineIndexMatchesFastPath: on the deterministic model the engine's
// index of a stall's window is the fast path's, request by request, with the
// same skipped slots (on rates of a whole number of nanoseconds a slot).
func TestEngineIndexMatchesFastPath(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "rate=2000&service=300us&stall=20ms&every=100ms&first=10ms&duration=1s&conns=3&workers=2",
		"rate=4000&service=240us&stall=3ms&every=7ms&first=1ms&duration=300ms&conns=2"} {
		cfg := simtest.Parse(t, q)
		fast, eng := simtest.Run(t, q), simtest.RunEngine(t, cfg)
		skipped := int64(0)
		for k := 0; k < min(fast.StallCount(), 3); k++ {
			from, to := StallWindow(fast, k)
			for c := range fast.Clients {
				x, y := TraceIndexOf(fast, sim.Client(c), from, to), TraceIndexOf(eng, sim.Client(c), from, to)
				if j, why := y.engineOrder(); why != breakNone || x.Len() != y.Len() {
					t.Fatalf("%q %s stall %d: %d requests (fast %d), order broken at %d (%d)", q, sim.Client(c), k, y.Len(), x.Len(), j, why)
				}
				for j := 0; j < x.Len(); j++ {
					a, b := x.At(j), y.At(j)
					a.Stall, b.Stall = 0, 0
					if a != b {
						t.Fatalf("%q %s: fast %+v, engine %+v", q, sim.Client(c), a, b)
					}
					f1, n1 := x.NeverSentAfter(j)
					f2, n2 := y.NeverSentAfter(j)
					if n1 != n2 || n1 > 0 && f1 != f2 {
						t.Fatalf("%q %s request %d: skipped %d from %d (fast), %d from %d (engine)", q, sim.Client(c), j, n1, f1, n2, f2)
					}
					skipped += n1
				}
				f1, n1 := x.NeverSentTail()
				f2, n2 := y.NeverSentTail()
				if n1 != n2 || n1 > 0 && f1 != f2 {
					t.Fatalf("%q %s: tail %d from %d (fast), %d from %d (engine)", q, sim.Client(c), n1, f1, n2, f2)
				}
			}
		}
		if skipped == 0 {
			t.Errorf("%q: the paced client skipped no slot", q)
		}
	}
}

// TestEnginePacedPlansShared: the plans of one result asked for at once from
// several goroutines (as windows of one result may be summarised) are built
// once and shared (sim keeps them: every caller gets the same slices); `go
// test -race` checks that no lock is missing.
func TestEnginePacedPlansShared(t *testing.T) {
	res := simtest.Run(t, "rate=3000&dist=exponential&service=250us&stall=15ms&every=100ms&first=20ms&duration=1s&seed=4")
	const n = 4
	var got [n]*pacedPlan
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() {
			got[g] = pacedPlans(res)
			_ = TraceIndexOf(res, sim.PacedClient, 0, res.Config.Duration)
		})
	}
	wg.Wait()
	want := len(res.Clients[sim.PacedClient].Send)
	for g, p := range got {
		if len(p.plan) != want || &p.plan[0] != &got[0].plan[0] {
			t.Fatalf("goroutine %d: plans %p with %d plans, goroutine 0: %p; want one plan of %d", g, p.plan, len(p.plan), got[0].plan, want)
		}
	}
}
