package charts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
	"omission/sim/sweep"
)

// The landscape: one metric of each recording against the field a sweep
// moves (Options.Sweep, Options.Metric), a point per run; the base query's
// value marked by a vertical line, refused points by a cross on the axis,
// and the closed forms (sim.DeriveClosedForms) of the closed and open loops
// as wide pale bands under their lines where they hold.

// landUnit is what a landscape metric counts.
type landUnit uint8

const (
	unitLatency landUnit = iota // ns
	unitShare                   // a fraction
	unitCount                   // requests
)

// landMetric is one metric the landscape draws.
type landMetric struct {
	name, label string // LandscapeMetrics' name; the y axis's label
	unit        landUnit
}

var landMetrics = []landMetric{
	{"p50", "p50 latency", unitLatency}, {"p90", "p90 latency", unitLatency}, {"p99", "p99 latency", unitLatency},
	{"p99_9", "p99.9 latency", unitLatency}, {"p99_99", "p99.99 latency", unitLatency},
	{"max", "max latency", unitLatency}, {"mean", "mean latency", unitLatency},
	{"above_share", "share above the threshold", unitShare},
	{"never_sent", "requests never sent (paced)", unitCount},
}

// LandscapeMetrics returns the landscape's metrics, Options.Metric's
// values: "p50" … "p99_99" (sim.Percentiles' names), "max", "mean",
// "above_share" and "never_sent" (the paced client's requests never sent).
func LandscapeMetrics() []string {
	out := make([]string, len(landMetrics))
	for i, m := range landMetrics {
		out[i] = m.name
	}
	return out
}

func landMetricOf(name string) (landMetric, bool) {
	if name == "" {
		name = "p99"
	}
	for _, m := range landMetrics {
		if m.name == name {
			return m, true
		}
	}
	return landMetric{}, false
}

// kinds are the recordings drawn for the metric, and closed those with a
// closed-form band: the paced client alone for never_sent; else every
// recording, with bands for the closed and open loops.
func (m landMetric) kinds() (drawn, closed []sim.Kind) {
	if m.name == "never_sent" {
		return []sim.Kind{sim.Paced}, []sim.Kind{sim.Paced}
	}
	return sim.Kinds(), []sim.Kind{sim.Closed, sim.Open}
}

// of is the metric of recording k in a point's report.
func (m landMetric) of(r *sweep.PointReport, k sim.Kind) float64 {
	if m.name == "never_sent" {
		c := r.Clients[k.Client().String()]
		return float64(c.Planned - c.Sent)
	}
	rec := r.Recordings[k.String()]
	switch m.name {
	case "max":
		return float64(rec.MaxNs)
	case "mean":
		return rec.MeanNs
	case "above_share":
		return rec.AboveShare
	}
	ps := [...]int64{rec.P50Ns, rec.P90Ns, rec.P99Ns, rec.P999Ns, rec.P9999Ns}
	return float64(ps[m.percentile()])
}

// percentile is a percentile metric's index in sim.Percentiles.
func (m landMetric) percentile() int {
	for i, p := range sim.Percentiles() {
		if p.Name == m.name {
			return i
		}
	}
	return 0
}

// form is the metric of recording k in closed form; ok is false when none
// holds (cf nil: outside the regime) or none is derived for it.
func (m landMetric) form(cf *sim.ClosedForms, k sim.Kind) (float64, bool) {
	if cf == nil || cf.NotApplicable[k] != "" {
		return 0, false
	}
	if m.name == "never_sent" {
		c := cf.Clients[k.Client()]
		if c == nil {
			return 0, false
		}
		return float64(c.Planned - c.Sent), true
	}
	f := cf.Recordings[k]
	if f == nil {
		return 0, false
	}
	switch m.name {
	case "max":
		return float64(f.Max), true
	case "mean":
		return f.Mean(), true
	case "above_share":
		if f.Count == 0 {
			return 0, true
		}
		return float64(f.Above) / float64(f.Count), true
	}
	return float64(f.P[m.percentile()]), true
}

// landLine is one line of the landscape: a y per point, NaN where the
// point has none (refused; outside the closed forms' regime).
type landLine struct {
	kind sim.Kind
	ys   []float64
}

// landData is what the landscape draws, point by point.
type landData struct {
	sw       *sweep.Result
	m        landMetric
	field    sim.FieldKind
	xs       []float64
	lines    []landLine
	forms    []landLine // the closed forms
	regime   int        // points at which the closed forms hold
	why      string     // why they do not, at the first point that ran outside them
	refused  []int      // the refused points
	pending  int        // points neither run nor refused yet (drawn later)
	base     float64    // the base query's value of the field
	baseOK   bool       // it is a number
	lo, hi   float64    // the smallest positive and the largest y
	zero     bool       // some y is 0 or less
	anyValue bool       // some y at all
}

func newLandData(sw *sweep.Result, m landMetric) *landData {
	d := &landData{sw: sw, m: m, field: sim.KindCount}
	if fi, ok := sim.LookupField(sw.Field); ok {
		d.field = fi.Kind
	}
	d.base, d.baseOK = sw.BaseNumber()
	drawn, closed := m.kinds()
	n := len(sw.Points)
	for _, k := range drawn {
		d.lines = append(d.lines, landLine{k, nanSlice(n)})
	}
	for _, k := range closed {
		d.forms = append(d.forms, landLine{k, nanSlice(n)})
	}
	for i, p := range sw.Points {
		d.xs = append(d.xs, p.X)
		if p.PointReport == nil && p.Refused == "" {
			d.pending++ // not run yet: a sweep drawn as its points arrive
			continue
		}
		if p.PointReport == nil {
			d.refused = append(d.refused, i)
			continue
		}
		for j := range d.lines {
			d.lines[j].ys[i] = d.see(m.of(p.PointReport, d.lines[j].kind))
		}
		cf := sim.DeriveClosedForms(p.Config)
		if cf == nil && d.why == "" {
			_, why := sim.Regime(p.Config)
			d.why = strings.Join(why, "; ")
		}
		held := false
		for j := range d.forms {
			if v, ok := m.form(cf, d.forms[j].kind); ok {
				d.forms[j].ys[i], held = d.see(v), true
			}
		}
		if held {
			d.regime++
		}
	}
	return d
}

// see notes y in the range and returns it.
func (d *landData) see(y float64) float64 {
	d.anyValue = true
	if y <= 0 {
		d.zero = true
	} else if d.lo == 0 || y < d.lo {
		d.lo = y
	}
	d.hi = math.Max(d.hi, y)
	return y
}

func nanSlice(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// landscape renders the Landscape chart of o.Sweep.
func landscape(_ *sim.Result, o Options, f *frame) *Chart {
	sw := o.Sweep
	if sw == nil || len(sw.Points) == 0 {
		msg := "The landscape draws a sweep of one field (sweep=field:from..to/n, a run per point): this chart was given none."
		f.placeholder(msg)
		return &Chart{Caption: msg}
	}
	m, ok := landMetricOf(o.Metric)
	if !ok {
		msg := fmt.Sprintf("The landscape has no metric %q: allowed %s.", o.Metric, strings.Join(LandscapeMetrics(), ", "))
		f.placeholder(msg)
		return &Chart{Caption: msg}
	}
	d := newLandData(sw, m)
	logX := sw.Geometric && d.xs[0] > 0
	logY := o.Y == YLog || o.Y == YAuto && d.lo > 0 && d.hi/d.lo > 100
	if d.lo <= 0 {
		logY = false
	}
	ymin, ymax, floor := landRange(d.lo, d.hi, d.zero, logY)

	c := f.legendStrip(f.dc, d.legend(f.th))
	p := f.newPlot()
	d.axes(p, f, c, logX, logY, ymin, ymax)
	p.Add(f.grid())
	d.addLines(p, f.th, floor)
	sp := &spotter{d: d, floor: floor}
	p.Add(sp)
	f.drawPlot(c, p, m.label, nil)

	ch := &Chart{Available: true, Spots: sp.list}
	for i := range ch.Spots {
		ch.Spots[i].Y = float64(o.Height) - ch.Spots[i].Y
	}
	ch.Table = d.table()
	ch.Caption = d.caption(logX, logY)
	return ch
}

// landRange is the y axis's range for values lo (the smallest positive) to
// hi, and the floor at which values of 0 are drawn on a log axis.
func landRange(lo, hi float64, zero, log bool) (min, max, floor float64) {
	if hi <= 0 {
		return 0, 1, 0
	}
	if !log {
		return 0, hi * 1.08, 0
	}
	min = math.Pow(10, math.Floor(math.Log10(lo)))
	if zero {
		min /= 10
	}
	return min, math.Max(hi*1.3, min*10), min
}

// axes sets the plot's ranges, scales and ticks: x the field, a little
// wider than the sweep so that its end points show whole; y the metric.
func (d *landData) axes(p *plot.Plot, f *frame, c draw.Canvas, logX, logY bool, ymin, ymax float64) {
	x0, x1 := d.xs[0], d.xs[len(d.xs)-1]
	if logX {
		pad := math.Pow(x1/x0, 0.03)
		p.X.Min, p.X.Max = x0/pad, x1*pad
		p.X.Scale = plot.LogScale{}
	} else {
		pad := (x1 - x0) * 0.03
		p.X.Min, p.X.Max = x0-pad, x1+pad
		if x0 >= 0 && p.X.Min < 0 {
			p.X.Min = math.Min(-pad, 0)
		}
	}
	n := max(2, int((c.Max.X-c.Min.X)/110)) // labels about 110 px apart
	switch d.field {
	case sim.KindDuration:
		p.X.Tick.Marker = durationTicks{log: logX, n: n}
	default:
		p.X.Tick.Marker = numberTicks{log: logX, n: n, whole: d.field == sim.KindCount}
	}
	p.X.Label.Text = d.sw.Field
	if d.field == sim.KindRate {
		p.X.Label.Text += " (requests per second)"
	}
	p.Y.Min, p.Y.Max = ymin, ymax
	if logY {
		p.Y.Scale = plot.LogScale{}
	}
	switch d.m.unit {
	case unitLatency:
		p.Y.Tick.Marker = durationTicks{log: logY, n: 4}
	case unitShare:
		p.Y.Tick.Marker = shareTicks{log: logY}
	default:
		p.Y.Tick.Marker = numberTicks{log: logY, n: 4, whole: true}
	}
}

// addLines adds the closed forms' bands, the recordings' lines and points,
// the base query's mark and the refused points' crosses.
func (d *landData) addLines(p *plot.Plot, th *theme, floor float64) {
	for _, l := range d.forms {
		p.Add(segments{xs: d.xs, ys: l.ys, floor: floor, style: formStyle(th, l.kind)})
	}
	for _, l := range d.lines {
		g := th.glyph(l.kind)
		p.Add(segments{xs: d.xs, ys: l.ys, floor: floor, style: th.line(l.kind), glyph: &g})
	}
	if d.baseOK && d.base >= p.X.Min && d.base <= p.X.Max {
		p.Add(vline{d.base, baseStyle(th)})
	}
	if len(d.refused) > 0 {
		p.Add(crosses{xs: d.refusedXs(), style: refusedGlyph(th)})
	}
}

func formStyle(th *theme, k sim.Kind) draw.LineStyle {
	return draw.LineStyle{Color: withAlpha(th.kinds[k], 0.3), Width: 7}
}

func baseStyle(th *theme) draw.LineStyle {
	return draw.LineStyle{Color: th.ink, Width: 1.2, Dashes: []vg.Length{6, 3}}
}

func refusedGlyph(th *theme) draw.GlyphStyle {
	return draw.GlyphStyle{Color: th.muted, Radius: 4, Shape: draw.CrossGlyph{}}
}

func (d *landData) refusedXs() []float64 {
	out := make([]float64, len(d.refused))
	for i, j := range d.refused {
		out[i] = d.xs[j]
	}
	return out
}

// legend lists the recordings drawn, then the closed forms, the base
// query's mark and the refused points when the chart has them.
func (d *landData) legend(th *theme) []legendItem {
	var items []legendItem
	for _, l := range d.lines {
		g := th.glyph(l.kind)
		items = append(items, legendItem{l.kind.String(), lineThumb(th.line(l.kind), &g)})
	}
	if d.regime > 0 {
		items = append(items, legendItem{"closed form", lineThumb(draw.LineStyle{Color: withAlpha(th.ink, 0.3), Width: 7}, nil)})
	}
	if d.baseOK {
		items = append(items, legendItem{"this query", lineThumb(baseStyle(th), nil)})
	}
	if len(d.refused) > 0 {
		g := refusedGlyph(th)
		items = append(items, legendItem{"refused", lineThumb(draw.LineStyle{}, &g)})
	}
	return items
}

// segments is a line through the points that have a y, broken where one
// has none (NaN), with a glyph at each point if glyph is set. Values below
// floor (zeros on a log axis) are drawn on it.
type segments struct {
	xs, ys []float64
	floor  float64
	style  draw.LineStyle
	glyph  *draw.GlyphStyle
}

func (s segments) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var run, all []vg.Point
	flush := func() {
		if len(run) > 1 {
			c.StrokeLines(s.style, c.ClipLinesXY(run)...)
		}
		run = nil
	}
	for i, y := range s.ys {
		if math.IsNaN(y) {
			flush()
			continue
		}
		pt := vg.Point{X: trX(s.xs[i]), Y: trY(atFloor(y, s.floor))}
		run = append(run, pt)
		all = append(all, pt)
	}
	flush()
	if s.glyph != nil {
		for _, pt := range all {
			c.DrawGlyph(*s.glyph, pt)
		}
	}
}

// spotter records where each point of the sweep is drawn (Chart.Spots):
// at the highest of its lines' values, or at its cross when refused. It
// draws nothing.
type spotter struct {
	d     *landData
	floor float64
	list  []Spot
}

func (s *spotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	s.list = s.list[:0]
	for i, x := range s.d.xs {
		top, ok := math.Inf(-1), false
		for _, l := range s.d.lines {
			if y := l.ys[i]; !math.IsNaN(y) && y > top {
				top, ok = y, true
			}
		}
		pt := s.d.sw.Points[i]
		if pt.PointReport == nil && pt.Refused == "" {
			continue // pending: no spot yet
		}
		sp := Spot{Index: i, X: float64(trX(x))}
		if ok {
			sp.Y = float64(trY(atFloor(top, s.floor)))
		} else {
			sp.Refused = true
			sp.Y = float64(c.Min.Y + 6) // the cross's centre (crosses: its radius and 2)
		}
		s.list = append(s.list, sp)
	}
}

// crosses marks x positions on the bottom of the data area.
type crosses struct {
	xs    []float64
	style draw.GlyphStyle
}

func (m crosses) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, x := range m.xs {
		c.DrawGlyph(m.style, vg.Point{X: trX(x), Y: c.Min.Y + m.style.Radius + 2})
	}
}

// numberTicks labels an axis of plain numbers (rates, counts): on a log
// axis a labelled tick per decade, on a linear one nice steps; whole keeps
// to whole numbers.
type numberTicks struct {
	log, whole bool
	n          int
}

func (t numberTicks) Ticks(min, max float64) []plot.Tick {
	if t.log {
		return logTicks(min, max, func(v float64) string {
			if v >= 1 {
				return units.Count(int64(math.Round(v)))
			}
			return strconv.FormatFloat(v, 'g', 3, 64)
		})
	}
	ticks := linearTicks(min, max, max1(t.n), func(v, step float64) string {
		return strconv.FormatFloat(v, 'f', decimals(step, 1), 64)
	})
	if !t.whole {
		return ticks
	}
	out := ticks[:0]
	for _, tk := range ticks {
		if tk.Value == math.Trunc(tk.Value) {
			out = append(out, tk)
		}
	}
	return out
}

// xText writes a value of the field for people.
func (d *landData) xText(x float64) string {
	switch d.field {
	case sim.KindDuration:
		return units.Duration(x)
	case sim.KindRate:
		return units.Raw(x) + "/s"
	}
	return units.Count(int64(x))
}

// yText writes a value of the metric for people, "—" for none.
func (d *landData) yText(y float64) string {
	switch {
	case math.IsNaN(y):
		return "—"
	case d.m.unit == unitLatency:
		return units.Duration(y)
	case d.m.unit == unitShare:
		return units.Share(y)
	}
	return units.Count(int64(y))
}

// table is the landscape's data: a row per point, the field's value, each
// recording's metric, the closed forms' and why a point was refused.
func (d *landData) table() Table {
	t := Table{Header: []string{d.sw.Field}}
	for _, l := range d.lines {
		t.Header = append(t.Header, l.kind.String())
	}
	for _, l := range d.forms {
		t.Header = append(t.Header, "closed form: "+l.kind.String())
	}
	t.Header = append(t.Header, "refused")
	for i, p := range d.sw.Points {
		row := []string{d.xText(d.xs[i])}
		for _, l := range d.lines {
			row = append(row, d.yText(l.ys[i]))
		}
		for _, l := range d.forms {
			row = append(row, d.yText(l.ys[i]))
		}
		why := p.Refused
		if p.PointReport == nil && why == "" {
			why = "not run yet"
		}
		t.Rows = append(t.Rows, append(row, why))
	}
	return t
}

// caption says what the chart shows, with its numbers at both ends, where
// the query sits, which points were refused and where the closed forms hold.
func (d *landData) caption(logX, logY bool) string {
	sw := d.sw
	var b strings.Builder
	fmt.Fprintf(&b, "The %s of each recording against %s: %s of the sweep %s over %s", d.m.label, sw.Field,
		units.Plural(int64(len(sw.Points)), "point"), sw.Spec, sim.QueryWords(sw.Query))
	switch {
	case logX && logY:
		b.WriteString(", on log axes")
	case logX:
		b.WriteString(", on a log " + sw.Field + " axis")
	case logY:
		b.WriteString(", on a log " + d.m.label + " axis")
	}
	b.WriteString(". ")
	switch {
	case !d.baseOK:
		fmt.Fprintf(&b, "This query's %s is %s, not a number, and is not marked. ", sw.Field, sw.Value)
	case d.base < d.xs[0] || d.base > d.xs[len(d.xs)-1]:
		fmt.Fprintf(&b, "This query's %s, %s, lies outside the sweep. ", sw.Field, d.xText(d.base))
	default:
		fmt.Fprintf(&b, "The dashed line marks this query's %s, %s. ", sw.Field, d.xText(d.base))
	}
	d.ends(&b)
	if n := len(d.refused); n > 0 {
		var at []string
		for _, i := range d.refused[:min(n, 5)] {
			at = append(at, d.xText(d.xs[i]))
		}
		if n > 5 {
			at = append(at, "…")
		}
		fmt.Fprintf(&b, "%s refused, drawn as crosses (at %s): %s. ", units.Plural(int64(n), "point"), strings.Join(at, ", "),
			strings.TrimSuffix(sw.Points[d.refused[0]].Refused, "."))
	}
	d.formsText(&b)
	if d.pending > 0 {
		fmt.Fprintf(&b, " %s still to run.", units.Plural(int64(d.pending), "point"))
	}
	return strings.TrimSpace(b.String())
}

// ends writes each recording's metric at the first and the last point
// that ran.
func (d *landData) ends(b *strings.Builder) {
	first, last := -1, -1
	for i, p := range d.sw.Points {
		if p.PointReport != nil {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		b.WriteString("No point ran. ")
		return
	}
	drawn, _ := d.m.kinds()
	at := func(i int) {
		fmt.Fprintf(b, "At %s: %s. ", d.xText(d.xs[i]), listing(drawn, func(k sim.Kind) string {
			return d.yText(d.lines[indexIn(drawn, k)].ys[i])
		}))
	}
	at(first)
	if last != first {
		at(last)
	}
}

// formsText says where the closed forms hold, or that none does and why.
func (d *landData) formsText(b *strings.Builder) {
	var names []string
	for _, l := range d.forms {
		names = append(names, l.kind.String())
	}
	who := strings.Join(names, " and ")
	ran := len(d.sw.Points) - len(d.refused) - d.pending
	switch {
	case d.regime == 0 && d.why != "":
		fmt.Fprintf(b, "No closed form of %s holds at these points, so none is drawn: %s.", who, d.why)
	case d.regime == 0:
		fmt.Fprintf(b, "No closed form of %s is drawn: no point ran.", who)
	case d.regime < ran && d.why != "":
		fmt.Fprintf(b, "The closed forms of %s hold at %d of the %d points that ran (pale bands under the lines); elsewhere: %s.", who, d.regime, ran, d.why)
	case d.regime < ran:
		fmt.Fprintf(b, "The closed forms of %s hold at %d of the %d points that ran (pale bands under the lines).", who, d.regime, ran)
	default:
		fmt.Fprintf(b, "The closed forms of %s hold at every point that ran (pale bands under the lines).", who)
	}
}

func indexIn(ks []sim.Kind, k sim.Kind) int {
	for i, x := range ks {
		if x == k {
			return i
		}
	}
	return 0
}
