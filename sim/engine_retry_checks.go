package sim

import "fmt"

// The checks of a run with retries (attempts > 1), per client: the retry
// policy's invariants, Little's law over attempts at the client, the
// utilisation with wasted work, and the closed form of a deterministic
// outage where it applies. A run without retries has none of them, so its
// checks are those it always had.

func retryChecks(res *Result) []Check {
	cfg := res.Config
	if !cfg.Retrying() {
		return nil
	}
	var out []Check
	add := func(c Check) { out = append(out, c) }
	A := int64(cfg.AttemptsPerCall())
	for ci := range res.Engine.Clients {
		ec := &res.Engine.Clients[ci]
		rc, st := ec.Retry, ec.st
		rs := &st.retry
		name := Client(ci).String()
		add(Check{ID: "inv.retry.attempts." + name, Kind: "invariant", Quantity: name + ": no call sends more attempts than the policy allows, and every retry scheduled is sent",
			Formula:     "max attempts of a call ≤ attempts; attempts sent = calls + retries scheduled",
			Substituted: fmt.Sprintf("max %d ≤ %d; %d = %d + %d", rc.MaxAttempts, A, rc.Attempts, ec.Sent, rs.backoffs),
			Want:        float64(A), Got: float64(rc.MaxAttempts), Pass: int64(rc.MaxAttempts) <= A && rc.Attempts == ec.Sent+rs.backoffs})
		add(Check{ID: "inv.retry.calls." + name, Kind: "invariant", Quantity: name + ": every call completes or fails, once",
			Formula:     "completed + failed calls = calls",
			Substituted: fmt.Sprintf("%d + %d = %d", ec.Replies, rc.FailedCalls, ec.Sent),
			Want:        float64(ec.Sent), Got: float64(ec.Replies + rc.FailedCalls), Pass: ec.Replies+rc.FailedCalls == ec.Sent})
		failedAttempts := rc.AttemptsRejected + rc.AttemptsFailed + rc.AttemptsTimedOut
		add(Check{ID: "inv.retry.failures." + name, Kind: "invariant", Quantity: name + ": a failed attempt is retried, or is its call's last",
			Formula:     "rejected + failed + timed-out attempts = retries + failed calls",
			Substituted: fmt.Sprintf("%d + %d + %d = %d + %d", rc.AttemptsRejected, rc.AttemptsFailed, rc.AttemptsTimedOut, rc.Retries, rc.FailedCalls),
			Want:        float64(rc.Retries + rc.FailedCalls), Got: float64(failedAttempts), Pass: failedAttempts == rc.Retries+rc.FailedCalls})
		if ser := res.Engine.Series; ser != nil && !ser.Truncated {
			var sum int64
			for _, v := range ser.Clients[ci].Retries {
				sum += v
			}
			add(Check{ID: "inv.retry.series." + name, Kind: "invariant", Quantity: name + ": the retries charted over time are every retry sent",
				Formula:     "Σ retries per interval = retries",
				Substituted: fmt.Sprintf("%d intervals of %d ns: Σ = %d, retries = %d", ser.Points, ser.IntervalNs, sum, rc.Retries),
				Want:        float64(rc.Retries), Got: float64(sum), Pass: sum == rc.Retries})
		}
		if T := ec.End; T > 0 {
			tt := float64(T)
			add(Check{ID: "little.attempts." + name, Kind: "law", Quantity: name + ": Little's law over attempts at the client, L = λW",
				Formula:     "∫(attempts sent and not answered) dt = Σ(answer − send) over every attempt, and none is left unanswered",
				Substituted: fmt.Sprintf("T = %d ns, attempts = %d, ∫L(t)dt = %s attempt·ns, Σ(answer − send) = %s ns, left %d", T, rc.Attempts, u128Text(rs.areaFlight), u128Text(rs.flight), rs.inFlight),
				Want:        rs.flight.Float() / tt, Got: rs.areaFlight.Float() / tt, Pass: rs.areaFlight == rs.flight && rs.inFlight == 0,
				Tolerance: "exact: the integer sums are compared"})
			out = append(out, utilisationCheck(cfg, ec, name))
		}
		if c, ok := retryClosedForm(res, ci); ok {
			add(c)
		}
	}
	return out
}

// utilisationCheck: the busy worker time is the worker time of the
// attempts answered in time plus that of the wasted ones (failed-inside
// work does not exist here: a call has no steps inside it).
func utilisationCheck(cfg Config, ec *EngineClient, name string) Check {
	st := ec.st
	W := int64(max(cfg.Workers, 1))
	span := float64(W) * float64(ec.End)
	parts := mul128(1, uint64(st.usefulNs+ec.WastedNs))
	what := fmt.Sprintf("over %d workers", W)
	if W == 1 {
		what = "over 1 worker"
	}
	if cfg.Workers == 0 {
		what = "in busy workers on average (unlimited workers)"
	}
	return Check{ID: "inv.retry.utilisation." + name, Kind: "invariant", Quantity: name + ": utilisation counts completed and wasted work",
		Formula:     "∫busy workers dt = Σ worker time of the attempts answered in time + Σ worker time of the wasted ones",
		Substituted: fmt.Sprintf("∫busy dt = %s worker·ns; %d + %d ns, %s, to %d ns", u128Text(st.areaBusy), st.usefulNs, ec.WastedNs, what, ec.End),
		Want:        float64(st.usefulNs+ec.WastedNs) / span, Got: st.areaBusy.Float() / span, Pass: st.areaBusy == parts,
		Tolerance: "exact: the integer sums are compared"}
}

// retryClosedFormApplies says whether each call's end has a closed form:
// fixed service S, unlimited workers (an attempt outside the outage is
// served at once), no stall or slowdown, one outage window [a, b), no timeout that S
// reaches, and the per-call data of an exact run.
func retryClosedFormApplies(res *Result) bool {
	cfg := res.Config
	return cfg.Retrying() && cfg.Dist == ServiceFixed && cfg.Workers == 0 && cfg.Stall == 0 && !cfg.Slowed() && cfg.Outages.Len() == 1 &&
		(cfg.Timeout == 0 || cfg.Timeout > cfg.Service) && res.Engine.Clients[0].Outcome != nil
}

// retryPredict is the closed form of a call first sent at f: outside the
// outage it is served at once and replies at f + S; inside it, attempt k+1
// is sent at f + k·B and fails at once while f + k·B < b, so the call
// replies at f + j·B + S with j = ⌈(b − f)/B⌉ when j < attempts, and
// otherwise fails at its last attempt, f + (attempts − 1)·B.
func retryPredict(f, S, B, A, a, b int64) (done int64, reply bool) {
	if f < a || f >= b {
		return f + S, true
	}
	if B > 0 {
		if j := (b - f + B - 1) / B; j < A {
			return f + j*B + S, true
		}
	}
	return f + (A-1)*B, false
}

func retryClosedForm(res *Result, ci int) (Check, bool) {
	if !retryClosedFormApplies(res) {
		return Check{}, false
	}
	cfg := res.Config
	ec, cr := &res.Engine.Clients[ci], &res.Clients[ci]
	w := cfg.OutageWindows()[0]
	S, B, A := cfg.Service, cfg.Backoff, int64(cfg.AttemptsPerCall())
	var match, retried, retriedMatch int64
	for i, o := range ec.Outcome {
		f := cr.Send[i]
		done, reply := retryPredict(f, S, B, A, w.From, w.To)
		ok := cr.Done[i] == done && (o == OutcomeReply) == reply
		if ok {
			match++
		}
		if f >= w.From && f < w.To {
			retried++
			if ok {
				retriedMatch++
			}
		}
	}
	n := int64(len(ec.Outcome))
	name := Client(ci).String()
	return Check{ID: name + ".retry_closed_form", Kind: "closed-form", Quantity: name + ": every call's end in a deterministic outage with a fixed backoff",
		Formula:     "first send f outside [a, b): reply at f + S; inside: reply at f + j·B + S, j = ⌈(b − f)/B⌉, when j < attempts, else failed at f + (attempts − 1)·B",
		Substituted: fmt.Sprintf("a = %d, b = %d, S = %d, B = %d ns, attempts = %d: %d calls, %d first sent in the outage (%d as predicted)", w.From, w.To, S, B, A, n, retried, retriedMatch),
		Want:        float64(n), Got: float64(match), Pass: match == n, Tolerance: "exact: every call's outcome and instant"}, true
}
