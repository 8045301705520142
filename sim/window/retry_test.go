package window

import (
	"strconv"
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// refCall is one call as the brute force reads it: its attempts, from the
// run's attempt trace when it sent more than one, else from its per-call
// data.
type refCall struct {
	index int
	tries []sim.Attempt
}

// refCalls returns every call of client c, with its attempts, read directly
// from the run (a map over the trace, not the model's search).
func refCalls(res *sim.Result, c sim.Client) []refCall {
	cr, ec := &res.Clients[c], &res.Engine.Clients[c]
	by := map[int32][]sim.Attempt{}
	for _, a := range ec.Attempts {
		by[a.Call] = append(by[a.Call], a)
	}
	out := make([]refCall, len(cr.Send))
	for i := range cr.Send {
		tries := by[int32(i)]
		if len(tries) == 0 {
			tries = []sim.Attempt{{Call: int32(i), N: 1, Outcome: ec.Outcome[i], Send: cr.Send[i], Start: ec.Start[i], End: cr.Done[i]}}
		}
		out[i] = refCall{index: i, tries: tries}
	}
	return out
}

// refState is the state of call rc at t by the definitions of CallState,
// checking every interval against every other: it fails the test when the
// call is in no state or in two.
func refState(t *testing.T, rc refCall, at int64, A int, B int64) CallState {
	t.Helper()
	var in []CallState
	first := rc.tries[0]
	if at < first.Send {
		in = append(in, CallNotSent)
	}
	for k, a := range rc.tries {
		start := a.Start
		if start < 0 || start > a.End {
			start = a.End
		}
		if a.Send <= at && at < start {
			in = append(in, CallQueued)
		}
		if start <= at && at < a.End {
			in = append(in, CallServing)
		}
		if a.Retried(A) && a.End <= at && at < a.End+B {
			in = append(in, CallBackoff)
		}
		if k == len(rc.tries)-1 && !a.Retried(A) && at >= a.End {
			if a.Outcome == sim.OutcomeReply {
				in = append(in, CallAnswered)
			} else {
				in = append(in, CallFailed)
			}
		}
	}
	if len(in) != 1 {
		t.Fatalf("call %d at %d: in states %v (attempts %+v)", rc.index, at, in, rc.tries)
	}
	return in[0]
}

// TestRetryWindowBruteForce holds the counts of a window by calls to a
// brute-force count over the attempt trace at many instants, on random
// engine runs with retries: every state, the attempts and retries sent so
// far, each call's own state, and conservation (every call of the window
// in exactly one state).
func TestRetryWindowBruteForce(t *testing.T) {
	g := simtest.Stream(2024, "test.window-retry")
	ms := int64(1e6)
	checked, wastedSeen := 0, int64(0)
	for seed := 1; seed <= 60; seed++ {
		q := "rate=" + []string{"300", "1000", "2000"}[g()%3] + "&service=700us&workers=" + []string{"1", "2", "unlimited"}[g()%3] +
			"&queue=" + []string{"2", "unbounded"}[g()%2] + "&timeout=" + []string{"0s", "3ms", "1ms"}[g()%3] +
			"&outages=40ms-90ms&attempts=" + []string{"2", "3", "5"}[g()%3] + "&backoff=" + []string{"9ms", "1ms", "20ms"}[g()%3] +
			"&stall=0&duration=200ms&arrivals=" + []string{"poisson", "constant"}[g()%2] + "&dist=" + []string{"exponential", "fixed"}[g()%2] +
			"&seed=" + strconv.Itoa(seed)
		res := simtest.Run(t, q)
		A, B := res.Config.AttemptsPerCall(), res.Config.Backoff
		for _, c := range sim.Clients() {
			from := int64(g() % uint64(150*ms))
			to := from + 1 + int64(g()%uint64(80*ms))
			rc, err := newRetryClient(res, c, from, to)
			if err != nil {
				t.Fatalf("%s %s: %v", q, c, err)
			}
			ref := refCalls(res, c)
			wastedOf := map[int64][]sim.WastedAttempt{} // by call: the engine's record of wasted work
			for _, w := range res.Engine.Clients[c].WastedAttempts {
				wastedOf[int64(w.Call)] = append(wastedOf[int64(w.Call)], w)
			}
			var in []refCall // the window's calls: sent by to, ended at or after from
			for _, r := range ref {
				last := r.tries[len(r.tries)-1]
				if r.tries[0].Send <= to && last.End >= from {
					in = append(in, r)
				}
			}
			if rc.N != len(in) || len(in) > 0 && rc.First != int64(in[0].index) {
				t.Fatalf("%s %s [%d, %d]: %d calls from %d, want %d", q, c, from, to, rc.N, rc.First, len(in))
			}
			// Instants: random ones, and each move's instant and the one
			// before it.
			var instants []int64
			for k := 0; k < 60; k++ {
				instants = append(instants, from-5*ms+int64(g()%uint64(to-from+10*ms)))
			}
			for k := 0; k < len(rc.Moves); k += 1 + len(rc.Moves)/80 {
				instants = append(instants, rc.Moves[k].At, rc.Moves[k].At-1)
			}
			for _, at := range instants {
				var want CallCounts
				for p, r := range in {
					s := refState(t, r, at, A, B)
					want.In[s]++
					if got := rc.StateOf(p, at); got != s {
						t.Fatalf("%s %s: call %d at %d is %v, the trace says %v", q, c, r.index, at, got, s)
					}
					for _, w := range wastedOf[int64(r.index)] {
						if max(w.Start, w.GaveUp) <= at && at < w.Finish {
							want.Wasted++
						}
					}
					for _, a := range r.tries {
						if a.Send <= at {
							want.Attempts++
							if a.N > 1 {
								want.Retries++
							}
						}
					}
				}
				got := rc.CountsAt(at)
				wastedSeen += got.Wasted
				if got != want {
					t.Fatalf("%s %s [%d, %d] at %d: %+v, the trace %+v", q, c, from, to, at, got, want)
				}
				var sum int64
				for _, n := range got.In {
					sum += n
				}
				if sum != int64(rc.N) {
					t.Fatalf("%s %s at %d: %d calls in the states, %d in the window", q, c, at, sum, rc.N)
				}
				checked++
			}
		}
	}
	if checked < 50*3*60 {
		t.Fatalf("only %d instants checked", checked)
	}
	if wastedSeen < 100 {
		t.Fatalf("only %d wasted attempts seen at the instants checked: the mix proves little of wasted work", wastedSeen)
	}
}

// TestRetryWindowBackToQueue: a call whose attempt failed backs off until a
// backoff after the failure and then goes back to the queue with its next
// attempt (or straight into service, or, in an outage, fails again at
// once), in the storm's outage window.
func TestRetryWindowBackToQueue(t *testing.T) {
	res := simtest.Run(t, "preset=retry-storm")
	m, err := NewRetryWindow(res, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Retry.Order == nil {
		t.Fatal("the storm's outage window is not refused by the queue animation: nothing to show")
	}
	B, A := res.Config.Backoff, res.Config.AttemptsPerCall()
	back := 0
	for _, rc := range m.Retry.Clients {
		ref := refCalls(res, rc.Client)
		for p := 0; p < rc.N; p++ {
			r := ref[int(rc.First)+p]
			if int64(r.index) != rc.First+int64(p) {
				t.Fatal("calls out of order")
			}
			for k := 0; k+1 < len(r.tries); k++ {
				a, next := r.tries[k], r.tries[k+1]
				if next.Send != a.End+B {
					t.Fatalf("call %d: attempt %d sent at %d, a backoff after %d is %d", r.index, next.N, next.Send, a.End, a.End+B)
				}
				if got := rc.StateOf(p, a.End+B-1); got != CallBackoff {
					t.Errorf("%s call %d: at the end of its backoff (%d) it is %v", rc.Client, r.index, a.End+B-1, got)
				}
				want := refState(t, r, next.Send, A, B)
				if got := rc.StateOf(p, next.Send); got != want {
					t.Errorf("%s call %d: at its attempt %d's send it is %v, want %v", rc.Client, r.index, next.N, got, want)
				}
				if want == CallQueued || want == CallServing {
					back++
				}
				found := false
				for _, mv := range rc.own[rc.ownAt[p]:rc.ownAt[p+1]] {
					found = found || mv.At == next.Send && mv.From == CallBackoff && mv.To == CallQueued
				}
				if !found {
					t.Errorf("%s call %d: no move from backing off to the queue at %d", rc.Client, r.index, next.Send)
				}
			}
		}
	}
	if back == 0 {
		t.Fatal("no call went back to the queue or into service after a backoff")
	}
}

// TestRetryWindowStorm: in the storm's outage window the most calls of the
// open loop backing off at once is the closed form's 200 (every attempt
// fails at once in the outage, three attempts 100 ms apart at 1000 calls a
// second: from 4.3 s on the calls sent in the last 200 ms), the same as the
// refusal's count from the attempt trace (Retries.MostWaiting), and
// the counts at the outage's last instant are those of the closed form.
func TestRetryWindowStorm(t *testing.T) {
	res := simtest.Run(t, "preset=retry-storm")
	m, err := NewRetryWindow(res, 0)
	if err != nil {
		t.Fatal(err)
	}
	rc := m.Retry.Clients[2]
	if rc.Client != sim.OpenClient {
		t.Fatalf("the third stage is %s", rc.Client)
	}
	var most, at int64
	for _, mv := range rc.Moves {
		if mv.At < m.From || mv.At > m.To {
			continue
		}
		if n := rc.CountsAt(mv.At).In[CallBackoff]; n > most {
			most, at = n, mv.At
		}
	}
	w := AttemptsWindow(res, sim.OpenClient, m.From, m.To).Retries()
	if most != 200 || most != w.MostWaiting || at != w.MostAt {
		t.Errorf("open: at most %d calls back off at once (first at %d), the trace says %d at %d, the closed form 200", most, at, w.MostWaiting, w.MostAt)
	}
	o := res.Config.OutageWindows()[0]
	k := rc.CountsAt(o.To - 1)
	if k.In[CallBackoff] != 200 || k.In[CallQueued] != 0 || k.In[CallServing] != 0 {
		t.Errorf("open at the outage's last instant: %+v, want 200 backing off and none queued or in service", k)
	}
	if got := rc.CountsAt(m.To).Retries; got != w.Retries {
		t.Errorf("open: %d retries sent by the window's end, the trace %d in the window", got, w.Retries)
	}
}
