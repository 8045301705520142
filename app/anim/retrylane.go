package anim

import (
	"math"
	"sort"
	"strconv"

	"omission/app/units"
	"omission/sim"
	"omission/sim/window"
)

// The retry lane (issue 24): a window of a run with retries is refused by
// the queue animation (its model needs requests answered in the order they
// were sent, and a retried call is not), so under the refusal the panel
// draws, for each client, what the attempt trace of its retried calls says
// over the window (sim.Result.AttemptsWindow): how many of those calls had
// an attempt waiting in the queue, one in service, or were backing off
// before the next attempt, and where attempts failed. It is a still picture
// over time, built once per window; it does not move with the animation.

// retryCols is how many columns the lane splits its window into.
const retryCols = 160

// retryLane is one client's retried calls over a window.
type retryLane struct {
	Client   sim.Client
	From, To int64
	// Edges bound the columns: column b is [Edges[b], Edges[b+1]).
	Edges [retryCols + 1]int64
	// The time the calls spent in each state within column b, summed over
	// the attempts (ns): queued is from an attempt's send to its start (or
	// to its end when no worker took it), in service from its start to its
	// end at the client (its reply, or the timeout: a worker may go on
	// serving a timed-out attempt, which the trace does not time), backing
	// off from a failed attempt's end to the next attempt's send.
	Queued, Serving, Backoff [retryCols]int64
	// Failed counts the attempts that ended without a reply in column b,
	// GaveUp the calls among them that had no attempt left.
	Failed, GaveUp [retryCols]int32
	Counts         window.Retries // the window's retries, failed calls, most in backoff
	Tries          int            // the attempts drawn
	Cut            bool           // the trace was cut: the lane shows its first attempts only
}

// retrySpans returns attempt a's time queued, in service and backing off,
// each as [from, to) (empty when to ≤ from).
func retrySpans(a sim.Attempt, attempts int, backoff int64) (q, s, b [2]int64) {
	start := a.Start
	if start < 0 || start > a.End {
		start = a.End
	}
	q = [2]int64{a.Send, start}
	s = [2]int64{start, a.End}
	if a.Retried(attempts) {
		b = [2]int64{a.End, a.End + backoff}
	}
	return q, s, b
}

// newRetryLane builds client c's lane over [from, to] from the run's attempt
// trace; nil when the run keeps none for c, or c retried nothing there.
func newRetryLane(res *sim.Result, c sim.Client, from, to int64) *retryLane {
	if to <= from {
		return nil
	}
	tr := window.AttemptsWindow(res, c, from, to)
	if tr == nil || len(tr.Tries) == 0 {
		return nil
	}
	l := &retryLane{Client: c, From: from, To: to, Counts: tr.Retries(), Tries: len(tr.Tries), Cut: tr.Cut}
	for b := range l.Edges {
		l.Edges[b] = from + (to-from)*int64(b)/retryCols
	}
	for _, a := range tr.Tries {
		q, s, bk := retrySpans(a, tr.Attempts, tr.Backoff)
		l.spread(&l.Queued, q)
		l.spread(&l.Serving, s)
		l.spread(&l.Backoff, bk)
		if a.Outcome != sim.OutcomeReply && a.End >= from && a.End < to {
			b := l.column(a.End)
			l.Failed[b]++
			if !a.Retried(tr.Attempts) {
				l.GaveUp[b]++
			}
		}
	}
	return l
}

// column returns the column holding instant t, From ≤ t < To.
func (l *retryLane) column(t int64) int {
	return sort.Search(retryCols, func(b int) bool { return l.Edges[b+1] > t }) // the first column ending after t
}

// spread adds span [s0, s1) to the columns it meets.
func (l *retryLane) spread(into *[retryCols]int64, span [2]int64) {
	s0, s1 := max(span[0], l.From), min(span[1], l.To)
	if s1 <= s0 {
		return
	}
	for b := l.column(s0); b < retryCols && l.Edges[b] < s1; b++ {
		into[b] += min(s1, l.Edges[b+1]) - max(s0, l.Edges[b])
	}
}

// mean is the mean number of calls in a state over column b.
func (l *retryLane) mean(v *[retryCols]int64, b int) float64 {
	return float64(v[b]) / float64(l.Edges[b+1]-l.Edges[b])
}

// retryLanes returns the lanes of the clients that retried in [from, to],
// in the animation's order (closed, paced, open).
func retryLanes(res *sim.Result, from, to int64) []*retryLane {
	if res == nil || !res.Config.Retrying() {
		return nil
	}
	var out []*retryLane
	for _, c := range [...]sim.Client{sim.ClosedClient, sim.PacedClient, sim.OpenClient} {
		if l := newRetryLane(res, c, from, to); l != nil {
			out = append(out, l)
		}
	}
	return out
}

// The lane's drawing, in SVG user units.
const (
	rlW      = 640 // the drawing's width
	rlX0     = 96  // where the bars start (the rows' labels before)
	rlX1     = 580 // where they end (each row's scale after)
	rlRow    = 20  // a row's height
	rlHead   = 18  // a client's heading above its rows
	rlRows   = 4   // queued, in service, backing off, failed
	rlAxis   = 16  // the time axis under the last client
	rlColumn = float64(rlX1-rlX0) / retryCols
)

var (
	retryRowNames   = [rlRows]string{"queued", "in service", "backing off", "failed"}
	retryRowClasses = [rlRows]string{"rl-queued", "rl-serving", "rl-backoff", "rl-failed"}
)

// value is what row r of the lane holds in column b: the mean number of
// calls queued, in service or backing off over the column, or how many
// attempts failed in it.
func (l *retryLane) value(r, b int) float64 {
	switch r {
	case 0:
		return l.mean(&l.Queued, b)
	case 1:
		return l.mean(&l.Serving, b)
	case 2:
		return l.mean(&l.Backoff, b)
	}
	return float64(l.Failed[b])
}

// rowMax is row r's scale: its most over a column (a full bar).
func (l *retryLane) rowMax(r int) float64 {
	var m float64
	for b := 0; b < retryCols; b++ {
		m = max(m, l.value(r, b))
	}
	return m
}

// appendRect writes a bar of column b in row r of a lane whose rows start at
// y0, h of the row's height, with class cls.
func appendRect(s []byte, b, r int, y0, h float64, cls string) []byte {
	if h <= 0 {
		return s
	}
	h = max(h, 0.5) // a sliver stays visible
	x := float64(rlX0) + rlColumn*float64(b)
	y := y0 + float64(r+1)*rlRow - 2 - h
	s = append(s, `<rect class="`...)
	s = append(s, cls...)
	s = append(s, `" x="`...)
	s = strconv.AppendFloat(s, x, 'f', 2, 64)
	s = append(s, `" y="`...)
	s = strconv.AppendFloat(s, y, 'f', 2, 64)
	s = append(s, `" width="`...)
	s = strconv.AppendFloat(s, max(rlColumn-0.4, 0.5), 'f', 2, 64)
	s = append(s, `" height="`...)
	s = strconv.AppendFloat(s, h, 'f', 2, 64)
	return append(s, `"/>`...)
}

// appendText writes a text at x, y.
func appendText(s []byte, x, y float64, anchor, cls, text string) []byte {
	s = append(s, `<text x="`...)
	s = strconv.AppendFloat(s, x, 'f', 1, 64)
	s = append(s, `" y="`...)
	s = strconv.AppendFloat(s, y, 'f', 1, 64)
	s = append(s, `" text-anchor="`...)
	s = append(s, anchor...)
	s = append(s, `" class="`...)
	s = append(s, cls...)
	s = append(s, `">`...)
	s = append(s, text...) // the lane's own words and numbers: nothing to escape
	return append(s, `</text>`...)
}

// retryLaneStyle colours the lane (app.css's palette; the page shows the
// drawing as an image, which its style sheets do not reach).
const retryLaneStyle = `<style>.rl-head{font:11px sans-serif;fill:#1b1f27}.rl-label{font:10px sans-serif;fill:#5b6475}` +
	`.rl-base{stroke:#d9dee7;stroke-width:.5}.rl-closed{fill:#0072b2}.rl-paced{fill:#009e73}.rl-open{fill:#d55e00}` +
	`.rl-queued{fill-opacity:.45}.rl-backoff{fill-opacity:.7}.rl-failed{fill:#b3261e}` +
	`@media (prefers-color-scheme:dark){.rl-head{fill:#e6e9ef}.rl-label{fill:#9aa3b2}.rl-base{stroke:#343a45}.rl-closed{fill:#56b4e9}.rl-failed{fill:#ff8a80}}</style>`

// scaleText writes a row's scale: whole from 100 up, to a tenth from 1,
// else to two significant digits (a sliver of a call in service).
func scaleText(v float64) string {
	switch {
	case v >= 100 || v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// heading says what client l's lane counts.
func (l *retryLane) heading() string {
	return l.Client.String() + " client: " + units.Count(l.Counts.Retries) + " retries for " + units.Count(l.Counts.Calls) +
		" calls; " + units.Count(l.Counts.FailedCalls) + " calls failed all " + strconv.Itoa(l.Counts.Attempts) + " attempts"
}

// retryLaneAlt is the lanes' headings, the image's text alternative.
func retryLaneAlt(lanes []*retryLane) string {
	s := "Retried calls over the window, by client."
	for _, l := range lanes {
		s += " The " + l.heading() + "; at most " + strconv.FormatFloat(l.rowMax(2), 'f', 1, 64) + " calls backing off over a column."
	}
	return s
}

// retryLaneSVG draws the lanes, one block of rows per client, over one
// time axis; each bar's height is its column's value over its row's most
// (rowMax), written at the row's end.
func retryLaneSVG(lanes []*retryLane) string {
	if len(lanes) == 0 {
		return ""
	}
	block := float64(rlHead + rlRows*rlRow)
	height := block*float64(len(lanes)) + rlAxis
	s := make([]byte, 0, 64<<10)
	s = append(s, `<svg class="anim-retry-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `...)
	s = strconv.AppendInt(s, rlW, 10)
	s = append(s, ' ')
	s = strconv.AppendFloat(s, height, 'f', 0, 64)
	s = append(s, `">`...)
	s = append(s, retryLaneStyle...)
	for k, l := range lanes {
		y0 := block*float64(k) + rlHead
		s = appendText(s, rlX0, y0-5, "start", "rl-head", l.heading())
		cls := "rl-" + l.Client.String()
		full := float64(rlRow - 4)
		for r, name := range retryRowNames {
			yb := y0 + float64(r+1)*rlRow - 2
			s = appendText(s, rlX0-6, yb-4, "end", "rl-label", name)
			s = append(s, `<line class="rl-base" x1="`...)
			s = strconv.AppendInt(s, rlX0, 10)
			s = append(s, `" x2="`...)
			s = strconv.AppendInt(s, rlX1, 10)
			s = append(s, `" y1="`...)
			s = strconv.AppendFloat(s, yb, 'f', 2, 64)
			s = append(s, `" y2="`...)
			s = strconv.AppendFloat(s, yb, 'f', 2, 64)
			s = append(s, `"/>`...)
			top := l.rowMax(r)
			s = appendText(s, rlX1+4, yb-4, "start", "rl-label", "max "+scaleText(top))
			if top == 0 {
				continue
			}
			rc := cls + " " + retryRowClasses[r]
			if r == 3 {
				rc = retryRowClasses[r]
			}
			for b := 0; b < retryCols; b++ {
				s = appendRect(s, b, r, y0, full*l.value(r, b)/top, rc)
			}
		}
	}
	l := lanes[0]
	ya := height - 3
	s = appendText(s, rlX0, ya, "start", "rl-label", units.Duration(float64(l.From)))
	s = appendText(s, (rlX0+rlX1)/2, ya, "middle", "rl-label", units.Duration(float64(l.From+(l.To-l.From)/2)))
	s = appendText(s, rlX1, ya, "end", "rl-label", units.Duration(float64(l.To)))
	return string(append(s, `</svg>`...))
}
