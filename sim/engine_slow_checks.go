package sim

import "fmt"

// The checks of slowdown windows and think time. A run without them has
// none of these, so its checks are those it always had.
//
//   - inv.slow.service.<client> (exact runs with slowdowns): every reply's
//     service ends where the stall model puts a service of k·s that starts
//     at its recorded start, k being the factor of the window holding that
//     start (1 outside every window) and s its drawn service: each recorded
//     service in a window is k times its own.
//   - inv.think.pauses (the closed client): every pause lies between think
//     and think_max, and one follows each call that ended while the
//     schedule still had a request (between sent − conns and sent − 1).
//   - inv.think.gap (exact runs, one connection): each request is sent when
//     it is due or when the pause after the previous call is over, the later
//     of the two, exactly with a fixed think, at least so with a uniform one.
//   - cf.think.closed: the closed form of a saturated closed loop with a
//     fixed think (thinkClosedForm).

func slowThinkChecks(res *Result) []Check {
	cfg := res.Config
	var out []Check
	if cfg.Slowed() && res.Exact {
		for ci := range res.Engine.Clients {
			out = append(out, slowServiceCheck(res, Client(ci)))
		}
	}
	if cfg.Thinking() {
		out = append(out, thinkPausesCheck(res))
		if c, ok := thinkGapCheck(res); ok {
			out = append(out, c)
		}
		if c, ok := thinkClosedForm(res); ok {
			out = append(out, c)
		}
	}
	return out
}

func slowServiceCheck(res *Result, c Client) Check {
	cfg := res.Config
	ec := &res.Engine.Clients[c]
	done := res.Clients[c].Done
	st := newStalls(cfg)
	var in, outside, bad int64
	first := int64(-1)
	for i, o := range ec.Outcome {
		if o != OutcomeReply || i >= len(ec.st.svcT) {
			continue
		}
		start, s := ec.Start[i], ec.st.svcT[i]
		k := cfg.SlowFactor(start)
		if k != RateOf(1) {
			in++
		} else {
			outside++
		}
		if _, want := st.ServeAt(start, SlowedService(s, k)); want != done[i] {
			bad++
			if first < 0 {
				first = int64(i)
			}
		}
	}
	name := c.String()
	sub := fmt.Sprintf("%d replies whose service started in a window, %d outside; %d differ", in, outside, bad)
	if first >= 0 {
		sub += fmt.Sprintf(" (the first: request %d)", first)
	}
	return Check{ID: "inv.slow.service." + name, Kind: "invariant",
		Quantity:    name + ": a service that starts in a slowdown window takes k times its own, one that starts outside takes its own",
		Formula:     "done = the stall model's end of a service of round(k·s) from start, k the factor of the window holding start (1 outside), for every reply",
		Substituted: sub, Want: 0, Got: float64(bad), Pass: bad == 0, Tolerance: "exact: whole nanoseconds"}
}

func thinkPausesCheck(res *Result) Check {
	cfg := res.Config
	ec := &res.Engine.Clients[ClosedClient]
	st := ec.st
	top := max(cfg.ThinkMax, cfg.Think)
	lo, hi := st.thinkMin, st.thinkMax
	if st.thinks == 0 {
		lo, hi = cfg.Think, cfg.Think
	}
	fewest := max(ec.Sent-int64(cfg.Conns), 0)
	pass := cfg.Think <= lo && hi <= top && fewest <= st.thinks && st.thinks <= max(ec.Sent-1, 0)
	return Check{ID: "inv.think.pauses", Kind: "invariant",
		Quantity:    "closed: each pause lies between think and think_max, and a pause follows every call that ended while a request was still to be sent",
		Formula:     "think ≤ shortest pause ≤ longest pause ≤ think_max (think when fixed); sent − conns ≤ pauses ≤ sent − 1",
		Substituted: fmt.Sprintf("%d ≤ %d ≤ %d ≤ %d ns; %d − %d ≤ %d ≤ %d − 1", cfg.Think, lo, hi, top, ec.Sent, cfg.Conns, st.thinks, ec.Sent),
		Want:        float64(ec.Sent), Got: float64(st.thinks), Pass: pass}
}

// thinkGapCheck applies to an exact run of one connection: its calls are
// then one after the other.
func thinkGapCheck(res *Result) (Check, bool) {
	cfg := res.Config
	cr := &res.Clients[ClosedClient]
	due := res.Engine.Due
	if !res.Exact || cfg.Conns != 1 || len(cr.Send) < 2 || len(due) < len(cr.Send) {
		return Check{}, false
	}
	fixed := cfg.ThinkMax == 0 || cfg.ThinkMax == cfg.Think
	bad, first := int64(0), int64(-1)
	for i := 1; i < len(cr.Send); i++ {
		want := max(due[i], cr.Done[i-1]+cfg.Think)
		if fixed && cr.Send[i] != want || !fixed && (cr.Send[i] < want || cr.Send[i] > max(due[i], cr.Done[i-1]+cfg.ThinkMax)) {
			bad++
			if first < 0 {
				first = int64(i)
			}
		}
	}
	formula := "send(i+1) = max(due(i+1), end of call i + think)"
	if !fixed {
		formula = "max(due(i+1), end of call i + think) ≤ send(i+1) ≤ max(due(i+1), end of call i + think_max)"
	}
	sub := fmt.Sprintf("%d requests after the first, %d differ", len(cr.Send)-1, bad)
	if first >= 0 {
		sub += fmt.Sprintf(" (the first: request %d)", first)
	}
	return Check{ID: "inv.think.gap", Kind: "invariant",
		Quantity: "closed, one connection: each request is sent when it is due or when the pause after the previous call is over, the later",
		Formula:  formula, Substituted: sub, Want: 0, Got: float64(bad), Pass: bad == 0, Tolerance: "exact: whole nanoseconds"}, true
}

// thinkClosedFormApplies: fixed service S and think T, constant arrivals,
// a worker for every connection (no request waits), and nothing else that
// moves a time: no stall, slowdown, outage, timeout or retry. Then one of
// two regimes holds. Kept up (any schedule): every conns consecutive
// requests are due at least S + T apart (floor(conns/rate) ≥ S + T), so a
// connection is free whenever a request falls due. Saturated (a schedule of
// whole nanoseconds, every I): conns·I ≤ S + T, so a request is always due
// when a connection's pause ends. ok is false when neither holds.
func thinkClosedFormApplies(cfg Config) (ok, saturated bool) {
	if cfg.Arrivals != ArrivalsConstant || cfg.Dist != ServiceFixed || cfg.Think == 0 ||
		cfg.ThinkMax != 0 && cfg.ThinkMax != cfg.Think || cfg.Stall != 0 || cfg.Slowed() || cfg.Outages.Len() > 0 ||
		cfg.Timeout != 0 || cfg.Retrying() || cfg.Workers != 0 && cfg.Workers < cfg.Conns {
		return false, false
	}
	c, cycle := int64(cfg.Conns), cfg.Service+cfg.Think
	if c*nsPerMilliRate/int64(cfg.Rate) >= cycle { // floor(c·10¹²/rate) ns: the least gap over c requests
		return true, false
	}
	sched := NewSchedule(cfg.Rate)
	return sched.Exact() && c*sched.Interval(1) <= cycle, true
}

// thinkClosedForm: every reply takes S. Kept up, the closed loop sends
// every request when it is due, as the open loop does, at the schedule's
// rate: the last reply is due(N − 1) + S. Saturated, each connection cycles
// every S + T from its first send, so the loop runs at conns/(S + T)
// requests a second: request n = q·c + k (k < c) is sent by connection k in
// its round q, at k·I + q·(S + T), and the last reply is that of N − 1.
func thinkClosedForm(res *Result) (Check, bool) {
	cfg := res.Config
	ec := &res.Engine.Clients[ClosedClient]
	ok, saturated := thinkClosedFormApplies(cfg)
	if !ok || ec.Sent == 0 || !res.Exact {
		return Check{}, false
	}
	c, S, T := int64(cfg.Conns), cfg.Service, cfg.Think
	n := ec.Sent - 1
	rec := &res.Recordings[Closed]
	got := ec.st.lastAnswer
	lat := fmt.Sprintf("latencies %d to %d ns", rec.Dist.least(), rec.Max)
	if !saturated {
		cr, due := &res.Clients[ClosedClient], res.Engine.Due
		late := int64(0)
		for i := range cr.Send {
			if i >= len(due) || cr.Send[i] != due[i] {
				late++
			}
		}
		want := NewSchedule(cfg.Rate).Due(n) + S
		return Check{ID: "cf.think.closed", Kind: "closed-form",
			Quantity: "closed with a fixed think, keeping up: every request is sent when due, as the open loop sends it, and every reply takes the service",
			Formula:  "floor(conns/rate) ≥ S + T: send(i) = due(i), latency = S, last reply = due(N − 1) + S; the loop runs at the schedule's rate, under conns/(S + T)",
			Substituted: fmt.Sprintf("conns = %d, rate = %s/s, S = %d ns, T = %d ns, N = %d: %d requests sent after their due time; %s",
				c, cfg.Rate, S, T, ec.Sent, late, lat),
			Want: float64(want), Got: float64(got), Pass: want == got && late == 0 && rec.Max == S && rec.Dist.least() == S,
			Tolerance: "exact: whole nanoseconds"}, true
	}
	I := NewSchedule(cfg.Rate).Interval(1)
	q, k := n/c, n%c
	want := k*I + q*(S+T) + S
	return Check{ID: "cf.think.closed", Kind: "closed-form",
		Quantity: "closed with a fixed think, saturated: every reply takes the service, and the loop runs at conns/(service + think)",
		Formula:  "conns·I ≤ S + T: request n = q·conns + k is sent at k·I + q·(S + T); last reply = that of request N − 1 + S; rate = conns/(S + T); every latency = S",
		Substituted: fmt.Sprintf("conns = %d, I = %d ns, S = %d ns, T = %d ns, N = %d: q = %d, k = %d; rate = %.3f/s; %s",
			c, I, S, T, ec.Sent, q, k, float64(c)/float64(S+T)*1e9, lat),
		Want: float64(want), Got: float64(got), Pass: want == got && rec.Max == S && rec.Dist.least() == S,
		Tolerance: "exact: whole nanoseconds"}, true
}
