package charts

import (
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// depthPlot draws a count over time as the largest count in each px
// column: a step line, filled down to zero when fill is set. fine holds the
// peaks of a grid at least as fine as the data area's px over the x range.
type depthPlot struct {
	fine   []int
	fill   color.Color
	stroke draw.LineStyle
}

func (q depthPlot) Plot(c draw.Canvas, p *plot.Plot) {
	hi := q.fine
	if cols := columns(c); len(hi) > cols {
		hi = regrid(hi, cols)
	}
	cols := len(hi)
	cw := (c.Max.X - c.Min.X) / vg.Length(cols)
	pts := make([]vg.Point, 0, 2*cols)
	for j, v := range hi {
		y := c.Y(p.Y.Norm(float64(v)))
		pts = append(pts, vg.Point{X: c.Min.X + cw*vg.Length(j), Y: y}, vg.Point{X: c.Min.X + cw*vg.Length(j+1), Y: y})
	}
	pts = dropFlat(pts)
	var line vg.Path
	line.Move(pts[0])
	for _, pt := range pts[1:] {
		line.Line(pt)
	}
	if q.fill != nil { // the points lie inside c: no clipping needed
		y0 := c.Y(p.Y.Norm(0))
		var area vg.Path
		area.Move(vg.Point{X: pts[0].X, Y: y0})
		for _, pt := range pts {
			area.Line(pt)
		}
		area.Line(vg.Point{X: pts[len(pts)-1].X, Y: y0})
		area.Close()
		c.SetColor(q.fill)
		c.Fill(area)
	}
	c.SetLineStyle(q.stroke)
	c.Stroke(line)
}

// queueClient is one client's counts on the queue-depth chart: requests
// sent and not yet answered, and requests due by the schedule and not yet
// answered, each as the table's buckets, as px columns and as its peak.
type queueClient struct {
	sentPeak, duePeak   int
	sentAt, dueAt       int64
	differs             bool // the due count is drawn: it differs from the sent one
	sentBucket, dueBuck []int
	sentCols, dueCols   []int
	// With retries and an attempt trace: the attempts sent and not yet
	// answered (a call waiting out a backoff has none), drawn dotted.
	attempts           bool
	attPeak            int
	attAt              int64
	attBucket, attCols []int
	attArea            int64 // ∫ attempts in flight dt, ns: Σ (answer − send) over the attempts
}

// queueCounts is the queue-depth chart's data: each client's counts over
// [0, end), the table's nb buckets of bw ns, and the largest count.
type queueCounts struct {
	clients []queueClient
	end, bw int64
	nb      int
	top     int
}

// anyAttempts tells whether some client's attempts in flight are drawn.
func (q *queueCounts) anyAttempts() bool {
	for _, cd := range q.clients {
		if cd.attempts {
			return true
		}
	}
	return false
}

// anyDiffers tells whether some client's due count is drawn.
func (q *queueCounts) anyDiffers() bool {
	for _, cd := range q.clients {
		if cd.differs {
			return true
		}
	}
	return false
}

// queueDepth renders the QueueDepth chart: its data, then its drawing, then its text.
func queueDepth(res *sim.Result, o Options, f *frame) *Chart {
	q, ok := queueData(res, o)
	if !ok {
		return unavailable(res, f)
	}
	drawQueue(res, o, f, q)
	ch := &Chart{Available: true}
	ch.Table = queueTable(q)
	ch.Caption = queueCaption(res, q)
	return ch
}

// queueData counts each client's requests in flight per bucket and px column (false: no per-request times).
func queueData(res *sim.Result, o Options) (*queueCounts, bool) {
	cfg := res.Config
	end := max(cfg.Duration, 1)
	for _, cr := range res.Clients {
		end = max(end, cr.LastCompletion)
	}
	bw, nb := timeBuckets(cfg, end)
	q := &queueCounts{clients: make([]queueClient, len(sim.Clients())), end: end, bw: bw, nb: nb, top: 1}
	buckets := grid{0, 1 / float64(bw), nb}
	fine := newGrid(0, float64(end), o.Width)
	var dues []int64
	type counted struct {
		d    depth
		his  [][]int
		peak int
		at   int64
	}
	done := map[sim.Client]counted{}
	for i := len(sim.Clients()) - 1; i >= 0; i-- { // open first: the closed loop may reuse its count
		c := sim.Clients()[i]
		sent, due, same, ok := clientDepth(res, c, &dues)
		if !ok {
			return nil, false
		}
		cd := &q.clients[i]
		// One pass per count: the table's buckets, and columns at one per
		// px of the whole chart, finer than its data area.
		his, peak, at := sent.peaks(buckets, fine)
		cd.sentPeak, cd.sentAt, cd.sentBucket, cd.sentCols = peak, at, his[0], his[1]
		cd.duePeak, cd.dueAt, cd.dueBuck, cd.dueCols = peak, at, his[0], his[1]
		if !same {
			if prev, ok := done[sim.OpenClient]; ok && equalInts(due.leave, prev.d.leave) {
				// With one connection and one worker the closed loop walks
				// the open loop's timeline: the same schedule and replies
				// give the same count.
				his, peak, at = prev.his, prev.peak, prev.at
			} else {
				his, peak, at = due.peaks(buckets, fine)
			}
			cd.duePeak, cd.dueAt, cd.dueBuck, cd.dueCols = peak, at, his[0], his[1]
			// The dashed line only where it shows something the fill does not.
			cd.differs = peak != cd.sentPeak || !slices.Equal(his[0], cd.sentBucket) || !slices.Equal(his[1], cd.sentCols)
		}
		if ad, ok := attemptDepth(res, c); ok {
			his, peak, at := ad.peaks(buckets, fine)
			cd.attempts, cd.attPeak, cd.attAt, cd.attBucket, cd.attCols = true, peak, at, his[0], his[1]
			for k := range ad.arrive {
				cd.attArea += ad.leave[k] - ad.arrive[k] // the sums of the sorted lists: Σ leave − Σ arrive
			}
		}
		q.top = max(q.top, cd.duePeak, cd.sentPeak)
		done[c] = counted{due, [][]int{cd.dueBuck, cd.dueCols}, cd.duePeak, cd.dueAt}
	}
	return q, true
}

// drawQueue draws the legend and one panel per client, the sent count filled and the due count dashed.
func drawQueue(res *sim.Result, o Options, f *frame, q *queueCounts) {
	th := f.th
	sentLine := func(k sim.Kind) draw.LineStyle { return draw.LineStyle{Color: th.kinds[k], Width: 1.2} }
	dueLine := func(k sim.Kind) draw.LineStyle {
		return draw.LineStyle{Color: th.kinds[k], Width: 1.6, Dashes: []vg.Length{5, 3}}
	}
	items := []legendItem{
		{"sent, not yet answered", boxThumb(draw.LineStyle{Color: withAlpha(th.ink, 0.3)}, draw.LineStyle{Color: th.ink, Width: 1})},
	}
	if q.anyDiffers() {
		items = append(items, legendItem{"due, not yet answered", lineThumb(draw.LineStyle{Color: th.ink, Width: 1.6, Dashes: []vg.Length{5, 3}}, nil)})
	}
	attLine := draw.LineStyle{Color: th.ink, Width: 1.4, Dashes: []vg.Length{1.5, 2}}
	if q.anyAttempts() {
		items = append(items, legendItem{"attempts in flight (no backoff)", lineThumb(attLine, nil)})
	}
	shade, more := shading(res, th, q.end, o.Width)
	c := f.legendStrip(f.dc, append(items, more...))
	var ps []*plot.Plot
	var labels []string
	var cols []color.Color
	for i, cl := range sim.Clients() {
		k := cl.Recording()
		labels, cols = append(labels, cl.String()), append(cols, th.kinds[k])
		p := f.newPlot()
		p.X.Min, p.X.Max = 0, float64(q.end)
		p.X.Tick.Marker = durationTicks{n: 6}
		p.X.Label.Text = "time"
		p.Y.Min, p.Y.Max = 0, float64(q.top)*1.08
		p.Y.Tick.Marker = countTicks{}
		for _, b := range shade {
			p.Add(b)
		}
		cd := &q.clients[i]
		p.Add(f.grid(), depthPlot{fine: cd.sentCols, fill: withAlpha(th.kinds[k], 0.35), stroke: sentLine(k)})
		if cd.differs {
			p.Add(depthPlot{fine: cd.dueCols, stroke: dueLine(k)})
		}
		if cd.attempts {
			p.Add(depthPlot{fine: cd.attCols, stroke: attLine})
		}
		ps = append(ps, p)
	}
	tiles, inner := f.panels(c, ps)
	for i, p := range ps {
		f.drawLabel(tiles[i], inner[i], p, labels[i], cols[i])
		p.Draw(inner[i])
	}
}

// queueTable is the queue-depth chart's table: each client's largest counts per time bucket.
func queueTable(q *queueCounts) Table {
	t := Table{Header: []string{"time"}}
	for i, cl := range sim.Clients() {
		t.Header = append(t.Header, cl.String()+" sent, unanswered")
		if q.clients[i].differs {
			t.Header = append(t.Header, cl.String()+" due, unanswered")
		}
		if q.clients[i].attempts {
			t.Header = append(t.Header, cl.String()+" attempts in flight")
		}
	}
	for b := 0; b < q.nb; b++ {
		row := []string{units.Duration(int64(b)*q.bw) + " to " + units.Duration(min(int64(b+1)*q.bw, q.end))}
		for i := range sim.Clients() {
			cd := &q.clients[i]
			row = append(row, "up to "+itoa(cd.sentBucket[b]))
			if cd.differs {
				row = append(row, "up to "+itoa(cd.dueBuck[b]))
			}
			if cd.attempts {
				row = append(row, "up to "+itoa(cd.attBucket[b]))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// queueCaption is the queue-depth chart's caption: what is drawn and each client's peaks.
func queueCaption(res *sim.Result, q *queueCounts) string {
	var s strings.Builder
	s.WriteString("Requests each client has sent and not yet had answered (filled)")
	if q.anyDiffers() {
		s.WriteString(", and requests due by the schedule and not yet answered (dashed), which differ when a client falls behind its schedule")
	}
	if q.anyAttempts() {
		s.WriteString(", and, with retries, the attempts in flight (dotted): a call counts from its first attempt to its end, an attempt from its send to its answer, so a call waiting out a backoff counts in the first and not in the second")
	}
	if res.StallCount() > 0 {
		s.WriteString("; stalls shaded")
	}
	if res.Config.Slowed() {
		s.WriteString("; slowdown windows shaded, paler")
	}
	s.WriteString(". ")
	var parts []string
	for i, cl := range sim.Clients() {
		cd := q.clients[i]
		part := cl.String() + ": at most " + itoa(cd.sentPeak) + " sent and unanswered"
		if cd.sentPeak > 0 {
			part += " (first at " + units.Duration(cd.sentAt) + ")"
		}
		if cd.differs {
			part += ", while up to " + itoa(cd.duePeak) + " were due and unanswered (first at " + units.Duration(cd.dueAt) + ")"
		}
		if cd.attempts {
			part += ", up to " + itoa(cd.attPeak) + " attempts in flight"
			if cd.attPeak > 0 {
				part += " (first at " + units.Duration(cd.attAt) + ")"
			}
		}
		parts = append(parts, part)
	}
	s.WriteString(strings.Join(parts, "; "))
	s.WriteString(".")
	return s.String()
}

func equalInts(a, b []int64) bool { return slices.Equal(a, b) }
