package measure

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/sim"
)

// The text printouts of ab, hey, fortio and locust (issue 27), read from
// their real output as captured in testdata/real (README.md there says the
// command, machine and date of each).
//
//   - ab (ApacheBench 2.3, httpd 2.4.62 support/ab.c 996-1033 and
//     1185-1202): "Complete requests: N", the "Connection Times (ms)" table
//     (whole ms: ap_round_ms, (µs + 500)/1000, line 298) and "Percentage of
//     the requests served within a certain time (ms)": p% is the sample at
//     0-based index ⌊done·p/100⌋ of the sorted total times, in whole ms;
//     100% is the longest.
//   - hey (0.1.4, requester/print.go): "Slowest/Fastest/Average" in seconds
//     with 4 decimals, "Latency distribution:" with "p% in X secs" for 10,
//     25, 50, 75, 90, 95, 99, and "[200]\tN responses".
//   - fortio (1.66.0): "Aggregated Function Time : count N avg A +/- S min M
//     max X sum T" and the "# target p% V" lines under it (seconds;
//     interpolated within its histogram's buckets).
//   - locust (2.12.1): the "Aggregated" row of the request table (# reqs,
//     Avg, Min, Max, Med in whole ms) and of "Response time percentiles
//     (approximated)" (50% … 100%, whole ms of its rounded dict).

// secondsNs reads a decimal number of seconds ("0.000558762", "1e-05") as ns.
func secondsNs(s string) (int64, error) {
	if d, err := parseDecimal(s); err == nil {
		return d.ns(1e9)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f > 1e9 {
		return 0, fmt.Errorf("expected a number of seconds, found %q", s)
	}
	return int64(math.Round(f * 1e9)), nil
}

// statedFromPoints copies each printed point that is a headline percentile into
// d.P as stated.
func statedFromPoints(d *Dist, how How) {
	for _, pt := range d.Points {
		for i, pn := range sim.Percentiles() {
			if float64(pn.PPM)/1e4 == pt.Percentile {
				d.P[i] = Percentile{Ns: pt.Ns, How: how}
			}
		}
	}
}

func parseAb(name string, ls []line) (*File, error) {
	d := Dist{Label: "total time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l line, msg string, a ...any) error {
		return &ParseError{Name: name, Format: FormatAb, Line: l.n, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	inPct := false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		switch {
		case strings.HasPrefix(t, "Percentage of the requests served within a certain time"):
			inPct = true
			continue
		case abCompleteLine(t) != nil:
			n, err := parseInt(abCompleteLine(t)[0])
			if err != nil {
				return nil, perr(l, "Complete requests: %v", err)
			}
			d.Count = n
		case abTotalLine(t) != nil:
			m := abTotalLine(t)
			mn, _ := parseInt(m[0])
			mean, _ := parseInt(m[1])
			d.MinNs, d.HasMean, d.MeanNs = mn*1e6, true, float64(mean)*1e6
		}
		if inPct {
			m := abPctLine(t)
			if m == nil {
				inPct = false
				continue
			}
			p, _ := parseInt(m[0])
			ms, err := parseInt(m[1])
			if err != nil || p > 100 {
				return nil, perr(l, "expected \"p%%  <ms>\" with p up to 100, found %q", trimTo(t, 60))
			}
			if p == 100 {
				d.MaxNs = ms * 1e6
			}
			d.Points = append(d.Points, Point{Percentile: float64(p), Ns: ms * 1e6, Count: -1})
		}
	}
	if d.Count < 0 {
		return nil, &ParseError{Name: name, Format: FormatAb, Line: len(ls), Msg: "expected a \"Complete requests: N\" line, found none"}
	}
	statedFromPoints(&d, Stated)
	d.Precision = "whole ms (ab rounds its µs times to the nearest ms)"
	d.Notes = append(d.Notes, "ab's p% is the sample at index ⌊n·p/100⌋ of its sorted total times (support/ab.c); it prints 50, 66, 75, 80, 90, 95, 98, 99 and 100 %.",
		"Replies still out when -t's time is up are not counted.")
	if len(d.Points) == 0 {
		d.Notes = append(d.Notes, "No percentile table (ab prints it for more than one request, without -d).")
	}
	d.finish(false)
	return &File{Name: name, Format: FormatAb, Dists: []Dist{d}}, nil
}

func parseHey(name string, ls []line) (*File, error) {
	d := Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l line, msg string, a ...any) error {
		return &ParseError{Name: name, Format: FormatHey, Line: l.n, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	inDist, sawSummary := false, false
	var count int64
	sawCodes := false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
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
			n, err := parseInt(heyCodesLine(t)[0])
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
			p, _ := parseInt(m[0])
			ns, err := secondsNs(m[1])
			if err != nil {
				return nil, perr(l, "%v", err)
			}
			if p == 0 {
				continue // hey prints "0% in 0.0000 secs" for a percentile it has no sample for
			}
			d.Points = append(d.Points, Point{Percentile: float64(p), Ns: ns, Count: -1})
		}
	}
	if !sawSummary {
		return nil, &ParseError{Name: name, Format: FormatHey, Line: len(ls), Msg: "expected a \"Summary:\" block, found none"}
	}
	if sawCodes {
		d.Count = count
	}
	statedFromPoints(&d, Stated)
	d.Precision = "0.1 ms (hey prints seconds with 4 decimals)"
	d.Notes = append(d.Notes, "hey's p% is the first sorted latency i with ⌊100·i/n⌋ ≥ p; it prints up to 99 %.")
	d.finish(false)
	return &File{Name: name, Format: FormatHey, Dists: []Dist{d}}, nil
}

func parseFortio(name string, ls []line) (*File, error) {
	d := Dist{Label: "function time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l line, msg string, a ...any) error {
		return &ParseError{Name: name, Format: FormatFortio, Line: l.n, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	in, saw := false, false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		if m := fortioAggLine(t); m != nil {
			n, err := parseInt(m[0])
			if err != nil {
				return nil, perr(l, "count: %v", err)
			}
			vals := make([]int64, 3)
			for i, s := range m[1:4] {
				if vals[i], err = secondsNs(s); err != nil {
					return nil, perr(l, "%v", err)
				}
			}
			d.Count, d.HasMean, d.MeanNs, d.MinNs, d.MaxNs = n, true, float64(vals[0]), vals[1], vals[2]
			in, saw = true, true
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(t, "# range") || strings.HasPrefix(t, ">") {
			continue
		}
		m := fortioTargetLine(t)
		if m == nil {
			in = false
			continue
		}
		p, err := strconv.ParseFloat(m[0], 64)
		if err != nil || p > 100 {
			return nil, perr(l, "expected a percentage up to 100, found %q", m[0])
		}
		ns, err := secondsNs(m[1])
		if err != nil {
			return nil, perr(l, "%v", err)
		}
		d.Points = append(d.Points, Point{Percentile: p, Ns: ns, Count: -1})
	}
	if !saw {
		return nil, &ParseError{Name: name, Format: FormatFortio, Line: len(ls), Msg: "expected an \"Aggregated Function Time : count …\" line, found none"}
	}
	statedFromPoints(&d, Stated)
	d.Precision = "seconds to the ns; each percentile interpolated within its histogram bucket"
	d.Notes = append(d.Notes, "fortio interpolates each percentile linearly within the bucket of its histogram that holds the rank.")
	d.finish(false)
	return &File{Name: name, Format: FormatFortio, Dists: []Dist{d}}, nil
}

func parseLocust(name string, ls []line) (*File, error) {
	d := Dist{Label: "Aggregated", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l line, msg string, a ...any) error {
		return &ParseError{Name: name, Format: FormatLocust, Line: l.n, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	var header []string
	inPct := false
	sawPct := false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
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
				return nil, perr(l, "expected the request table's Aggregated row, found %q", trimTo(t, 60))
			}
			n, err := parseInt(f[1])
			if err != nil {
				return nil, perr(l, "# reqs: %v", err)
			}
			ms := make([]int64, 4)
			for i := range ms {
				if ms[i], err = parseInt(f[3+i]); err != nil {
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
			return nil, perr(l, "expected the percentile table's Aggregated row under its header, found %q", trimTo(t, 60))
		}
		for i, ps := range pcts {
			p, err := strconv.ParseFloat(ps, 64)
			if err != nil || p > 100 {
				return nil, perr(l, "header percentage %q", ps)
			}
			if f[1+i] == "N/A" {
				continue
			}
			ms, err := parseInt(f[1+i])
			if err != nil {
				return nil, perr(l, "%s%%: %v", ps, err)
			}
			d.Points = append(d.Points, Point{Percentile: p, Ns: ms * 1e6, Count: -1})
		}
		sawPct = true
		inPct = false
	}
	if d.Count < 0 && !sawPct {
		return nil, &ParseError{Name: name, Format: FormatLocust, Line: len(ls), Msg: "expected locust's Aggregated rows, found none"}
	}
	statedFromPoints(&d, Stated)
	d.Precision = "whole ms; locust keeps response times rounded to 2 significant digits (to the ms below 100 ms)"
	d.Notes = append(d.Notes, "locust's percentiles are taken from its rounded response-time dict (\"approximated\").")
	d.finish(false)
	return &File{Name: name, Format: FormatLocust, Dists: []Dist{d}}, nil
}

// detectTool recognises ab, hey, fortio and locust printouts (nil when the
// text is none of them).
func detectTool(name string, ls []line) (*File, bool, error) {
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		switch {
		case strings.HasPrefix(t, "This is ApacheBench") || strings.HasPrefix(t, "Percentage of the requests served within a certain time"):
			f, err := parseAb(name, ls)
			return f, true, err
		case strings.HasPrefix(t, "Aggregated Function Time : count "):
			f, err := parseFortio(name, ls)
			return f, true, err
		case t == "Response time percentiles (approximated)":
			f, err := parseLocust(name, ls)
			return f, true, err
		case t == "Latency distribution:" || t == "Response time histogram:":
			f, err := parseHey(name, ls)
			return f, true, err
		}
	}
	return nil, false, nil
}

// The line matchers below work on whitespace-separated fields (no regexp:
// package regexp would add to app.wasm what hdrhistogram-go's was removed
// for). Each returns nil when the line is not of its form.

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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

// fortioAggLine: "Aggregated Function Time : count N avg A +/- S min M max
// X sum T" → N, A, M, X.
func fortioAggLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 16 && strings.Join(f[:5], " ") == "Aggregated Function Time : count" && isDigits(f[5]) &&
		f[6] == "avg" && f[8] == "+/-" && f[10] == "min" && f[12] == "max" && f[14] == "sum" {
		return []string{f[5], f[7], f[11], f[13]}
	}
	return nil
}

// fortioTargetLine: "# target p% V" → p, V.
func fortioTargetLine(t string) []string {
	f := strings.Fields(t)
	if len(f) == 4 && f[0] == "#" && f[1] == "target" && strings.HasSuffix(f[2], "%") {
		return []string{strings.TrimSuffix(f[2], "%"), f[3]}
	}
	return nil
}
