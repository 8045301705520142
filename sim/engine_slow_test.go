package sim

import (
	"strings"
	"testing"
)

// TestSlowThinkRandom: 500 random engine runs with retries, slowdowns and
// think time, among queues, timeouts, outages, stalls, random arrivals and
// service, several workers and connections: every check passes, the
// slowdown and think checks are there, and the mix reaches slowed services,
// pauses, retries and the think closed form.
func TestSlowThinkRandom(t *testing.T) {
	g := newStream(24, "test.slow-think-configs")
	pick := func(xs ...string) string { return xs[g.next()%uint64(len(xs))] }
	runs, closedForms, gaps := 0, 0, 0
	var slowed, thinks, retried int64
	for runs < 500 {
		q := strings.Join([]string{
			"rate=" + pick("200", "1000", "3000", "777"),
			"service=" + pick("50us", "300us", "900us", "2ms"),
			"workers=" + pick("1", "2", "unlimited", "unlimited", "4"),
			"conns=" + pick("1", "3"),
			"queue=" + pick("unbounded", "unbounded", "0", "5"),
			"timeout=" + pick("0s", "0s", "0s", "2ms", "20ms"),
			"outages=" + pick("", "", "50ms-120ms", "20ms-40ms,200ms-260ms"),
			"attempts=" + pick("1", "2", "3", "5"),
			"slow=" + pick("", "30ms-80ms@x10", "0s-50ms@x2.5,80ms-90ms@x1000", "10ms-90ms@x1.15", "60ms-61ms@x7"),
			"think=" + pick("0s", "1ms", "3ms", "700us"),
			"duration=" + pick("100ms", "300ms"),
			"stall=" + pick("0s", "0s", "5ms"), "every=100ms", "first=" + pick("10ms", "60ms"),
			"arrivals=" + pick("constant", "constant", "poisson"),
			"dist=" + pick("fixed", "fixed", "exponential", "uniform"),
			"seed=" + pick("1", "2", "3"),
		}, "&")
		if strings.Contains(q, "attempts=1&") {
			q += "&backoff=0s"
		} else {
			q += "&backoff=" + pick("0s", "1ms", "15ms")
		}
		if strings.Contains(q, "dist=uniform") {
			q += "&service_max=" + pick("3ms", "5ms")
		}
		if !strings.Contains(q, "think=0s") && g.next()%2 == 0 {
			q += "&think_max=" + pick("4ms", "10ms")
		}
		if g.next()%10 == 0 { // one in ten where the think closed form may apply
			q = strings.Join([]string{"stall=0s", "rate=" + pick("200", "1000", "4000"), "service=" + pick("300us", "2ms"),
				"conns=" + pick("1", "3", "7"), "workers=" + pick("unlimited", "7", "2"), "think=" + pick("1ms", "3ms", "8ms"),
				"duration=" + pick("100ms", "300ms"), "slow=" + pick("", "", "20ms-40ms@x3")}, "&")
		}
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if cfg.ThinkMax != 0 && cfg.ThinkMax < cfg.Think {
			continue // refused by Validate: TestThinkFields
		}
		if !cfg.Slowed() && !cfg.Thinking() {
			continue
		}
		runs++
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if res.Engine == nil {
			t.Fatalf("%s: a run with slowdowns or think time took the fast path", q)
		}
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: %s want %v got %v (%s)", q, c.ID, c.Want, c.Got, c.Substituted)
			}
		}
		if cfg.Slowed() {
			for _, c := range Clients() {
				if res.CheckFor("inv.slow.service."+c.String()) == nil {
					t.Errorf("%s: no check inv.slow.service.%s", q, c)
				}
				slowed += res.Engine.Clients[c].st.slowed
			}
		}
		if cfg.Thinking() {
			if res.CheckFor("inv.think.pauses") == nil {
				t.Errorf("%s: no check inv.think.pauses", q)
			}
			thinks += res.Engine.Clients[ClosedClient].st.thinks
		}
		if res.CheckFor("inv.think.gap") != nil {
			gaps++
		}
		if res.CheckFor("cf.think.closed") != nil {
			closedForms++
		}
		for _, c := range Clients() {
			if r := res.Engine.Clients[c].Retry; r != nil {
				retried += r.Retries
			}
		}
	}
	if slowed == 0 || thinks == 0 || retried == 0 || gaps < 50 || closedForms < 10 {
		t.Errorf("%d runs: %d slowed services, %d pauses, %d retries, %d gap checks, %d think closed forms", runs, slowed, thinks, retried, gaps, closedForms)
	}
}

// TestSlowByHand: 10/s, 10 ms service, one worker, a window [300 ms, 500 ms)
// of ×10. Request i is due at 100·i ms. Requests 3 and 4 start inside the
// window (at 300 and 400 ms) and take 100 ms; request 5 starts at 500 ms,
// the window's end, outside it: 10 ms. A window ×2.5 from 700 ms: 25 ms.
func TestSlowByHand(t *testing.T) {
	res := runEngine(t, parse(t, "rate=10&service=10ms&stall=0s&duration=1s&slow=300ms-500ms@x10,700ms-800ms@x2.5"))
	want := []int64{10e6, 10e6, 10e6, 100e6, 100e6, 10e6, 10e6, 25e6, 10e6, 10e6}
	open := res.Clients[OpenClient]
	for i, w := range want {
		if got := open.Done[i] - open.Send[i]; got != w {
			t.Errorf("request %d: latency %d, want %d", i, got, w)
		}
	}
	if n := res.Engine.Clients[OpenClient].st.slowed; n != 3 {
		t.Errorf("%d services slowed, want 3", n)
	}
	// A service that starts before a window and runs into it keeps its
	// length: 100 ms due at 0, 50 ms windows from 50 ms on.
	res = runEngine(t, parse(t, "rate=10&service=100ms&stall=0s&duration=200ms&slow=50ms-100ms@x3,150ms-200ms@x3"))
	open = res.Clients[OpenClient]
	if a, b := open.Done[0]-open.Send[0], open.Done[1]-open.Send[1]; a != 100e6 || b != 100e6 {
		t.Errorf("latencies %d and %d, want 100 ms each (starts at 0 and 100 ms, outside the windows)", a, b)
	}
	// A request that waits out a stall starts at its end: the window holding
	// the stall's end decides. A stall [0, 20 ms) and a window [20 ms, 30 ms).
	res = runEngine(t, parse(t, "rate=10&service=1ms&stall=20ms&every=0s&first=0s&duration=100ms&slow=20ms-30ms@x4"))
	open = res.Clients[OpenClient]
	if got := open.Done[0]; got != 24e6 {
		t.Errorf("request 0 done at %d, want 24 ms (starts at the stall's end, inside the window)", got)
	}
	for _, c := range res.Checks {
		if !c.Pass {
			t.Errorf("%s failed: %s", c.ID, c.Substituted)
		}
	}
}

// TestSlowFactorOneIsSameRun: a slowdown ×1 changes no time, so the engine's
// run with it has the fast path's recordings, every count and percentile.
func TestSlowFactorOneIsSameRun(t *testing.T) {
	for _, q := range []string{"preset=tcp&duration=6s", "rate=1000&service=800us&conns=3&workers=2&duration=3s"} {
		plain, err := Run(parse(t, q))
		if err != nil || plain.Engine != nil {
			t.Fatalf("%s: %v, or took the engine", q, err)
		}
		one, err := Run(parse(t, q+"&slow=1s-2s@x1"))
		if err != nil || one.Engine == nil {
			t.Fatalf("%s&slow=…@x1: %v, or took the fast path", q, err)
		}
		sameNumbers(t, q, plain, one)
	}
}

// TestThinkByHand: one connection, 1000/s (due every 1 ms), 2 ms service,
// 3 ms think: saturated, request n is sent at 5n ms; the last of 1000 is
// answered at 999·5 + 2 ms. With 10 connections and 10 ms service, 5 ms
// think at 1000/s: c·I = 10 ms ≤ 15 ms, each connection cycles every 15 ms
// and the loop runs at 10/15 ms ≈ 666.7/s.
func TestThinkByHand(t *testing.T) {
	res := runEngine(t, parse(t, "rate=1000&service=2ms&stall=0s&duration=1s&think=3ms&workers=unlimited"))
	cl := res.Clients[ClosedClient]
	for _, n := range []int{0, 1, 2, 500, 999} {
		if cl.Send[n] != int64(n)*5e6 {
			t.Errorf("request %d sent at %d, want %d", n, cl.Send[n], int64(n)*5e6)
		}
	}
	if cl.LastCompletion != 999*5e6+2e6 {
		t.Errorf("last reply at %d, want %d", cl.LastCompletion, int64(999*5e6+2e6))
	}
	for _, id := range []string{"cf.think.closed", "inv.think.gap", "inv.think.pauses"} {
		if c := res.CheckFor(id); c == nil || !c.Pass {
			t.Errorf("%s: %+v", id, c)
		}
	}
	res = runEngine(t, parse(t, "rate=1000&service=10ms&stall=0s&duration=3s&think=5ms&conns=10&workers=unlimited"))
	cl = res.Clients[ClosedClient]
	// Request 2999 = 299·10 + 9: sent at 9 ms + 299·15 ms.
	if want := int64(9e6 + 299*15e6 + 10e6); cl.LastCompletion != want {
		t.Errorf("10 connections: last reply at %d, want %d", cl.LastCompletion, want)
	}
	rate := float64(cl.Sent) / float64(cl.LastCompletion) * 1e9
	if rate < 660 || rate > 667 {
		t.Errorf("10 connections: %.1f requests a second, want about 10/15 ms = 666.7", rate)
	}
	if c := res.CheckFor("cf.think.closed"); c == nil || !c.Pass {
		t.Errorf("cf.think.closed: %+v", c)
	}
	// Kept up: 3 connections at 250/s (due every 4 ms, 12 ms over three),
	// 5 ms service and 7 ms think: each request is sent when due, as the
	// open loop sends it; the closed form says so, and the two agree.
	kept := runEngine(t, parse(t, "rate=250&service=5ms&stall=0s&duration=1s&think=7ms&conns=3&workers=unlimited"))
	if c := kept.CheckFor("cf.think.closed"); c == nil || !c.Pass || !strings.Contains(c.Formula, "send(i) = due(i)") {
		t.Errorf("kept up: cf.think.closed %+v", c)
	}
	if a, b := kept.Recordings[Closed], kept.Recordings[Open]; a.P != b.P || a.Count != b.Count {
		t.Errorf("kept up: closed %v, open %v", a.P, b.P)
	}
	// One nanosecond more of think and it no longer keeps up (12 ms < 12 ms
	// + 1 ns): the saturated form, with its rate of 3/(12 ms + 1 ns).
	sat := runEngine(t, parse(t, "rate=250&service=5ms&stall=0s&duration=1s&think=7000001ns&conns=3&workers=unlimited"))
	if c := sat.CheckFor("cf.think.closed"); c == nil || !c.Pass || !strings.Contains(c.Formula, "conns·I ≤ S + T") {
		t.Errorf("saturated: cf.think.closed %+v", c)
	}
	// The paced and open clients do not think: their runs are those without it.
	plain := runEngine(t, parse(t, "rate=1000&service=10ms&stall=0s&duration=3s&conns=10&workers=unlimited&slow=0s-1s@x1"))
	for _, k := range []Kind{Open, Paced} {
		if a, b := plain.Recordings[k], res.Recordings[k]; a.Count != b.Count || a.P != b.P {
			t.Errorf("%s changed with think: %d/%d, %v/%v", k, a.Count, b.Count, a.P, b.P)
		}
	}
	// A uniform think stays in its range and draws from its own stream: the
	// same seed gives the same run.
	q := "rate=1000&service=1ms&stall=0s&duration=1s&think=2ms&think_max=6ms&seed=5"
	a, b := runEngine(t, parse(t, q)), runEngine(t, parse(t, q))
	if a.Recordings[Closed].P != b.Recordings[Closed].P || a.Clients[ClosedClient].LastCompletion != b.Clients[ClosedClient].LastCompletion {
		t.Errorf("the same seed gave two runs")
	}
	st := a.Engine.Clients[ClosedClient].st
	if st.thinkMin < 2e6 || st.thinkMax > 6e6 || st.thinkMax-st.thinkMin < 3e6 {
		t.Errorf("pauses %d to %d, want inside [2 ms, 6 ms] and spread", st.thinkMin, st.thinkMax)
	}
}

// TestSlowThinkFields: the new fields' refusals name the field and the
// range allowed; the conflicts name both fields.
func TestSlowThinkFields(t *testing.T) {
	for _, tc := range []struct{ q, field, has string }{
		{"slow=2s-3s@10", "slow", "from-to@xk"},
		{"slow=2s-3s", "slow", "has no @xk"},
		{"slow=2s-3s@x0.5", "slow", "x1 to x1000"},
		{"slow=2s-3s@x1001", "slow", "x1 to x1000"},
		{"slow=2s-3s@x1.0001", "slow", "at most three decimals"},
		{"slow=2s-4s@x2,3s-5s@x2", "slow", "overlap"},
		{"slow=3s-2s@x2", "slow", "from < to"},
		{"slow=" + strings.Repeat("1s-2s@x2,", 16) + "1s-2s@x2", "slow", "at most 16"},
		{"duration=5s&slow=4s-6s@x2", "slow", "inside the duration (5s)"},
		{"duration=5s&slow=4s-6s@x2", "duration", "6s, in slow"},
		{"think=-1ms", "think", "0s to 24h"},
		{"think_max=5ms", "think_max", "only with a think"},
		{"think_max=5ms", "think", "or set think_max to 0s"},
		{"think=5ms&think_max=2ms", "think_max", "allowed think (the shortest, 5ms)"},
		{"think=5ms&think_max=2ms", "think", "at most think_max (2ms)"},
	} {
		_, err := ParseQuery(tc.q)
		if err == nil {
			t.Errorf("%s: accepted", tc.q)
			continue
		}
		if fe := asErrs(err).Field(tc.field); fe == nil || !strings.Contains(fe.Error(), tc.has) {
			t.Errorf("%s: no error on %s with %q: %v", tc.q, tc.field, tc.has, err)
		}
	}
	cfg := parse(t, "slow=2s-3s@×10,500ms-1s@x1.15&think=35ms&think_max=45ms")
	if got := cfg.Query(); got != "slow=500ms-1s@x1.15,2s-3s@x10&think=35ms&think_max=45ms" {
		t.Errorf("canonical query %q", got)
	}
	if SlowedService(72e6, 1150) != 82.8e6 || SlowedService(3, 2500) != 8 || SlowedService(MaxTime, MaxSlowdown) != MaxTime {
		t.Errorf("SlowedService: %d, %d, %d", SlowedService(72e6, 1150), SlowedService(3, 2500), SlowedService(MaxTime, MaxSlowdown))
	}
	// A query without the new fields lists none of them in its params.
	for _, name := range []string{"slow", "think", "think_max"} {
		if _, ok := Default().Params()[name]; ok {
			t.Errorf("the params of a run without %s list it", name)
		}
	}
}

// TestPresetCompanions: a preset's companion of a choice the reader changed
// goes with the choice, and comes back with it; a fallback to a preset's
// value that is itself refused takes the default's. Every such query runs.
func TestPresetCompanions(t *testing.T) {
	for _, tc := range []struct {
		q    string
		dist ServiceDist
		max  int64
		bad  string // the field named, if any
	}{
		{"preset=pause&dist=fixed", ServiceFixed, 0, ""},
		{"preset=pause&dist=exponential", ServiceExponential, 0, ""},
		{"preset=pause&dist=uniform", ServiceUniform, 96480e3, ""},
		{"preset=pause", ServiceUniform, 96480e3, ""},
		// lognormal needs service_p95: it falls back to the preset's
		// choice, uniform, and the preset's maximum comes back with it.
		{"preset=pause&dist=lognormal", ServiceUniform, 96480e3, "service_p95"},
		// uniform without a maximum: the preset's choice is the one that
		// cannot run, so the run takes the default's, fixed.
		{"preset=pause&service_max=0s", ServiceFixed, 0, "service_max"},
		// a maximum given without its choice falls back to the preset's,
		// which is refused too: the default's.
		{"preset=saturation&dist=fixed&service_max=50us", ServiceFixed, 0, "service_max"},
	} {
		cfg, err := ParseQuery(tc.q)
		if es := asErrs(err); es.Refused() || cfg.Validate() != nil {
			t.Errorf("%s: refused or does not run: %v / %v", tc.q, err, cfg.Validate())
			continue
		}
		if cfg.Dist != tc.dist || cfg.ServiceMax != tc.max {
			t.Errorf("%s: dist %s, service_max %d; want %s, %d", tc.q, cfg.Dist, cfg.ServiceMax, tc.dist, tc.max)
		}
		if got := asErrs(err).Field(tc.bad); (tc.bad == "") != (err == nil) || tc.bad != "" && got == nil {
			t.Errorf("%s: errors %v, want one on %q", tc.q, err, tc.bad)
		}
		if again, err := ParseQuery(cfg.Query()); err != nil || again != cfg {
			t.Errorf("%s: canonical %q does not read back (%v)", tc.q, cfg.Query(), err)
		}
	}
}
