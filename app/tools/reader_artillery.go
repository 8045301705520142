package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// FormatArtillery is Artillery's console (its period reports and the
// summary report); FormatArtilleryJSON its run --output report.
const (
	FormatArtillery     measure.Format = "artillery"
	FormatArtilleryJSON measure.Format = "artillery-json"
)

var artilleryReader = measure.Reader{
	Format: FormatArtillery, Title: "Artillery output",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "Summary report @ "}, {Prefix: "Metrics for period to: "}},
	Read:  parseArtillery,
}

var artilleryJSONReader = measure.Reader{
	Format: FormatArtilleryJSON, Title: "Artillery JSON report (run --output)",
	Keys:     []measure.Keys{{A: "aggregate", B: "intermediate"}},
	ReadJSON: parseArtilleryJSON,
}

// artilleryPrecision is what Artillery keeps of a latency.
const artilleryPrecision = "whole ms (Date.now()); its percentiles are a DDSketch's bins, within 1 % of a value it saw, rounded to 0.1 ms"

const artilleryNote = "Artillery's percentiles come from a DDSketch (relative accuracy 0.01): each is the value of the bin that holds the rank q·(n − 1), within 1 % of a latency it recorded, and rounded to 0.1 ms."

// artilleryLine splits "name: ....... value" into its name and value
// (lib/util.js padded), or a summary's heading "name:" into its name.
func artilleryLine(t string) (name, value string, ok bool) {
	t = strings.TrimRight(t, " ")
	if n, rest, found := strings.Cut(t, ": "); found {
		rest = strings.TrimLeft(rest, ".")
		if v, ok := strings.CutPrefix(rest, " "); ok && v != "" && !strings.Contains(v, " ") {
			return strings.TrimSpace(n), strings.TrimSuffix(v, "/sec"), true
		}
		return "", "", false
	}
	if strings.HasSuffix(t, ":") && !strings.Contains(t, " ") {
		return strings.TrimSuffix(t, ":"), "", true
	}
	return "", "", false
}

// artilleryBlock is one report of the console: its counters and each
// summary's printed figures (min, max, mean, median, p95, p99), with the
// line each was read from.
type artilleryBlock struct {
	counters map[string]string
	sums     map[string]map[string]string
	lines    map[string]int
}

func readArtilleryBlock(ls []measure.Line) artilleryBlock {
	b := artilleryBlock{counters: map[string]string{}, sums: map[string]map[string]string{}, lines: map[string]int{}}
	cur := ""
	for _, l := range ls {
		if strings.HasPrefix(strings.TrimSpace(l.Text), "---") || strings.HasPrefix(l.Text, "Metrics for period to: ") {
			break
		}
		name, v, ok := artilleryLine(l.Text)
		if !ok {
			continue
		}
		switch {
		case v == "":
			cur = name
			b.sums[cur] = map[string]string{}
			b.lines[cur] = l.N
		case strings.HasPrefix(l.Text, "  ") && cur != "":
			b.sums[cur][name] = v
			b.lines[cur+"."+name] = l.N
		default:
			cur = ""
			b.counters[name] = v
			b.lines[name] = l.N
		}
	}
	return b
}

// artillerySummaryLines are the lines of the summary report whose header
// is line at, past its underline.
func artillerySummaryLines(ls []measure.Line, at int) []measure.Line {
	start := at + 1
	for start < len(ls) && (strings.HasPrefix(strings.TrimSpace(ls[start].Text), "---") || strings.TrimSpace(ls[start].Text) == "") {
		start++
	}
	return ls[start:]
}

// parseArtillery reads the console's summary report: http.response_time's
// min, max, mean, median, p95 and p99 (ms, to 0.1) and http.responses,
// their count.
func parseArtillery(name string, ls []measure.Line) (*measure.File, error) {
	at := lastPrefixed(ls, "Summary report @ ")
	if at < 0 {
		return nil, &measure.ParseError{Name: name, Format: FormatArtillery, Line: len(ls), Msg: "expected Artillery's \"Summary report @ …\" block (a run that ended), found none"}
	}
	b := readArtilleryBlock(artillerySummaryLines(ls, at))
	rt, ok := b.sums["http.response_time"]
	if !ok {
		return nil, &measure.ParseError{Name: name, Format: FormatArtillery, Line: ls[at].N, Msg: "expected http.response_time in the summary report, found none (no reply came)"}
	}
	d := measure.Dist{Label: "http.response_time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	for _, f := range []string{"min", "max", "mean", "median", "p95", "p99"} {
		v, ok := rt[f]
		if !ok {
			return nil, &measure.ParseError{Name: name, Format: FormatArtillery, Line: b.lines["http.response_time"], Col: 1, Msg: fmt.Sprintf("expected http.response_time's %s, found none", f)}
		}
		ns, err := artilleryMs(v)
		if err != nil {
			return nil, &measure.ParseError{Name: name, Format: FormatArtillery, Line: b.lines["http.response_time."+f], Col: 1, Msg: fmt.Sprintf("http.response_time's %s: %v", f, err)}
		}
		artillerySet(&d, f, ns)
	}
	if v, ok := b.counters["http.responses"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, &measure.ParseError{Name: name, Format: FormatArtillery, Line: b.lines["http.responses"], Col: 1, Msg: fmt.Sprintf("http.responses: expected a count, found %q", v)}
		}
		d.Count = n
	}
	return artilleryFile(name, FormatArtillery, d), nil
}

func artilleryFile(name string, f measure.Format, d measure.Dist) *measure.File {
	statedFromPoints(&d, d.Points)
	d.Precision = artilleryPrecision
	d.Notes = append(d.Notes, artilleryNote)
	d.Finish(false)
	return &measure.File{Name: name, Format: f, Dists: []measure.Dist{d}}
}

// artillerySet puts a figure of http.response_time's summary, named as
// the console or the report names it, into d: min, max, count, mean, and
// the percentiles median (or p50), p75 … p99 and p999.
func artillerySet(d *measure.Dist, name string, ns int64) {
	switch name {
	case "min":
		d.MinNs = ns
	case "max":
		d.MaxNs = ns
	case "count":
		d.Count = ns
	case "mean":
		d.HasMean, d.MeanNs = true, float64(ns)
	default:
		p, _ := strconv.ParseFloat(strings.TrimPrefix(name, "p"), 64)
		switch name {
		case "median":
			p = 50
		case "p999":
			p = 99.9
		}
		d.Points = append(d.Points, measure.Point{Percentile: p, Ns: ns, Count: -1})
	}
}

// artilleryMs reads a figure in ms ("252.2", "0") as ns.
func artilleryMs(v string) (int64, error) {
	d, err := measure.ParseDecimal(v)
	if err != nil {
		return 0, err
	}
	return d.Ns(1e6)
}

// parseArtilleryJSON reads the report's aggregate: http.response_time's
// summary (min, max, count, mean, p50, p75, p90, p95, p99, p999; ms).
func parseArtilleryJSON(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	fail := func(key, msg string) error {
		l, c := keyPos(data, key)
		return &measure.ParseError{Name: name, Format: FormatArtilleryJSON, Line: l, Col: c, Msg: msg}
	}
	agg, ok := object(top["aggregate"])
	if !ok {
		return nil, fail("aggregate", "expected \"aggregate\" to be an object")
	}
	sums, ok := object(agg["summaries"])
	if !ok {
		return nil, fail("summaries", "expected the aggregate's \"summaries\" to be an object")
	}
	rt, ok := object(sums["http.response_time"])
	if !ok {
		return nil, fail("summaries", "expected the aggregate's summary of http.response_time, found none (no reply came)")
	}
	d := measure.Dist{Label: "http.response_time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	for _, k := range []string{"min", "max", "count", "mean", "p50", "p75", "p90", "p95", "p99", "p999"} {
		v, err := jsonNumber(rt, k)
		if err != nil {
			return nil, fail(k, "http.response_time's "+k+": "+err.Error())
		}
		if v == nil {
			return nil, fail("http.response_time", "expected http.response_time's "+k+", found none")
		}
		unit := uint64(1e6)
		if k == "count" {
			unit = 1
		}
		ns, err := v.Ns(unit)
		if err != nil {
			return nil, fail(k, "http.response_time's "+k+": "+err.Error())
		}
		artillerySet(&d, k, ns)
	}
	return artilleryFile(name, FormatArtilleryJSON, d), nil
}

// artilleryStated reads what Artillery's report or console states of its
// run: the requests it sent (http.requests), the arrivals a maxVusers cap
// skipped (vusers.skipped), and, from the span of its metrics' times and
// the slowest reply, the phase's rate and duration when one phase alone
// fits its arrivals, sent and skipped (artilleryFindPhase).
//
// unmodelled says, when the phase's uniform arrivals cannot have made the
// arrivals its period reports count, that they did not come at one
// constant rate (artilleryUniform).
func artilleryStated(data []byte, d *measure.Dist) (requests, skipped, duration int64, rate sim.Rate, from, unmodelled string) {
	var spanMs, ticks int64 = -1, 0
	type counted struct {
		Counters       map[string]int64 `json:"counters"`
		FirstCounterAt *int64           `json:"firstCounterAt"`
		LastCounterAt  *int64           `json:"lastCounterAt"`
	}
	var top struct {
		Aggregate    counted   `json:"aggregate"`
		Intermediate []counted `json:"intermediate"`
	}
	var periods []artilleryPeriodCount
	if json.Unmarshal(data, &top) == nil && top.Aggregate.Counters != nil {
		requests, skipped = top.Aggregate.Counters["http.requests"], top.Aggregate.Counters["vusers.skipped"]
		if a, b := top.Aggregate.FirstCounterAt, top.Aggregate.LastCounterAt; a != nil && b != nil && *b >= *a {
			spanMs = *b - *a
		}
		from = "the span of its first and last counter (firstCounterAt, lastCounterAt)"
		for _, p := range top.Intermediate {
			if a, b := p.FirstCounterAt, p.LastCounterAt; a != nil && b != nil && *b >= *a {
				periods = append(periods, artilleryPeriodCount{widthMs: *b - *a, arrivals: max(p.Counters["http.requests"], 0) + max(p.Counters["vusers.skipped"], 0)})
			}
		}
	} else {
		if why := artilleryPhases(string(data)); why != "" {
			return 0, 0, 0, 0, "", why
		}
		requests, skipped, spanMs, ticks, periods = artilleryConsoleSpan(string(data))
		from = "the span of its period reports (their ends and widths)"
	}
	requests, skipped = max(requests, 0), max(skipped, 0)
	if requests+skipped < 2 || spanMs < 0 || d == nil || d.MaxNs < 0 {
		return requests, skipped, 0, 0, "", ""
	}
	maxMs := d.MaxNs / 1e6
	n := requests + skipped
	ph, ok := artilleryFindPhase(n, spanMs, ticks, maxMs)
	if !ok {
		// No one phase gives the total and the span: the periods are
		// held to the arrivals spread evenly over that span.
		tickUs := spanMs * 1000 / (n - 1)
		return requests, skipped, 0, 0, "", artilleryUniform(periods, tickUs, "one phase of their total over their span", maxMs)
	}
	if why := artilleryUniform(periods, ph.tick()/1000, "the one whose total and span they give ("+ph.words(", ")+")", maxMs); why != "" {
		return requests, skipped, 0, 0, "", why
	}
	return requests, skipped, ph.seconds * 1e9, ph.rate(), from, ""
}

// artilleryPeriodCount is one period report's arrivals (http.requests and
// vusers.skipped) and the span of its metrics' times (its width: from its
// first counter to its last).
type artilleryPeriodCount struct{ widthMs, arrivals int64 }

// artilleryUniform holds each period report to uniform arrivals, one each
// tickUs µs (the phase's whose total and span they give, named by which):
// a period whose metrics span w ms holds the arrivals of at least w −
// maxMs − 2 ms (its last metric may be a reply up to the slowest reply
// after the last arrival; Date.now()'s whole ms, 2 ms either way) and at
// most w + 2 ms, give or take 2 arrivals and 100 ms of them. A count outside
// that says the arrivals changed rate over the run (a rampTo, or phases of
// different rates, which a total and a span alone can take for one
// phase); it answers why in words, or "" when every period fits.
func artilleryUniform(ps []artilleryPeriodCount, tickUs int64, which string, maxMs int64) string {
	if tickUs <= 0 {
		return ""
	}
	var counts, widths []string
	off := false
	// Give or take 2 arrivals, and 100 ms of them: a timer of Node's
	// held back at a period's end fires late, in the next one.
	slack := 2 + 100_000/tickUs
	for _, p := range ps {
		lo := (p.widthMs-maxMs-2)*1000/tickUs - slack
		hi := (p.widthMs+2)*1000/tickUs + slack
		if p.arrivals < lo || p.arrivals > hi {
			off = true
		}
		counts = append(counts, units.Count(p.arrivals))
		widths = append(widths, units.Duration(float64(p.widthMs)*1e6))
	}
	if !off {
		return ""
	}
	return fmt.Sprintf("its period reports count %s arrivals (sent and skipped) in %s, which no one phase makes: %s makes one every %s. Its arrivals changed rate over the run (a rampTo, or phases of different rates), and the model runs one constant rate; fit the report of a run of one phase (arrivalRate or arrivalCount, without rampTo)",
		strings.Join(counts, ", "), strings.Join(widths, ", "), which, units.Duration(float64(tickUs)*1e3))
}

// artilleryPhases says, in words, when Artillery's console reports more
// than one phase ("Phase started: NAME (index: I, duration: Ds)"), which
// the model cannot run as one; "" when it reports one or none.
func artilleryPhases(text string) string {
	var phases []string
	seen := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "Phase started: ")
		i := strings.LastIndex(rest, " (index: ")
		if !ok || i < 0 {
			continue
		}
		idx, _, _ := strings.Cut(rest[i+len(" (index: "):], ",")
		if seen[idx] {
			continue
		}
		seen[idx] = true
		what := rest[:i]
		if _, d, ok := strings.Cut(rest[i:], "duration: "); ok {
			what += " for " + strings.TrimSuffix(strings.Fields(d)[0], ")")
		}
		phases = append(phases, strconv.Quote(what))
	}
	if len(phases) < 2 {
		return ""
	}
	return fmt.Sprintf("its console reports %d phases (%s), and the model runs one constant rate for the whole run; fit the report of a run of one phase (arrivalRate or arrivalCount, without rampTo)",
		len(phases), strings.Join(phases, ", "))
}

// artilleryConsoleSpan reads the summary's http.requests and
// vusers.skipped and the span of the run's metrics from its period
// reports: one report's width, exactly; or, over several, at least from
// the first report's end less its width to the last's start plus its.
// Those two ends are where the first report's last metric and the last
// one's first would be if they fell on the reports' ends, which they miss
// by up to an arrival's tick each (an arrival counts a metric, sent or
// skipped): ticks says how many ticks the span may be longer (0 or 2).
func artilleryConsoleSpan(text string) (requests, skipped, spanMs, ticks int64, counts []artilleryPeriodCount) {
	type period struct{ end, width int64 }
	var ps []period
	summary := false
	spanMs = -1
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "Metrics for period to: "); ok {
			f := strings.Fields(rest)
			if len(f) != 3 || len(f[0]) < 8 {
				continue
			}
			hms := strings.Split(f[0][:8], ":")
			w, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(f[2], "("), "s)"), 64)
			if len(hms) != 3 || err != nil {
				continue
			}
			h, _ := strconv.Atoi(hms[0])
			m, _ := strconv.Atoi(hms[1])
			s, _ := strconv.Atoi(hms[2])
			ps = append(ps, period{int64(h*3600+m*60+s) * 1000, int64(math.Round(w * 1000))})
			counts = append(counts, artilleryPeriodCount{widthMs: ps[len(ps)-1].width})
			continue
		}
		if strings.HasPrefix(t, "Summary report @ ") {
			summary = true
		}
		n, v, ok := artilleryLine(l)
		if !ok || n != "http.requests" && n != "vusers.skipped" {
			continue
		}
		c, _ := strconv.ParseInt(v, 10, 64)
		switch {
		case !summary && len(counts) > 0: // a period report's arrivals
			counts[len(counts)-1].arrivals += max(c, 0)
		case summary && n == "http.requests":
			requests = c
		case summary:
			skipped = c
		}
	}
	switch {
	case len(ps) == 1:
		spanMs = ps[0].width
	case len(ps) > 1:
		first, last := ps[0], ps[len(ps)-1]
		end := last.end
		if end < first.end {
			end += 24 * 3600 * 1000 // past midnight
		}
		spanMs, ticks = (end-10000+last.width)-(first.end-first.width), 2
	}
	return requests, skipped, spanMs, ticks, counts
}

// artilleryFindPhase finds the phase that made n arrivals whose metrics
// spanned spanMs, or up to ticks arrival ticks more, the slowest reply
// maxMs: arrival k at k·tick, n = ⌊D·10⁶/tick⌋ of them over D whole
// seconds, the last (n − 1)·tick after the first, the last metric at most
// maxMs after it (each time a whole ms of Date.now(): 2 ms either way);
// tick = ⌊10⁶/R⌋ µs for an arrivalRate R, ⌊D·10⁶/N⌋ µs for an
// arrivalCount N. Phases with the same tick and D make the same arrivals:
// a whole arrivalRate is taken where one gives them (the greatest, the
// one a script would hold: 1,250 rather than 1,249 for a tick of 800 µs),
// else the arrivalCount nearest n. It answers only when one tick and D
// fit.
func artilleryFindPhase(n, spanMs, ticks, maxMs int64) (artilleryPhase, bool) {
	lo, hi := float64(spanMs-maxMs-2), float64(spanMs+2)
	if ticks > 0 {
		// Each tick is at most span / (n − 1 − ticks).
		hi += float64(ticks) * float64(spanMs+2) / float64(max(n-1-ticks, 1))
	}
	if hi <= 0 || n < 2 {
		return artilleryPhase{}, false
	}
	// The tick lies in [lo, hi] / (n − 1) ms.
	tickLo, tickHi := max(lo*1000/float64(n-1), 1), hi*1000/float64(n-1) // µs
	rHi := int64(math.Ceil(1e6 / tickLo))
	rLo := int64(math.Floor(1e6 / tickHi))
	if rHi-rLo > 1e5 {
		return artilleryPhase{}, false
	}
	type key struct{ tick, d int64 }
	found := map[key]artilleryPhase{}
	fits := func(tick int64) (d int64, ok bool) {
		last := float64((n-1)*tick) / 1000
		if tick < 1 || last < lo || last > hi {
			return 0, false
		}
		d = (n*tick + 999999) / 1e6 // the least whole D with ⌊D·10⁶/tick⌋ ≥ n
		return d, d*1e6/tick == n
	}
	for r := max(rLo, 1); r <= rHi; r++ {
		tick := artilleryTick(r) / 1000 // µs
		if d, ok := fits(tick); ok {
			if f, seen := found[key{tick, d}]; !seen || r > f.perSec {
				found[key{tick, d}] = artilleryPhase{seconds: d, perSec: r}
			}
		}
	}
	// arrivalCount N over D: D from the last arrival, n·tick ≤ D·10⁶ <
	// (n + 1)·tick.
	for d := int64(math.Floor(float64(n) * tickLo / 1e6)); float64(d) <= float64(n+1)*tickHi/1e6; d++ {
		if d < 1 {
			continue
		}
		nLo, nHi := int64(math.Floor(float64(d)*1e6/(tickHi+1))), int64(math.Ceil(float64(d)*1e6/tickLo))
		if nHi-nLo > 1e5 {
			return artilleryPhase{}, false
		}
		for c := max(nLo, 1); c <= nHi; c++ {
			ph := artilleryPhase{seconds: d, count: c}
			tick := ph.tick() / 1000
			if dd, ok := fits(tick); !ok || dd != d {
				continue
			}
			f, seen := found[key{tick, d}]
			if !seen || f.perSec == 0 && abs64(c-n) < abs64(f.count-n) {
				found[key{tick, d}] = ph
			}
		}
	}
	if len(found) != 1 {
		return artilleryPhase{}, false
	}
	for _, ph := range found {
		return ph, true
	}
	return artilleryPhase{}, false
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
