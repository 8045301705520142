package fit

import (
	"fmt"
	"math"
	"strings"

	"omission/app/fitmsg"
	"omission/app/units"
)

// View writes the fit for people, as report -fit prints it: the page's fit
// panel shows it as it comes (fit.wasm sends it; app/fitmsg).
func (r *Result) View() fitmsg.View {
	v := fitmsg.View{
		File: r.File, Format: r.Format, Source: r.Source, Query: r.Query,
		Explained: r.Explained, Worst: Percent(r.Worst), Why: r.Why,
		FittedP99: units.Duration(r.Hidden.FittedP99Ns),
		OpenP99:   units.Duration(r.Hidden.OpenP99Ns),
		NeverSent: units.Count(r.Hidden.NeverSent),
		Planned:   units.Count(r.Hidden.Planned),
		Notes:     append(append([]string{}, r.Hidden.Notes...), r.Notes...),
	}
	if r.Hidden.RecordedP99Ns >= 0 {
		v.RecordedP99 = units.Duration(r.Hidden.RecordedP99Ns)
	}
	for _, p := range r.Params {
		v.Params = append(v.Params, fitmsg.Param{Name: p.Name, Value: p.Value, How: p.How})
	}
	for _, x := range r.Residuals {
		v.Rows = append(v.Rows, fitmsg.Row{Dist: x.Dist, Metric: x.Metric, Measured: Number(x.Metric, x.Measured),
			Fitted: Number(x.Metric, x.Fitted), Diff: Percent(x.Diff), Headline: x.Headline})
	}
	for _, a := range r.Ambiguous {
		v.Ambiguous = append(v.Ambiguous, fitmsg.Free{Param: a.Param, Value: a.Value, Range: a.Range(), Why: a.Why})
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

// Range is the range of a free parameter that fits as well: "[lo, hi]",
// or "any value".
func (a Free) Range() string {
	if a.Param == "source" {
		return "others fit too"
	}
	if a.Lo != "" || a.Hi != "" {
		return "[" + a.Lo + ", " + a.Hi + "]"
	}
	return "any value"
}

// Number writes a residual's value: a count as a count, the rest as
// durations.
func Number(metric string, v float64) string {
	if metric == "count" || strings.HasPrefix(metric, "intervals") && v == math.Trunc(v) && v < 1e6 {
		return units.Count(int64(v))
	}
	return units.Duration(v)
}

// Percent writes a relative difference: "+1.23 %".
func Percent(d float64) string { return fmt.Sprintf("%+.2f %%", d*100) }
