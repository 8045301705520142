package charts

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"omission/app/units"
	"omission/sim"
	"omission/sim/sweep"
)

// Kind names one of the charts: an index into kinds, the table of charts.
type Kind uint8

// The charts, in page order. A new chart is a const here, its row in kinds
// and a file with its draw function.
const (
	Spectrum     Kind = iota // latency by percentile on a 1/(1−p) axis
	Distribution             // histogram (or CDF) of latencies in log-spaced bins
	LatencyTime              // each request's latency over time, per measured recording
	QueueDepth               // requests outstanding over time, per client
	Landscape                // a metric of each recording against a swept field (Options.Sweep)
	numKinds
)

// kindSpec is what a chart kind carries.
type kindSpec struct {
	name  string // data-chart name, the embed's figure= and the file name
	title string // heading
	// stacked charts draw a panel per recording or client: they are taller
	// by default and need MinStackHeight.
	stacked bool
	// extra charts draw Options.Extra (tools, measured files, a second run).
	extra bool
	// sweep charts draw Options.Sweep, the points of a sweep, not the one
	// run: Kinds leaves them out (the page draws Kinds for every run).
	sweep bool
	// draw renders the chart's SVG into f and returns its text; Render sets
	// its kind, size and title.
	draw func(res *sim.Result, o Options, f *frame) *Chart
}

// kinds is the table of charts, one row per Kind.
var kinds = [numKinds]kindSpec{
	Spectrum:     {name: "spectrum", title: "Percentile spectrum", extra: true, draw: spectrum},
	Distribution: {name: "distribution", title: "Latency distribution", extra: true, draw: distribution},
	LatencyTime:  {name: "latency-time", title: "Latency over time", stacked: true, draw: latencyTime},
	QueueDepth:   {name: "queue-depth", title: "Queue depth over time", stacked: true, draw: queueDepth},
	Landscape:    {name: "landscape", title: "Landscape", sweep: true, draw: landscape},
}

// Kinds returns the charts of one run, in page order (not the landscape,
// a chart of a sweep: SweepKinds).
func Kinds() []Kind { return kindsWhere(false) }

// SweepKinds returns the charts of a sweep (Options.Sweep): the landscape.
func SweepKinds() []Kind { return kindsWhere(true) }

func kindsWhere(sweep bool) []Kind {
	var out []Kind
	for k := range kinds {
		if kinds[k].sweep == sweep {
			out = append(out, Kind(k))
		}
	}
	return out
}

// DrawsSweep reports whether the chart draws Options.Sweep (the landscape).
func (k Kind) DrawsSweep() bool { return k < numKinds && kinds[k].sweep }

// String returns the chart's data-chart name: "spectrum", "distribution",
// "latency-time", "queue-depth" or "landscape".
func (k Kind) String() string {
	if k >= numKinds {
		return "chart(" + strconv.Itoa(int(k)) + ")"
	}
	return kinds[k].name
}

// Title returns the chart's heading.
func (k Kind) Title() string {
	if k >= numKinds {
		return k.String()
	}
	return kinds[k].title
}

// DrawsExtra reports whether the chart draws Options.Extra (the spectrum
// and the distribution do; the time series draw only the run).
func (k Kind) DrawsExtra() bool { return k < numKinds && kinds[k].extra }

// stacked reports whether the chart stacks a panel per recording or client.
func (k Kind) stacked() bool { return k < numKinds && kinds[k].stacked }

// ParseKind returns the Kind whose String is s.
func ParseKind(s string) (Kind, bool) {
	for k, spec := range kinds {
		if spec.name == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// YScale selects the scale of a chart's main value axis.
type YScale uint8

const (
	// YAuto is each chart's default: log latency for the spectrum, log
	// shares for the histogram, linear for the time series.
	YAuto YScale = iota
	YLog
	YLinear
)

// Options are the display choices of one chart. The zero value is a
// light chart of the kind's default size with default scales.
type Options struct {
	// Width and Height in CSS px (the SVG's user units); 0 takes
	// DefaultSize. Sizes are clamped to [MinWidth, MaxWidth] and
	// [MinHeight or MinStackHeight, MaxHeight].
	Width, Height int
	// Y is the scale of the latency axis of Spectrum and LatencyTime and of
	// the share axis of the Distribution histogram. The CDF's axis and
	// QueueDepth's count axis are always linear.
	Y YScale
	// CDF draws the Distribution as cumulative shares instead of a histogram.
	CDF   bool
	Theme Theme
	// Extra are distributions drawn beside the recordings, on the spectrum
	// and on the distribution's CDF (tools, measured files, a second run).
	Extra []Series
	// Sweep is what the landscape draws: a sweep's points, run (sim's
	// Sweep.Run, or its points run one by one: a point with neither a
	// report nor a refusal is not run yet and left out), and the base query's value
	// of the swept field, which it marks. The other charts ignore it; the
	// landscape reads nothing else of the result Render is given (the base
	// query's).
	Sweep *sweep.Result
	// Metric is the landscape's metric, one of LandscapeMetrics ("" is p99).
	Metric string
}

// Size limits, in px. The time series stack three panels and need
// MinStackHeight.
const (
	MinWidth, MinHeight = 240, 160
	MinStackHeight      = 320
	MaxWidth, MaxHeight = 4096, 4096
)

// DefaultSize returns a chart's size when Options leave it 0. The time
// series are taller: they stack one panel per client.
func DefaultSize(k Kind) (w, h int) {
	if k.stacked() {
		return 640, 480
	}
	return 640, 360
}

func (o Options) normalised(k Kind) Options {
	dw, dh := DefaultSize(k)
	if o.Width <= 0 {
		o.Width = dw
	}
	if o.Height <= 0 {
		o.Height = dh
	}
	minH := MinHeight
	if k.stacked() {
		minH = MinStackHeight
	}
	o.Width = min(max(o.Width, MinWidth), MaxWidth)
	o.Height = min(max(o.Height, minH), MaxHeight)
	if o.Theme != Dark {
		o.Theme = Light
	}
	return o
}

// Chart is one rendered chart and its text alternatives.
type Chart struct {
	Kind          Kind
	Width, Height int // px
	// SVG is a single <svg> element (no XML prolog), sized Width×Height px
	// with a matching viewBox, role="img" and a <title>. It can be
	// inlined (go-app's app.Raw) or saved as an .svg file as it is.
	SVG string
	// Src is the chart's image address when a page has it without its SVG
	// (the static HTML's image, taken over by the app); "" otherwise.
	Src     string `json:",omitempty"`
	Title   string
	Caption string // one paragraph with the chart's key numbers
	Table   Table  // the data behind the chart, for screen readers
	// Markers are the spectrum's percentile markers (nil for other kinds).
	Markers []Marker
	// Spots are the landscape's points, one per point of its sweep that
	// ran or was refused, in its order (nil for other kinds): where a page
	// puts a focusable link that shows the point's numbers and opens its
	// run. A point not run yet (neither a report nor a refusal: a sweep
	// drawn as it arrives) has none, and its table row says so.
	Spots []Spot `json:",omitempty"`
	// Available is false when the chart needs per-request data that the
	// run did not keep: SVG and Caption then say so, and Table is empty.
	Available bool
}

// Table is a chart's data as text: a header row and data rows of the same
// width. The first column labels the row.
type Table struct {
	Header []string
	Rows   [][]string
}

// Marker is one percentile marker on the spectrum, where the page can put
// a link to the check of the same number.
type Marker struct {
	Recording  sim.Kind
	Percentile string // sim.Percentiles()[i].Name: "p50", "p90", "p99", "p99_9", "p99_99"
	Fraction   float64
	Value      int64 // ns: the recording's P[i], as in the table
	// Check is the id of the check on this number ("open.p99_9"), the
	// page's id="check-<Check>"; HasCheck reports whether the result has
	// such a check (not every regime has a closed form).
	Check    string
	HasCheck bool
	// X and Y are the marker's centre in SVG user units (px from the
	// top-left corner of the chart).
	X, Y float64
}

// Spot is one point of the landscape: the sweep's point Index, drawn at
// X, Y in SVG user units (px from the top-left corner of the chart), at
// the highest of its recordings' values (a refused point at its cross);
// Index is also its row in the chart's Table.
type Spot struct {
	Index   int
	X, Y    float64
	Refused bool `json:",omitempty"`
}

// FontFamily is the SVG font-family of every text. gonum/plot measures
// text with its embedded Liberation Sans; Arimo, Arial and Helvetica share
// its metrics, so labels laid out for one fit in the others; sans-serif is
// the last resort. No font is embedded.
const FontFamily = "'Liberation Sans',Arimo,Arial,Helvetica,sans-serif"

// ErrNoResult is returned for a nil result.
var ErrNoResult = errors.New("charts: no result")

// Render draws chart kind of res. It is a pure function of its arguments:
// call it when the result or the options change and keep what it returns
// (it takes milliseconds, not microseconds). A panic inside the plotting
// library is returned as an error, so a bad input never ends the page.
func Render(res *sim.Result, kind Kind, opts Options) (ch *Chart, err error) {
	if res == nil {
		return nil, ErrNoResult
	}
	if kind >= numKinds {
		return nil, fmt.Errorf("charts: unknown chart kind %d", kind)
	}
	defer func() {
		if r := recover(); r != nil {
			ch, err = nil, fmt.Errorf("charts: drawing the %s failed: %v", kind, r)
		}
	}()
	o := opts.normalised(kind)
	f := newFrame(o, kind.Title())
	ch = kinds[kind].draw(res, o, f)
	ch.Kind, ch.Width, ch.Height, ch.Title = kind, o.Width, o.Height, f.title
	ch.SVG = f.finish()
	return ch, nil
}

// RenderAll renders every chart with the same options.
func RenderAll(res *sim.Result, opts Options) ([]*Chart, error) {
	out := make([]*Chart, 0, numKinds)
	for _, k := range Kinds() {
		ch, err := Render(res, k, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// frame is the SVG canvas of one chart and its text styles.
type frame struct {
	o                   Options
	title               string // the chart's heading
	th                  *theme
	svg                 *vgsvg.Canvas
	dc                  draw.Canvas
	text                *measurer
	tick, label, legend text.Style
}

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// margin around the chart, px.
const margin = 6

func newFrame(o Options, title string) *frame {
	// One SVG user unit is one px; gonum's lengths are points, so a
	// length of n points is drawn as n px and text measured at n points
	// is drawn at font-size n px: the two agree.
	w, h := vg.Length(o.Width), vg.Length(o.Height)
	c := vgsvg.New(w, h)
	f := &frame{o: o, title: title, th: newTheme(o.Theme), svg: c}
	f.dc = draw.New(c)
	f.dc.SetColor(f.th.bg)
	f.dc.Fill(f.dc.Rectangle.Path())
	f.dc = draw.Crop(f.dc, margin, -margin, margin, -margin)
	f.text = newMeasurer()
	style := func(size vg.Length) text.Style {
		return text.Style{Color: f.th.ink, Font: font.From(sans, size), Handler: f.text}
	}
	f.tick, f.label, f.legend = style(11), style(12), style(11.5)
	return f
}

// newPlot returns a plot in the frame's theme with no background (the frame
// paints it) and explicit axis fonts.
func (f *frame) newPlot() *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil
	p.TextHandler = f.text
	p.Title.TextStyle.Handler = f.text
	p.Legend.TextStyle.Handler = f.text
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Color = f.th.ink
		a.Width = 1
		a.Padding = 4
		a.Tick.Color = f.th.ink
		a.Tick.Width = 1
		a.Tick.Length = 5
		xa, ya := a.Tick.Label.XAlign, a.Tick.Label.YAlign
		a.Tick.Label = f.tick
		a.Tick.Label.XAlign, a.Tick.Label.YAlign = xa, ya
		xa, ya = a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign
		a.Label.TextStyle = f.label
		a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign = xa, ya
		a.Label.Padding = 3
	}
	return p
}

// labelled splits c into a strip on the left for a rotated y label and
// the canvas for the plot itself. (gonum centres a y label's glyph box on
// the data midpoint, which on a log axis lies near the top and squeezes
// the plot, so the frame draws y labels itself.)
func (f *frame) labelled(c draw.Canvas) draw.Canvas {
	return draw.Crop(c, f.label.FontExtents().Height+4, 0, 0, 0)
}

// drawLabel writes ylabel, rotated, at the left edge of c, centred on the
// data area p will have in inner.
func (f *frame) drawLabel(c, inner draw.Canvas, p *plot.Plot, ylabel string, col color.Color) {
	sty := f.label
	if col != nil {
		sty.Color = col
	}
	sty.Rotation = math.Pi / 2
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	dc := p.DataCanvas(inner)
	c.FillText(sty, vg.Point{X: c.Min.X, Y: dc.Center().Y}, ylabel)
}

// drawPlot draws p in c with ylabel to the left of its y axis.
func (f *frame) drawPlot(c draw.Canvas, p *plot.Plot, ylabel string, col color.Color) {
	inner := f.labelled(c)
	f.drawLabel(c, inner, p, ylabel, col)
	p.Draw(inner)
}

// grid returns horizontal grid lines at the labelled y ticks.
func (f *frame) grid() hgrid { return hgrid{draw.LineStyle{Color: f.th.grid, Width: 1}} }

// hgrid draws horizontal lines at the labelled y ticks as one SVG path
// (plotter.Grid strokes a path per tick, minor ones too).
type hgrid struct{ style draw.LineStyle }

func (g hgrid) Plot(c draw.Canvas, p *plot.Plot) {
	var path vg.Path
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() || t.Value < p.Y.Min || t.Value > p.Y.Max {
			continue
		}
		y := c.Y(p.Y.Norm(t.Value))
		path.Move(vg.Point{X: c.Min.X, Y: y})
		path.Line(vg.Point{X: c.Max.X, Y: y})
	}
	if len(path) > 0 {
		c.SetLineStyle(g.style)
		c.Stroke(path)
	}
}

// finish writes the SVG: the canvas's document without its XML prolog,
// under an <svg> element of its own (px size, role, title), with the
// deliberate font stack in place of the one family gonum names.
func (f *frame) finish() string {
	var buf bytes.Buffer
	if _, err := f.svg.WriteTo(&buf); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	body := buf.String()
	const open = "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	if i := strings.Index(body, open); i >= 0 {
		body = body[i+len(open):]
	}
	body = strings.ReplaceAll(body, "font-family:"+svgFamily+";", "font-family:"+FontFamily+";")
	var out strings.Builder
	out.Grow(len(body) + 256)
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" class="omission-chart omission-chart-%s">`+"\n",
		f.o.Width, f.o.Height, f.o.Width, f.o.Height, f.o.Theme)
	fmt.Fprintf(&out, "<title>%s</title>\n", html.EscapeString(f.title))
	out.WriteString(body)
	return out.String()
}

// legendItem is one entry of the legend strip: a thumbnail and a label.
type legendItem struct {
	label string
	thumb func(c draw.Canvas, r vg.Rectangle)
}

const (
	thumbW  = 24
	thumbGp = 4
	itemGap = 14
)

// legendStrip lays items out in rows across the top of c, left to right,
// wrapping when a row is full, and returns the canvas below it.
func (f *frame) legendStrip(c draw.Canvas, items []legendItem) draw.Canvas {
	if len(items) == 0 {
		return c
	}
	ext := f.legend.FontExtents()
	rowH := ext.Height + 4
	x, y := c.Min.X, c.Max.Y-rowH
	sty := f.legend
	sty.YAlign = draw.YCenter
	for _, it := range items {
		w := thumbW + thumbGp + f.legend.Width(it.label)
		if x > c.Min.X && x+w > c.Max.X {
			x, y = c.Min.X, y-rowH
		}
		r := vg.Rectangle{Min: vg.Point{X: x, Y: y + 2}, Max: vg.Point{X: x + thumbW, Y: y + rowH - 2}}
		it.thumb(c, r)
		c.FillText(sty, vg.Point{X: x + thumbW + thumbGp, Y: y + rowH/2}, it.label)
		x += w + itemGap
	}
	return draw.Crop(c, 0, 0, 0, y-c.Max.Y-4)
}

// lineThumb draws a short line in sty, with glyph g at its centre if any.
func lineThumb(sty draw.LineStyle, g *draw.GlyphStyle) func(draw.Canvas, vg.Rectangle) {
	return func(c draw.Canvas, r vg.Rectangle) {
		ym := (r.Min.Y + r.Max.Y) / 2
		c.StrokeLine2(sty, r.Min.X, ym, r.Max.X, ym)
		if g != nil {
			c.DrawGlyphNoClip(*g, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: ym})
		}
	}
}

// boxThumb draws a filled box, outlined when stroke has a width.
func boxThumb(fill draw.LineStyle, stroke draw.LineStyle) func(draw.Canvas, vg.Rectangle) {
	return func(c draw.Canvas, r vg.Rectangle) {
		r.Min.Y += 1
		r.Max.Y -= 1
		pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
		if fill.Color != nil {
			c.FillPolygon(fill.Color, pts)
		}
		if stroke.Width > 0 {
			c.StrokeLines(stroke, append(pts, r.Min))
		}
	}
}

// message is a plotter that writes centred text over the data area.
type message struct {
	text  string
	style text.Style
}

func (m message) Plot(c draw.Canvas, _ *plot.Plot) {
	sty := m.style
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), m.text)
}

// placeholder draws an empty frame with a message instead of a chart.
func (f *frame) placeholder(msg string) {
	p := f.newPlot()
	p.HideAxes()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	st := f.label
	st.Color = f.th.ink
	p.Add(frameBox{f.th}, message{wrap(msg, int(float64(f.o.Width)/6.5)), st})
	p.Draw(f.dc)
}

// frameBox outlines the data area.
type frameBox struct{ th *theme }

func (b frameBox) Plot(c draw.Canvas, _ *plot.Plot) {
	r := c.Rectangle
	c.StrokeLines(draw.LineStyle{Color: b.th.grid, Width: 1, Dashes: []vg.Length{4, 3}},
		[]vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
}

// wrap breaks s into lines of at most n bytes at spaces.
func wrap(s string, n int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// unavailable renders the placeholder of a chart that needs per-request data.
func unavailable(res *sim.Result, f *frame) *Chart {
	msg := fmt.Sprintf("%s is not available beyond %s samples per recording: this run plans %s requests per client, so it kept histograms, not each request.",
		f.title, units.Count(sim.ExactSamples), units.Count(res.Planned))
	f.placeholder(msg)
	return &Chart{Caption: msg, Available: false}
}

// pname is a percentile's display name: "p99_9" → "p99.9".
func pname(name string) string { return strings.ReplaceAll(name, "_", ".") }

// listing joins "name value" pairs: "closed 100 µs, paced 100 µs".
func listing(kinds []sim.Kind, val func(k sim.Kind) string) string {
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, k.String()+" "+val(k))
	}
	return strings.Join(parts, ", ")
}

// polyline is a line through data points, thinned in device space: a
// point closer than half a px in both x and y to the last one kept is
// dropped (the last point always stays). The spectrum and the CDF have a
// point per px or more, and each point costs SVG bytes and formatting time.
type polyline struct {
	xys   plotter.XYs
	style draw.LineStyle
}

func (l polyline) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.xys) == 0 {
		return
	}
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(l.xys))
	for i, xy := range l.xys {
		pt := vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
		if n := len(pts); n > 0 && i < len(l.xys)-1 {
			last := pts[n-1]
			if abs(pt.X-last.X) < 0.5 && abs(pt.Y-last.Y) < 0.5 {
				continue
			}
		}
		pts = append(pts, pt)
	}
	c.StrokeLines(l.style, c.ClipLinesXY(pts)...)
}

func abs(v vg.Length) vg.Length {
	if v < 0 {
		return -v
	}
	return v
}

// failedNote says, after a caption of percentiles, what they are not of:
// the calls that failed (rejected, in an outage, timed out), which have no
// latency, with each client's failed share: " Failed calls have no latency
// and are in no percentile: 97,500 of the open loop's 100,000 calls (97.5%)."
// It is "" when every call sent was answered. A corrected recording's
// calls are its client's.
func failedNote(res *sim.Result) string {
	var parts []string
	for _, cl := range sim.Clients() {
		var c sim.Calls
		for _, k := range sim.Kinds() {
			if k.Client() == cl {
				c = res.Calls(k)
				break
			}
		}
		if f := c.Failed(); f > 0 {
			who := map[sim.Client]string{sim.ClosedClient: "closed loop", sim.PacedClient: "paced client", sim.OpenClient: "open loop"}[cl]
			parts = append(parts, units.Count(f)+" of the "+who+"'s "+units.Plural(c.Sent, "call")+
				" ("+units.Share(float64(f)/float64(c.Sent))+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Failed calls have no latency and are in no percentile: " + strings.Join(parts, ", ") + "."
}
