package charts

import (
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// latencyRange returns the y range of latencies lo..hi (ns) on a log or
// linear axis, and the floor at which zero latencies are drawn on a log
// axis. lo and hi are the smallest positive and the largest sample; zero
// tells whether any sample is 0.
func latencyRange(lo, hi int64, zero, log bool) (min, max, floor float64) {
	if !log {
		if hi <= 0 {
			return 0, 1e3, 0
		}
		return 0, float64(hi) * 1.08, 0
	}
	if lo <= 0 { // no positive sample at all
		return 1e3, 1e6, 1e3
	}
	min = math.Pow(10, math.Floor(math.Log10(float64(lo))))
	if zero {
		min /= 10
	}
	max = math.Max(float64(hi)*1.3, min*10)
	return min, max, min
}

// spectrumDecades is how many nines the percentile axis shows: enough that
// the largest recording's last sample sits before its end, at least five
// (99.999%) so that the p99.99 marker is never at the edge.
func spectrumDecades(maxN int64) int {
	d := 5
	if maxN > 0 {
		d = max(d, int(math.Floor(math.Log10(float64(maxN))))+1)
	}
	return min(d, maxNines-1)
}

// spectrum renders the Spectrum chart: its range, its axes, its lines and markers, then its text.
func spectrum(res *sim.Result, o Options, f *frame) *Chart {
	th := f.th
	maxN, lo, hi, zero := spectrumRange(res)
	D := spectrumDecades(maxN)
	xmax := ninesToP(float64(D))
	logY := o.Y != YLinear
	lo, hi, zero = extraRange(o.Extra, lo, hi, zero)
	ymin, ymax, floor := latencyRange(lo, hi, zero, logY)

	c := f.legendStrip(f.dc, append(spectrumLegend(res, th), extraLegend(th, o.Extra)...))
	p := f.spectrumPlot(c, D, ymin, ymax, logY)
	marks := addSpectrumLines(p, res, th, o.Width, D, floor)
	addSpectrumSeries(p, th, o.Extra, xmax, floor)
	p.Add(marks)
	f.drawPlot(c, p, "latency", nil)
	for i := range marks.list { // to SVG coordinates: y grows downwards
		marks.list[i].Y = float64(o.Height) - marks.list[i].Y
	}

	ch := &Chart{Available: true, Markers: marks.list}
	ch.Table, ch.Caption = spectrumText(res, logY, zero)
	if len(o.Extra) > 0 {
		extraColumns(&ch.Table, o.Extra)
		ch.Caption += " Beside them: " + seriesNames(o.Extra, th.t) + "."
	}
	return ch
}

// spectrumRange returns the largest sample count, the smallest positive and the largest sample, and whether any is 0.
func spectrumRange(res *sim.Result) (maxN, lo, hi int64, zero bool) {
	for _, k := range sim.Kinds() {
		d := res.Recordings[k].Dist
		if d == nil || d.Count() == 0 {
			continue
		}
		maxN = max(maxN, d.Count())
		if m := minPositive(d); m > 0 && (lo == 0 || m < lo) {
			lo = m
		}
		hi = max(hi, d.Max())
		if d.CountAtOrBelow(0) > 0 {
			zero = true
		}
	}
	return maxN, lo, hi, zero
}

// spectrumPlot returns the spectrum's plot with its percentile axis of D decades and its latency axis, and its grid.
func (f *frame) spectrumPlot(c draw.Canvas, D int, ymin, ymax float64, logY bool) *plot.Plot {
	p := f.newPlot()
	p.X.Scale = PercentileScale{}
	p.X.Min, p.X.Max = 0, ninesToP(float64(D))
	p.X.Label.Text = "percentile (spaced by 1/(1−p))"
	p.Y.Min, p.Y.Max = ymin, ymax
	if logY {
		p.Y.Scale = plot.LogScale{}
	}
	p.Y.Tick.Marker = durationTicks{log: logY, n: 4}
	// Label every decade if the labels fit, else every second or third.
	widest := f.tick.Width(PercentLabel(D))
	decade := (c.Max.X - c.Min.X - 70) / vg.Length(D)
	p.X.Tick.Marker = PercentileTicks{Every: int(math.Ceil(float64((widest + 10) / decade)))}
	p.Add(f.grid())
	return p
}

// addSpectrumLines adds each recording's line, npts points over D decades, and returns its percentile markers.
func addSpectrumLines(p *plot.Plot, res *sim.Result, th *theme, npts, D int, floor float64) *markers {
	marks := &markers{th: th, floor: floor}
	for _, k := range sim.Kinds() {
		r := &res.Recordings[k]
		d := r.Dist
		if d == nil || d.Count() == 0 {
			continue
		}
		p.Add(polyline{simplify(spectrumLine(d, res.Config.Rank, npts, D, floor)), th.line(k)})
		for i, pc := range sim.Percentiles() {
			id := k.String() + "." + pc.Name
			marks.list = append(marks.list, Marker{Recording: k, Percentile: pc.Name, Fraction: float64(pc.PPM) / 1e6,
				Value: r.P[i], Check: id, HasCheck: res.CheckFor(id) != nil})
		}
	}
	return marks
}

// spectrumLine returns a distribution's latency at npts+1 points evenly spaced in 1/(1−p) and at the five percentiles.
func spectrumLine(d *sim.Dist, rank sim.Rank, npts, D int, floor float64) plotter.XYs {
	// One point per px of width in 1/(1−p), plus the five percentiles
	// exactly, so the line runs through its markers.
	n := d.Count()
	type pt struct {
		p    float64
		rank int64
	}
	pts := make([]pt, 0, npts+sim.NumPercentiles+1)
	for j := 0; j <= npts; j++ {
		q := ninesToP(float64(D) * float64(j) / float64(npts))
		pts = append(pts, pt{q, sim.RankAt(q, n, rank)})
	}
	for _, pc := range sim.Percentiles() {
		pts = append(pts, pt{float64(pc.PPM) / 1e6, sim.RankOf(pc.PPM, n, rank)})
	}
	pts = append(pts, pt{ninesToP(float64(D)), n})                            // the largest sample ends the line
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].p < pts[j].p }) // shared code, not a generic sort compiled for pt
	ranks := make([]int64, len(pts))
	var run int64
	for i, q := range pts {
		run = max(run, q.rank)
		ranks[i] = run
	}
	vals := valuesAtRanks(d, ranks)
	xys := make(plotter.XYs, len(pts))
	for i := range pts {
		xys[i] = plotter.XY{X: pts[i].p, Y: atFloor(float64(vals[i]), floor)}
	}
	return xys
}

// atFloor lifts values below floor (zeros on a log axis) to it.
func atFloor(v, floor float64) float64 {
	if v < floor {
		return floor
	}
	return v
}

// simplify drops points that lie between two neighbours of the same y: a
// spectrum is flat over long runs, and the SVG need not say so twice.
func simplify(xys plotter.XYs) plotter.XYs {
	if len(xys) < 3 {
		return xys
	}
	out := xys[:1]
	for i := 1; i < len(xys)-1; i++ {
		if xys[i].Y == out[len(out)-1].Y && xys[i].Y == xys[i+1].Y {
			continue
		}
		out = append(out, xys[i])
	}
	return append(out, xys[len(xys)-1])
}

// markers draws the percentile markers and records where they went.
type markers struct {
	th    *theme
	floor float64
	list  []Marker
}

func (m *markers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range m.list {
		mk := &m.list[i]
		pt := vg.Point{X: trX(mk.Fraction), Y: trY(atFloor(float64(mk.Value), m.floor))}
		c.DrawGlyph(m.th.glyph(mk.Recording), pt)
		mk.X, mk.Y = float64(pt.X), float64(pt.Y)
	}
}

func spectrumLegend(res *sim.Result, th *theme) []legendItem {
	var items []legendItem
	for _, k := range sim.Kinds() {
		g := th.glyph(k)
		items = append(items, legendItem{k.String(), lineThumb(th.line(k), &g)})
	}
	return items
}

// cell formats a recording's number, or "—" when it has no samples.
func cell(r *sim.Recording, v int64) string {
	if r.Count == 0 {
		return "—"
	}
	return units.Duration(v)
}

func spectrumText(res *sim.Result, logY, zero bool) (Table, string) {
	kinds := sim.Kinds()
	t := Table{Header: []string{"percentile"}}
	for _, k := range kinds {
		t.Header = append(t.Header, k.String())
	}
	for i, pc := range sim.Percentiles() {
		row := []string{pname(pc.Name)}
		for _, k := range kinds {
			r := &res.Recordings[k]
			row = append(row, cell(r, r.P[i]))
		}
		t.Rows = append(t.Rows, row)
	}
	maxRow, countRow := []string{"max"}, []string{"count"}
	for _, k := range kinds {
		r := &res.Recordings[k]
		maxRow = append(maxRow, cell(r, r.Max))
		countRow = append(countRow, units.Count(r.Count))
	}
	t.Rows = append(t.Rows, maxRow, countRow)

	var b strings.Builder
	b.WriteString("Latency at each percentile of the five recordings, on a percentile axis spaced by 1/(1−p) (0%, 90%, 99%, 99.9%, …)")
	if logY {
		b.WriteString(" and a log latency axis")
	}
	b.WriteString(". ")
	for _, i := range []int{2, 4} {
		b.WriteString(pname(sim.Percentiles()[i].Name) + ": ")
		b.WriteString(listing(kinds, func(k sim.Kind) string { r := &res.Recordings[k]; return cell(r, r.P[i]) }))
		b.WriteString(". ")
	}
	b.WriteString("Max: ")
	b.WriteString(listing(kinds, func(k sim.Kind) string { r := &res.Recordings[k]; return cell(r, r.Max) }))
	b.WriteString(".")
	b.WriteString(failedNote(res))
	if zero && logY {
		b.WriteString(" Latencies of 0 are drawn on the bottom of the axis.")
	}
	return t, b.String()
}
