package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatAb is ApacheBench's text output.
const FormatAb measure.Format = "ab"

var abReader = measure.Reader{
	Format: FormatAb, Title: "ApacheBench (ab) output",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "This is ApacheBench"}, {Prefix: "Percentage of the requests served within a certain time"}},
	Read:  parseAb,
}

func parseAb(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "total time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatAb, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	inPct := false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(t, "Percentage of the requests served within a certain time"):
			inPct = true
			continue
		case abCompleteLine(t) != nil:
			n, err := measure.ParseInt(abCompleteLine(t)[0])
			if err != nil {
				return nil, perr(l, "Complete requests: %v", err)
			}
			d.Count = n
		case abTotalLine(t) != nil:
			m := abTotalLine(t)
			mn, _ := measure.ParseInt(m[0])
			mean, _ := measure.ParseInt(m[1])
			d.MinNs, d.HasMean, d.MeanNs = mn*1e6, true, float64(mean)*1e6
		}
		if inPct {
			m := abPctLine(t)
			if m == nil {
				inPct = false
				continue
			}
			p, _ := measure.ParseInt(m[0])
			ms, err := measure.ParseInt(m[1])
			if err != nil || p > 100 {
				return nil, perr(l, "expected \"p%%  <ms>\" with p up to 100, found %q", measure.TrimTo(t, 60))
			}
			if p == 100 {
				d.MaxNs = ms * 1e6
			}
			d.Points = append(d.Points, measure.Point{Percentile: float64(p), Ns: ms * 1e6, Count: -1})
		}
	}
	if d.Count < 0 {
		return nil, &measure.ParseError{Name: name, Format: FormatAb, Line: len(ls), Msg: "expected a \"Complete requests: N\" line, found none"}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = "whole ms (ab rounds its µs times to the nearest ms)"
	d.Notes = append(d.Notes, "ab's p% is the sample at index ⌊n·p/100⌋ of its sorted total times (support/ab.c); it prints 50, 66, 75, 80, 90, 95, 98, 99 and 100 %.",
		"Replies still out when -t's time is up are not counted.")
	if len(d.Points) == 0 {
		d.Notes = append(d.Notes, "No percentile table (ab prints it for more than one request, without -d).")
	}
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatAb, Dists: []measure.Dist{d}}, nil
}

// abCompleteLine: "Complete requests: N" → N.
func abCompleteLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 3 && f[0] == "Complete" && f[1] == "requests:" && isDigits(f[2]) {
		return f[2:]
	}
	return nil
}

// abTotalLine: "Total: min mean sd median max" → the five.
func abTotalLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 6 && f[0] == "Total:" && isDigits(f[1]) && isDigits(f[2]) && isDigits(f[4]) && isDigits(f[5]) {
		return f[1:]
	}
	return nil
}

// abPctLine: "p%  ms" or "100%  ms (longest request)" → p, ms.
func abPctLine(t string) []string {
	f := strings.Fields(t)
	if (len(f) == 2 || len(f) == 4 && f[2] == "(longest" && f[3] == "request)") && strings.HasSuffix(f[0], "%") && isDigits(strings.TrimSuffix(f[0], "%")) && isDigits(f[1]) {
		return []string{strings.TrimSuffix(f[0], "%"), f[1]}
	}
	return nil
}

// abStated reads what ApacheBench states of its run: "Concurrency Level:
// C", "Time taken for tests: D seconds" and "Complete requests: N".
func abStated(data []byte) (requests, duration int64, conns int) {
	for _, l := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Concurrency Level":
			if c, err := strconv.Atoi(f[0]); err == nil {
				conns = c
			}
		case "Time taken for tests":
			if d, err := strconv.ParseFloat(f[0], 64); err == nil {
				duration = int64(math.Round(d * 1e9))
			}
		case "Complete requests":
			if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				requests = n
			}
		}
	}
	return requests, duration, conns
}
