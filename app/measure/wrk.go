package measure

import (
	"fmt"
	"strings"

	"omission/sim"
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

// unitNs of wrk's format_time_us units.
var wrkUnits = map[string]uint64{"us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// wrkValue reads "635.91" with unit "us" as ns.
func wrkValue(num, unit string) (int64, error) {
	d, err := parseDecimal(num)
	if err != nil {
		return 0, err
	}
	return d.ns(wrkUnits[unit])
}

// WrkRunTime reads the run time a wrk printout gives on its count's line
// ("  17786 requests in 3.10s, 1.53MB read": src/wrk.c 180, the time by
// format_time_us, src/units.c, always two decimals of us, ms or s, or
// from 51 s on of m or h), in ns, with the time as printed ("3.10s").
func WrkRunTime(out string) (ns int64, printed string, ok bool) {
	for _, l := range strings.Split(out, "\n") {
		c := &scan{s: l}
		c.spaces(0)
		if _, ok := c.digits(); !ok || !c.lit(" requests in ") {
			continue
		}
		num, ok := c.decimal()
		if !ok || !strings.Contains(num, ".") {
			return 0, "", false
		}
		unit, ok := c.unit()
		if !ok || !c.lit(",") {
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
func parseWrk(name string, ls []line) (*File, error) {
	d := Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	var pts []Point
	inDist := false
	perr := func(l line, col int, msg string, a ...any) error {
		return &ParseError{Name: name, Format: FormatWrk, Line: l.n, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	sawLatency := false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		switch {
		case t == "Latency Distribution":
			inDist = true
			continue
		case matchWrkLat(l.text) != nil:
			m := matchWrkLat(l.text)
			mean, err1 := wrkValue(m[1], m[2])
			mx, err2 := wrkValue(m[5], m[6])
			if err1 != nil || err2 != nil {
				return nil, perr(l, 1, "expected \"Latency <avg> <stdev> <max> <+/- stdev>\" with times, found %q", trimTo(t, 60))
			}
			d.HasMean, d.MeanNs, d.MaxNs = true, float64(mean), mx
			sawLatency = true
		case matchWrkReqs(l.text) != nil:
			n, err := parseInt(matchWrkReqs(l.text)[1])
			if err != nil {
				return nil, perr(l, 1, "requests: %v", err)
			}
			d.Count = n
		case matchWrkErrs(l.text) != nil:
			d.Notes = append(d.Notes, socketErrors(l.text))
		}
		if inDist {
			m := matchWrkPct(l.text)
			if m == nil {
				inDist = false
				continue
			}
			p, err := parseDecimal(m[1])
			if err != nil || p.float() > 100 {
				return nil, perr(l, 1, "expected a percentage up to 100, found %q", m[1])
			}
			ns, err := wrkValue(m[2], m[3])
			if err != nil {
				return nil, perr(l, strings.Index(l.text, m[2])+1, "%v", err)
			}
			pts = append(pts, Point{Percentile: p.float(), Ns: ns, Count: -1})
		}
	}
	if !sawLatency {
		return nil, &ParseError{Name: name, Format: FormatWrk, Line: len(ls), Msg: "expected a \"Latency <avg> <stdev> <max> <+/- stdev>\" line under \"Thread Stats\", found none"}
	}
	d.Points = pts
	for _, pt := range pts {
		for i, pn := range sim.Percentiles() {
			if float64(pn.PPM)/1e4 == pt.Percentile {
				d.P[i] = Percentile{Ns: pt.Ns, How: Stated}
			}
		}
	}
	d.Precision = "2 decimals of the printed unit (us, ms or s); wrk keeps exact 1 µs counts"
	d.Notes = append(d.Notes,
		"wrk prints its latency statistics after its own correction (stats_correct): each value of at least 2I adds counts at n−I, n−2I, …, with I = runtime/(requests/connections). The count is the requests completed, not the corrected sample count.",
		"wrk does not record responses slower than its timeout (2 s by default).")
	if len(pts) == 0 {
		d.Notes = append(d.Notes, "No \"Latency Distribution\" (run wrk with --latency): only the mean and max are known.")
	}
	d.finish(false)
	return &File{Name: name, Format: FormatWrk, Dists: []Dist{d}}, nil
}

// parseWrk2 reads wrk2 output: one distribution per "Latency Distribution
// (HdrHistogram - …)" block.
func parseWrk2(name string, ls []line) (*File, error) {
	f := &File{Name: name, Format: FormatWrk2}
	var requests int64 = -1
	for _, l := range ls {
		if m := matchWrkReqs(l.text); m != nil {
			requests, _ = parseInt(m[1])
		}
	}
	for i := 0; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].text)
		const prefix = "Latency Distribution (HdrHistogram - "
		if !strings.HasPrefix(t, prefix) {
			continue
		}
		desc := strings.TrimSuffix(t[len(prefix):], ")")
		label := "recorded"
		if strings.HasPrefix(desc, "Uncorrected") {
			label = "uncorrected"
		}
		d, end, err := wrk2Block(name, ls, i+1, label)
		if err != nil {
			return nil, err
		}
		f.Dists = append(f.Dists, d)
		i = end - 1
	}
	if len(f.Dists) == 0 {
		return nil, &ParseError{Name: name, Format: FormatWrk2, Line: 1, Msg: "expected a \"Latency Distribution (HdrHistogram - Recorded Latency)\" block (run wrk2 with --latency), found none"}
	}
	if requests >= 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("%d requests completed.", requests))
	}
	for _, l := range ls {
		if matchWrkErrs(l.text) != nil {
			f.Notes = append(f.Notes, socketErrors(l.text))
		}
	}
	return f, nil
}

// wrk2Error is a ParseError at column col of line l of wrk2 output.
func wrk2Error(name string, l line, col int, msg string, a ...any) error {
	return &ParseError{Name: name, Format: FormatWrk2, Line: l.n, Col: col, Msg: fmt.Sprintf(msg, a...)}
}

// wrk2Block reads the block of one histogram from ls[j], the line after its
// "Latency Distribution" heading: the printed percentiles, then the
// "Detailed Percentile spectrum". It returns the distribution, the printed
// percentiles taken as Stated, and the index of the first line after the
// spectrum.
func wrk2Block(name string, ls []line, j int, label string) (Dist, int, error) {
	stated, j, err := wrk2Percentiles(name, ls, j)
	if err != nil {
		return Dist{}, 0, err
	}
	if j, err = wrk2SpectrumStart(name, ls, j, label); err != nil {
		return Dist{}, 0, err
	}
	sp, err := parseSpectrum(name, FormatWrk2, ls, j)
	if err != nil {
		return Dist{}, 0, err
	}
	d, err := sp.dist(label)
	if err != nil {
		return Dist{}, 0, wrk2Error(name, ls[j], 0, "%v", err)
	}
	for _, pt := range stated {
		for k, pn := range sim.Percentiles() {
			if float64(pn.PPM)/1e4 == pt.Percentile {
				d.P[k] = Percentile{Ns: pt.Ns, How: Stated}
			}
		}
	}
	if label == "recorded" {
		d.Notes = append(d.Notes, "wrk2 records each latency from the time its request should have been sent by the constant-rate schedule (-R).")
	} else {
		d.Notes = append(d.Notes, "wrk2's uncorrected latency: measured from the actual send, as a closed loop does.")
	}
	d.Precision = "percentiles: 2 decimals of the printed unit; spectrum: " + d.Precision + "; wrk2's histogram: 1 µs to 24 h, 3 significant digits"
	d.finish(false)
	return d, sp.end, nil
}

// wrk2Percentiles reads the percentile lines from ls[j] on (a percentage
// and a value with two decimals in us, ms, s, m or h) and returns them with
// the index of the first line that is not one.
func wrk2Percentiles(name string, ls []line, j int) ([]Point, int, error) {
	var stated []Point
	for ; j < len(ls); j++ {
		m := matchWrkPct(ls[j].text)
		if m == nil {
			break
		}
		p, err := parseDecimal(m[1])
		if err != nil || p.float() > 100 {
			return nil, 0, wrk2Error(name, ls[j], 1, "expected a percentage up to 100, found %q", m[1])
		}
		ns, err := wrkValue(m[2], m[3])
		if err != nil {
			return nil, 0, wrk2Error(name, ls[j], strings.Index(ls[j].text, m[2])+1, "%v", err)
		}
		stated = append(stated, Point{Percentile: p.float(), Ns: ns, Count: -1})
	}
	return stated, j, nil
}

// wrk2SpectrumStart finds, from ls[j] on, what follows a histogram's
// percentiles: blank lines, "Detailed Percentile spectrum:", blank lines
// and the C header, whose index it returns.
func wrk2SpectrumStart(name string, ls []line, j int, label string) (int, error) {
	for j < len(ls) && strings.TrimSpace(ls[j].text) == "" {
		j++
	}
	if j >= len(ls) || strings.TrimSpace(ls[j].text) != "Detailed Percentile spectrum:" {
		l := ls[min(j, len(ls)-1)]
		return 0, wrk2Error(name, l, 1, "expected \"Detailed Percentile spectrum:\" after the %s latency percentiles, found %q", label, trimTo(l.text, 60))
	}
	j++
	for j < len(ls) && strings.TrimSpace(ls[j].text) == "" {
		j++
	}
	if j >= len(ls) || hgrmLayout(ls[j].text) == "" {
		l := ls[min(j, len(ls)-1)]
		return 0, wrk2Error(name, l, 1, "expected the spectrum's header %q, found %q", strings.TrimSpace(hgrmHeaderC), trimTo(l.text, 60))
	}
	return j, nil
}

// socketErrors words wrk's "Socket errors" line: requests that timed out
// are in no latency figure.
func socketErrors(t string) string {
	m := matchWrkErrs(t)
	return fmt.Sprintf("Socket errors: %s connect, %s read, %s write, %s timed out; a request that timed out is not in the latencies.", m[1], m[2], m[3], m[4])
}

// detectText recognises a text format and parses it.
func detectText(name string, ls []line) (*File, error) {
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, "Latency Distribution (HdrHistogram - ") || strings.HasPrefix(t, "Thread calibration:") {
			return parseWrk2(name, ls)
		}
	}
	if f, ok, err := detectTool(name, ls); ok {
		return f, err
	}
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#[Histogram log format version") || strings.HasPrefix(t, "#[StartTime:") ||
			strings.HasPrefix(t, "#[BaseTime:") || strings.HasPrefix(t, `"StartTimestamp"`) || matchHlogLine(t) {
			return parseHlog(name, ls)
		}
		if f := hgrmLayout(l.text); f != "" {
			return parseHgrm(name, f, ls, indexOf(ls, l.n))
		}
		if strings.HasPrefix(t, "Running ") && strings.Contains(t, " test @ ") || strings.HasPrefix(t, "Thread Stats") {
			return parseWrk(name, ls)
		}
		if strings.HasPrefix(t, "#") {
			continue // a comment before an .hlog's first marker
		}
		return nil, &ParseError{Name: name, Line: l.n, Col: 1, Msg: fmt.Sprintf("expected %s; found %q", expectedAny, trimTo(l.text, 60))}
	}
	return nil, &ParseError{Name: name, Line: 1, Msg: "expected " + expectedAny + "; found only comments"}
}

func indexOf(ls []line, n int) int {
	for i := range ls {
		if ls[i].n == n {
			return i
		}
	}
	return 0
}
