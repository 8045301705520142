package charts

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// Series is a distribution drawn beside the run's recordings, on the
// spectrum and on the distribution's CDF: what a load generator would have
// reported (its few percentiles), a measured file (its own spectrum), or a
// recording of a second run (sampled as the chart samples its own).
type Series struct {
	Name   string // the legend's and the table's label
	Class  string // "tool", "measured" or "vs": how it is drawn
	Kind   sim.Kind
	Points []Point // ascending fractions
}

// Point is a value at a fraction of the samples (0 to 1): the value below
// which that fraction of them lies.
type Point struct {
	P  float64
	Ns int64
}

// SeriesOf samples recording rec of another run at the fractions the
// spectrum uses, its reported percentiles and its maximum, for a Series of
// class vs.
func SeriesOf(rec *sim.Recording, rank sim.Rank, name string) Series {
	s := Series{Name: name, Class: "vs", Kind: rec.Kind}
	d := rec.Dist
	if d == nil || d.Count() == 0 {
		return s
	}
	n := d.Count()
	const npts = 240
	D := float64(spectrumDecades(n))
	ps := make([]float64, 0, npts+sim.NumPercentiles+1)
	for j := 0; j < npts; j++ {
		ps = append(ps, ninesToP(D*float64(j)/npts))
	}
	for _, pc := range sim.Percentiles() {
		ps = append(ps, float64(pc.PPM)/1e6)
	}
	sortFloats(ps)
	ranks := make([]int64, len(ps))
	for i, p := range ps {
		ranks[i] = sim.RankAt(p, n, rank)
		if i > 0 {
			ranks[i] = max(ranks[i], ranks[i-1])
		}
	}
	vals := valuesAtRanks(d, ranks)
	for i, p := range ps {
		s.Points = append(s.Points, Point{p, vals[i]})
	}
	s.Points = append(s.Points, Point{1, d.Max()})
	return s
}

func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// extraStyles are the series' line styles, in order. A second run's
// recordings keep their colours, dotted; a tool's line is the theme's ink,
// so that the recordings' colours keep their meaning, each tool a dash of
// its own; each measured series has a colour and a dash of its own
// (measured.go), counted among the measured ones.
func (th *theme) extraStyles(extra []Series) []draw.LineStyle {
	out := make([]draw.LineStyle, len(extra))
	tool, meas := 0, 0
	for i, s := range extra {
		switch s.Class {
		case "vs":
			st := th.line(s.Kind)
			st.Dashes = []vg.Length{2, 3}
			st.Width = th.lineWidth * 1.2
			out[i] = st
		case "measured":
			out[i] = th.measuredLine(meas)
			meas++
		default:
			dash := [][]vg.Length{{6, 2}, {1, 2}, {6, 2, 1, 2}, {3, 3}, {8, 3, 2, 3}, {2, 6}}[tool%6]
			c := th.ink
			out[i] = draw.LineStyle{Color: color.NRGBA{c.R, c.G, c.B, 200}, Width: th.lineWidth, Dashes: dash}
			tool++
		}
	}
	return out
}

// seriesNames lists the series for a caption, each with how it is drawn.
func seriesNames(extra []Series, t Theme) string {
	out, meas := "", 0
	for i, s := range extra {
		if i > 0 {
			out += ", "
		}
		out += s.Name
		switch s.Class {
		case "vs":
			out += " (dotted, in its recording's colour)"
		case "measured":
			out += " (" + MeasuredLookName(meas, t) + ")"
			meas++
		default:
			out += " (a thin dashed line in ink)"
		}
	}
	return out
}

// extraRange widens a latency range to the series' values.
func extraRange(extra []Series, lo, hi int64, zero bool) (int64, int64, bool) {
	for _, s := range extra {
		for _, p := range s.Points {
			switch {
			case p.Ns <= 0:
				zero = true
			case lo == 0 || p.Ns < lo:
				lo = p.Ns
			}
			hi = max(hi, p.Ns)
		}
	}
	return lo, hi, zero
}

// addSpectrumSeries draws each series on the spectrum, on its 1/(1−p)
// axis: points at fractions past the axis's end are drawn at its end.
func addSpectrumSeries(p *plot.Plot, th *theme, extra []Series, xmax, floor float64) {
	styles := th.extraStyles(extra)
	for i, s := range extra {
		if len(s.Points) == 0 {
			continue
		}
		xys := make(plotter.XYs, 0, len(s.Points))
		for _, pt := range s.Points {
			xys = append(xys, plotter.XY{X: math.Min(pt.P, xmax), Y: atFloor(float64(pt.Ns), floor)})
		}
		p.Add(polyline{simplify(xys), styles[i]})
	}
}

// addCDFSeries draws each series on the CDF: the fraction at or below each
// value.
func addCDFSeries(p *plot.Plot, th *theme, extra []Series, floor float64) {
	styles := th.extraStyles(extra)
	for i, s := range extra {
		if len(s.Points) == 0 {
			continue
		}
		xys := make(plotter.XYs, 0, len(s.Points))
		for _, pt := range s.Points {
			xys = append(xys, plotter.XY{X: atFloor(float64(pt.Ns), floor), Y: pt.P})
		}
		p.Add(polyline{xys, styles[i]})
	}
}

// extraLegend is a legend entry per series.
func extraLegend(th *theme, extra []Series) []legendItem {
	var items []legendItem
	styles := th.extraStyles(extra)
	for i, s := range extra {
		items = append(items, legendItem{s.Name, lineThumb(styles[i], nil)})
	}
	return items
}

// extraAt is a series' value at fraction p: the first point at or past it.
func extraAt(s Series, p float64) (int64, bool) {
	for _, pt := range s.Points {
		if pt.P >= p-1e-12 {
			return pt.Ns, true
		}
	}
	return 0, false
}

// extraColumns adds the series to a chart's data table: its reported
// percentiles where it has them.
func extraColumns(t *Table, extra []Series) {
	for _, s := range extra {
		t.Header = append(t.Header, s.Name)
		for r := range t.Rows {
			txt := "—"
			if r < sim.NumPercentiles {
				if v, ok := extraAt(s, float64(sim.Percentiles()[r].PPM)/1e6); ok {
					txt = units.Duration(v)
				}
			} else if t.Rows[r][0] == "max" && len(s.Points) > 0 {
				txt = units.Duration(s.Points[len(s.Points)-1].Ns)
			}
			t.Rows[r] = append(t.Rows[r], txt)
		}
	}
}
