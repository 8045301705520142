package charts

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// measured returns the recordings with one sample per request, one panel each:
// what each client recorded itself.
func measured() []sim.Kind {
	var out []sim.Kind
	for _, c := range sim.Clients() {
		out = append(out, c.Recording())
	}
	return out
}

// bands shades time windows inside the x range, each in colour with its
// alpha scaled by the window's share of time stalled (1 for one stall).
type bands struct {
	windows []sim.Band
	colour  color.Color
}

func (s bands) Plot(c draw.Canvas, p *plot.Plot) {
	// One SVG path per shade: a run of millions of stalls is a handful of
	// merged bands (sim.StallBands), never a rectangle each.
	paths := map[float64]*vg.Path{}
	var order []float64
	for _, w := range s.windows {
		a, b := math.Max(float64(w.From), p.X.Min), math.Min(float64(w.To), p.X.Max)
		if b <= a {
			continue
		}
		path, ok := paths[w.Share]
		if !ok {
			path = &vg.Path{}
			paths[w.Share] = path
			order = append(order, w.Share)
		}
		x0, x1 := c.X(p.X.Norm(a)), c.X(p.X.Norm(b))
		path.Move(vg.Point{X: x0, Y: c.Min.Y})
		path.Line(vg.Point{X: x1, Y: c.Min.Y})
		path.Line(vg.Point{X: x1, Y: c.Max.Y})
		path.Line(vg.Point{X: x0, Y: c.Max.Y})
		path.Close()
	}
	for _, share := range order {
		col := s.colour
		if share < 1 {
			col = scaleAlpha(col, max(share, minShare))
		}
		c.SetColor(col)
		c.Fill(*paths[share])
	}
}

// minShare keeps a merged band of short stalls visible.
const minShare = 0.3

// scaleAlpha multiplies a colour's opacity by f.
func scaleAlpha(c color.Color, f float64) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(math.Round(float64(n.A) * f))
	return n
}

// shading returns the bands of a result's stalls over [0, end) at cols
// columns, of its outages (the event engine's windows in which the server
// fails every request) and of its slowdown windows (in which a service that
// starts takes k times as long), and their legend entries.
func shading(res *sim.Result, th *theme, end int64, cols int) (out []bands, items []legendItem) {
	if st := res.StallBands(0, end, cols); len(st) > 0 {
		out = append(out, bands{st, th.stall})
		items = append(items, legendItem{"stall", boxThumb(draw.LineStyle{Color: th.stall}, draw.LineStyle{})})
	}
	var ou []sim.Band
	for _, w := range res.Config.OutageWindows() {
		ou = append(ou, sim.Band{From: w.From, To: w.To, Share: 1})
	}
	if len(ou) > 0 {
		out = append(out, bands{ou, th.outage})
		items = append(items, legendItem{"outage", boxThumb(draw.LineStyle{Color: th.outage}, draw.LineStyle{})})
	}
	var sl []sim.Band
	factors := map[sim.Rate]bool{}
	for _, w := range res.Config.SlowWindows() {
		sl = append(sl, sim.Band{From: w.From, To: w.To, Share: 1})
		factors[w.Rate] = true
	}
	if len(sl) > 0 {
		label := "slowdown"
		if len(factors) == 1 {
			label += " ×" + res.Config.SlowWindows()[0].Rate.String()
		}
		out = append(out, bands{sl, th.slow})
		items = append(items, legendItem{label, boxThumb(draw.LineStyle{Color: th.slow}, draw.LineStyle{})})
	}
	return out, items
}

// stallNote says how the stalls are drawn, for a caption: how many, and
// that stalls closer than a pixel column share one band.
func stallNote(res *sim.Result, end int64, cols int) string {
	n := res.StallCount()
	if n == 0 {
		return ""
	}
	s := itoa(n) + " stall"
	if n > 1 {
		s += "s"
	}
	s += " of " + units.Duration(res.Config.Stall) + " shaded"
	if b := res.StallBands(0, end, cols); len(b) == 1 && b[0].Share < 1 {
		s += " (closer together than a pixel column, so drawn as one band, paler by the share of time stalled, " + strconv.FormatFloat(100*b[0].Share, 'g', 3, 64) + "%)"
	}
	return s
}

// columns is the number of whole px columns of a data area.
func columns(c draw.Canvas) int { return max(1, int(math.Ceil(float64(c.Max.X-c.Min.X)))) }

// dropFlat removes points between two neighbours at the same height.
func dropFlat(pts []vg.Point) []vg.Point {
	if len(pts) < 3 {
		return pts
	}
	out := pts[:1]
	for i := 1; i < len(pts)-1; i++ {
		if pts[i].Y == out[len(out)-1].Y && pts[i].Y == pts[i+1].Y {
			continue
		}
		out = append(out, pts[i])
	}
	return append(out, pts[len(pts)-1])
}

// envelopePlot draws one recording's latencies over time as the min–max
// band of each px column (env, computed for the data area's width), so
// that a single slow request still reaches its height. Columns without a
// request are left empty.
type envelopePlot struct {
	env   *envelope
	floor float64 // on a log axis, smaller values are drawn here
	fill  color.Color
}

// minBand is the thinnest an envelope is drawn, in px: one fill, no
// outline, and still a visible line where every latency is the same.
const minBand = 1.2

func (e envelopePlot) Plot(c draw.Canvas, p *plot.Plot) {
	env := e.env
	cols := len(env.has)
	cw := (c.Max.X - c.Min.X) / vg.Length(cols)
	y := func(v float64) vg.Length { return c.Y(p.Y.Norm(atFloor(v, e.floor))) }
	var path vg.Path
	for a := 0; a < cols; {
		if !env.has[a] {
			a++
			continue
		}
		b := a
		for b+1 < cols && env.has[b+1] {
			b++
		}
		// The band runs from the left edge of column a to the right edge
		// of column b, through the centre of every column between.
		top := make([]vg.Point, 0, b-a+3)
		bot := make([]vg.Point, 0, b-a+3)
		add := func(x vg.Length, j int) {
			t, u := y(env.hi[j]), y(env.lo[j])
			if t-u < minBand { // never thinner than minBand, so a flat run shows
				m := (t + u) / 2
				t, u = m+minBand/2, m-minBand/2
			}
			top, bot = append(top, vg.Point{X: x, Y: t}), append(bot, vg.Point{X: x, Y: u})
		}
		add(c.Min.X+cw*vg.Length(a), a)
		for j := a; j <= b; j++ {
			add(c.Min.X+cw*(vg.Length(j)+0.5), j)
		}
		add(c.Min.X+cw*vg.Length(b+1), b)
		top, bot = dropFlat(top), dropFlat(bot)
		path.Move(top[0])
		for _, pt := range top[1:] {
			path.Line(pt)
		}
		for i := len(bot) - 1; i >= 0; i-- {
			path.Line(bot[i])
		}
		path.Close()
		a = b + 1
	}
	if len(path) > 0 { // every run in one SVG path; the points lie inside c
		c.SetColor(e.fill)
		c.Fill(path)
	}
}

// hideLabels keeps a ticker's tick marks but drops its labels (for the
// upper panels of a stack, which share the bottom panel's time axis).
type hideLabels struct{ plot.Ticker }

func (h hideLabels) Ticks(min, max float64) []plot.Tick {
	ts := h.Ticker.Ticks(min, max)
	out := make([]plot.Tick, 0, len(ts))
	for _, t := range ts {
		out = append(out, plot.Tick{Value: t.Value})
	}
	return out
}

// panels lays plots out one above the other, sharing the x axis of the
// last (the others lose their tick labels), and returns the tile of each
// and the canvas its plot is drawn in (the tile less the y label strip).
func (f *frame) panels(c draw.Canvas, ps []*plot.Plot) (tiles, inner []draw.Canvas) {
	grid := make([][]*plot.Plot, len(ps))
	for i, p := range ps {
		if i < len(ps)-1 {
			p.X.Tick.Marker = hideLabels{p.X.Tick.Marker}
			p.X.Label.Text = ""
		}
		grid[i] = []*plot.Plot{p}
	}
	for _, row := range plot.Align(grid, draw.Tiles{Rows: len(ps), Cols: 1, PadY: 6}, f.labelled(c)) {
		in := row[0]
		t := in
		t.Min.X = c.Min.X
		tiles, inner = append(tiles, t), append(inner, in)
	}
	return tiles, inner
}

// timeBuckets cuts [0, end) into table rows: one per stall period when the
// stalls repeat and there are at most 60 of them, else 20 equal parts.
func timeBuckets(cfg sim.Config, end int64) (width int64, n int) {
	if end <= 0 {
		return 1, 1
	}
	if cfg.Stall > 0 && cfg.Every > 0 && end/cfg.Every < 60 {
		return cfg.Every, int((end + cfg.Every - 1) / cfg.Every)
	}
	w := (end + 19) / 20
	return w, int((end + w - 1) / w)
}

// latencyTime renders the LatencyTime chart: its axis, its drawing (which reads the requests), then its text.
func latencyTime(res *sim.Result, o Options, f *frame) *Chart {
	var rqs []requests
	for _, k := range measured() {
		rq, ok := requestsOf(res, k)
		if !ok {
			return unavailable(res, f)
		}
		rqs = append(rqs, rq)
	}
	end := max(res.Config.Duration, 1)
	bw, nb := timeBuckets(res.Config, end)
	stats := drawLatencyTime(res, o, f, rqs, end, bw, nb)

	ch := &Chart{Available: true}
	ch.Table = latencyTimeTable(stats, end, bw, nb)
	ch.Caption = latencyTimeCaption(res, o, rqs, stats, end)
	return ch
}

// latencyAxis returns the latency axis's range and log floor, from the measured recordings.
func latencyAxis(res *sim.Result, logY bool) (ymin, ymax, floor float64) {
	// The axis comes from the recordings, which hold these very latencies,
	// so that the requests are read once, after the layout.
	var lo, hi int64
	zero := false
	for _, k := range measured() {
		d := res.Recordings[k].Dist
		if d == nil || d.Count() == 0 {
			continue
		}
		if m := minPositive(d); m > 0 && (lo == 0 || m < lo) {
			lo = m
		}
		hi = max(hi, d.Max())
		zero = zero || d.CountAtOrBelow(0) > 0
	}
	return latencyRange(lo, hi, zero, logY)
}

// drawLatencyTime draws the legend and a panel per recording, scanning its requests into px columns and table buckets.
func drawLatencyTime(res *sim.Result, o Options, f *frame, rqs []requests, end, bw int64, nb int) []latStats {
	th := f.th
	logY := o.Y == YLog
	ymin, ymax, floor := latencyAxis(res, logY)
	items := make([]legendItem, 0, 4)
	for _, k := range measured() {
		items = append(items, legendItem{k.String(), boxThumb(draw.LineStyle{Color: th.kinds[k]}, draw.LineStyle{})})
	}
	shade, more := shading(res, th, end, o.Width)
	rc := retriesOf(res)
	retryFill := draw.LineStyle{Color: withAlpha(th.ink, 0.45)}
	if rc != nil {
		more = append(more, legendItem{"retries sent", boxThumb(retryFill, draw.LineStyle{})})
	}
	c := f.legendStrip(f.dc, append(items, more...))
	var ps []*plot.Plot
	for range measured() {
		p := f.newPlot()
		p.X.Min, p.X.Max = 0, float64(end)
		p.X.Tick.Marker = durationTicks{n: 6}
		p.X.Label.Text = "due time (paced: send time)"
		p.Y.Min, p.Y.Max = ymin, ymax
		if logY {
			p.Y.Scale = plot.LogScale{}
		}
		p.Y.Tick.Marker = durationTicks{log: logY, n: 2}
		ps = append(ps, p)
	}
	tiles, inner := f.panels(c, ps)
	stats := make([]latStats, len(measured()))
	for i, k := range measured() {
		p := ps[i]
		g := newGrid(0, float64(end), columns(p.DataCanvas(inner[i])))
		env := newEnvelope(g.n)
		stats[i] = rqs[i].scan(g, env, bw, nb)
		for _, b := range shade {
			p.Add(b)
		}
		p.Add(f.grid())
		if rc != nil { // under the latencies, which stay in sight
			p.Add(retryBars{counts: rc.per[k.Client()], iv: rc.iv, top: rc.top, fill: retryFill})
		}
		p.Add(envelopePlot{env: env, floor: floor, fill: th.kinds[k]})
		f.drawLabel(tiles[i], inner[i], p, k.String(), th.kinds[k])
		p.Draw(inner[i])
	}
	return stats
}

// latencyTimeTable is the LatencyTime chart's table: each recording's largest latency per time bucket.
func latencyTimeTable(stats []latStats, end, bw int64, nb int) Table {
	t := Table{Header: []string{"due time"}}
	for _, k := range measured() {
		t.Header = append(t.Header, k.String()+" max")
	}
	for b := 0; b < nb; b++ {
		row := []string{units.Duration(int64(b)*bw) + " to " + units.Duration(min(int64(b+1)*bw, end))}
		for i := range measured() {
			if v := stats[i].bucket[b]; v >= 0 {
				row = append(row, units.Duration(v))
			} else {
				row = append(row, "—")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// latencyTimeCaption is the LatencyTime chart's caption: what is drawn, the largest latencies, the requests above and lost.
func latencyTimeCaption(res *sim.Result, o Options, rqs []requests, stats []latStats, end int64) string {
	var s strings.Builder
	s.WriteString("Each request's latency against its due time (the paced client's against its send time), drawn as the smallest and largest latency in each pixel column so that no single slow request is lost")
	if note := stallNote(res, end, o.Width); note != "" {
		s.WriteString("; " + note)
	}
	if ws := res.Config.SlowWindows(); len(ws) > 0 {
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = "×" + w.Rate.String() + " from " + units.Duration(w.From) + " to " + units.Duration(w.To)
		}
		s.WriteString("; " + units.Plural(int64(len(ws)), "slowdown window") + " shaded, paler (a service that starts in one takes k times as long: " +
			strings.Join(parts, ", ") + ")")
	}
	s.WriteString(". Largest: ")
	s.WriteString(listing(measured(), func(k sim.Kind) string {
		st := stats[indexOf(k)]
		if st.n == 0 {
			return "—"
		}
		return units.Duration(st.max) + " at " + units.Duration(st.maxAt)
	}))
	s.WriteString(". Requests above " + units.Duration(res.Config.Above) + ": ")
	s.WriteString(listing(measured(), func(k sim.Kind) string {
		return units.Count(res.Recordings[k].Above) + " of " + units.Count(int64(stats[indexOf(k)].n))
	}))
	s.WriteString(".")
	if rc := retriesOf(res); rc != nil {
		s.WriteString(rc.caption(end))
	}
	lost := false
	for _, rq := range rqs {
		lost = lost || rq.lost > 0
	}
	if lost {
		s.WriteString(" Requests that got no reply (rejected, failed or timed out) are no latency sample and are not drawn: ")
		s.WriteString(listing(measured(), func(k sim.Kind) string { return units.Count(int64(rqs[indexOf(k)].lost)) }))
		s.WriteString(".")
	}
	return s.String()
}

func indexOf(k sim.Kind) int {
	for i, m := range measured() {
		if m == k {
			return i
		}
	}
	return -1
}
