package tools

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"omission/app/measure"
	"omission/sim"
)

// FormatFortio is fortio load's text output.
const FormatFortio measure.Format = "fortio"

// fortioReader reads fortio load's printout, also after the JSON log
// lines fortio writes before it.
var fortioReader = measure.Reader{
	Format: FormatFortio, Title: "fortio load output",
	When:      measure.Anywhere,
	Marks:     []measure.Mark{{Prefix: "Aggregated Function Time : count "}},
	AfterJSON: "\nAggregated Function Time : count ",
	Read:      parseFortio,
}

func parseFortio(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "function time", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatFortio, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	in, saw := false, false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		if m := fortioAggLine(t); m != nil {
			n, err := measure.ParseInt(m[0])
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
		d.Points = append(d.Points, measure.Point{Percentile: p, Ns: ns, Count: -1})
	}
	if !saw {
		return nil, &measure.ParseError{Name: name, Format: FormatFortio, Line: len(ls), Msg: "expected an \"Aggregated Function Time : count …\" line, found none"}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = "seconds to the ns; each percentile interpolated within its histogram bucket"
	d.Notes = append(d.Notes, "fortio interpolates each percentile linearly within the bucket of its histogram that holds the rank.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatFortio, Dists: []measure.Dist{d}}, nil
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

// fortioStated reads what a fortio load printout states of its run
// (the lines fortio's periodic/periodic.go and fhttp/httprunner.go print):
// "Starting at Q qps with C thread(s) [gomax G] for D : …", "Ended after
// E : N calls. qps=…", "Uniform: …, Catchup allowed: B", and the rows of
// the Function Time histogram ("> a <= b , mid , percent, count"), whose
// counts from the first bucket starting at or above half the largest
// reply on are the slow replies (-1: no such rows).
func fortioStated(data []byte) (requests, duration int64, conns int, rate sim.Rate, noCatchUp bool, slow int64) {
	slow = -1
	inFunc := false
	type row struct {
		from  float64
		count int64
	}
	var rows []row
	maxS := 0.0
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 10 && f[0] == "Starting" && f[1] == "at" && f[3] == "qps" && f[4] == "with" && f[6] == "thread(s)":
			if q, err := strconv.ParseFloat(f[2], 64); err == nil && q > 0 && q < 1e9 {
				rate = sim.Rate(math.Round(q * 1000))
			}
			if c, err := strconv.Atoi(f[5]); err == nil {
				conns = c
			}
			if i := slices.Index(f, "for"); i > 0 && i+1 < len(f) {
				if d, err := time.ParseDuration(f[i+1]); err == nil {
					duration = int64(d)
				}
			}
		case len(f) >= 5 && f[0] == "Ended" && f[1] == "after" && f[3] == ":" && f[5] == "calls.":
			if n, err := strconv.ParseInt(f[4], 10, 64); err == nil {
				requests = n
			}
		case strings.HasPrefix(l, "Uniform:") && strings.Contains(l, "Catchup allowed: false"):
			noCatchUp = true
		case strings.HasPrefix(l, "Aggregated Function Time :"):
			inFunc = true
			if i := slices.Index(f, "max"); i > 0 && i+1 < len(f) {
				maxS, _ = strconv.ParseFloat(f[i+1], 64)
			}
		case inFunc && len(f) == 9 && (f[0] == ">" || f[0] == ">=") && f[2] == "<=" && f[4] == "," && f[6] == ",":
			a, err1 := strconv.ParseFloat(f[1], 64)
			n, err2 := strconv.ParseInt(f[8], 10, 64)
			if err1 == nil && err2 == nil {
				rows = append(rows, row{a, n})
			}
		case inFunc && strings.HasPrefix(l, "# target"):
			inFunc = false
		}
	}
	if len(rows) > 0 && maxS > 0 {
		slow = 0
		for _, r := range rows {
			if 2*r.from >= maxS {
				slow += r.count
			}
		}
	}
	return requests, duration, conns, rate, noCatchUp, slow
}
