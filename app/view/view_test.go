package view

import (
	"strconv"
	"strings"
	"testing"

	"omission/sim"
)

// benchView is the formatted bench preset, seed 000's run.
func benchView(t *testing.T) *View {
	t.Helper()
	res, err := sim.Run(sim.Default())
	if err != nil {
		t.Fatal(err)
	}
	return Build(1, res, 12.5)
}

// seed000 are the bench preset's numbers every client of the simulator
// agrees on: data-metric → exact value.
var seed000 = map[string]string{
	"closed.planned": "100000", "closed.sent": "100000", "closed.count": "100000",
	"closed.mean": "140000", "closed.p50": "100000", "closed.p99": "100000",
	"closed.p99_99": "200100000", "closed.max": "200100000", "closed.above": "20",
	"paced.sent": "80020", "paced.count": "80020", "paced.p99_99": "200000000",
	"open.count": "100000", "open.mean": "40120000", "open.p90": "150100000", "open.p99": "195100000",
	"open.p99_9": "199600000", "open.max": "200100000", "open.above": "39820",
	"corrected.count": "119980", "corrected.p90": "80300000", "corrected.p99": "188100000",
	"corrected.above": "19920", "paced_corrected.count": "100000", "paced_corrected.mean": "20101000",
	"paced_corrected.p99": "190100000", "paced_corrected.above": "19901",
}

func TestViewBenchNumbers(t *testing.T) {
	v := benchView(t)
	for id, want := range seed000 {
		c := v.CellByID(id)
		if c == nil {
			t.Errorf("no cell %s", id)
			continue
		}
		if c.Exact != want {
			t.Errorf("%s = %s, want %s", id, c.Exact, want)
		}
		if c.Proof == "" || !c.Pass {
			t.Errorf("%s: proof %q pass %v, want a passing check", id, c.Proof, c.Pass)
		}
	}
	// Every recording × every metric of the contract has a cell.
	for _, k := range sim.Kinds() {
		for _, m := range []string{"planned", "sent", "count", "mean", "p50", "p90", "p99", "p99_9", "p99_99", "max", "above"} {
			c := v.CellByID(k.String() + "." + m)
			if c == nil {
				t.Errorf("no cell %s.%s", k, m)
				continue
			}
			wantAttr := "value"
			if latencyMetric(m) {
				wantAttr = "ns"
			}
			if c.Attr != wantAttr {
				t.Errorf("%s carries data-%s, want data-%s", c.ID, c.Attr, wantAttr)
			}
		}
	}
	if c := v.CellByID("open.p99"); c.Text != "195.1 ms" || !strings.Contains(c.Title, "195,100,000 ns") {
		t.Errorf("open.p99 shows %q, hover %q", c.Text, c.Title)
	}
	if v.Passed != v.Total || v.Total == 0 {
		t.Errorf("%d of %d checks passed", v.Passed, v.Total)
	}
	h := v.Headline
	if h.ClosedP99.Exact != "100000" || h.OpenP99.Exact != "195100000" || h.Ratio != "1951×" || h.NeverSent.Exact != "19980" {
		t.Errorf("headline: closed %s open %s ratio %s never sent %s", h.ClosedP99.Exact, h.OpenP99.Exact, h.Ratio, h.NeverSent.Exact)
	}
	if h.NeverSent.Proof != "paced.sent" {
		t.Errorf("never sent is proved by %q, want paced.sent", h.NeverSent.Proof)
	}
	if v.Cost.Requests != 280020 || v.Cost.Samples != 500000 || !strings.Contains(v.Cost.Text, "280,020 requests (500,000 samples) in 12.5 ms") {
		t.Errorf("cost: %+v", v.Cost)
	}
	// Requests belong to clients: the corrected recordings are proved by
	// their client's checks.
	if p := v.ProofFor("corrected.sent"); p != "closed.sent" {
		t.Errorf("corrected.sent is proved by %q", p)
	}
	if p := v.ProofFor("paced_corrected.planned"); p != "paced.planned" {
		t.Errorf("paced_corrected.planned is proved by %q", p)
	}
	// Every percentile states its formula and rank rule.
	if c := v.CheckByID("open.p90"); c == nil || !strings.Contains(c.Formula, "r = floor(p/100") {
		t.Errorf("open.p90's formula: %+v", c)
	}
	if c := v.CheckByID("closed.planned"); c == nil || c.Want != "100,000" {
		t.Errorf("closed.planned is a count: %+v", c)
	}
	// Closed forms come first, then invariants.
	seenInv := false
	for _, c := range v.Checks {
		if c.Invariant {
			seenInv = true
		} else if seenInv {
			t.Fatalf("closed form %s after an invariant", c.ID)
		}
	}
}

func TestViewWithoutClosedForm(t *testing.T) {
	cfg, _ := sim.PresetConfig("note60")
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := Build(1, res, 1)
	c := v.CellByID("open.p99")
	if c.Proof != "" {
		t.Fatalf("open.p99 has proof %q, want none (no closed form for note60)", c.Proof)
	}
	if !strings.Contains(v.NoClosedForm["open"], "No closed form") {
		t.Errorf("open's note: %q", v.NoClosedForm["open"])
	}
	invs := v.Invariants["open"]
	if len(invs) == 0 {
		t.Fatal("no invariant listed for the open loop")
	}
	for _, id := range invs {
		if !strings.HasPrefix(id, "inv.") || v.CheckByID(id) == nil {
			t.Errorf("invariant %q is not a check", id)
		}
	}
	if len(v.Invariants["corrected"]) == 0 || len(v.Invariants["paced"]) == 0 {
		t.Errorf("invariants: %v", v.Invariants)
	}
}

// TestViewRetryRows: a run with retries has the attempts, retries, failed
// calls and wasted services rows, each cell the client's count and proved by
// its retry invariant; a run without retries has none of them but the
// failed calls, when calls failed: the share a latency leaves out.
func TestViewRetryRows(t *testing.T) {
	run := func(q string) *View {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return Build(1, res, 0)
	}
	q := "rate=1000&service=800us&stall=0&duration=1s&timeout=5ms&outages=200ms-300ms"
	once := run(q)
	for _, m := range retryRows {
		c := once.CellByID("open." + m)
		if m != "failed_calls" && c != nil {
			t.Errorf("a run without retries has the cell open.%s", m)
		}
	}
	for _, k := range sim.Kinds() {
		ec := &once.Result.Engine.Clients[k.Client()]
		c := once.CellByID(k.String() + ".failed_calls")
		if n := ec.Rejected + ec.Failed + ec.TimedOut; ec.Sent-ec.Replies != n || c == nil || c.Exact != strconv.FormatInt(n, 10) {
			t.Errorf("%s.failed_calls: %+v, want %d = %d sent − %d answered", k, c, n, ec.Sent, ec.Replies)
		}
	}
	if once.CellByID("open.failed_calls").Exact == "0" {
		t.Fatal("no call failed in a 100 ms outage with a 5 ms timeout")
	}
	if c := run("rate=1000&service=800us&stall=0&duration=1s&timeout=5ms").CellByID("open.failed_calls"); c != nil {
		t.Errorf("a run in which no call failed has the cell %+v", c)
	}
	v := run(q + "&attempts=3&backoff=20ms")
	if v.Result.Engine.Clients[sim.OpenClient].Retry.Retries == 0 {
		t.Fatal("no retry in a 100 ms outage")
	}
	// A corrected recording shows its client's counts.
	for rec, client := range map[string]sim.Client{"open": sim.OpenClient, "closed": sim.ClosedClient, "corrected": sim.ClosedClient} {
		ec := v.Result.Engine.Clients[client]
		want := map[string]int64{"attempts": ec.Retry.Attempts, "retries": ec.Retry.Retries, "failed_calls": ec.Retry.FailedCalls, "wasted": ec.Wasted}
		if f := CallsOf(v.Result, kindOf(rec)).Failed(); f != ec.Retry.FailedCalls {
			t.Errorf("%s: %d calls failed by their outcomes, %d by the retry counts", rec, f, ec.Retry.FailedCalls)
		}
		for m, n := range want {
			c := v.CellByID(rec + "." + m)
			if c == nil || c.Exact != strconv.FormatInt(n, 10) || c.Proof == "" || !c.Pass {
				t.Errorf("%s.%s: %+v, want %d, proved", rec, m, c, n)
			}
		}
	}
}

// TestViewSlowThinkRows: a run with slowdowns has a slowed-services row,
// one with think time a pauses row, each cell the engine's count with its
// invariant as proof; a run without them has neither.
func TestViewSlowThinkRows(t *testing.T) {
	has := func(v *View, m string) *Row {
		for i := range v.Rows {
			if v.Rows[i].Metric == m {
				return &v.Rows[i]
			}
		}
		return nil
	}
	run := func(q string) *View {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return Build(1, res, 0)
	}
	plain := run("rate=1000&service=800us&stall=0s&duration=1s&arrivals=poisson")
	if has(plain, "slowed") != nil || has(plain, "pauses") != nil {
		t.Error("a run without slowdowns or think time has their rows")
	}
	v := run("rate=1000&service=800us&stall=0s&duration=1s&slow=200ms-400ms@x3&think=1ms&conns=2")
	res := v.Result
	for _, m := range []string{"slowed", "pauses"} {
		row := has(v, m)
		if row == nil {
			t.Fatalf("no %s row", m)
		}
		for i, col := range v.Columns {
			k := kindOf(col.Recording)
			ec := res.Engine.Clients[k.Client()]
			want := map[string]int64{"slowed": ec.Slowed, "pauses": ec.Pauses}[m]
			c := row.Cells[i]
			if c.Exact != strconv.FormatInt(want, 10) {
				t.Errorf("%s %s: %s, want %d", m, k, c.Exact, want)
			}
			if m == "slowed" && (c.Proof != "inv.slow.service."+k.Client().String() || !c.Pass) {
				t.Errorf("%s %s: proof %q pass %v", m, k, c.Proof, c.Pass)
			}
			if m == "pauses" && k.Client() == sim.ClosedClient && (c.Proof != "inv.think.pauses" || !c.Pass) {
				t.Errorf("%s %s: proof %q pass %v", m, k, c.Proof, c.Pass)
			}
		}
	}
	if res.Engine.Clients[sim.ClosedClient].Pauses == 0 || res.Engine.Clients[sim.OpenClient].Slowed == 0 {
		t.Error("the run has no pause or no slowed service")
	}
}
