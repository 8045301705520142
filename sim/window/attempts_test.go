package window

import (
	"sort"
	"strings"
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// TestAttemptsWindowRandom: on the random runs with retries of sim's
// TestAttemptTraceRandom (the same stream, the same picks:
// simtest.RetryQuery), a window of a client's attempt trace holds exactly
// the attempts whose span meets the window.
func TestAttemptsWindowRandom(t *testing.T) {
	g := simtest.Stream(2424, "test.attempt-trace")
	for runs := 0; runs < 200; runs++ {
		q := simtest.RetryQuery(g)
		res := simtest.Run(t, q)
		for _, c := range sim.Clients() {
			all := res.Engine.Clients[c].Attempts
			from := int64(g() % uint64(res.Config.Duration))
			to := from + int64(g()%uint64(res.Config.Duration/4))
			tr := AttemptsWindow(res, c, from, to)
			var want []sim.Attempt
			for _, a := range all {
				end := a.End
				if a.Retried(res.Config.AttemptsPerCall()) {
					end += res.Config.Backoff
				}
				if a.Send <= to && end >= from {
					want = append(want, a)
				}
			}
			if len(tr.Tries) != len(want) || tr.Cut {
				t.Fatalf("%s %s [%d, %d]: %d attempts in the window, want %d", q, c, from, to, len(tr.Tries), len(want))
			}
			for k := range want {
				if tr.Tries[k] != want[k] {
					t.Fatalf("%s %s: window attempt %d %+v, want %+v", q, c, k, tr.Tries[k], want[k])
				}
			}
		}
	}
}

// TestAttemptsWindowClosedForm: on the runs of sim's
// TestAttemptTraceClosedForm (a deterministic outage, every call sent in it
// retried), the outage's window (AnimWindows' first) holds every attempt
// of the calls it retried.
func TestAttemptsWindowClosedForm(t *testing.T) {
	for _, q := range []string{
		"rate=1000&service=100us&stall=0&workers=unlimited&outages=100ms-250ms&attempts=3&backoff=40ms&duration=1s",
		"rate=777&service=2ms&stall=0&workers=unlimited&outages=30ms-95ms&attempts=10&backoff=7300us&duration=300ms&timeout=20ms",
		"preset=retry-storm&workers=unlimited&duration=6s",
	} {
		res := simtest.Run(t, q)
		for _, c := range sim.Clients() {
			ec := &res.Engine.Clients[c]
			m := engineAnimWindow(res, 0)
			tr := AttemptsWindow(res, c, m.From, m.To)
			if tr == nil || len(tr.Tries) != len(ec.Attempts) {
				t.Fatalf("%s %s: the outage's window [%d, %d] holds %v of %d attempts", q, c, m.From, m.To, tr, len(ec.Attempts))
			}
		}
	}
}

// TestWindowRetryCounts: a refused window of a run with retries says, per
// client, the retries sent in it, the calls that sent them, the calls that
// failed and the most calls waiting out a backoff at once. In the closed
// form of TestRetryClosedForm (outage [100, 250) ms, 3 attempts 40 ms
// apart, the open loop due every 1 ms) the outage's window holds them all:
// calls due in [100, 210) retry twice, those in [210, 250) once (260
// retries of 150 calls), those in [100, 170) fail (70); at t the calls
// due in (t − 40, t] wait out their first backoff and those due in
// (t − 80, t − 40] their second, 40 each once t − 80 ≥ 99 ms: 80 at once,
// first at 179 ms (no more: 40 ms of due calls each). Elsewhere the counts
// are checked against a sweep over the trace.
func TestWindowRetryCounts(t *testing.T) {
	res := simtest.Run(t, "rate=1000&service=100us&stall=0&workers=unlimited&outages=100ms-250ms&attempts=3&backoff=40ms&duration=1s")
	_, err := NewSummaryBuilder(res, 0)
	e, ok := err.(*Refusal)
	if !ok || len(e.Retries) != 3 {
		t.Fatalf("the outage's window: %v", err)
	}
	ms := int64(1e6)
	var open Retries
	for _, w := range e.Retries {
		if w.Client == sim.OpenClient {
			open = w
		}
	}
	if want := (Retries{Client: sim.OpenClient, Retries: 260, Calls: 150, FailedCalls: 70, MostWaiting: 80, MostAt: 179 * ms, Attempts: 3}); open != want {
		t.Errorf("open: %+v, want %+v", open, want)
	}
	if s := e.Error(); !strings.Contains(s, "the open client sent 260 retries for 150 calls, 70 calls failed all 3 attempts, up to 80 calls waited out a backoff at once (first at 179ms)") {
		t.Errorf("the refusal does not count the retries: %s", s)
	}
	// Brute force: every instant an edge of a backoff, on random runs.
	g := simtest.Stream(77, "test.window-retries")
	for runs := 0; runs < 40; runs++ {
		q := "rate=" + []string{"300", "1000"}[g()%2] + "&service=700us&workers=" + []string{"1", "unlimited"}[g()%2] +
			"&queue=" + []string{"2", "unbounded"}[g()%2] + "&timeout=" + []string{"0s", "3ms"}[g()%2] +
			"&outages=40ms-90ms&attempts=4&backoff=9ms&stall=0&duration=200ms&arrivals=poisson&seed=" + []string{"1", "2", "3", "4"}[g()%4]
		res := simtest.Run(t, q)
		for _, c := range sim.Clients() {
			from := int64(g() % uint64(150*ms))
			to := from + int64(g()%uint64(60*ms))
			tr := AttemptsWindow(res, c, from, to)
			got := tr.Retries()
			var want Retries
			want.Client, want.Attempts = c, res.Config.AttemptsPerCall()
			calls := map[int32]bool{}
			A, B := res.Config.AttemptsPerCall(), res.Config.Backoff
			var instants []int64
			for _, a := range res.Engine.Clients[c].Attempts {
				if a.N > 1 && a.Send >= from && a.Send <= to {
					want.Retries++
					calls[a.Call] = true
				}
				if a.Outcome != sim.OutcomeReply && !a.Retried(A) && a.End >= from && a.End <= to {
					want.FailedCalls++
				}
				if a.Retried(A) {
					instants = append(instants, max(a.End, from))
				}
			}
			want.Calls = int64(len(calls))
			sort.Slice(instants, func(i, j int) bool { return instants[i] < instants[j] })
			for _, t0 := range instants {
				if t0 > to {
					continue
				}
				var n int64
				for _, a := range res.Engine.Clients[c].Attempts {
					if a.Retried(A) && a.End <= t0 && t0 < a.End+B {
						n++
					}
				}
				if n > want.MostWaiting {
					want.MostWaiting, want.MostAt = n, t0
				}
				if n != tr.InBackoff(t0) {
					t.Fatalf("%s %s: InBackoff(%d) = %d, want %d", q, c, t0, tr.InBackoff(t0), n)
				}
			}
			if got != want {
				t.Fatalf("%s %s [%d, %d]: %+v, want %+v", q, c, from, to, got, want)
			}
		}
	}
}
