package view

import (
	"fmt"
	"strconv"
	"strings"

	"omission/app/units"
	"omission/sim"
)

// View is everything the page shows of one finished simulation,
// formatted once when the result arrives so that Render only reads it.
// It is published as the stateResult state; components copy it.
type View struct {
	Seq    int64       // the request that produced it
	Query  string      // its canonical query
	Hash   string      // the result's hash (the same natively and in the browser)
	Result *sim.Result `json:"-"` // nil once the view has crossed from a Web Worker

	Columns  []Column
	Rows     []Row
	Headline Headline
	Cost     Cost

	Checks       []Check // closed forms first, then invariants, in the simulator's order
	Passed       int
	Total        int
	Notes        []string
	NoClosedForm map[string]string   // recording → why it has no closed form
	Invariants   map[string][]string // recording → ids of the invariants that bear on it
}

// Column is one recording's column header.
type Column struct {
	Recording string // "closed"
	Label     string // "closed loop"
	Detail    string // what the recording measures
}

// Row is one metric across the recordings, and the open/closed ratio.
type Row struct {
	Metric string // "p99"
	Label  string // "p99"
	Help   string
	Cells  []Cell
	Ratio  Ratio
}

// Cell is one number of the table.
type Cell struct {
	ID    string // data-metric: "open.p99"
	Attr  string // "ns" for latencies, "value" for counts and shares
	Exact string // the exact value, for the data attribute
	Text  string // displayed
	Title string // hover text: the exact value and where it comes from
	Proof string // the check that proves it, "" when there is none
	Pass  bool   // the check passed (meaningful when Proof != "")
}

// Ratio is open ÷ closed for one row.
type Ratio struct {
	Metric string // "p99"; "" when the row has no ratio
	Exact  string // "" when there is no ratio
	Text   string
	Why    string // why there is no ratio ("" when there is one)
}

// Headline is the story in three numbers and a count, each card with what
// is said beside it (said.go decides the words).
type Headline struct {
	ClosedP99, OpenP99 Cell
	ClosedSub, OpenSub string // beside each p99: what it times, the calls it is of, how long a closed loop ran past its schedule
	Ratio              string // open ÷ closed p99, like with like ("none": no ratio)
	RatioOK            bool
	RatioSub           string // what the ratio compares, or why there is none
	NeverSent          Cell   // paced client: planned − sent
	Planned            string
	NeverSentShare     string
	PacedSub           string // the planned count, the share, and what kept them from being sent
	Server             string // one line describing the run (Summary)
	Story              Story  // what separates the two p99s here, chosen by a check on the run
	Spoken             string // the headline in one sentence, for a screen reader
}

// Cost is the cost line.
type Cost struct {
	Requests int64   // requests simulated, over all clients
	Samples  int64   // samples recorded, over all recordings
	Ms       float64 // wall time of the update
	Text     string
}

// Check is one check as the page lists it.
type Check struct {
	ID          string
	Invariant   bool
	Pass        bool
	Recording   string // "open", "closed" …, or "" for an invariant over several
	Metric      string
	Summary     string // the quantity in words
	Line        string // its line in the list: " quantity = value "
	Formula     string
	Substituted string
	Want, Got   string
	Tolerance   string
}

// recordingInfoList describes each recording for headers and hover text.
var recordingInfoList = [...]struct {
	kind sim.Kind
	info [2]string
}{
	{sim.Closed, [2]string{"closed loop", "waits for each reply before the next send; times each request from its send"}},
	{sim.Paced, [2]string{"paced", "sleeps to its next slot; when late it sends at once and never sends the slots it missed"}},
	{sim.Open, [2]string{"open loop", "sends every request when it is due; times it from its due time"}},
	{sim.Corrected, [2]string{"closed, corrected", "the closed loop plus the samples the expected-interval correction adds"}},
	{sim.PacedCorrected, [2]string{"paced, corrected", "the paced client plus the samples the expected-interval correction adds"}},
}

// recordingInfo returns k's words from recordingInfoList (a list rather
// than a map literal: app.wasm holds it as data, not as code that builds a
// map).
func recordingInfo(k sim.Kind) [2]string {
	for _, r := range recordingInfoList {
		if r.kind == k {
			return r.info
		}
	}
	return [2]string{}
}

// latencyMetric tells whether a metric is a time (written with a unit)
// rather than a count.
func latencyMetric(m string) bool {
	switch m {
	case "mean", "max", "last_completion":
		return true
	}
	return percentileMetric(m)
}

func percentileMetric(m string) bool {
	for _, p := range sim.Percentiles() {
		if p.Name == m {
			return true
		}
	}
	return false
}

// tableKinds is the order of the table's columns: the two recordings the
// headline compares side by side, the closed loop's and the open loop's,
// then the paced client's and the two corrections (on a phone the first two
// fit beside the metric's name).
var tableKinds = []sim.Kind{sim.Closed, sim.Open, sim.Paced, sim.Corrected, sim.PacedCorrected}

// Build formats a result for the page. ms is the wall time of the update.
func Build(seq int64, res *sim.Result, ms float64) *View {
	v := &View{Seq: seq, Query: res.Query, Hash: res.Hash, Result: res}
	for _, k := range tableKinds {
		info := recordingInfo(k)
		v.Columns = append(v.Columns, Column{Recording: k.String(), Label: info[0], Detail: info[1]})
	}
	v.buildChecks(res)
	v.buildRows(res)
	v.buildHeadline(res)
	for _, c := range res.Clients {
		v.Cost.Requests += c.Sent
	}
	for _, r := range res.Recordings {
		v.Cost.Samples += r.Count
	}
	v.SetCost(ms)
	return v
}

// ProofFor returns the id of the check that proves a cell, or "".
func (v *View) ProofFor(id string) string {
	rec, metric, _ := strings.Cut(id, ".")
	switch metric {
	case "planned", "sent":
		// Requests are a client's: the corrected recordings inherit them.
		k := kindOf(rec)
		if k < 0 {
			return ""
		}
		id = k.Client().String() + "." + metric
	case "attempts", "retries", "failed_calls", "wasted":
		// The retry invariants name the client: inv.retry.<check>.<client>.
		k := kindOf(rec)
		if k < 0 {
			return ""
		}
		check := map[string]string{"attempts": "attempts", "retries": "failures", "failed_calls": "calls", "wasted": "utilisation"}[metric]
		id = "inv.retry." + check + "." + k.Client().String()
	case "slowed", "pauses":
		// slowed: each service in a window is k times its own
		// (inv.slow.service.<client>); pauses: the think invariant.
		k := kindOf(rec)
		if k < 0 {
			return ""
		}
		id = "inv.slow.service." + k.Client().String()
		if metric == "pauses" {
			id = "inv.think.pauses"
			if k.Client() != sim.ClosedClient {
				return ""
			}
		}
	case "above_share":
		id = rec + ".above"
	}
	for _, c := range v.Checks {
		if c.ID == id {
			return id
		}
	}
	return ""
}

// check returns the check with the id, or nil.
func (v *View) CheckByID(id string) *Check {
	for i := range v.Checks {
		if v.Checks[i].ID == id {
			return &v.Checks[i]
		}
	}
	return nil
}

// cell returns the table cell with the id, or nil.
func (v *View) CellByID(id string) *Cell {
	for i := range v.Rows {
		for j := range v.Rows[i].Cells {
			if v.Rows[i].Cells[j].ID == id {
				return &v.Rows[i].Cells[j]
			}
		}
	}
	return nil
}

func kindOf(name string) sim.Kind {
	for _, k := range sim.Kinds() {
		if k.String() == name {
			return k
		}
	}
	return -1
}

func (v *View) buildChecks(res *sim.Result) {
	v.Passed, v.Total = res.Passed()
	v.Notes = res.Notes
	for _, c := range res.Checks {
		cv := Check{ID: c.ID, Invariant: c.Kind == "invariant", Pass: c.Pass, Summary: c.Quantity,
			Formula: c.Formula, Substituted: c.Substituted, Tolerance: c.Tolerance}
		if !cv.Invariant {
			cv.Recording, cv.Metric, _ = strings.Cut(c.ID, ".")
		}
		if !cv.Invariant && latencyMetric(cv.Metric) {
			cv.Want, cv.Got = units.Duration(c.Want)+" ("+units.ExactNs(c.Want)+")", units.Duration(c.Got)+" ("+units.ExactNs(c.Got)+")"
		} else {
			cv.Want, cv.Got = units.Exact(c.Want), units.Exact(c.Got)
		}
		cv.Line = " " + cv.Summary + " = " + firstPart(cv.Got) + " "
		v.Checks = append(v.Checks, cv)
	}
	// Closed forms before invariants, each group in the simulator's order.
	var cf, inv []Check
	for _, c := range v.Checks {
		if c.Invariant {
			inv = append(inv, c)
		} else {
			cf = append(cf, c)
		}
	}
	v.Checks = append(cf, inv...)

	v.NoClosedForm = map[string]string{}
	v.Invariants = map[string][]string{}
	for _, k := range sim.Kinds() {
		name := k.String()
		if why := res.NoClosedForm(k); why != "" {
			v.NoClosedForm[name] = why
		}
		for _, c := range inv {
			if invariantBears(c.ID, k) {
				v.Invariants[name] = append(v.Invariants[name], c.ID)
			}
		}
	}
}

// invariantBears tells whether an invariant is about a recording. The ids
// name the recording they check (inv.conservation.open, inv.corrected.max);
// the ones about the shared timeline bear on both the closed and open loops.
func invariantBears(id string, k sim.Kind) bool {
	parts := strings.Split(strings.TrimPrefix(id, "inv."), ".")
	for _, p := range parts {
		if p == k.String() {
			return true
		}
	}
	switch k {
	case sim.Closed, sim.Open:
		switch parts[0] {
		case "counts_equal", "same_timeline", "due_ge_send":
			return true
		}
	case sim.Paced:
		return parts[0] == "paced"
	}
	return false
}

func (v *View) buildRows(res *sim.Result) {
	above := units.Duration(res.Config.Above)
	type metric = rowMetric
	rec := func(k sim.Kind) *sim.Recording { return &res.Recordings[k] }
	client := func(k sim.Kind) *sim.ClientRun { return &res.Clients[k.Client()] }
	metrics := []rowMetric{
		{"planned", "planned", "requests the schedule holds for the client", false, func(k sim.Kind) float64 { return float64(client(k).Planned) }},
		{"sent", "sent", "requests the client actually sent", false, func(k sim.Kind) float64 { return float64(client(k).Sent) }},
	}
	metrics = append(metrics, retryMetrics(res)...)
	if !res.Config.Retrying() && failures(res) {
		metrics = append(metrics, failedRow(res))
	}
	metrics = append(metrics, slowThinkMetrics(res)...)
	metrics = append(metrics,
		metric{"count", "samples", "latency samples in the recording", false, func(k sim.Kind) float64 { return float64(rec(k).Count) }},
		metric{"mean", "mean", "mean latency", true, func(k sim.Kind) float64 { return rec(k).Mean }},
	)
	for i, p := range sim.Percentiles() {
		i := i
		metrics = append(metrics, metric{p.Name, strings.ReplaceAll(p.Name, "_", "."),
			sim.MetricWords(p.Name), true, func(k sim.Kind) float64 { return float64(rec(k).P[i]) }})
	}
	metrics = append(metrics,
		metric{"max", "max", "largest sample", true, func(k sim.Kind) float64 { return float64(rec(k).Max) }},
		metric{"above", "above " + above, "samples strictly above the threshold of " + above, false, func(k sim.Kind) float64 { return float64(rec(k).Above) }},
		metric{"above_share", "share above " + above, "share of the samples above the threshold of " + above, false, func(k sim.Kind) float64 { return rec(k).Share() }},
	)
	for _, m := range metrics {
		row := Row{Metric: m.name, Label: m.label, Help: m.help}
		for _, k := range tableKinds {
			x := m.get(k)
			c := Cell{ID: k.String() + "." + m.name}
			switch {
			case m.latency:
				c.Attr, c.Exact, c.Text = "ns", units.Raw(x), units.Duration(x)
				c.Title = units.ExactNs(x)
				// A latency is of the answered calls: say so, and show
				// none where no call was answered.
				if n := CallsOf(res, k).Note(); n != "" {
					c.Title += " · " + n
				}
				if rec(k).Count == 0 {
					c.Text, c.Title = NoLatency, "no latency: "+CallsOf(res, k).Note()
				}
			case m.name == "above_share":
				c.Attr, c.Exact, c.Text = "value", units.Raw(x), units.Share(x)
				c.Title = fmt.Sprintf("%s of %s samples", units.Count(rec(k).Above), units.Count(rec(k).Count))
			default:
				c.Attr, c.Exact, c.Text = "value", units.Raw(x), units.Count(int64(x))
				c.Title = units.Exact(x)
			}
			if clientMetric(m.name) && k.Client().String() != k.String() {
				c.Title += " (the " + k.Client().String() + " client's requests)"
			}
			if m.name == "wasted" {
				c.Title += " services, " + units.Duration(float64(res.Engine.Clients[k.Client()].WastedNs)) + " of worker time"
			}
			c.Proof = v.ProofFor(c.ID)
			if c.Proof != "" {
				c.Pass = v.CheckByID(c.Proof).Pass
			}
			row.Cells = append(row.Cells, c)
		}
		switch {
		case clientMetric(m.name), m.name == "count":
		default:
			row.Ratio = rowRatio(res, m.name, m.get(sim.Open), m.get(sim.Closed))
		}
		v.Rows = append(v.Rows, row)
	}
}

// rowRatio is a row's open ÷ closed: none, and why, when either loop
// had calls fail (each number is of its own answered calls: not like with
// like) or no answer, or the closed loop's value is 0.
func rowRatio(res *sim.Result, metric string, o, cl float64) Ratio {
	r := Ratio{Metric: metric}
	cc, oc := CallsOf(res, sim.Closed), CallsOf(res, sim.Open)
	if cc.Failed() > 0 || oc.Failed() > 0 || cc.Answered() == 0 {
		r.Text, r.Why = NoLatency, "calls failed: each number is of its own answered calls (the failed calls row), so a ratio would not compare like with like"
		if cc.Failed() == 0 && oc.Failed() == 0 {
			r.Why = cc.Note()
		}
		return r
	}
	text, ok := units.Ratio(o, cl)
	r.Text = text
	switch {
	case ok && cl != 0:
		r.Exact = units.Raw(o / cl)
	case !ok:
		r.Why = "the closed loop's value is 0"
	}
	return r
}

// rowMetric is one row of the results table: its metric, label and help,
// and its value for each recording.
type rowMetric struct {
	name, label, help string
	latency           bool
	get               func(k sim.Kind) float64
}

// retryRows are the rows of a run with retries (attempts > 1): the
// clients' attempts, retries, failed calls and wasted services. A run
// without retries has none of them, so its table is what it was.
var retryRows = [...]string{"attempts", "retries", "failed_calls", "wasted"}

// clientMetric tells whether a row counts a client's requests (the
// corrected recordings show their client's).
func clientMetric(m string) bool {
	switch m {
	case "planned", "sent":
		return true
	}
	for _, r := range retryRows {
		if r == m {
			return true
		}
	}
	return m == "slowed" || m == "pauses"
}

// slowThinkMetrics are the rows of a run with slowdowns (the services that
// started in a window) or think time (the closed loop's pauses); a run
// without them has neither.
func slowThinkMetrics(res *sim.Result) []rowMetric {
	if res.Engine == nil {
		return nil
	}
	ec := func(k sim.Kind) *sim.EngineClient { return &res.Engine.Clients[k.Client()] }
	var out []rowMetric
	if res.Config.Slowed() {
		out = append(out, rowMetric{"slowed", "slowed services", "services that started inside a slowdown window and took k times as long", false, func(k sim.Kind) float64 { return float64(ec(k).Slowed) }})
	}
	if res.Config.Thinking() {
		out = append(out, rowMetric{"pauses", "think pauses", "pauses a closed-loop connection took between a call and its next request (the paced and open clients do not think)", false, func(k sim.Kind) float64 { return float64(ec(k).Pauses) }})
	}
	return out
}

// failedRow is the failed calls' row: calls whose last attempt was
// rejected, failed in an outage or timed out (with retries, the same count
// as the retry counts', inv.retry.calls).
func failedRow(res *sim.Result) rowMetric {
	return rowMetric{"failed_calls", "failed calls", "calls whose last attempt was rejected by a full queue, failed in an outage or timed out: they have no latency", false,
		func(k sim.Kind) float64 { return float64(CallsOf(res, k).Failed()) }}
}

// failures tells whether a call of any client failed.
func failures(res *sim.Result) bool {
	for _, k := range sim.Kinds() {
		if CallsOf(res, k).Failed() > 0 {
			return true
		}
	}
	return false
}

func retryMetrics(res *sim.Result) []rowMetric {
	if res.Engine == nil || !res.Config.Retrying() {
		return nil
	}
	ec := func(k sim.Kind) *sim.EngineClient { return &res.Engine.Clients[k.Client()] }
	rc := func(k sim.Kind) *sim.RetryCounts {
		if r := ec(k).Retry; r != nil {
			return r
		}
		return &sim.RetryCounts{}
	}
	return []rowMetric{
		{"attempts", "attempts", "attempts the client sent, first attempts and retries", false, func(k sim.Kind) float64 { return float64(rc(k).Attempts) }},
		{"retries", "retries", "attempts sent again after a failed one, a backoff later", false, func(k sim.Kind) float64 { return float64(rc(k).Retries) }},
		failedRow(res),
		{"wasted", "wasted services", "attempts the server finished after their client gave up (wasted work)", false, func(k sim.Kind) float64 { return float64(ec(k).Wasted) }},
	}
}

func (v *View) buildHeadline(res *sim.Result) {
	h := &v.Headline
	if c := v.CellByID("closed.p99"); c != nil {
		h.ClosedP99 = *c
	}
	if c := v.CellByID("open.p99"); c != nil {
		h.OpenP99 = *c
	}
	pc := res.Clients[sim.PacedClient]
	never := pc.Planned - pc.Sent
	h.NeverSent = Cell{ID: "paced.never_sent", Attr: "value", Exact: fmt.Sprint(never), Text: units.Count(never),
		Title: fmt.Sprintf("%s planned − %s sent", units.Count(pc.Planned), units.Count(pc.Sent)), Proof: v.ProofFor("paced.sent")}
	if h.NeverSent.Proof != "" {
		h.NeverSent.Pass = v.CheckByID(h.NeverSent.Proof).Pass
	}
	h.Planned = units.Count(pc.Planned)
	if pc.Planned > 0 {
		h.NeverSentShare = units.Share(float64(never) / float64(pc.Planned))
	}
	h.buildCards(res)
	h.Story = buildStory(res, h.Ratio, h.RatioOK)
	h.Server = Summary(&res.Config)
	h.Spoken = h.spoken()
}

// SetCost sets the wall time of the update and its line.
func (v *View) SetCost(ms float64) {
	v.Cost.Ms = ms
	v.Cost.Text = fmt.Sprintf("Simulated %s requests (%s samples) in %s ms",
		units.Count(v.Cost.Requests), units.Count(v.Cost.Samples), units.Decimals(ms))
}

// firstPart keeps a value's readable part: "195.1 ms (195,100,000 ns)" → "195.1 ms".
func firstPart(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		return s[:i]
	}
	return s
}

// Label returns a recording's name for people ("closed loop") and what it
// measures.
func Label(k sim.Kind) (name, detail string) {
	info := recordingInfo(k)
	return info[0], info[1]
}

// Extra is a column beside the recordings: what a tool would report, a
// measured file, the comparison's run, or its difference from this run.
// Its cells carry data-metric="<Key>.<metric>" (tools.wrk.p99,
// measured.p99, vs.open.p99, delta.open.p99).
type Extra struct {
	Key    string
	Label  string
	Detail string          // hover text of its header
	Class  string          // "tool", "measured", "vs", "delta": its style
	Cells  map[string]Cell // by row metric; a row it lacks shows a dash
}

// NewExtra formats a column's values (by row metric: count, mean, p50 …
// p99_99, max, planned, sent; latencies in ns). title says where they come
// from, on hover.
func NewExtra(key, label, detail, class string, vals map[string]float64, title string) Extra {
	e := Extra{Key: key, Label: label, Detail: detail, Class: class, Cells: map[string]Cell{}}
	for m, x := range vals {
		c := Cell{ID: key + "." + m}
		switch {
		case latencyMetric(m):
			c.Attr, c.Exact, c.Text, c.Title = "ns", units.Raw(x), units.Duration(x), units.ExactNs(x)
			if class == "delta" && x > 0 {
				c.Text = "+" + c.Text
			}
		default:
			c.Attr, c.Exact, c.Text, c.Title = "value", units.Raw(x), units.Count(int64(x)), units.Exact(x)
		}
		if title != "" {
			c.Title += " · " + title
		}
		e.Cells[m] = c
	}
	return e
}

// Values returns a recording's numbers by row metric, exactly (from the
// cells' data values), for a comparison's columns.
func (v *View) Values(recording string) map[string]float64 {
	out := map[string]float64{}
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			if c.ID == recording+"."+r.Metric {
				if x, err := strconv.ParseFloat(c.Exact, 64); err == nil {
					out[r.Metric] = x
				}
			}
		}
	}
	return out
}
