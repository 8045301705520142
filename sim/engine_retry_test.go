package sim

import (
	"strings"
	"testing"
)

// retryCheckIDs are the checks every client of a run with retries has.
var retryCheckIDs = []string{"inv.retry.attempts.", "inv.retry.calls.", "inv.retry.failures.", "little.attempts.", "inv.retry.utilisation."}

// TestRetryRandom: 500 random engine runs with retries, every feature the
// retry rules touch (queues, timeouts, outages, stalls, random arrivals and
// service, several workers and connections); every check passes, the retry
// checks are there, and the closed form runs where it applies.
func TestRetryRandom(t *testing.T) {
	g := newStream(24, "test.retry-configs")
	pick := func(xs ...string) string { return xs[g.next()%uint64(len(xs))] }
	runs, closedForms, retried := 0, 0, int64(0)
	for runs < 500 {
		q := strings.Join([]string{
			"rate=" + pick("200", "1000", "3000", "777"),
			"service=" + pick("50us", "300us", "900us", "2ms"),
			"workers=" + pick("1", "2", "unlimited", "unlimited"),
			"conns=" + pick("1", "3"),
			"queue=" + pick("unbounded", "0", "5"),
			"timeout=" + pick("0s", "0s", "2ms", "20ms"),
			"outages=" + pick("", "50ms-120ms", "20ms-40ms,200ms-260ms", "0s-30ms"),
			"attempts=" + pick("2", "3", "5", "10"),
			"backoff=" + pick("0s", "1ms", "15ms", "100ms", "7300us"),
			"duration=" + pick("100ms", "300ms"),
			"stall=" + pick("0s", "0s", "5ms"), "every=100ms", "first=" + pick("10ms", "60ms"),
			"arrivals=" + pick("constant", "constant", "poisson"),
			"dist=" + pick("fixed", "fixed", "exponential"),
			"seed=" + pick("1", "2", "3"),
		}, "&")
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		runs++
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if res.Engine == nil {
			t.Fatalf("%s: a run with retries took the fast path", q)
		}
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: %s want %v got %v (%s)", q, c.ID, c.Want, c.Got, c.Substituted)
			}
		}
		for _, c := range Clients() {
			for _, id := range retryCheckIDs {
				if res.CheckFor(id+c.String()) == nil {
					t.Errorf("%s: no check %s%s", q, id, c)
				}
			}
			retried += res.Engine.Clients[c].Retry.Retries
		}
		if res.CheckFor("open.retry_closed_form") != nil {
			closedForms++
		}
	}
	// The mix must reach the closed form and real retries, or it proves little.
	if closedForms < 20 || retried == 0 {
		t.Errorf("%d runs: %d with the closed form, %d retries in all", runs, closedForms, retried)
	}
}

// TestRetryClosedForm: a deterministic outage with a fixed backoff gives
// each call's end exactly, worked out here by hand. 1000/s, 100 µs
// service, unlimited workers, an outage [100 ms, 250 ms), 3 attempts 40 ms
// apart: a call due at f in the outage retries at f + 40 ms and f + 80 ms.
// f in [100, 170): both retries still in the outage, the call fails at
// f + 80 ms; f in [170, 210): the second retry is out, latency 80.1 ms;
// f in [210, 250): the first is, latency 40.1 ms.
func TestRetryClosedForm(t *testing.T) {
	res := runEngine(t, parse(t, "rate=1000&service=100us&stall=0&workers=unlimited&outages=100ms-250ms&attempts=3&backoff=40ms&duration=1s"))
	for _, c := range Clients() {
		ch := res.CheckFor(c.String() + ".retry_closed_form")
		if ch == nil || !ch.Pass {
			t.Fatalf("%s: closed form check %+v", c, ch)
		}
	}
	cr, ec := res.Clients[OpenClient], res.Engine.Clients[OpenClient]
	ms := int64(1e6)
	for i := range cr.Send {
		f := int64(i) * ms
		want, ok := f+100e3, true
		switch {
		case f >= 100*ms && f < 170*ms:
			want, ok = f+80*ms, false
		case f >= 170*ms && f < 210*ms:
			want = f + 80*ms + 100e3
		case f >= 210*ms && f < 250*ms:
			want = f + 40*ms + 100e3
		}
		if cr.Send[i] != f || cr.Done[i] != want || (ec.Outcome[i] == OutcomeReply) != ok {
			t.Fatalf("open call %d: sent %d done %d %s; want sent %d done %d reply %v", i, cr.Send[i], cr.Done[i], ec.Outcome[i], f, want, ok)
		}
	}
	rc := ec.Retry
	// 70 calls fail after 3 attempts, 40 reply on the third, 40 on the second.
	if ec.Failed != 70 || rc.Attempts != 1000+70*2+40*2+40 || res.Recordings[Open].Max != 80*ms+100e3 {
		t.Errorf("open: %d failed calls, %d attempts, max %d", ec.Failed, rc.Attempts, res.Recordings[Open].Max)
	}
	// The successful attempt alone is always one service long.
	if al := rc.AttemptLatency; al.Count != 930 || al.Max != 100e3 || al.P[P50] != 100e3 {
		t.Errorf("open attempt latency: count %d max %d p50 %d", al.Count, al.Max, al.P[P50])
	}
}

// TestRetryClients: how each client retries. The open loop's calls keep
// their due times (retries are extra sends); the closed loop's connection
// and the paced client send their next call only after the last one ended.
func TestRetryClients(t *testing.T) {
	res := runEngine(t, parse(t, "rate=1000&service=300us&stall=0&timeout=2ms&outages=50ms-80ms&attempts=4&backoff=7ms&duration=200ms"))
	for i, s := range res.Clients[OpenClient].Send {
		if s != res.Engine.Due[i] {
			t.Fatalf("open call %d first sent at %d, due at %d", i, s, res.Engine.Due[i])
		}
	}
	for _, c := range []Client{ClosedClient, PacedClient} {
		cr := res.Clients[c]
		for i := 1; i < len(cr.Send); i++ {
			if cr.Send[i] < cr.Done[i-1] {
				t.Fatalf("%s: call %d sent at %d before call %d ended at %d", c, i, cr.Send[i], i-1, cr.Done[i-1])
			}
		}
		if res.Engine.Clients[c].Retry.Retries == 0 {
			t.Errorf("%s: no retry in a 30 ms outage", c)
		}
	}
}

// TestRetryWastedWork: a timed-out attempt is still served (wasted work, with
// its worker time), and its retry waits behind it. One worker, 5 ms service,
// 1 ms timeout, 2 attempts, no backoff: every call's first attempt times out
// at 1 ms, its retry queues behind it and times out too.
func TestRetryWastedWork(t *testing.T) {
	res := runEngine(t, parse(t, "rate=10&service=5ms&stall=0&timeout=1ms&attempts=2&duration=1s"))
	ec := res.Engine.Clients[OpenClient]
	if ec.TimedOut != 10 || ec.Retry.AttemptsTimedOut != 20 || ec.Wasted != 20 || ec.WastedNs != 20*5e6 || ec.Replies != 0 {
		t.Errorf("open: %d calls timed out, %d attempts; %d wasted (%d ns); %d replies", ec.TimedOut, ec.Retry.AttemptsTimedOut, ec.Wasted, ec.WastedNs, ec.Replies)
	}
}

// TestRetryOffIsSameRun: attempts=1 spelled out is the run without it (same
// query, same hash); and a policy that never meets a failure changes no
// count and no percentile, only adds its checks.
func TestRetryOffIsSameRun(t *testing.T) {
	for _, q := range hashQueries {
		if c := parse(t, q); !c.EventDriven() || c.Retrying() {
			continue
		}
		a, b := run(t, q), run(t, q+"&attempts=1")
		if a.Hash != b.Hash || a.Query != b.Query {
			t.Errorf("%s: attempts=1 changed the run: %s vs %s", q, a.Hash, b.Hash)
		}
	}
	q := "arrivals=poisson&dist=exponential&service=150us&workers=4&conns=4&rate=20000&stall=0&duration=1s&seed=42"
	a, b := runEngine(t, parse(t, q)), runEngine(t, parse(t, q+"&attempts=5&backoff=1ms"))
	for k := range a.Recordings {
		x, y := a.Recordings[k], b.Recordings[k]
		if x.Count != y.Count || x.Mean != y.Mean || x.P != y.P || x.Max != y.Max {
			t.Errorf("%s: retries that never trigger changed the recording", Kind(k))
		}
	}
	for c := range a.Engine.Clients {
		if r := b.Engine.Clients[c].Retry; r.Retries != 0 || r.Attempts != a.Engine.Clients[c].Sent {
			t.Errorf("%s: %d retries, %d attempts of %d calls", Client(c), r.Retries, r.Attempts, a.Engine.Clients[c].Sent)
		}
	}
}

// TestRetryFields: the two fields' ranges, rules and canonical form.
func TestRetryFields(t *testing.T) {
	for _, q := range []string{"attempts=0", "attempts=11", "attempts=x", "backoff=1ms", "attempts=2&backoff=-1s", "attempts=2&backoff=25h"} {
		if _, err := ParseQuery(q); err == nil {
			t.Errorf("%s: accepted", q)
		}
	}
	cfg := parse(t, "attempts=1")
	if cfg != Default() || cfg.Query() != "" || cfg.EventDriven() {
		t.Errorf("attempts=1 is not the default: %q", cfg.Query())
	}
	if _, ok := cfg.Params()["attempts"]; ok {
		t.Errorf("params list attempts at its default")
	}
	cfg = parse(t, "backoff=100ms&attempts=03")
	if got := cfg.Query(); got != "attempts=3&backoff=100ms" || !cfg.EventDriven() {
		t.Errorf("canonical query %q", got)
	}
	if p := cfg.Params(); p["attempts"] != "3" || p["backoff"] != "100ms" {
		t.Errorf("params %v", p)
	}
	// A backoff without retries is a conflict (issue 26's rule): both
	// fields are named, nothing runs, and the Config keeps the values given.
	cfg, err := ParseQuery("preset=retry-storm&attempts=1&backoff=5ms")
	es, _ := err.(Errors)
	if b, a := es.Field("backoff"), es.Field("attempts"); b == nil || a == nil || b.Reason != ReasonConflict || a.Reason != ReasonConflict || !es.Refused() {
		t.Errorf("backoff with attempts=1: %v", err)
	}
	if cfg.Backoff != 5e6 || cfg.Retrying() {
		t.Errorf("backoff with attempts=1 keeps the values given: %q", cfg.Query())
	}
}
