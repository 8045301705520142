package measure

import (
	"fmt"
	"strings"
)

// The three .hgrm layouts differ in their header and row widths:
//
//   - Java, AbstractHistogram.outputPercentileDistribution
//     (HdrHistogram/HdrHistogram de84b0a, AbstractHistogram.java 1776-1807):
//     header "%12s %14s %10s %14s", rows "%12.{sig}f %2.12f %10d %14.2f",
//     the 100 % row without its last column;
//   - C, hdr_percentiles_print with CLASSIC (giltene/wrk2 44a94c1,
//     src/hdr_histogram.c 557-637): header "%12s %12s %12s %12s", rows
//     "%12.{sig}f %12f %12d %12.2f", the last row's last column "inf";
//   - Go, hdrhistogram-go v1.4.0 hdr.go 1152-1187 (PercentilesPrint): header
//     " Value\tPercentile\tTotalCount\t1/(1-Percentile)", rows
//     "%12.3f %12f %12d %12.2f", the last column "inf" on the last row.
//
// All three end with the same footer: #[Mean = …, StdDeviation = …],
// #[Max = …, Total count = …], #[Buckets = …, SubBuckets = …].

const (
	hgrmHeaderJava = "       Value     Percentile TotalCount 1/(1-Percentile)"
	hgrmHeaderC    = "       Value   Percentile   TotalCount 1/(1-Percentile)"
	hgrmHeaderGo   = " Value\tPercentile\tTotalCount\t1/(1-Percentile)"
)

// HgrmLayout returns the layout of an .hgrm header line, or "" when s is
// none (a tool's reader asks it of a spectrum within its printout).
func HgrmLayout(s string) Format {
	switch {
	case s == hgrmHeaderJava:
		return FormatHgrmJava
	case s == hgrmHeaderC:
		return FormatHgrmC
	case s == hgrmHeaderGo:
		return FormatHgrmGo
	}
	// Another writer's spacing: tell Java from C by the percentile column.
	fs := fields(s)
	if len(fs) == 4 && fs[0].text == "Value" && fs[1].text == "Percentile" && fs[2].text == "TotalCount" && fs[3].text == "1/(1-Percentile)" {
		if strings.Contains(s, "\t") {
			return FormatHgrmGo
		}
		return FormatHgrmC
	}
	return ""
}

// HgrmHeaderC is the header of the C layout's rows, as
// hdr_percentiles_print writes it.
const HgrmHeaderC = hgrmHeaderC

// ReadSpectrum reads the percentile rows and footer of an .hgrm printed
// within a file of format f, from its header at ls[i], as the distribution
// labelled label (values in milliseconds; the rows rebuilt as a histogram),
// and returns the index of the first line after it. A reader Finishes the
// distribution.
func ReadSpectrum(name string, f Format, ls []Line, i int, label string) (Dist, int, error) {
	sp, err := parseSpectrum(name, f, ls, i)
	if err != nil {
		return Dist{}, 0, err
	}
	d, err := sp.dist(label)
	if err != nil {
		return Dist{}, 0, &ParseError{Name: name, Format: f, Line: ls[i].N, Msg: err.Error()}
	}
	return d, sp.end, nil
}

// spectrum is one parsed percentile distribution.
type spectrum struct {
	rows      []Point
	valueDecs int // decimals of the value column
	footer    map[string]Decimal
	end       int // index of the first line after it
}

// parseSpectrum reads the rows after a header (at ls[i]) and the footer,
// with values in milliseconds. It stops at the line after the footer, or at
// the first line that is neither a row nor a footer once rows were read.
func parseSpectrum(name string, f Format, ls []Line, i int) (*spectrum, error) {
	sp := &spectrum{footer: map[string]Decimal{}, valueDecs: -1}
	perr := func(l Line, col int, msg string, a ...any) error {
		return &ParseError{Name: name, Format: f, Line: l.N, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	i++ // the header
	lastPct, lastCount, lastVal := -1.0, int64(-1), int64(-1)
	for ; i < len(ls); i++ {
		l := ls[i]
		t := strings.TrimSpace(l.Text)
		if t == "" {
			if len(sp.footer) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(t, "#[") {
			if err := parseFooter(t, sp.footer); err != nil {
				return nil, perr(l, strings.Index(l.Text, "#[")+1, "%v", err)
			}
			continue
		}
		if len(sp.footer) > 0 {
			break
		}
		fs := fields(l.Text)
		if len(fs) < 3 || len(fs) > 4 {
			if len(sp.rows) > 0 {
				break // the end of a spectrum inside other output
			}
			return nil, perr(l, 1, "expected a row \"Value Percentile TotalCount 1/(1-Percentile)\", found %q", TrimTo(l.Text, 60))
		}
		v, err := ParseDecimal(fs[0].text)
		if err != nil {
			return nil, perr(l, fs[0].col, "Value: %v", err)
		}
		ns, err := v.Ns(1e6)
		if err != nil {
			return nil, perr(l, fs[0].col, "Value %q: %v", fs[0].text, err)
		}
		p, err := ParseDecimal(fs[1].text)
		if err != nil || p.Float() > 1 {
			return nil, perr(l, fs[1].col, "expected a Percentile between 0 and 1, found %q", fs[1].text)
		}
		c, err := ParseInt(fs[2].text)
		if err != nil {
			return nil, perr(l, fs[2].col, "TotalCount: %v", err)
		}
		if len(fs) == 4 {
			inv := fs[3].text
			if inv != "inf" && inv != "Infinity" {
				if _, err := ParseDecimal(inv); err != nil {
					return nil, perr(l, fs[3].col, "1/(1-Percentile): expected a number or inf, found %q", inv)
				}
			}
		}
		pct := p.Float() * 100
		switch {
		case pct < lastPct:
			return nil, perr(l, fs[1].col, "percentiles must not decrease: %s after %.12f", fs[1].text, lastPct/100)
		case c < lastCount:
			return nil, perr(l, fs[2].col, "total counts must not decrease: %d after %d", c, lastCount)
		case ns < lastVal:
			return nil, perr(l, fs[0].col, "values must not decrease: %s after %s", fs[0].text, fmtMs(lastVal))
		}
		lastPct, lastCount, lastVal = pct, c, ns
		sp.valueDecs = max(sp.valueDecs, decimals(fs[0].text))
		sp.rows = append(sp.rows, Point{Percentile: pct, Ns: ns, Count: c})
	}
	if len(sp.rows) == 0 {
		l := ls[len(ls)-1]
		if i < len(ls) {
			l = ls[i]
		}
		return nil, perr(l, 0, "expected percentile rows after the header, found none")
	}
	sp.end = i
	return sp, nil
}

// parseFooter reads "#[Key = value, Key = value]" into m (keys without
// spaces: "Mean", "StdDeviation", "Max", "Totalcount", "Buckets", "SubBuckets").
func parseFooter(t string, m map[string]Decimal) error {
	if !strings.HasSuffix(t, "]") {
		return fmt.Errorf("expected a footer \"#[Key = value, …]\", found %q", TrimTo(t, 60))
	}
	for _, kv := range strings.Split(t[2:len(t)-1], ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("expected \"Key = value\" in the footer, found %q", strings.TrimSpace(kv))
		}
		k = strings.ReplaceAll(strings.TrimSpace(k), " ", "")
		d, err := ParseDecimal(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("footer %s: %v", k, err)
		}
		m[k] = d
	}
	return nil
}

// TrimTo cuts s to n bytes, marking a cut with "…".
func TrimTo(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func fmtMs(ns int64) string { return fmt.Sprintf("%.3f", float64(ns)/1e6) }

// dist turns a spectrum into a distribution: count, mean and max from the
// footer (or the rows), and a histogram rebuilt with each row's new counts
// at its value.
func (sp *spectrum) dist(label string) (Dist, error) {
	d := Dist{Label: label, Count: -1, MinNs: -1, MaxNs: -1, Points: sp.rows, UnitNs: 1, spectrum: true}
	last := sp.rows[len(sp.rows)-1]
	d.Count = last.Count
	if c, ok := sp.footer["Totalcount"]; ok {
		n, err := c.Ns(1)
		if err == nil && n != last.Count {
			d.Notes = append(d.Notes, fmt.Sprintf("The footer's total count %d differs from the last row's %d; the rows are used.", n, last.Count))
		}
	}
	if m, ok := sp.footer["Mean"]; ok {
		if ns, err := m.Ns(1e6); err == nil {
			d.HasMean, d.MeanNs = true, float64(ns)
		}
	}
	d.MinNs = sp.rows[0].Ns // the 0 % row: the lowest bucket's highest value
	d.MaxNs = last.Ns
	if m, ok := sp.footer["Max"]; ok {
		if ns, err := m.Ns(1e6); err == nil {
			d.MaxNs = ns
		}
	}
	h := newExportHist(max(d.MaxNs, last.Ns))
	prev := int64(0)
	for _, r := range sp.rows {
		if r.Count > prev {
			if err := h.RecordValues(r.Ns, r.Count-prev); err != nil {
				return Dist{}, err
			}
			prev = r.Count
		}
	}
	d.Hist = h
	decs := max(sp.valueDecs, 0)
	d.Precision = fmt.Sprintf("ms, %d decimals (%s); percentile rows at %d per half distance, the distribution between rows unknown", decs, unitOfDecimals(decs), TicksPerHalfDistance)
	if d.HasMean {
		d.Notes = append(d.Notes, "The mean is the footer's: the writer's histogram mean (each count at the middle of its bucket).")
	}
	return d, nil
}

func unitOfDecimals(d int) string {
	switch d {
	case 0:
		return "1 ms"
	case 1:
		return "0.1 ms"
	case 2:
		return "10 µs"
	case 3:
		return "1 µs"
	case 4:
		return "0.1 µs"
	case 5:
		return "10 ns"
	}
	return "1 ns or finer"
}

// parseHgrm reads a whole .hgrm file whose header is at ls[i].
func parseHgrm(name string, f Format, ls []Line, i int) (*File, error) {
	sp, err := parseSpectrum(name, f, ls, i)
	if err != nil {
		return nil, err
	}
	for _, l := range ls[sp.end:] {
		if t := strings.TrimSpace(l.Text); t != "" {
			return nil, &ParseError{Name: name, Format: f, Line: l.N, Col: 1, Msg: fmt.Sprintf("expected the end of the file after the footer, found %q", TrimTo(l.Text, 60))}
		}
	}
	d, err := sp.dist("hgrm")
	if err != nil {
		return nil, &ParseError{Name: name, Format: f, Msg: err.Error()}
	}
	d.Finish(f == FormatHgrmJava)
	if f == FormatHgrmJava {
		d.Notes = append(d.Notes, "Percentiles are read from the rows at Java HdrHistogram's rank, ceil(p·n).")
	} else {
		d.Notes = append(d.Notes, "Percentiles are read from the rows at HdrHistogram C and Go's rank, round(p·n).")
	}
	file := &File{Name: name, Format: f, Dists: []Dist{d}}
	file.Incomplete = hgrmIncomplete(sp, len(ls))
	file.Notes = append(file.Notes, "Values are read as milliseconds, the unit HdrHistogram's tools print (outputValueUnitScalingRatio from ns or a value scale from µs).")
	return file, nil
}
