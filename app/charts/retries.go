package charts

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/app/units"
	"omission/sim"
)

// Retries on the over-time charts (a run with attempts > 1): the latency
// panels stand the retries sent in each interval of the engine's series as
// bars on their floor, and the queue-depth panels add the attempts in
// flight, which leave out the calls waiting out a backoff.

// retryStrip is the share of a panel's height the tallest retry bar takes.
const retryStrip = 0.22

// retryBars draws one client's retries per series interval as bars on the
// panel's floor, the tallest retryStrip of its height (top: the most in
// any interval of any client, one scale for all panels).
type retryBars struct {
	counts []int64
	iv     int64
	top    int64
	fill   draw.LineStyle
}

func (r retryBars) Plot(c draw.Canvas, p *plot.Plot) {
	if r.top <= 0 {
		return
	}
	h := (c.Max.Y - c.Min.Y) * retryStrip
	var path vg.Path
	for j, n := range r.counts {
		a, b := float64(int64(j)*r.iv), float64(int64(j+1)*r.iv)
		a, b = max(a, p.X.Min), min(b, p.X.Max)
		if n == 0 || b <= a {
			continue
		}
		x0, x1 := c.X(p.X.Norm(a)), c.X(p.X.Norm(b))
		y1 := c.Min.Y + max(h*vg.Length(float64(n)/float64(r.top)), 1)
		path.Move(vg.Point{X: x0, Y: c.Min.Y})
		path.Line(vg.Point{X: x1, Y: c.Min.Y})
		path.Line(vg.Point{X: x1, Y: y1})
		path.Line(vg.Point{X: x0, Y: y1})
		path.Close()
	}
	if len(path) > 0 {
		c.SetColor(r.fill.Color)
		c.Fill(path)
	}
}

// retryCounts are each client's retries per interval of the engine's
// series (nil without retries or a series), and the most in one interval.
type retryCounts struct {
	per  [3][]int64
	iv   int64
	top  int64
	peak [3]int // the interval of each client's most
	sum  [3]int64
}

func retriesOf(res *sim.Result) *retryCounts {
	if res.Engine == nil || res.Engine.Series == nil || !res.Config.Retrying() {
		return nil
	}
	s := res.Engine.Series
	rc := &retryCounts{iv: s.IntervalNs}
	for c := range s.Clients {
		v := s.Clients[c].Retries
		rc.per[c] = v
		for j, n := range v {
			rc.sum[c] += n
			if n > v[rc.peak[c]] {
				rc.peak[c] = j
			}
			rc.top = max(rc.top, n)
		}
	}
	return rc
}

// caption says what the bars are and each client's count, for the latency
// chart over [0, end): those sent after it are not drawn.
func (rc *retryCounts) caption(end int64) string {
	s := " Retries (attempts beyond a call's first, sent a backoff after a failed attempt) stand as grey bars on each panel's floor, one per " +
		units.Duration(rc.iv) + " interval by send time, the tallest " + units.Count(rc.top) + ": "
	for i, c := range sim.Clients() {
		var late int64
		for j, n := range rc.per[i] {
			if int64(j)*rc.iv >= end {
				late += n
			}
		}
		if i > 0 {
			s += "; "
		}
		s += c.String() + " " + units.Count(rc.sum[i])
		if rc.sum[i] > 0 {
			s += " (most from " + units.Duration(int64(rc.peak[i])*rc.iv) + ")"
		}
		if late > 0 {
			s += ", " + units.Count(late) + " after the chart's end"
		}
	}
	return s + "."
}

// attemptDepth returns the attempts client c has sent and not yet had
// answered: a call that sent one attempt is one from its Send to its Done,
// a retried call one per attempt of its trace (sim.Attempt), so a call
// waiting out a backoff counts none. false: no attempt trace (no retries,
// no per-request data, or a trace cut short).
func attemptDepth(res *sim.Result, c sim.Client) (depth, bool) {
	if res.Engine == nil || !res.Config.Retrying() {
		return depth{}, false
	}
	cr, ec := &res.Clients[c], &res.Engine.Clients[c]
	if cr.Send == nil || cr.Done == nil || ec.AttemptsCut {
		return depth{}, false
	}
	retried := make([]bool, len(cr.Send))
	n := len(cr.Send) + len(ec.Attempts)
	arrive, leave := make([]int64, 0, n), make([]int64, 0, n)
	for _, a := range ec.Attempts {
		retried[a.Call] = true
		arrive, leave = append(arrive, a.Send), append(leave, a.End)
	}
	for i, s := range cr.Send {
		if !retried[i] {
			arrive, leave = append(arrive, s), append(leave, cr.Done[i])
		}
	}
	sim.SortInt64s(arrive)
	sim.SortInt64s(leave)
	return depth{arrive, leave}, true
}
