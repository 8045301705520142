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
		if _, want := st.serveAt(start, SlowedService(s, k)); want != done[i] {
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

// thinkClosedFormApplies: fixed service S and think T, constant arrivals
// every I ns exactly, with c·I ≤ S + T (the loop is saturated: a request
// is always due when a connection's pause ends), a worker for every
// connection (no request waits), and nothing else that moves a time: no
// stall, slowdown, outage, timeout or retry.
func thinkClosedFormApplies(cfg Config) bool {
	sched := NewSchedule(cfg.Rate)
	if cfg.Arrivals != ArrivalsConstant || cfg.Dist != ServiceFixed || !sched.Exact() || cfg.Think == 0 ||
		cfg.ThinkMax != 0 && cfg.ThinkMax != cfg.Think || cfg.Stall != 0 || cfg.Slowed() || cfg.Outages.Len() > 0 ||
		cfg.Timeout != 0 || cfg.Retrying() || cfg.Workers != 0 && cfg.Workers < cfg.Conns {
		return false
	}
	I := sched.Interval(1)
	return int64(cfg.Conns) <= (cfg.Service+cfg.Think)/max(I, 1)
}

// thinkClosedForm: each connection then cycles every S + T from its first
// send, so the closed loop runs at conns/(S + T) requests a second and
// every reply takes S. Request n = q·c + k (k < c) is sent by connection k
// in its round q, at k·I + q·(S + T); the last of the N planned is answered
// S after its send.
func thinkClosedForm(res *Result) (Check, bool) {
	cfg := res.Config
	ec := &res.Engine.Clients[ClosedClient]
	if !thinkClosedFormApplies(cfg) || ec.Sent == 0 || !res.Exact {
		return Check{}, false
	}
	I := NewSchedule(cfg.Rate).Interval(1)
	c, S, T := int64(cfg.Conns), cfg.Service, cfg.Think
	n := ec.Sent - 1
	q, k := n/c, n%c
	want := k*I + q*(S+T) + S
	got := ec.st.lastAnswer
	rec := &res.Recordings[Closed]
	return Check{ID: "cf.think.closed", Kind: "closed-form",
		Quantity: "closed with a fixed think, saturated: every reply takes the service, and the loop runs at conns/(service + think)",
		Formula:  "request n = q·conns + k is sent at k·I + q·(S + T); last reply = that of request N − 1 + S; rate = conns/(S + T); every latency = S",
		Substituted: fmt.Sprintf("conns = %d, I = %d ns, S = %d ns, T = %d ns, N = %d: q = %d, k = %d; rate = %.3f/s; latencies %d to %d ns",
			c, I, S, T, ec.Sent, q, k, float64(c)/float64(S+T)*1e9, rec.Dist.least(), rec.Max),
		Want: float64(want), Got: float64(got), Pass: want == got && rec.Max == S && rec.Dist.least() == S,
		Tolerance: "exact: whole nanoseconds"}, true
}
