package tools

import (
	"fmt"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatLocust is locust --headless --only-summary's tables.
const FormatLocust measure.Format = "locust"

var locustReader = measure.Reader{
	Format: FormatLocust, Title: "locust summary",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "Response time percentiles (approximated)", Exact: true}},
	Read:  parseLocust,
}

func parseLocust(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "Aggregated", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatLocust, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	var header []string
	inPct := false
	sawPct := false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		if t == "Response time percentiles (approximated)" {
			inPct = true
			continue
		}
		if !strings.HasPrefix(t, "Aggregated") {
			if inPct && strings.HasPrefix(t, "Type") {
				header = strings.Fields(t)
			}
			continue
		}
		f := strings.Fields(strings.ReplaceAll(t, "|", " "))
		if !inPct {
			// Aggregated  # reqs  # fails(%)  Avg Min Max Med  req/s failures/s
			if len(f) < 7 {
				return nil, perr(l, "expected the request table's Aggregated row, found %q", measure.TrimTo(t, 60))
			}
			n, err := measure.ParseInt(f[1])
			if err != nil {
				return nil, perr(l, "# reqs: %v", err)
			}
			ms := make([]int64, 4)
			for i := range ms {
				if ms[i], err = measure.ParseInt(f[3+i]); err != nil {
					return nil, perr(l, "Avg/Min/Max/Med: %v", err)
				}
			}
			d.Count, d.HasMean, d.MeanNs, d.MinNs, d.MaxNs = n, true, float64(ms[0])*1e6, ms[1]*1e6, ms[2]*1e6
			continue
		}
		// The percentile table's Aggregated row: one column per header
		// percentage, then # reqs.
		var pcts []string
		for _, h := range header {
			if strings.HasSuffix(h, "%") {
				pcts = append(pcts, strings.TrimSuffix(h, "%"))
			}
		}
		if len(pcts) == 0 || len(f) < 1+len(pcts) {
			return nil, perr(l, "expected the percentile table's Aggregated row under its header, found %q", measure.TrimTo(t, 60))
		}
		for i, ps := range pcts {
			p, err := strconv.ParseFloat(ps, 64)
			if err != nil || p > 100 {
				return nil, perr(l, "header percentage %q", ps)
			}
			if f[1+i] == "N/A" {
				continue
			}
			ms, err := measure.ParseInt(f[1+i])
			if err != nil {
				return nil, perr(l, "%s%%: %v", ps, err)
			}
			d.Points = append(d.Points, measure.Point{Percentile: p, Ns: ms * 1e6, Count: -1})
		}
		sawPct = true
		inPct = false
	}
	if d.Count < 0 && !sawPct {
		return nil, &measure.ParseError{Name: name, Format: FormatLocust, Line: len(ls), Msg: "expected locust's Aggregated rows, found none"}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = "whole ms; locust keeps response times rounded to 2 significant digits (to the ms below 100 ms)"
	d.Notes = append(d.Notes, "locust's percentiles are taken from its rounded response-time dict (\"approximated\").")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatLocust, Dists: []measure.Dist{d}}, nil
}
