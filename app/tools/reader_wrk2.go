package tools

import (
	"fmt"
	"strings"

	"omission/app/measure"
)

// FormatWrk2 is wrk2's text output (--latency, -U).
const FormatWrk2 measure.Format = "wrk2"

// wrk2Reader reads wrk2's printout. Its marks are asked before any other
// reader's: the printout holds wrk's lines and an .hgrm spectrum.
var wrk2Reader = measure.Reader{
	Format: FormatWrk2, Title: "wrk2 output",
	When:  measure.First,
	Marks: []measure.Mark{{Prefix: "Latency Distribution (HdrHistogram - "}, {Prefix: "Thread calibration:"}},
	Read:  parseWrk2,
}

// parseWrk2 reads wrk2 output: one distribution per "Latency Distribution
// (HdrHistogram - …)" block.
func parseWrk2(name string, ls []measure.Line) (*measure.File, error) {
	f := &measure.File{Name: name, Format: FormatWrk2}
	var requests int64 = -1
	for _, l := range ls {
		if m := matchWrkReqs(l.Text); m != nil {
			requests, _ = measure.ParseInt(m[1])
		}
	}
	for i := 0; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].Text)
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
		return nil, &measure.ParseError{Name: name, Format: FormatWrk2, Line: 1, Msg: "expected a \"Latency Distribution (HdrHistogram - Recorded Latency)\" block (run wrk2 with --latency), found none"}
	}
	if requests >= 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("%d requests completed.", requests))
	}
	for _, l := range ls {
		if matchWrkErrs(l.Text) != nil {
			f.Notes = append(f.Notes, socketErrors(l.Text))
		}
	}
	return f, nil
}

// wrk2Error is a ParseError at column col of line l of wrk2 output.
func wrk2Error(name string, l measure.Line, col int, msg string, a ...any) error {
	return &measure.ParseError{Name: name, Format: FormatWrk2, Line: l.N, Col: col, Msg: fmt.Sprintf(msg, a...)}
}

// wrk2Block reads the block of one histogram from ls[j], the line after its
// "Latency Distribution" heading: the printed percentiles, then the
// "Detailed Percentile spectrum". It returns the distribution, the printed
// percentiles taken as Stated, and the index of the first line after the
// spectrum.
func wrk2Block(name string, ls []measure.Line, j int, label string) (measure.Dist, int, error) {
	stated, j, err := wrk2Percentiles(name, ls, j)
	if err != nil {
		return measure.Dist{}, 0, err
	}
	if j, err = wrk2SpectrumStart(name, ls, j, label); err != nil {
		return measure.Dist{}, 0, err
	}
	d, end, err := measure.ReadSpectrum(name, FormatWrk2, ls, j, label)
	if err != nil {
		return measure.Dist{}, 0, err
	}
	statedFromPoints(&d, stated)
	if label == "recorded" {
		d.Notes = append(d.Notes, "wrk2 records each latency from the time its request should have been sent by the constant-rate schedule (-R).")
	} else {
		d.Notes = append(d.Notes, "wrk2's uncorrected latency: measured from the actual send, as a closed loop does.")
	}
	d.Precision = "percentiles: 2 decimals of the printed unit; spectrum: " + d.Precision + "; wrk2's histogram: 1 µs to 24 h, 3 significant digits"
	d.Finish(false)
	return d, end, nil
}

// wrk2Percentiles reads the percentile lines from ls[j] on (a percentage
// and a value with two decimals in us, ms, s, m or h) and returns them with
// the index of the first line that is not one.
func wrk2Percentiles(name string, ls []measure.Line, j int) ([]measure.Point, int, error) {
	var stated []measure.Point
	for ; j < len(ls); j++ {
		m := matchWrkPct(ls[j].Text)
		if m == nil {
			break
		}
		p, err := measure.ParseDecimal(m[1])
		if err != nil || p.Float() > 100 {
			return nil, 0, wrk2Error(name, ls[j], 1, "expected a percentage up to 100, found %q", m[1])
		}
		ns, err := wrkValue(m[2], m[3])
		if err != nil {
			return nil, 0, wrk2Error(name, ls[j], strings.Index(ls[j].Text, m[2])+1, "%v", err)
		}
		stated = append(stated, measure.Point{Percentile: p.Float(), Ns: ns, Count: -1})
	}
	return stated, j, nil
}

// wrk2SpectrumStart finds, from ls[j] on, what follows a histogram's
// percentiles: blank lines, "Detailed Percentile spectrum:", blank lines
// and the C header, whose index it returns.
func wrk2SpectrumStart(name string, ls []measure.Line, j int, label string) (int, error) {
	for j < len(ls) && strings.TrimSpace(ls[j].Text) == "" {
		j++
	}
	if j >= len(ls) || strings.TrimSpace(ls[j].Text) != "Detailed Percentile spectrum:" {
		l := ls[min(j, len(ls)-1)]
		return 0, wrk2Error(name, l, 1, "expected \"Detailed Percentile spectrum:\" after the %s latency percentiles, found %q", label, measure.TrimTo(l.Text, 60))
	}
	j++
	for j < len(ls) && strings.TrimSpace(ls[j].Text) == "" {
		j++
	}
	if j >= len(ls) || measure.HgrmLayout(ls[j].Text) == "" {
		l := ls[min(j, len(ls)-1)]
		return 0, wrk2Error(name, l, 1, "expected the spectrum's header %q, found %q", strings.TrimSpace(measure.HgrmHeaderC), measure.TrimTo(l.Text, 60))
	}
	return j, nil
}
