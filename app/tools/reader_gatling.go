package tools

import (
	"fmt"
	"math"
	"strings"

	"omission/app/measure"
)

// FormatGatling is Gatling's console summary: the "Global Information"
// block it prints after its reports.
const FormatGatling measure.Format = "gatling"

var gatlingReader = measure.Reader{
	Format: FormatGatling, Title: "Gatling console summary",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "---- Global Information"}},
	Read:  parseGatling,
}

// gatlingLine is one "> name … value" line of the summary: its name
// (without " (ms)"), and its Total, OK and KO cells ("-": none). It reads
// the summary of Gatling 3.13.5 and later ("> name | total | ok | ko")
// and the one before ("> name   total (OK=ok   KO=ko   )"). ok is false for
// a line that is neither.
func gatlingLine(t string) (name string, cells [3]string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(t), "> ")
	if !found {
		return "", cells, false
	}
	if parts := strings.Split(rest, " | "); len(parts) == 4 {
		for i := range cells {
			cells[i] = strings.TrimSpace(parts[i+1])
		}
		name = strings.TrimSpace(parts[0])
	} else {
		head, tail, found := strings.Cut(rest, "(OK=")
		if !found {
			return "", cells, false
		}
		okCell, koCell, found := strings.Cut(tail, "KO=")
		if !found {
			return "", cells, false
		}
		f := strings.Fields(head)
		if len(f) < 2 {
			return "", cells, false
		}
		cells = [3]string{f[len(f)-1], strings.TrimSpace(okCell), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(koCell), ")"))}
		name = strings.Join(f[:len(f)-1], " ")
	}
	return strings.TrimSuffix(name, " (ms)"), cells, true
}

// gatlingValue reads a cell: "1,234", "166.667"; has is false for "-".
func gatlingValue(c string) (v float64, has bool, err error) {
	if c == "-" {
		return 0, false, nil
	}
	d, err := measure.ParseDecimal(strings.ReplaceAll(c, ",", ""))
	if err != nil {
		return 0, false, err
	}
	return d.Float(), true, nil
}

// gatlingPercentileName reads "response time 95th percentile" (or
// "99.9th") as 95.
func gatlingPercentileName(name string) (float64, bool) {
	r, ok := strings.CutPrefix(name, "response time ")
	if !ok {
		return 0, false
	}
	r, ok = strings.CutSuffix(r, " percentile")
	if !ok || len(r) < 3 {
		return 0, false
	}
	d, err := measure.ParseDecimal(r[:len(r)-2])
	if err != nil {
		return 0, false
	}
	return d.Float(), true
}

// gatlingSummary is what the block states, of its Total column: the
// request count, the KOs, the extremes, mean and percentiles (ms), and
// the throughput.
type gatlingSummary struct {
	count, ko           int64
	min, max, mean, rps float64
	has                 map[string]bool
	points              []measure.Point
}

// readGatling reads the last "Global Information" block of ls.
func readGatling(name string, ls []measure.Line) (*gatlingSummary, error) {
	start := lastPrefixed(ls, "---- Global Information")
	if start < 0 {
		return nil, &measure.ParseError{Name: name, Format: FormatGatling, Line: len(ls), Msg: "expected Gatling's \"---- Global Information\" block, found none"}
	}
	s := &gatlingSummary{has: map[string]bool{}}
	for _, l := range ls[start+1:] {
		t := strings.TrimSpace(l.Text)
		if strings.HasPrefix(t, "---- ") || strings.HasPrefix(t, "====") {
			break
		}
		n, cells, ok := gatlingLine(t)
		if !ok {
			continue
		}
		v, has, err := gatlingValue(cells[0])
		if err != nil {
			return nil, &measure.ParseError{Name: name, Format: FormatGatling, Line: l.N, Col: strings.Index(l.Text, cells[0]) + 1, Msg: fmt.Sprintf("%s's Total: %v", n, err)}
		}
		ko, hasKO, err := gatlingValue(cells[2])
		if err != nil {
			return nil, &measure.ParseError{Name: name, Format: FormatGatling, Line: l.N, Col: strings.LastIndex(l.Text, cells[2]) + 1, Msg: fmt.Sprintf("%s's KO: %v", n, err)}
		}
		if !has {
			continue
		}
		key := n
		switch n {
		case "request count":
			s.count = int64(v)
			if hasKO {
				s.ko = int64(ko)
			}
		case "min response time":
			s.min = v
		case "max response time":
			s.max = v
		case "mean response time":
			s.mean = v
		case "mean throughput (rps)", "mean requests/sec":
			key, s.rps = "rate", v
		default:
			p, ok := gatlingPercentileName(n)
			if !ok {
				continue
			}
			if v < 0 || v > math.MaxInt64/1e6 {
				return nil, &measure.ParseError{Name: name, Format: FormatGatling, Line: l.N, Msg: fmt.Sprintf("%s: %v ms is out of range", n, v)}
			}
			s.points = append(s.points, measure.Point{Percentile: p, Ns: int64(v) * 1e6, Count: -1})
		}
		s.has[key] = true
	}
	if !s.has["request count"] {
		return nil, &measure.ParseError{Name: name, Format: FormatGatling, Line: ls[start].N, Msg: "expected a \"> request count\" line with a Total in the Global Information block, found none"}
	}
	return s, nil
}

// parseGatling reads the summary's Total column: what Gatling headlines,
// its OK and KO requests together.
func parseGatling(name string, ls []measure.Line) (*measure.File, error) {
	s, err := readGatling(name, ls)
	if err != nil {
		return nil, err
	}
	d := measure.Dist{Label: "response time", Count: s.count, MinNs: -1, MaxNs: -1, UnitNs: 1}
	if s.has["min response time"] {
		d.MinNs = int64(s.min) * 1e6
	}
	if s.has["max response time"] {
		d.MaxNs = int64(s.max) * 1e6
	}
	if s.has["mean response time"] {
		d.HasMean, d.MeanNs = true, s.mean*1e6
	}
	d.Points = s.points
	statedFromPoints(&d, d.Points)
	d.Precision = "whole ms (its mean rounded to a ms, its percentiles a t-digest's, rounded)"
	d.Notes = append(d.Notes, "Gatling's percentiles are of a t-digest (AVLTreeDigest, compression 100): each lies near, not exactly at, the time of its rank.")
	if s.ko > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%d of its %d requests failed (KO): Gatling's Total column, read here, holds their times too (a timed-out request's is its timeout).", s.ko, s.count))
	}
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatGatling, Dists: []measure.Dist{d}}, nil
}

// gatlingStated is what the summary states of its run: its requests, and
// its whole seconds from the first stamp to the last as the request count
// over the mean throughput (ResultsHolder.scala 30).
func gatlingStated(data []byte, d *measure.Dist) (requests, duration int64, from string) {
	ls := measure.SplitLines(data)
	s, err := readGatling("", ls)
	if err != nil {
		return 0, 0, ""
	}
	requests = s.count - s.ko
	if s.rps > 0 {
		if secs := math.Round(float64(s.count) / s.rps); secs >= 1 && secs < 1e6 {
			duration = int64(secs) * 1e9
			from = "the request count over the mean throughput: the whole seconds from its first request to its last reply"
		}
	}
	return requests, duration, from
}
