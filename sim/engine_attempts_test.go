package sim_test

import (
	"testing"

	. "omission/sim"
	"omission/sim/internal/simtest"
)

// checkAttemptTrace checks client c's attempt trace against the call-level
// data and the RetryCounts of the same run: each retried call's attempts are
// numbered 1, 2, … in the order they ended, the first sent at the call's
// Send, each next one exactly a backoff after the previous End, all but the
// last failed, the last ending at the call's Done with its Outcome; and the
// counts rebuilt from the trace (attempts, retries, failed calls, attempts
// by outcome, the most attempts of one call) are RetryCounts'. It returns
// the retried calls.
func checkAttemptTrace(t *testing.T, q string, res *Result, c Client) int {
	t.Helper()
	cfg := res.Config
	cr, ec := &res.Clients[c], &res.Engine.Clients[c]
	rc := ec.Retry
	if ec.AttemptsCut {
		t.Fatalf("%s %s: the attempt trace was cut", q, c)
	}
	A, B := cfg.AttemptsPerCall(), cfg.Backoff
	last := map[int32]Attempt{} // the call's last attempt so far
	var prevEnd int64
	var outcome [4]int64
	maxN := 1
	for k, a := range ec.Attempts {
		if a.End < prevEnd {
			t.Fatalf("%s %s: attempt %d ends at %d, before the previous one's %d", q, c, k, a.End, prevEnd)
		}
		prevEnd = a.End
		if a.Send > a.End || a.Start >= 0 && a.Start < a.Send {
			t.Fatalf("%s %s: attempt %+v out of order", q, c, a)
		}
		p, seen := last[a.Call]
		switch {
		case !seen && (a.N != 1 || a.Send != cr.Send[a.Call]):
			t.Fatalf("%s %s: call %d's first traced attempt %+v, the call sent at %d", q, c, a.Call, a, cr.Send[a.Call])
		case seen && (a.N != p.N+1 || !p.Retried(A) || a.Send != p.End+B):
			t.Fatalf("%s %s: call %d's attempt %+v after %+v (backoff %d)", q, c, a.Call, a, p, B)
		}
		last[a.Call] = a
		outcome[a.Outcome]++
		maxN = max(maxN, int(a.N))
	}
	var retries, failedCalls int64
	for i, o := range ec.Outcome {
		a, ok := last[int32(i)]
		if o != OutcomeReply {
			failedCalls++
		}
		if !ok {
			if o != OutcomeReply {
				t.Fatalf("%s %s: call %d failed (%s) with one attempt, which the policy would have retried", q, c, i, o)
			}
			outcome[o]++
			continue
		}
		retries += int64(a.N) - 1
		if a.Retried(A) || a.End != cr.Done[i] || a.Outcome != o {
			t.Fatalf("%s %s: call %d's last attempt %+v, the call ended at %d (%s)", q, c, i, a, cr.Done[i], o)
		}
		if cfg.Timeout == 0 && a.Start >= 0 && ec.Start[i] != a.Start {
			t.Fatalf("%s %s: call %d's last attempt started at %d, the call's start %d", q, c, i, a.Start, ec.Start[i])
		}
	}
	calls := int64(len(ec.Outcome))
	if calls+retries != rc.Attempts || retries != rc.Retries || failedCalls != rc.FailedCalls || maxN != rc.MaxAttempts ||
		outcome[OutcomeRejected] != rc.AttemptsRejected || outcome[OutcomeFailed] != rc.AttemptsFailed || outcome[OutcomeTimedOut] != rc.AttemptsTimedOut {
		t.Fatalf("%s %s: the trace gives %d attempts, %d retries, %d failed calls, max %d, %d/%d/%d rejected/failed/timed out; RetryCounts %+v",
			q, c, calls+retries, retries, failedCalls, maxN, outcome[OutcomeRejected], outcome[OutcomeFailed], outcome[OutcomeTimedOut], *rc)
	}
	// The series' retries per interval are the trace's retries by send.
	if s := res.Engine.Series; s != nil && !s.Truncated {
		want := make([]int64, s.Points)
		for _, a := range ec.Attempts {
			if a.N > 1 {
				want[a.Send/s.IntervalNs]++
			}
		}
		got := s.Clients[c].Retries
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("%s %s: interval %d has %d retries in the series, %d in the trace", q, c, j, got[j], want[j])
			}
		}
	}
	return len(last)
}

// TestAttemptTraceRandom: on random runs with retries (the mix of
// TestRetryRandom), every client's attempt trace agrees with its calls and
// its RetryCounts (checkAttemptTrace); sim/window's TestAttemptsWindowRandom
// holds the windows of the same runs.
func TestAttemptTraceRandom(t *testing.T) {
	g := simtest.Stream(2424, "test.attempt-trace")
	retried, wasted := 0, 0
	for runs := 0; runs < 200; runs++ {
		q := simtest.RetryQuery(g)
		res := simtest.Run(t, q)
		for _, c := range Clients() {
			retried += checkAttemptTrace(t, q, res, c)
			wasted += checkWastedAttempts(t, q, res, c)
			// sim/window's TestAttemptsWindowRandom holds the windows of
			// the same runs: the stream's next picks are theirs.
			g()
			g()
		}
	}
	if retried < 1000 {
		t.Errorf("only %d retried calls in the mix: it proves little", retried)
	}
	if wasted < 200 {
		t.Errorf("only %d wasted attempts in the mix: it proves little", wasted)
	}
}

// checkWastedAttempts holds client c's record of wasted attempts to the
// server's counts of wasted work (their number, and their worker time summed
// is WastedNs exactly) and to the attempt trace: each is a timed-out attempt
// of the trace, given up at that attempt's End, taken by a worker at its
// Start when the trace saw one, and finished after it was given up. It
// returns how many there were.
func checkWastedAttempts(t *testing.T, q string, res *Result, c Client) int {
	t.Helper()
	ec := &res.Engine.Clients[c]
	ws := ec.WastedAttempts
	if ec.AttemptsCut {
		return 0
	}
	var ns int64
	type key struct {
		call int32
		n    uint8
	}
	traced := map[key]Attempt{}
	for _, a := range ec.Attempts {
		traced[key{a.Call, a.N}] = a
	}
	for k, w := range ws {
		ns += w.Finish - w.Start
		if k > 0 && w.Finish < ws[k-1].Finish {
			t.Fatalf("%s %s: wasted attempt %d finished at %d, before the one before it (%d)", q, c, k, w.Finish, ws[k-1].Finish)
		}
		a, ok := traced[key{w.Call, w.N}]
		switch {
		case !ok:
			t.Fatalf("%s %s: wasted attempt %+v is not in the attempt trace", q, c, w)
		case a.Outcome != OutcomeTimedOut || a.End != w.GaveUp:
			t.Fatalf("%s %s: wasted attempt %+v; the trace has it %s at %d", q, c, w, a.Outcome, a.End)
		case a.Start >= 0 && (a.Start < w.Start || a.Start > w.Finish):
			// The trace starts a service a stall held back at the stall's
			// end; the worker took it (and its time counts) from before.
			t.Fatalf("%s %s: wasted attempt %+v started at %d in the trace", q, c, w, a.Start)
		case w.Start > w.Finish || w.GaveUp > w.Finish || w.GaveUp != a.Send+res.Config.Timeout && w.GaveUp != w.Finish:
			t.Fatalf("%s %s: wasted attempt %+v (sent %d, timeout %d) out of order", q, c, w, a.Send, res.Config.Timeout)
		}
	}
	if int64(len(ws)) != ec.Wasted || ns != ec.WastedNs {
		t.Fatalf("%s %s: %d wasted attempts recorded, %d ns of worker time; the server counts %d, %d ns", q, c, len(ws), ns, ec.Wasted, ec.WastedNs)
	}
	return len(ws)
}

// TestAttemptTraceClosedForm: with a deterministic outage [a, b), fixed
// service S, unlimited workers and a fixed backoff B, a call first sent at
// f in the outage sends attempt k at f + (k−1)·B, each failing at once
// while in the outage, and the first out of it is served at once: start at
// its send, end S later (retryPredict gives the call's end). Every traced
// attempt is where that closed form puts it (sim/window's
// TestAttemptsWindowClosedForm: the windows of the animation hold the
// calls the outage retried).
func TestAttemptTraceClosedForm(t *testing.T) {
	for _, q := range []string{
		"rate=1000&service=100us&stall=0&workers=unlimited&outages=100ms-250ms&attempts=3&backoff=40ms&duration=1s",
		"rate=777&service=2ms&stall=0&workers=unlimited&outages=30ms-95ms&attempts=10&backoff=7300us&duration=300ms&timeout=20ms",
		"preset=retry-storm&workers=unlimited&duration=6s",
	} {
		res := simtest.Run(t, q)
		if !RetryClosedFormApplies(res) {
			t.Fatalf("%s: the closed form does not apply", q)
		}
		cfg := res.Config
		w := cfg.OutageWindows()[0]
		S, B, A := cfg.Service, cfg.Backoff, int64(cfg.AttemptsPerCall())
		for _, c := range Clients() {
			checkAttemptTrace(t, q, res, c)
			ec, cr := &res.Engine.Clients[c], &res.Clients[c]
			byCall := map[int32][]Attempt{}
			for _, a := range ec.Attempts {
				byCall[a.Call] = append(byCall[a.Call], a)
			}
			inOutage := 0
			for i, f := range cr.Send {
				tries := byCall[int32(i)]
				if f < w.From || f >= w.To {
					if tries != nil {
						t.Fatalf("%s %s: call %d sent at %d outside the outage retried", q, c, i, f)
					}
					continue
				}
				inOutage++
				done, reply := RetryPredict(f, S, B, A, w.From, w.To)
				n := int64(len(tries))
				if !reply && n != A || reply && tries[n-1].End != done {
					t.Fatalf("%s %s: call %d sent at %d: %d attempts ending %d, the closed form %d (reply %v)", q, c, i, f, n, tries[n-1].End, done, reply)
				}
				for k, a := range tries {
					send := f + int64(k)*B
					wantStart, wantEnd, wantO := int64(-1), send, OutcomeFailed
					if send >= w.To {
						wantStart, wantEnd, wantO = send, send+S, OutcomeReply
					}
					if a.Send != send || a.Start != wantStart || a.End != wantEnd || a.Outcome != wantO {
						t.Fatalf("%s %s: call %d attempt %d %+v; want send %d start %d end %d %s", q, c, i, k+1, a, send, wantStart, wantEnd, wantO)
					}
				}
			}
			if inOutage == 0 {
				t.Fatalf("%s %s: no call was sent in the outage", q, c)
			}
		}
	}
}
