package charts

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// bins are log-spaced latency bins: bin j holds the samples in
// (edge[j], edge[j+1]], bin 0 also those at or below edge[0] (zeros).
type bins struct {
	perDecade int
	edge      []float64 // ns, len = bins+1
	cut       []int64   // floor(edge): the integer thresholds
}

func newBins(lo, hi float64, perDecade int) bins {
	// Edges from lo, one bin past the one holding hi, so every line comes
	// back down inside the axis.
	n := int(math.Ceil(math.Log10(hi/lo)*float64(perDecade)-1e-9)) + 1
	n = max(n, 2)
	b := bins{perDecade: perDecade, edge: make([]float64, n+1), cut: make([]int64, n+1)}
	for j := range b.edge {
		b.edge[j] = lo * math.Pow(10, float64(j)/float64(perDecade))
		b.cut[j] = int64(math.Floor(b.edge[j] + 1e-6))
	}
	return b
}

// counts returns each bin's sample count in d.
func (b bins) counts(d *sim.Dist) []int64 {
	cum := countsAtOrBelow(d, b.cut)
	out := make([]int64, len(b.cut)-1)
	for j := range out {
		out[j] = cum[j+1] - cum[j]
	}
	if len(out) > 0 {
		out[0] += cum[0]
	}
	return out
}

// sampleRange returns the decade at or below the smallest positive sample
// lo, and the largest sample hi (at least lo).
func sampleRange(lo, hi int64) (float64, float64) {
	if lo <= 0 {
		return 1e3, 1e6
	}
	a := math.Pow(10, math.Floor(math.Log10(float64(lo))))
	return a, math.Max(float64(hi), a)
}

// distribution renders the Distribution chart: its bins, its legend and axes, its lines, then its text.
func distribution(res *sim.Result, o Options, f *frame) *Chart {
	th := f.th
	b, xlo := distributionBins(res, o)
	xhi := b.edge[len(b.edge)-1]
	items, showAbove := distributionLegend(res, th, o, xlo, xhi)
	c := f.legendStrip(f.dc, items)
	p := f.newPlot()
	p.X.Scale = plot.LogScale{}
	p.X.Min, p.X.Max = xlo, xhi
	p.X.Tick.Marker = durationTicks{log: true}
	p.X.Label.Text = "latency"
	p.Add(f.grid())
	ylabel := "share of samples"
	if o.CDF {
		addCDFLines(p, res, th, o, xlo, xhi)
		ylabel = "share of samples at or below"
	} else {
		addBinLines(p, res, th, b, o.Y != YLinear)
	}
	if showAbove {
		p.Add(vline{x: float64(res.Config.Above), style: thresholdStyle(th)})
	}
	f.drawPlot(c, p, ylabel, nil)

	ch := &Chart{Available: true}
	ch.Table = distributionTable(res, b, o)
	ch.Caption = distributionCaption(res, b, o)
	return ch
}

// distributionBins returns the log-spaced bins over every sample (and the CDF's series) and the axis's start.
func distributionBins(res *sim.Result, o Options) (bins, float64) {
	var lo, hi int64
	for _, k := range sim.Kinds() {
		d := res.Recordings[k].Dist
		if d == nil || d.Count() == 0 {
			continue
		}
		if m := minPositive(d); m > 0 && (lo == 0 || m < lo) {
			lo = m
		}
		hi = max(hi, d.Max())
	}
	if o.CDF {
		lo, hi, _ = extraRange(o.Extra, lo, hi, false)
	}
	xlo, top := sampleRange(lo, hi)
	perDecade := 10
	if float64(o.Width)/(math.Log10(top/xlo)*10+1) < 6 { // bins under 6 px wide
		perDecade = 5
	}
	return newBins(xlo, top, perDecade), xlo
}

// distributionLegend returns the legend's entries and whether the threshold is inside the axis.
func distributionLegend(res *sim.Result, th *theme, o Options, xlo, xhi float64) (items []legendItem, showAbove bool) {
	kinds := sim.Kinds()
	items = spectrumLegend(res, th)
	for i := range items {
		items[i].thumb = lineThumb(th.line(kinds[i]), nil)
	}
	above := res.Config.Above
	showAbove = above > 0 && float64(above) > xlo && float64(above) < xhi
	if showAbove {
		items = append(items, legendItem{"threshold (above = " + units.Duration(above) + ")", lineThumb(thresholdStyle(th), nil)})
	}
	if o.CDF {
		items = append(items, extraLegend(th, o.Extra)...)
	}
	return items, showAbove
}

// addCDFLines sets the CDF's share axis and adds each recording's cumulative share, one point per px, and the series.
func addCDFLines(p *plot.Plot, res *sim.Result, th *theme, o Options, xlo, xhi float64) {
	p.Y.Min, p.Y.Max = 0, 1.02
	p.Y.Tick.Marker = shareTicks{}
	npts := o.Width
	xs := make([]int64, npts+1)
	fx := make([]float64, npts+1)
	for j := range xs {
		fx[j] = xlo * math.Pow(xhi/xlo, float64(j)/float64(npts))
		xs[j] = int64(math.Floor(fx[j] + 1e-6))
	}
	for _, k := range sim.Kinds() {
		d := res.Recordings[k].Dist
		if d == nil || d.Count() == 0 {
			continue
		}
		cum := countsAtOrBelow(d, xs)
		n := float64(d.Count())
		xys := make(plotter.XYs, len(xs))
		for j := range xs {
			xys[j] = plotter.XY{X: fx[j], Y: float64(cum[j]) / n}
		}
		p.Add(polyline{simplify(xys), th.line(k)})
	}
	addCDFSeries(p, th, o.Extra, xlo)
}

// addBinLines sets the histogram's share axis and adds each recording's share per bin as a step line.
func addBinLines(p *plot.Plot, res *sim.Result, th *theme, b bins, logY bool) {
	kinds := sim.Kinds()
	counts := make([][]int64, len(kinds))
	least := 1.0 // the smallest share of a non-empty bin
	for i, k := range kinds {
		if d := res.Recordings[k].Dist; d != nil && d.Count() > 0 {
			counts[i] = b.counts(d)
			for _, v := range counts[i] {
				if v > 0 {
					least = math.Min(least, float64(v)/float64(d.Count()))
				}
			}
		}
	}
	// On a log axis, empty bins drop to a floor at the decade below the
	// smallest share drawn.
	floor := 0.0
	if logY {
		floor = math.Pow(10, math.Floor(math.Log10(least*0.99)))
		p.Y.Scale = plot.LogScale{}
		p.Y.Min, p.Y.Max = floor, 1.6
	}
	p.Y.Tick.Marker = shareTicks{log: logY}
	top := 0.0
	for i, k := range kinds {
		cnt := counts[i]
		if cnt == nil {
			continue
		}
		n := float64(res.Recordings[k].Count)
		xys := make(plotter.XYs, 0, 2*len(cnt)+2)
		xys = append(xys, plotter.XY{X: b.edge[0], Y: floor})
		for j, v := range cnt {
			y := math.Max(float64(v)/n, floor)
			top = math.Max(top, y)
			xys = append(xys, plotter.XY{X: b.edge[j], Y: y}, plotter.XY{X: b.edge[j+1], Y: y})
		}
		xys = append(xys, plotter.XY{X: b.edge[len(b.edge)-1], Y: floor})
		p.Add(polyline{simplify(xys), th.line(k)})
	}
	if !logY {
		p.Y.Max = math.Max(top*1.08, 0.01)
	}
}

func thresholdStyle(th *theme) draw.LineStyle {
	return draw.LineStyle{Color: th.muted, Width: 1, Dashes: []vg.Length{3, 3}}
}

// vline is a vertical line across the data area at x.
type vline struct {
	x     float64
	style draw.LineStyle
}

func (v vline) Plot(c draw.Canvas, p *plot.Plot) {
	x := c.X(p.X.Norm(v.x))
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

// distributionTable is the Distribution chart's table: each bin's (or each edge's cumulative) share per recording.
func distributionTable(res *sim.Result, b bins, o Options) Table {
	kinds := sim.Kinds()
	counts := make([][]int64, len(kinds))
	for i, k := range kinds {
		if d := res.Recordings[k].Dist; d != nil && d.Count() > 0 {
			counts[i] = b.counts(d)
		}
	}
	var t Table
	if o.CDF {
		t.Header = []string{"latency at or below"}
	} else {
		t.Header = []string{"latency bin"}
	}
	for _, k := range kinds {
		t.Header = append(t.Header, k.String())
	}
	cum := make([]int64, len(kinds))
	for j := 0; j+1 < len(b.edge); j++ {
		any := false
		for i := range kinds {
			if counts[i] != nil && counts[i][j] > 0 {
				any = true
			}
		}
		if !any { // rows only where something changes
			continue
		}
		var row []string
		if o.CDF {
			row = []string{units.Duration(b.cut[j+1])}
		} else if j == 0 {
			row = []string{"up to " + units.Duration(b.cut[1])}
		} else {
			row = []string{units.Duration(b.cut[j]) + " to " + units.Duration(b.cut[j+1])}
		}
		for i, k := range kinds {
			n := res.Recordings[k].Count
			if counts[i] == nil {
				row = append(row, "—")
				continue
			}
			cum[i] += counts[i][j]
			if o.CDF {
				row = append(row, units.Share(float64(cum[i])/float64(n)))
			} else {
				row = append(row, units.Count(counts[i][j])+" ("+units.Share(float64(counts[i][j])/float64(n))+")")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// distributionCaption is the Distribution chart's caption: what is drawn, the medians, the shares above the threshold.
func distributionCaption(res *sim.Result, b bins, o Options) string {
	kinds := sim.Kinds()
	var s strings.Builder
	if o.CDF {
		s.WriteString("Share of each recording's samples at or below each latency, on a log latency axis. ")
	} else {
		s.WriteString("Share of each recording's samples in log-spaced latency bins (")
		s.WriteString(itoa(b.perDecade))
		s.WriteString(" per decade)")
		if o.Y != YLinear {
			s.WriteString(", on log axes")
		}
		s.WriteString(". ")
	}
	s.WriteString("Median: ")
	s.WriteString(listing(kinds, func(k sim.Kind) string { r := &res.Recordings[k]; return cell(r, r.P[sim.P50]) }))
	s.WriteString(". Above " + units.Duration(res.Config.Above) + ": ")
	s.WriteString(listing(kinds, func(k sim.Kind) string {
		r := &res.Recordings[k]
		if r.Count == 0 {
			return "—"
		}
		return units.Share(r.Share()) + " (" + units.Count(r.Above) + ")"
	}))
	s.WriteString(".")
	s.WriteString(failedNote(res))
	switch {
	case len(o.Extra) > 0 && o.CDF:
		s.WriteString(" Beside them: " + seriesNames(o.Extra, o.Theme) + ".")
	case len(o.Extra) > 0:
		s.WriteString(" " + seriesNames(o.Extra, o.Theme) + " give percentiles, not every sample: the CDF draws them beside the recordings.")
	}
	return s.String()
}

func itoa(n int) string { return units.Count(int64(n)) }
