package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// runEngine runs cfg through the event engine even when the fast path would
// take it.
func runEngine(t testing.TB, cfg Config) *Result {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	e := newEngineRun(cfg)
	for !e.step(1 << 20) {
	}
	if e.err != nil {
		t.Fatal(e.err)
	}
	res := e.result()
	res.Hash = res.computeHash()
	return res
}

func parse(t testing.TB, q string) Config {
	t.Helper()
	cfg, err := ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	return cfg
}

// sameNumbers compares every metric of two results of one configuration.
func sameNumbers(t *testing.T, name string, fast, eng *Result) {
	t.Helper()
	if fast.Planned != eng.Planned {
		t.Errorf("%s: planned %d (fast) vs %d (engine)", name, fast.Planned, eng.Planned)
	}
	for k := range fast.Recordings {
		a, b := fast.Recordings[k], eng.Recordings[k]
		if a.Count != b.Count || a.Mean != b.Mean || a.P != b.P || a.Max != b.Max || a.Above != b.Above || a.Interval != b.Interval || a.Dist.Sum() != b.Dist.Sum() {
			t.Errorf("%s %s: fast count %d mean %v P %v max %d above %d; engine count %d mean %v P %v max %d above %d",
				name, Kind(k), a.Count, a.Mean, a.P, a.Max, a.Above, b.Count, b.Mean, b.P, b.Max, b.Above)
		}
	}
	for c := range fast.Clients {
		a, b := fast.Clients[c], eng.Clients[c]
		if a.Planned != b.Planned || a.Sent != b.Sent || a.StallsMet != b.StallsMet || a.LastCompletion != b.LastCompletion {
			t.Errorf("%s %s: fast %d/%d stalls %d last %d; engine %d/%d stalls %d last %d", name, a.Client,
				a.Sent, a.Planned, a.StallsMet, a.LastCompletion, b.Sent, b.Planned, b.StallsMet, b.LastCompletion)
		}
		if a.Done == nil || b.Done == nil {
			continue
		}
		sched := fast.Schedule()
		for i := range a.Done {
			send := sched.Due(int64(i))
			if a.Send != nil {
				send = a.Send[i]
			}
			if a.Done[i] != b.Done[i] || send != b.Send[i] {
				t.Errorf("%s %s request %d: fast send %d done %d; engine send %d done %d", name, a.Client, i, send, a.Done[i], b.Send[i], b.Done[i])
				break
			}
		}
	}
	if fast.Exact != eng.Exact {
		t.Errorf("%s: exact %v (fast) vs %v (engine)", name, fast.Exact, eng.Exact)
	}
}

// TestEngineAgreesWithFastPath: on the deterministic presets (and the
// fast path's golden trace configurations) the event engine gives every
// number the fast path gives, request by request.
func TestEngineAgreesWithFastPath(t *testing.T) {
	qs := map[string]string{
		"stall":    "rate=1000&service=300us&stall=2500us&every=10ms&first=2ms&duration=20ms",
		"midstall": "rate=1000&service=800us&stall=1500us&every=4ms&first=2300us&duration=12ms",
		"workers":  "rate=3000&service=900us&stall=2ms&every=7ms&first=1ms&duration=10ms&conns=3&workers=2",
		"odd-rate": "rate=333.333&service=2ms&stall=40ms&every=700ms&first=10ms&duration=3s&conns=4&workers=3",
		"ceil":     "preset=clients10&rank=ceil&workers=7",
	}
	for _, p := range []string{"bench", "tcp", "note60", "note60-single", "clients10"} {
		qs[p] = "preset=" + p
	}
	for name, q := range qs {
		cfg := parse(t, q)
		if cfg.EventDriven() {
			t.Fatalf("%s is event-driven", name)
		}
		fast, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if fast.Engine != nil {
			t.Fatalf("%s: a deterministic configuration left the fast path", name)
		}
		sameNumbers(t, name, fast, runEngine(t, cfg))
	}
}

// TestEngineFastPathRandom: the same agreement on random deterministic
// configurations, in and out of the closed-form regime.
func TestEngineFastPathRandom(t *testing.T) {
	g := newStream(11, "test.random-configs")
	pick := func(xs ...int64) int64 { return xs[g.next()%uint64(len(xs))] }
	for i := 0; i < 60; i++ {
		q := fmt.Sprintf("rate=%d&service=%dus&stall=%dms&every=%dms&first=%dms&duration=%dms&conns=%d&workers=%d",
			pick(100, 250, 1000, 3000, 777), pick(50, 200, 900, 1500, 4000), pick(0, 3, 20, 150), pick(0, 400, 1000, 1700),
			pick(0, 5, 130, 600), pick(300, 1000, 2500), pick(1, 1, 2, 5), pick(1, 1, 0, 2, 4))
		cfg, err := ParseQuery(q)
		if err != nil {
			continue // stall ≥ every: refused, fine
		}
		fast, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sameNumbers(t, q, fast, runEngine(t, cfg))
	}
}

// TestEngineChecksPass: every check of an event-driven run passes, over
// every feature.
func TestEngineChecksPass(t *testing.T) {
	for _, q := range []string{
		"arrivals=poisson&dist=exponential&service=150us&workers=4&rate=20000&stall=0&seed=3&duration=5s",
		"arrivals=poisson&dist=exponential&service=150us&workers=4&conns=4&rate=20000&seed=3&duration=5s",
		"arrivals=ramp&to=9000&dist=lognormal&service=80us&service_p95=400us&workers=2&conns=3&duration=4s",
		"arrivals=burst&bursts=1s-1200ms@30000,3s-3100ms@0&dist=uniform&service=50us&service_max=300us&queue=20&workers=2&conns=8&duration=4s",
		"arrivals=poisson&service=100us&timeout=50ms&queue=500&outages=1s-1300ms,2500ms-2600ms&duration=4s&conns=2",
		"preset=note60&arrivals=poisson&duration=10s&first=3s&timeout=200ms",
		"preset=clients10&queue=0&workers=5&duration=5s&first=2s",
		"preset=tcp&dist=exponential&timeout=2ms&queue=3",
		"rate=100&service=5ms&dist=exponential&arrivals=poisson&workers=unlimited&duration=20s&timeout=7ms",
	} {
		res, err := Run(parse(t, q))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if res.Engine == nil {
			t.Fatalf("%s: ran on the fast path", q)
		}
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: %s want %v got %v (%s)", q, c.ID, c.Want, c.Got, c.Substituted)
			}
		}
		for _, id := range []string{"little.open", "little.queue.closed", "inv.conservation.paced", "bound.throughput.closed"} {
			if res.CheckFor(id) == nil {
				t.Errorf("%s: no check %s", q, id)
			}
		}
	}
}

// TestEngineOutcomes: rejections, outages, timeouts and wasted work
// happen where the rules put them.
func TestEngineOutcomes(t *testing.T) {
	// One worker, no waiting room, open loop at twice the capacity:
	// about half the requests are rejected.
	res := runEngine(t, parse(t, "rate=1000&service=2ms&stall=0&queue=0&duration=1s"))
	op := res.Engine.Clients[OpenClient]
	if op.Rejected != 500 || op.Replies != 500 {
		t.Errorf("no queue at 2× load: %d rejected, %d replies; want 500 and 500", op.Rejected, op.Replies)
	}
	// An outage fails what arrives inside it, nothing else.
	res = runEngine(t, parse(t, "rate=1000&service=100us&stall=0&outages=100ms-200ms&duration=1s"))
	for c := range res.Engine.Clients {
		if ec := res.Engine.Clients[c]; ec.Failed != 100 {
			t.Errorf("%s: %d failed in a 100 ms outage at 1000/s, want 100", Client(c), ec.Failed)
		}
	}
	// A 300 ms stall and a 50 ms timeout: the open client gives up on
	// every request the stall delays by 50 ms or more, and the server
	// still serves them. Request j of the stall (due at 500 + j ms) replies
	// at 800.1 + 0.1·j ms, 300.1 − 0.9·j ms late: j = 0 … 277.
	res = runEngine(t, parse(t, "rate=1000&service=100us&stall=300ms&every=0&first=500ms&timeout=50ms&duration=1s"))
	op = res.Engine.Clients[OpenClient]
	if op.TimedOut != 278 || op.Wasted != op.TimedOut || op.WastedNs == 0 {
		t.Errorf("open: %d timed out, %d wasted (%d ns); want 278 each", op.TimedOut, op.Wasted, op.WastedNs)
	}
	cl := res.Engine.Clients[ClosedClient]
	// The closed client sends one request into the stall, gives up at
	// 50 ms, sends the next at once (queued behind the first), and so on.
	if cl.TimedOut != 6 || cl.Wasted != 6 {
		t.Errorf("closed: %d timed out, %d wasted; want 6 and 6", cl.TimedOut, cl.Wasted)
	}
	// A reply exactly at the deadline is late.
	res = runEngine(t, parse(t, "rate=10&service=10ms&stall=0&timeout=10ms&duration=1s"))
	if ec := res.Engine.Clients[OpenClient]; ec.TimedOut != 10 || ec.Replies != 0 {
		t.Errorf("reply at the deadline: %d timed out, %d replies; want 10 and 0", ec.TimedOut, ec.Replies)
	}
}

// TestEngineRefusals: the limits refuse with their names.
func TestEngineRefusals(t *testing.T) {
	_, err := ParseQuery("arrivals=poisson&rate=1000000&duration=11s")
	if err == nil || !strings.Contains(err.Error(), "limit arrivals") || !strings.Contains(err.Error(), "duration") {
		t.Errorf("too many arrivals: %v", err)
	}
	// An overloaded server with an unbounded queue, and a long run, with
	// the limits lowered so that the test reaches them quickly.
	defer func(e int64, q int) { limitEvents, limitQueued = e, q }(limitEvents, limitQueued)
	limitQueued = 5000
	_, err = Run(parse(t, "arrivals=poisson&rate=100000&service=1ms&stall=0&duration=1s&conns=10"))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "queued" || !strings.Contains(err.Error(), "limit queued") {
		t.Errorf("overload: %v", err)
	}
	limitQueued, limitEvents = MaxQueued, 100000
	_, err = Run(parse(t, "arrivals=poisson&rate=1000000&service=1ms&stall=0&duration=50ms&conns=1"))
	if !errors.As(err, &le) || le.Limit != "events" || !strings.Contains(err.Error(), "limit events") {
		t.Errorf("a long run: %v", err)
	}
	limitEvents = MaxEvents
	// In histogram mode a corrected sequence is charged as work.
	s := newEngSim(ClosedClient, parse(t, "arrivals=poisson&rate=1000000&service=1ms&duration=50ms"), false)
	s.record(1e6) // E = 1 µs: 999 corrected values
	if s.extra != 249 || s.st.corr.Count() != 1000 {
		t.Errorf("a corrected sequence of 999 values charged %d events, recorded %d", s.extra, s.st.corr.Count())
	}
	// A backlog that would take more than a week of virtual time to clear.
	_, err = Run(parse(t, "arrivals=poisson&rate=1000&service=24h&stall=0&duration=1s&workers=1"))
	if !errors.As(err, &le) || le.Limit != "drain" {
		t.Errorf("endless drain: %v", err)
	}
	// A service that the stalls stretch past the limit (1 ms of work a second).
	_, err = Run(parse(t, "dist=exponential&service=1h&stall=999ms&every=1s&first=0s&duration=10ms&rate=1000"))
	if !errors.As(err, &le) || le.Limit != "drain" {
		t.Errorf("a service stretched past the drain limit: %v", err)
	}
	r, err := Start(parse(t, "arrivals=poisson&rate=1000&service=24h&stall=0&duration=1s&workers=1"))
	if err != nil {
		t.Fatal(err)
	}
	for !r.Step(1000) {
	}
	if r.Err() == nil || r.Result() != nil {
		t.Errorf("a refused run: Err %v, Result %v", r.Err(), r.Result())
	}
	if e := ErrTimeBudget("21 s", "20 s"); !strings.Contains(e.Error(), "limit time") {
		t.Errorf("time budget: %v", e)
	}
}

// TestEngineSteps: a run in slices gives the same result as one in a piece.
func TestEngineSteps(t *testing.T) {
	cfg := parse(t, "arrivals=burst&bursts=1s-1500ms@8000&dist=exponential&service=200us&workers=2&conns=3&timeout=20ms&queue=50&duration=3s&seed=9")
	whole, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	slices := 0
	for !r.Step(997) {
		slices++
		if done, total := r.Progress(); done > total*2 || done < 0 {
			t.Fatalf("progress %d of %d", done, total)
		}
	}
	if slices < 10 {
		t.Errorf("only %d slices", slices)
	}
	if got := r.Result(); got.Hash != whole.Hash {
		t.Errorf("hash in slices %s, whole %s", got.Hash, whole.Hash)
	}
}
