package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatHey is hey's text output.
const FormatHey measure.Format = "hey"

var heyReader = measure.Reader{
	Format: FormatHey, Title: "hey output",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "Latency distribution:", Exact: true}, {Prefix: "Response time histogram:", Exact: true}},
	Read:  parseHey,
}

func parseHey(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatHey, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	inDist, sawSummary := false, false
	var count int64
	sawCodes := false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "Summary:":
			sawSummary = true
		case t == "Latency distribution:":
			inDist = true
			continue
		case heySecsLine(t) != nil:
			m := heySecsLine(t)
			ns, err := secondsNs(m[1])
			if err != nil {
				return nil, perr(l, "%s: %v", m[0], err)
			}
			switch m[0] {
			case "Slowest":
				d.MaxNs = ns
			case "Fastest":
				d.MinNs = ns
			case "Average":
				d.HasMean, d.MeanNs = true, float64(ns)
			}
		case heyCodesLine(t) != nil:
			n, err := measure.ParseInt(heyCodesLine(t)[0])
			if err != nil {
				return nil, perr(l, "responses: %v", err)
			}
			count += n
			sawCodes = true
		}
		if inDist {
			m := heyPctLine(t)
			if m == nil {
				inDist = false
				continue
			}
			p, _ := measure.ParseInt(m[0])
			ns, err := secondsNs(m[1])
			if err != nil {
				return nil, perr(l, "%v", err)
			}
			if p == 0 {
				continue // hey prints "0% in 0.0000 secs" for a percentile it has no sample for
			}
			d.Points = append(d.Points, measure.Point{Percentile: float64(p), Ns: ns, Count: -1})
		}
	}
	if !sawSummary {
		return nil, &measure.ParseError{Name: name, Format: FormatHey, Line: len(ls), Msg: "expected a \"Summary:\" block, found none"}
	}
	if sawCodes {
		d.Count = count
	}
	statedFromPoints(&d, d.Points)
	d.Precision = "0.1 ms (hey prints seconds with 4 decimals)"
	d.Notes = append(d.Notes, "hey's p% is the first sorted latency i with ⌊100·i/n⌋ ≥ p; it prints up to 99 %.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatHey, Dists: []measure.Dist{d}}, nil
}

// heySecsLine: "Slowest: X secs" (Fastest, Average) → name, X.
func heySecsLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 3 && f[2] == "secs" && (f[0] == "Slowest:" || f[0] == "Fastest:" || f[0] == "Average:") {
		return []string{strings.TrimSuffix(f[0], ":"), f[1]}
	}
	return nil
}

// heyPctLine: "p% in X secs" → p, X.
func heyPctLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 4 && f[1] == "in" && f[3] == "secs" && strings.HasSuffix(f[0], "%") && isDigits(strings.TrimSuffix(f[0], "%")) {
		return []string{strings.TrimSuffix(f[0], "%"), f[2]}
	}
	return nil
}

// heyCodesLine: "[200] N responses" → N.
func heyCodesLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 3 && f[2] == "responses" && strings.HasPrefix(f[0], "[") && strings.HasSuffix(f[0], "]") && isDigits(f[0][1:len(f[0])-1]) && isDigits(f[1]) {
		return f[1:2]
	}
	return nil
}

// heyStated reads what a hey printout states of its run: "Total: D secs"
// and the responses of its status code distribution ("[200] N
// responses"); hey prints neither -c nor -q.
func heyStated(data []byte) (requests, duration int64) {
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "Total:" && f[2] == "secs":
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				duration = int64(math.Round(v * 1e9))
			}
		case len(f) == 3 && strings.HasPrefix(f[0], "[") && f[2] == "responses":
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				requests += n
			}
		}
	}
	return requests, duration
}
