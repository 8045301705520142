package sim

import (
	"fmt"
	"strings"
)

// Check is one number compared with what proves it: a closed form of the
// regime, or an invariant that holds for every run.
type Check struct {
	ID          string  `json:"id"`   // "open.p99", "inv.same_timeline"
	Kind        string  `json:"kind"` // "closed-form" or "invariant"
	Quantity    string  `json:"quantity"`
	Formula     string  `json:"formula"`
	Substituted string  `json:"substituted"`
	Want        float64 `json:"want"`
	Got         float64 `json:"got"`
	Pass        bool    `json:"pass"`
	Tolerance   string  `json:"tolerance,omitempty"`
}

// CheckFor returns the check with the given id, or nil.
func (r *Result) CheckFor(id string) *Check {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

// Passed counts the checks that passed.
func (r *Result) Passed() (passed, total int) {
	for _, c := range r.Checks {
		if c.Pass {
			passed++
		}
	}
	return passed, len(r.Checks)
}

// metricWordList is a list, not a map literal, so that app.wasm holds it
// as data instead of the code that would build the map.
var metricWordList = [...][2]string{
	{"count", "number of samples"}, {"mean", "mean latency"}, {"max", "largest sample"},
	{"p50", "50th percentile"}, {"p90", "90th percentile"}, {"p99", "99th percentile"},
	{"p99_9", "99.9th percentile"}, {"p99_99", "99.99th percentile"}, {"above", "samples above the threshold"},
	{"sent", "requests sent"}, {"planned", "requests planned"}, {"stalls", "stalls met"}, {"last_completion", "last reply"},
}

// MetricWords describes a metric in words ("" for a name it does not know).
func MetricWords(m string) string {
	for _, w := range metricWordList {
		if w[0] == m {
			return w[1]
		}
	}
	return ""
}

func checkResult(res *Result, notes []string) ([]Check, []string) {
	var checks []Check
	res.cf, res.cfDone = DeriveClosedForms(res.Config), true // the result is being built: one goroutine
	cf := res.cf
	if cf == nil {
		notes = append(notes, res.NoClosedForm(Closed))
	} else {
		checks = append(checks, closedFormChecks(res, cf)...)
		for _, k := range Kinds() {
			if why := res.NoClosedForm(k); why != "" {
				notes = append(notes, why)
			}
		}
	}
	checks = append(checks, invariantChecks(res)...)
	return checks, notes
}

func pctName(i int) string { return percentiles[i].Name }

func closedFormChecks(res *Result, cf *ClosedForms) []Check {
	cfg := res.Config
	var out []Check
	consts := fmt.Sprintf("T = %d ns, S = %d ns, L = %d ns, N = %d, K = %d, J = %d", cf.T, cf.S, cf.L, cf.N, cf.K, cf.J)
	for _, k := range Kinds() {
		f, ok := cf.Recordings[k]
		if !ok {
			continue
		}
		rec := &res.Recordings[k]
		d := rec.Dist
		name := k.String()
		desc := recordingFormulas(k, cf)
		add := func(metric string, want, got int64, tol int64) {
			formula := desc[metric]
			if formula == "" && metric[0] == 'p' { // every percentile: the value at its rank
				formula = desc["p50"] + "; r = " + rankFormula(cfg.Rank)
			}
			c := Check{ID: name + "." + metric, Kind: "closed-form", Quantity: name + ": " + MetricWords(metric),
				Formula: formula, Substituted: consts, Want: float64(want), Got: float64(got)}
			diff := want - got
			if diff < 0 {
				diff = -diff
			}
			c.Pass = diff < tol || diff == 0
			if tol > 1 {
				c.Tolerance = fmt.Sprintf("within the histogram's equivalence range (%d ns)", tol)
			}
			out = append(out, c)
		}
		add("count", f.Count, rec.Count, 1)
		for i := range percentiles {
			add(pctName(i), f.P[i], rec.P[i], d.Precision(f.P[i]))
		}
		add("max", f.Max, rec.Max, 1)
		add("above", f.Above, rec.Above, 1)
		mc := Check{ID: name + ".mean", Kind: "closed-form", Quantity: name + ": mean latency (exact sum over count)",
			Formula: desc["mean"], Substituted: consts, Want: f.Sum.div(f.Count), Got: rec.Mean,
			Pass: f.Sum == d.Sum() && f.Count == rec.Count}
		out = append(out, mc)
	}
	for _, c := range Clients() {
		f := cf.Clients[c]
		if f == nil {
			continue // no closed form for this client (see the notes)
		}
		cr := &res.Clients[c]
		name := c.String()
		for _, m := range []struct {
			metric    string
			want, got int64
			formula   string
		}{
			{"planned", f.Planned, cr.Planned, "N = ceil(duration / T)"},
			{"sent", f.Sent, cr.Sent, sentFormula(c)},
			{"stalls", f.Stalls, cr.StallsMet, "stalls that begin before the last reply"},
			{"last_completion", f.LastCompletion, cr.LastCompletion, lastFormula(c)},
		} {
			out = append(out, Check{ID: name + "." + m.metric, Kind: "closed-form", Quantity: name + ": " + MetricWords(m.metric),
				Formula: m.formula, Substituted: consts, Want: float64(m.want), Got: float64(m.got), Pass: m.want == m.got})
		}
	}
	_ = cfg
	return out
}

// rankFormula states the rank rule of a percentile p of n samples.
func rankFormula(r Rank) string {
	if r == RankCeil {
		return "ceil(p/100 · n), at least 1"
	}
	return "floor(p/100 · n + 1/2), at least 1"
}

func sentFormula(c Client) string {
	if c == PacedClient {
		return "per stall: sends on anchor + i·T until the stall reaches one; re-anchor at max(send + T, reply); skipped slots are never sent"
	}
	return "N: every request of the schedule is sent"
}

func lastFormula(c Client) string {
	if c == PacedClient {
		return "the reply to the last send before the duration"
	}
	return "max((N−1)·T + S, s_{K−1} + L + J·S)"
}

// recordingFormulas states each metric's closed form in symbols.
func recordingFormulas(k Kind, cf *ClosedForms) map[string]string {
	pct := ""
	switch k {
	case Open:
		return map[string]string{
			"count": "N = ceil(duration / T)",
			"mean":  "(N·S + K·(J·L − d·J(J−1)/2)) / N, d = T − S",
			"max":   "L + S",
			"above": "K · min(J, ceil((L + S − A) / d)) + (N − K·J)·[S > A]",
			"p50":   "rank r ≤ N − K·J: S; else L + S − (J − ceil((r − (N − K·J)) / K))·d",
		}
	case Closed:
		return map[string]string{
			"count": "N", "mean": "(N·S + K·L) / N", "max": "L + S",
			"above": "(N − K)·[S > A] + K·[L + S > A]",
			"p50":   "rank r ≤ N − K: S; else L + S",
		}
	case Corrected:
		return map[string]string{
			"count": "N + K·k, k = floor((L + S) / E) − 1",
			"mean":  "((N − K)·S + K·((k+1)·G − E·k(k+1)/2)) / (N + K·k), G = L + S",
			"max":   "G = L + S",
			"above": "K · min(k + 1, ceil((G − A) / E)) + (N − K)·[S > A]",
			"p50":   "sorted: K copies of each G − j·E below S, then the N − K copies of S, then K copies of each G − j·E above S; value at rank r",
		}
	default:
		pct = "value at rank r of: the ordinary replies (S each) and, per stall, the slow reply v"
		if k == PacedCorrected {
			pct += " with its corrected sequence v − j·E"
		}
		return map[string]string{
			"count": "slots sent (stall by stall)" + map[bool]string{true: " + Σ k(v)", false: ""}[k == PacedCorrected],
			"mean":  "(Σ of the ordinary replies and the slow ones) / count",
			"max":   "largest slow reply", "above": "count − #(samples ≤ A)", "p50": pct,
		}
	}
}

// invariantChecks are the properties every run has, in or out of the regime.
func invariantChecks(res *Result) []Check {
	cfg := res.Config
	var out []Check
	add := func(id, quantity, formula string, want, got float64, pass bool) {
		out = append(out, Check{ID: id, Kind: "invariant", Quantity: quantity, Formula: formula, Want: want, Got: got, Pass: pass})
	}
	cl, op, pa := &res.Clients[ClosedClient], &res.Clients[OpenClient], &res.Clients[PacedClient]
	add("inv.conservation.closed", "closed: every planned request completed once", "sent = planned = count",
		float64(cl.Planned), float64(res.Recordings[Closed].Count), cl.Sent == cl.Planned && res.Recordings[Closed].Count == cl.Planned)
	add("inv.conservation.open", "open: every planned request completed once", "sent = planned = count",
		float64(op.Planned), float64(res.Recordings[Open].Count), op.Sent == op.Planned && res.Recordings[Open].Count == op.Planned)
	add("inv.paced.sent", "paced: never sends more than planned", "sent ≤ planned",
		float64(pa.Planned), float64(pa.Sent), pa.Sent <= pa.Planned && res.Recordings[Paced].Count == pa.Sent)
	add("inv.counts_equal", "closed and open record the same number of samples", "count(closed) = count(open)",
		float64(res.Recordings[Closed].Count), float64(res.Recordings[Open].Count), res.Recordings[Closed].Count == res.Recordings[Open].Count)
	if cfg.Conns == 1 && cfg.Workers == 1 {
		sameTimelineChecks(res, add, true)
	}
	if t, ok := res.requestTallies(); ok {
		add("inv.due_ge_send", "a recording from the due time is never below the one from the send time", "send_i ≥ due_i, so done_i − due_i ≥ done_i − send_i, for all i",
			float64(t.requests), float64(t.dueGeSend), t.dueGeSend == t.requests)
		add("inv.time_forward.closed", "virtual time never goes backwards: closed sends in order, no reply before its service ends", "send_i ≤ send_{i+1}, done_i − send_i ≥ S",
			1, b2f(t.closedOK), t.closedOK)
		add("inv.time_forward.paced", "paced: sends in order, one at a time, none before the previous reply", "done_{i−1} ≤ send_i ≤ send_{i+1}",
			1, b2f(t.pacedOK), t.pacedOK)
	}
	for _, pair := range [][2]Kind{{Closed, Corrected}, {Paced, PacedCorrected}} {
		base, corr := &res.Recordings[pair[0]], &res.Recordings[pair[1]]
		if missing, ok := correctionTotal(base.Dist, corr.Interval); ok {
			add("inv."+pair[1].String()+".count", pair[1].String()+": count = base count + Σ missing", "count + Σ_v max(0, floor(v/E) − 1)",
				float64(base.Count+missing), float64(corr.Count), base.Count+missing == corr.Count)
		}
		add("inv."+pair[1].String()+".max", pair[1].String()+": the correction adds only smaller samples", "max(corrected) = max(recorded)",
			float64(base.Max), float64(corr.Max), base.Max == corr.Max)
	}
	return out
}

// addCheck records one invariant check.
type addCheck func(id, quantity, formula string, want, got float64, pass bool)

// sameTimelineChecks: with one connection and one worker the closed and
// open clients walk one server timeline, so they end at the same instant,
// meet the same stalls (when stalls is set) and, when the replies were kept,
// answer every request at the same instant.
func sameTimelineChecks(res *Result, add addCheck, stalls bool) {
	cl, op := &res.Clients[ClosedClient], &res.Clients[OpenClient]
	add("inv.same_timeline.last", "one connection, one worker: closed and open end at the same instant", "last(closed) = last(open)",
		float64(op.LastCompletion), float64(cl.LastCompletion), op.LastCompletion == cl.LastCompletion)
	if stalls {
		add("inv.same_timeline.stalls", "closed and open meet the same stalls", "stalls(closed) = stalls(open)",
			float64(op.StallsMet), float64(cl.StallsMet), op.StallsMet == cl.StallsMet)
	}
	n, same, ok := res.sameReplies()
	if !ok {
		return
	}
	add("inv.same_timeline.replies", "every request completes at the same instant in both loops", "done_i(closed) = done_i(open) for all i",
		float64(n), float64(same), same == n)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// NoClosedForm returns why recording k has no closed form for the run's
// parameters, or "" when it has one (its checks are then in Checks).
func (r *Result) NoClosedForm(k Kind) string {
	cf := r.closedForms()
	if cf == nil {
		_, why := Regime(r.Config)
		return "No closed form applies to these parameters (" + strings.Join(why, "; ") + "): every number is simulation only, checked against the invariants listed."
	}
	if why, ok := cf.NotApplicable[k]; ok {
		return fmt.Sprintf("%s: no closed form (%s); simulation only.", k, why)
	}
	return ""
}

// closedForms returns DeriveClosedForms of the run's parameters: the one
// the checks derived when the result was built (the paced client's
// derivation walks every stall), else derived afresh. It writes nothing, so
// a finished Result may be read from several goroutines.
func (r *Result) closedForms() *ClosedForms {
	if r.cfDone {
		return r.cf
	}
	return DeriveClosedForms(r.Config)
}
