package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/app/units"
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

// locustStated reads what a locust summary states of its run. Its log
// lines, when kept with it (locust/main.py logs them to stderr): "Run time
// limit set to N seconds" and "All users spawned: {…} (U total users)".
// Its request table's Aggregated row: # reqs and req/s, total_rps = # reqs
// over the time from the start to the last request logged (stats.py
// 473–480), whence the run time when no log line states it, to the whole
// second (-t takes whole seconds, parse_timespan) when within 2 % of one.
// Its percentile table brackets the slow replies (those at half the Max
// column or more): a percentile p printed slow means at least n − int(n·p)
// of them (calculate_response_time_percentile, stats.py 161–179), one
// printed fast fewer than that.
func locustStated(data []byte, d *measure.Dist) (requests, duration int64, conns int, slowLo, slowHi int64, durationFrom string) {
	slowLo, slowHi = -1, -1
	var rps float64
	inPct := false
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if t == "Response time percentiles (approximated)" {
			inPct = true
		}
		f := strings.Fields(strings.ReplaceAll(t, "|", " "))
		switch {
		case strings.Contains(t, "Run time limit set to ") && strings.HasSuffix(t, " seconds"):
			g := strings.Fields(t[strings.Index(t, "Run time limit set to ")+len("Run time limit set to "):])
			if s, err := strconv.ParseInt(g[0], 10, 64); err == nil && s > 0 && s < 1e6 {
				duration = s * 1e9
			}
		case strings.Contains(t, "All users spawned:") && strings.HasSuffix(t, " total users)"):
			g := strings.Fields(t[strings.LastIndex(t, "(")+1:])
			if u, err := strconv.Atoi(g[0]); err == nil && u > 0 && u <= 1e5 {
				conns = u
			}
		case !inPct && len(f) >= 9 && f[0] == "Aggregated":
			n, err1 := strconv.ParseInt(f[1], 10, 64)
			r, err2 := strconv.ParseFloat(f[7], 64)
			if err1 == nil && err2 == nil && n > 0 && r > 0 {
				requests, rps = n, r
			}
		}
	}
	if duration == 0 && requests > 0 && rps > 0 {
		d := float64(requests) / rps
		if w := math.Round(d); w >= 1 && math.Abs(d-w) <= 0.02*d {
			d = w
		}
		if d < 1e6 {
			duration = int64(math.Round(d * 1e9))
			durationFrom = "# reqs over req/s (locust's rate is over the time to its last request), to the whole second (-t)"
		}
	}
	if n := d.Count; n > 0 && d.MaxNs > 0 {
		slowLo, slowHi = 1, n // the Max column's reply is one
		for _, pt := range d.Points {
			// p as Python holds PERCENTILES_TO_REPORT's literal (0.999):
			// the float nearest the printed percentage over 100.
			p, err := strconv.ParseFloat(strconv.FormatFloat(pt.Percentile/100, 'f', 6, 64), 64)
			if err != nil {
				continue
			}
			at := n - int64(float64(n)*p)
			if 2*pt.Ns >= d.MaxNs {
				slowLo = max(slowLo, at)
			} else {
				slowHi = min(slowHi, at-1)
			}
		}
		if slowHi < slowLo {
			slowLo, slowHi = -1, -1
		}
	}
	return requests, duration, conns, slowLo, slowHi, durationFrom
}

// locustRamp says, in words, when a locust run's log shows its users
// spawned over a time the model does not run: from the first "Ramping to U
// users at a rate of R per second" to the first "All users spawned"
// (locust spawns R users a second, runners.py's spawn loop), each stamped
// to the ms, a time of day (a later one that reads earlier is past
// midnight). The model starts every user at once. A spawn within 1 % of
// the run (a real run of -u 2 -r 2: 1 ms) is taken as at once; -u 4 -r 1
// took 3 s of a 6 s run. "" when the log lines are not there or the spawn
// fits.
func locustRamp(data []byte, duration int64) string {
	var from, to int64 = -1, -1
	var ramping string
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.Contains(t, "Ramping to ") && strings.Contains(t, " per second") && from < 0:
			from = locustStamp(t)
			ramping = t[strings.Index(t, "Ramping to "):]
		case strings.Contains(t, "All users spawned:") && from >= 0 && to < 0:
			to = locustStamp(t)
		}
	}
	if from < 0 || to < 0 || duration <= 0 {
		return ""
	}
	if to < from {
		to += 24 * 3600 * 1e9 // past midnight
	}
	if (to-from)*100 <= duration {
		return ""
	}
	return fmt.Sprintf("its log says %q and all its users were spawned %s later, of its %s: the model starts every user at once and cannot replay a run whose users were spawned over that time. Fit a run whose users all spawn at its start (-r at least -u), or whose spawning takes within 1 %% of its run time",
		ramping, units.Duration(float64(to-from)), units.Duration(float64(duration)))
}

// locustStamp is a log line's "[2006-01-02 15:04:05,000]" stamp in ns
// since the day's midnight, or -1.
func locustStamp(line string) int64 {
	i := strings.Index(line, "[")
	if i < 0 || len(line) < i+25 || line[i+24] != ']' {
		return -1
	}
	s := line[i+12 : i+24] // 15:04:05,000
	var h, m, sec, ms int64
	if _, err := fmt.Sscanf(s, "%2d:%2d:%2d,%3d", &h, &m, &sec, &ms); err != nil {
		return -1
	}
	return ((h*60+m)*60+sec)*1e9 + ms*1e6
}
