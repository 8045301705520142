package tools

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"omission/app/measure"
)

// wrk 4.x prints (wg/wrk 4.1.0, identical at a211dd5: src/wrk.c 173-191 and
// 546-586, src/units.c format_time_us): "Thread Stats" with the latency's
// mean, stdev and max, then with --latency "Latency Distribution" and the
// 50/75/90/99 % values ("%7.0Lf%%" and a value with two decimals in us, ms,
// s, m or h), then "N requests in …". The latency statistics are printed
// after stats_correct (src/wrk.c 168-171, src/stats.c stats_correct): each
// value of at least 2I, I = runtime / (requests / connections), adds its
// count at n-I, n-2I, … while above I. Percentiles are
// stats_percentile's: rank round(p/100·n + 0.5) over exact 1 µs counts.
//
// wrk2 (giltene/wrk2 44a94c1, src/wrk.c 207-239 and 820-832) prints, per
// histogram, "Latency Distribution (HdrHistogram - Recorded Latency)" (and
// with -U "… - Uncorrected Latency (…)"): the 50 … 100 % values
// (hdr_value_at_percentile: 1 µs-resolution HdrHistogram, 3 significant
// digits, rank (int)(p/100·n + 0.5)) and the "Detailed Percentile
// spectrum" in the C .hgrm layout with values in ms.

// FormatWrk is wrk 4.x's text output (--latency).
const FormatWrk measure.Format = "wrk"

// wrkReader reads wrk 4.x's printout, line by line after the .hlog and
// .hgrm markers.
var wrkReader = measure.Reader{
	Format: FormatWrk, Title: "wrk 4.x output",
	When:  measure.InTurn,
	Marks: []measure.Mark{{Prefix: "Running ", Contains: " test @ "}, {Prefix: "Thread Stats"}},
	Read:  parseWrk,
}

// unitNs of wrk's format_time_us units.
var wrkUnits = map[string]uint64{"us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// wrkValue reads "635.91" with unit "us" as ns.
func wrkValue(num, unit string) (int64, error) {
	d, err := measure.ParseDecimal(num)
	if err != nil {
		return 0, err
	}
	return d.Ns(wrkUnits[unit])
}

// wrkRunTime reads the run time a wrk printout gives on its count's line
// ("  17786 requests in 3.10s, 1.53MB read": src/wrk.c 180, the time by
// format_time_us, src/units.c, always two decimals of us, ms or s, or
// from 51 s on of m or h), in ns, with the time as printed ("3.10s").
func wrkRunTime(out string) (ns int64, printed string, ok bool) {
	for _, l := range strings.Split(out, "\n") {
		c := &measure.Scan{S: l}
		c.Spaces(0)
		if _, ok := c.Digits(); !ok || !c.Lit(" requests in ") {
			continue
		}
		num, ok := c.Decimal()
		if !ok || !strings.Contains(num, ".") {
			return 0, "", false
		}
		unit, ok := c.Unit()
		if !ok || !c.Lit(",") {
			return 0, "", false
		}
		n, err := wrkValue(num, unit)
		if err != nil || n <= 0 {
			return 0, "", false
		}
		return n, num + unit, true
	}
	return 0, "", false
}

// parseWrk reads wrk 4.x output.
func parseWrk(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	var pts []measure.Point
	inDist := false
	perr := func(l measure.Line, col int, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatWrk, Line: l.N, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	sawLatency := false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "Latency Distribution":
			inDist = true
			continue
		case matchWrkLat(l.Text) != nil:
			m := matchWrkLat(l.Text)
			mean, err1 := wrkValue(m[1], m[2])
			mx, err2 := wrkValue(m[5], m[6])
			if err1 != nil || err2 != nil {
				return nil, perr(l, 1, "expected \"Latency <avg> <stdev> <max> <+/- stdev>\" with times, found %q", measure.TrimTo(t, 60))
			}
			d.HasMean, d.MeanNs, d.MaxNs = true, float64(mean), mx
			sawLatency = true
		case matchWrkReqs(l.Text) != nil:
			n, err := measure.ParseInt(matchWrkReqs(l.Text)[1])
			if err != nil {
				return nil, perr(l, 1, "requests: %v", err)
			}
			d.Count = n
		case matchWrkErrs(l.Text) != nil:
			d.Notes = append(d.Notes, socketErrors(l.Text))
		}
		if inDist {
			m := matchWrkPct(l.Text)
			if m == nil {
				inDist = false
				continue
			}
			p, err := measure.ParseDecimal(m[1])
			if err != nil || p.Float() > 100 {
				return nil, perr(l, 1, "expected a percentage up to 100, found %q", m[1])
			}
			ns, err := wrkValue(m[2], m[3])
			if err != nil {
				return nil, perr(l, strings.Index(l.Text, m[2])+1, "%v", err)
			}
			pts = append(pts, measure.Point{Percentile: p.Float(), Ns: ns, Count: -1})
		}
	}
	if !sawLatency {
		return nil, &measure.ParseError{Name: name, Format: FormatWrk, Line: len(ls), Msg: "expected a \"Latency <avg> <stdev> <max> <+/- stdev>\" line under \"Thread Stats\", found none"}
	}
	d.Points = pts
	statedFromPoints(&d, pts)
	d.Precision = "2 decimals of the printed unit (us, ms or s); wrk keeps exact 1 µs counts"
	d.Notes = append(d.Notes,
		"wrk prints its latency statistics after its own correction (stats_correct): each value of at least 2I adds counts at n−I, n−2I, …, with I = runtime/(requests/connections). The count is the requests completed, not the corrected sample count.",
		"wrk does not record responses slower than its timeout (2 s by default).")
	if len(pts) == 0 {
		d.Notes = append(d.Notes, "No \"Latency Distribution\" (run wrk with --latency): only the mean and max are known.")
	}
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatWrk, Dists: []measure.Dist{d}}, nil
}

// socketErrors words wrk's "Socket errors" line: requests that timed out
// are in no latency figure.
func socketErrors(t string) string {
	m := matchWrkErrs(t)
	return fmt.Sprintf("Socket errors: %s connect, %s read, %s write, %s timed out; a request that timed out is not in the latencies.", m[1], m[2], m[3], m[4])
}

// The line patterns of wrk's and wrk2's output, matched by hand with
// measure.Scan rather than with package regexp, which app.wasm then does
// not link (about 58 KB after gzip). Each matcher returns what regexp's
// FindStringSubmatch would for the pattern in its comment (whole match
// first, then the groups), or nil; reader_wrk_test.go holds them to regexp
// on generated lines.

// matchWrkLat: ^\s*Latency\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+
func matchWrkLat(s string) []string {
	c := &measure.Scan{S: s}
	c.Spaces(0)
	if !c.Lit("Latency") || !c.Spaces(1) {
		return nil
	}
	m := []string{""}
	for range 3 {
		num, ok1 := c.Dotted()
		u, ok2 := c.Unit()
		if !ok1 || !ok2 || !c.Spaces(1) {
			return nil
		}
		m = append(m, num, u)
	}
	m[0] = s[:c.I]
	return m
}

// matchWrkReqs: ^\s*([0-9]+) requests in
func matchWrkReqs(s string) []string {
	c := &measure.Scan{S: s}
	c.Spaces(0)
	n, ok := c.Digits()
	if !ok || !c.Lit(" requests in ") {
		return nil
	}
	return []string{s[:c.I], n}
}

// matchWrkErrs: ^\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)
func matchWrkErrs(s string) []string {
	c := &measure.Scan{S: s}
	c.Spaces(0)
	m := []string{""}
	for _, p := range []string{"Socket errors: connect ", ", read ", ", write ", ", timeout "} {
		if !c.Lit(p) {
			return nil
		}
		n, ok := c.Digits()
		if !ok {
			return nil
		}
		m = append(m, n)
	}
	m[0] = s[:c.I]
	return m
}

// matchWrkPct: ^\s*([0-9]+(?:\.[0-9]+)?)%\s+([0-9]+(?:\.[0-9]+)?)(us|ms|s|m|h)\s*$
func matchWrkPct(s string) []string {
	c := &measure.Scan{S: s}
	c.Spaces(0)
	p, ok := c.Decimal()
	if !ok || !c.Lit("%") || !c.Spaces(1) {
		return nil
	}
	v, ok1 := c.Decimal()
	u, ok2 := c.Unit()
	if !ok1 || !ok2 {
		return nil
	}
	c.Spaces(0)
	if c.I != len(s) {
		return nil
	}
	return []string{s, p, v, u}
}

// wrkStated reads what a wrk or wrk2 printout states of its run: "N
// requests in 10.00s, …" and "T threads and C connections" (by hand: the
// page's WebAssembly leaves package regexp out).
func wrkStated(data []byte) (requests, duration int64, conns int) {
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			n, err1 := strconv.ParseInt(f[0], 10, 64)
			d, err2 := time.ParseDuration(strings.TrimSuffix(f[3], ","))
			if err1 == nil && err2 == nil {
				requests, duration = n, int64(d)
			}
		case len(f) >= 5 && f[1] == "threads" && f[2] == "and" && f[4] == "connections":
			if c, err := strconv.Atoi(f[3]); err == nil {
				conns = c
			}
		}
	}
	return requests, duration, conns
}
