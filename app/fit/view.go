package fit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"omission/app/fitmsg"
	"omission/app/units"
)

// View writes the fit for people, as report -fit prints it: the page's fit
// panel shows it as it comes (fit.wasm sends it; app/fitmsg).
func (r *Result) View() fitmsg.View {
	v := fitmsg.View{
		File: r.File, Format: r.Format, Source: r.Source, Query: r.Query,
		Explained: r.Explained, Worst: Percent(r.Worst), Why: r.Why,
		FittedP99:   units.Duration(r.Hidden.FittedP99Ns),
		OpenP99:     strings.TrimPrefix(r.Hidden.OpenP99Words(), "= "),
		NeverSent:   units.Count(r.Hidden.NeverSent),
		Planned:     units.Count(r.Hidden.Planned),
		AtModelRate: r.Hidden.AtModelRate,
		Assumes:     r.Hidden.Assumes,
		Notes:       append(append([]string{}, r.Hidden.Notes...), r.Notes...),
	}
	if r.Hidden.RecordedP99Ns >= 0 {
		v.RecordedP99 = units.Duration(r.Hidden.RecordedP99Ns)
	}
	for _, p := range r.Params {
		v.Params = append(v.Params, fitmsg.Param{Name: p.Name, Value: r.ParamWords(p), How: p.How})
	}
	v.Verdict = r.Verdict()
	for _, x := range r.Residuals {
		v.Rows = append(v.Rows, fitmsg.Row{Dist: x.Dist, Metric: x.Metric, Name: RowWords(x), Measured: Number(x, x.Measured),
			Fitted: Number(x, x.Fitted), Diff: r.DiffWords(x), Headline: x.Headline})
	}
	for _, a := range r.Ambiguous {
		v.Ambiguous = append(v.Ambiguous, fitmsg.Free{Param: a.Param, Value: a.Words(), Range: a.RangeWords(), Why: a.Why})
	}
	for _, t := range r.Hidden.Tools {
		p99 := units.Duration(t.P99Ns)
		if t.Printed != "" {
			p99 = t.Printed
		}
		v.Tools = append(v.Tools, fitmsg.Tool{Name: t.Tool, P99: p99})
	}
	return v
}

// Words writes a fitted parameter's value for people: a duration in the
// page's units, with the query's exact value beside it when the units
// round it ("99.42 ms (exactly 99420310ns)"); the query and the JSON keep
// the exact value alone.
func (p Param) Words() string {
	shown, exact := inUnits(p.Name, p.Value)
	if exact {
		return shown
	}
	return shown + " (exactly " + p.Value + ")"
}

// ParamWords writes a fitted parameter for people as Words does, but one
// the file leaves free as what it is: not in the file, with the range that
// fits and the value the model runs at ("not in the file: [500 ms, 6.674
// s] fit as well; the model runs 5.01 s").
func (r *Result) ParamWords(p Param) string {
	if p.How != "free" {
		return p.Words()
	}
	for _, a := range r.Ambiguous {
		if a.Param == p.Name {
			return "not in the file: " + a.RangeWords() + " fit as well; the model runs " + p.Words()
		}
	}
	return "not in the file; the model runs " + p.Words()
}

// inUnits writes parameter name's value v in the page's units when it is a
// duration, and says whether that is v exactly (a rate, a connection count
// and a value that is no duration are v as given).
func inUnits(name, v string) (shown string, exact bool) {
	if name == "conns" {
		return v, true
	}
	if name == "rate" {
		if r, err := ParseRate(v); err == nil {
			return perSecond(r), perSecond(r) == units.Decimals(float64(r)/1000)+"/s" || r%1000 == 0
		}
		return v, true
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return v, true
	}
	shown = units.Duration(int64(d))
	back, err := time.ParseDuration(strings.ReplaceAll(shown, " ", ""))
	return shown, err == nil && back == d
}

// OpenP99After writes what follows the open loop's p99 in a headline, the
// report's and the page's alike: the condition it holds under (assumes:
// "if hey ran without -q, …"), and, where a rate the file leaves free
// (rateFree) spans it (ranged: "between X and Y"), the question that
// narrows it; where is where the reader gives the rate ("beside the button
// above "), how how ("rate=R after the file: ").
func OpenP99After(assumes string, rateFree, ranged bool, where, how string) string {
	s := ""
	if assumes != "" {
		s = ", " + assumes
	}
	if rateFree && ranged {
		s += "; give a rate " + where + "to narrow it (" + how + "the one your test was asked for, or the one an open loop should run at)"
	}
	return s
}

// RowWords names a residual's number for people, with the row a summed-up
// residual's worst is: "spectrum (worst of 11 rows): 98 %".
func RowWords(x Residual) string {
	if x.Row != "" {
		return Words(x.Metric) + ": " + x.Row
	}
	return Words(x.Metric)
}

// DiffWords writes a residual's difference, and says so when it is within
// the printout's rounding: "-50.00 %, within 1 ms rounding".
func (r *Result) DiffWords(x Residual) string {
	if x.Rounded && r.RoundingNs > 0 {
		return Percent(x.Diff) + ", within " + units.Duration(float64(r.RoundingNs)) + " rounding"
	}
	if x.Own && math.Abs(x.Diff) > Tolerance {
		return Percent(x.Diff) + ", below the stalls"
	}
	if x.Ranked {
		return Percent(x.Diff) + ", " + Percent(x.RankDiff) + " in the share above it"
	}
	if x.OverBody {
		return Percent(x.Diff) + ", " + Percent(x.BodyDiff) + " over the median"
	}
	return Percent(x.Diff)
}

// Verdict says in a sentence whether the model explains the file: the
// worst headline number beyond the printout's rounding, how many are
// within it, and a summed-up residual (the spectrum's rows, the intervals,
// the slow samples' times) the tolerance does not hold when it is off by
// more; or, for a file it does not explain, why.
func (r *Result) Verdict() string {
	if !r.Explained {
		return "Not explained within " + pct(Tolerance) + ": " + r.Why + "."
	}
	var b strings.Builder
	b.WriteString("The model explains the file within " + pct(Tolerance) + ": its worst printed number is " + Percent(r.Worst) + " off")
	rounded, own, ranked, body := 0, 0, 0, 0
	var loose *Residual
	for i := range r.Residuals {
		x := &r.Residuals[i]
		switch {
		case x.Own && !x.Rounded && math.Abs(x.Diff) > Tolerance:
			own++
		case x.Ranked && !x.Rounded:
			ranked++
		case x.OverBody && !x.Rounded:
			body++
		case x.Rounded:
			if x.Headline {
				rounded++
			}
		case !x.Headline && math.Abs(x.Diff) > Tolerance && (loose == nil || math.Abs(x.Diff) > math.Abs(loose.Diff)):
			loose = x
		}
	}
	if rounded > 0 && r.RoundingNs > 0 {
		fmt.Fprintf(&b, " beyond the printout's %s rounding (%d more within it, marked in the table)", units.Duration(float64(r.RoundingNs)), rounded)
	}
	b.WriteString(".")
	if own > 0 {
		fmt.Fprintf(&b, " %s below the stalls (the model puts %s under %d service times, where no stall reaches, and the file under that or a tenth of the stall) %s more than %s off: the client's own time per request or a spread in the server's service, which the file does not tell apart and the stall model does not claim (marked in the table).",
			map[bool]string{true: "One latency", false: fmt.Sprintf("%d latencies", own)}[own == 1], map[bool]string{true: "it", false: "them"}[own == 1], OwnServices, map[bool]string{true: "is", false: "are"}[own == 1], pct(Tolerance))
	}
	if ranked > 0 {
		fmt.Fprintf(&b, " %s on a stall's slope %s more than %s off in value but within %s in the share of samples above %s, which is what the stalls decide (a stall delays rate·(stall − t) samples by t or more; marked in the table).",
			map[bool]string{true: "One percentile", false: fmt.Sprintf("%d percentiles", ranked)}[ranked == 1], map[bool]string{true: "is", false: "are"}[ranked == 1], pct(Tolerance), pct(Tolerance), map[bool]string{true: "it", false: "them"}[ranked == 1])
	}
	if body > 0 {
		fmt.Fprintf(&b, " The mean is more than %s off, but not its excess over the median, which the stalls make: the rest is the body's shift, the client's own time per request summed over every request (marked in the table).", pct(Tolerance))
	}
	if loose != nil {
		what := "the spectrum's worst row"
		switch {
		case strings.HasPrefix(loose.Metric, "intervals"):
			what = "the intervals' worst number"
		case strings.HasPrefix(loose.Metric, "slow samples"):
			what = "the slow samples' worst time"
		}
		where := loose.Row
		if loose.Dist != "" {
			where += " of " + loose.Dist
		}
		held := "the file's count, mean, minimum, maximum and p50 to p99.99"
		if own > 0 {
			held = "the file's count, maximum and the latencies a stall reaches"
		}
		fmt.Fprintf(&b, " The %s holds %s; the rest is fitted, not held to it: %s, %s, is %s measured against %s fitted (%s).",
			pct(Tolerance), held, what, where, Number(*loose, loose.Measured), Number(*loose, loose.Fitted), Percent(loose.Diff))
	}
	return b.String()
}

func pct(f float64) string { return strconv.FormatFloat(f*100, 'g', -1, 64) + " %" }

// Words writes a free parameter's value for people, as Param.Words does.
func (a Free) Words() string { return Param{Name: a.Param, Value: a.Value}.Words() }

// RangeWords writes Range for people: its ends in the page's units, an
// open end in words ("[500 ms, no upper bound]", "up to 9,195/s").
func (a Free) RangeWords() string {
	if a.Param == "source" || a.Param == "assumed" || a.Lo == "" && a.Hi == "" {
		return a.Range()
	}
	end := func(v string) string {
		shown, _ := inUnits(a.Param, v) // a range's ends, to 4 digits
		if a.Param == "rate" {
			if r, err := ParseRate(v); err == nil {
				shown = perSecond(r)
			}
		}
		return shown
	}
	switch {
	case a.Lo == "":
		return "up to " + end(a.Hi)
	case a.Hi == "":
		return "[" + end(a.Lo) + ", no upper bound]"
	}
	return "[" + end(a.Lo) + ", " + end(a.Hi) + "]"
}

// Range is the range of a free parameter that fits as well: "[lo, hi]",
// or "any value".
func (a Free) Range() string {
	switch a.Param {
	case "source":
		return "others fit too"
	case "assumed":
		return "not in the file, and no other reading is fitted"
	}
	if a.Lo != "" || a.Hi != "" {
		return "[" + a.Lo + ", " + a.Hi + "]"
	}
	return "any value"
}

// Number writes a residual's value: a count as a count, the rest as
// durations.
func Number(x Residual, v float64) string {
	if x.Counts() {
		return units.Count(int64(math.Round(v)))
	}
	return units.Duration(v)
}

// Counts reports whether the residual's numbers are counts (the file's
// requests, those it never sent, an interval's count, how many slow
// samples), not latencies.
func (x Residual) Counts() bool {
	return x.Metric == "count" || x.Metric == "dropped" || strings.HasSuffix(x.Row, ", count") || strings.HasPrefix(x.Metric, "slow samples") && x.Row == "their number"
}

// Percent writes a relative difference: "+1.23 %".
func Percent(d float64) string { return fmt.Sprintf("%+.2f %%", d*100) }
