package anim

import (
	"math"

	"omission/app/units"
	"omission/sim/window"
)

// The frames of a window drawn by calls (a run with retries, whose window
// the queue animation refuses: window.NewRetryWindow). Each stage shows one
// client's calls at instant t as marks in boxes, one per state: not sent
// yet, queued, in service, answered, backing off and gave up (failed), each
// with its count; a mark moving between states flies from box to box (a
// failed attempt's call to backing off, and, when its backoff ends, back to
// the queue with its next attempt). Over the boxes a strip of the window's
// time holds its outages and stalls and the cursor. The counts come from
// the model's binary searches (window.RetryClient.CountsAt), the flights from
// its moves in the last flight's time, a few per frame standing for the
// rest; nothing walks the window's calls.

// retryBox is one state's box in a stage, in CSS px.
type retryBox struct{ x, y, w, h float32 }

// retryLayout places a window by calls' stage: the time strip and a box per
// state (indexed by window.CallState).
type retryLayout struct {
	boxes [window.NumCallStates]retryBox
}

// The stage's rows, in CSS px.
const (
	rfStrip0 = 4  // the time strip's top
	rfStrip1 = 14 // its bottom
	rfRow1   = 22 // the first row of boxes: not sent yet, queued, in service, answered
	rfRow1H  = 58
	rfRow2   = rfRow1 + rfRow1H + 10 // the second: backing off (under queued and in service), gave up (under answered)
	rfRow2H  = 46
	rfHeight = rfRow2 + rfRow2H + 6
)

// retryLayoutFor lays out a stage w px wide.
func retryLayoutFor(w float32) (animLayout, retryLayout) {
	w = max(w, 240)
	l := animLayout{w: w, h: rfHeight, tx0: 10, tx1: w - 10, bandY0: rfStrip0, bandY1: rfStrip1}
	var r retryLayout
	const gap = 16
	inner := w - 20 - 3*gap
	ns := min(max(inner*0.13, 56), 110) // not sent yet: a count, and a few marks
	bw := (inner - ns) / 3
	x := float32(10)
	r.boxes[window.CallNotSent] = retryBox{x, rfRow1, ns, rfRow1H}
	x += ns + gap
	r.boxes[window.CallQueued] = retryBox{x, rfRow1, bw, rfRow1H}
	r.boxes[window.CallBackoff] = retryBox{x + bw/2, rfRow2, bw + gap, rfRow2H}
	x += bw + gap
	r.boxes[window.CallServing] = retryBox{x, rfRow1, bw, rfRow1H}
	x += bw + gap
	r.boxes[window.CallAnswered] = retryBox{x, rfRow1, bw, rfRow1H}
	r.boxes[window.CallFailed] = retryBox{x, rfRow2, bw, rfRow2H}
	return l, r
}

// Each box's label and the style of its marks (a client's colour, or faint
// for calls not sent yet, or the threshold's red for calls that gave up).
var retryBoxLabels = [window.NumCallStates]int{lbNotSent, lbQueue, lbInService, lbBackoff, lbGaveUp, lbAnswered}

func retryMarkStyle(s window.CallState, i int) int {
	switch s {
	case window.CallNotSent:
		return stFaint + i
	case window.CallFailed:
		return stThreshold
	case window.CallAnswered:
		return stBusy + i
	}
	return stClient + i
}

// cells returns the box's grid: cols cells a row, room for cap marks.
func (b retryBox) cells() (cols int, cap int64) {
	cols = max(int((b.w-6)/markCell), 1)
	rows := max(int((b.h-18)/markCell), 1)
	return cols, int64(cols * rows)
}

// cell returns the top left corner of mark k's cell, filling from the
// box's bottom left.
func (b retryBox) cell(k int64, cols int) (float32, float32) {
	return b.x + 3 + markCell*float32(int(k)%cols), b.y + b.h - 3 - markCell*float32(int(k)/cols+1)
}

// tail returns the centre of the cell a mark flying into the box holding n
// marks lands in (its last cell when full).
func (b retryBox) tail(n int64) (float32, float32) {
	cols, cp := b.cells()
	x, y := b.cell(min(max(n, 0), cp-1), cols)
	return x + markCell/2, y + markCell/2
}

// textWidth is an upper estimate of the width in CSS px of n characters
// in the frame's 11 px font (web/anim.js FONT): digits and lower case run
// 6 to 6.5 px wide.
func textWidth(n int) float32 { return 6.5 * float32(n) }

// buildRetry writes the frame of instant p.t of a window by calls.
func (f *animFrame) buildRetry(m *window.Summary, p frameParams) {
	// A mark flies for at most a quarter of the backoff: a call backing off
	// lands in its box before it leaves it, so the box shows its calls
	// standing, not only in the air (at the default speed a flight lasts
	// longer than the storm's 100 ms backoff).
	if b := m.Retry.Backoff; b > 0 && p.flight > b/4 {
		p.flight = max(b/4, 1)
	}
	f.begin(m, p, 1)
	for i, rc := range m.Retry.Clients {
		before := f.ops()
		k := rc.CountsAt(p.t)
		f.retryStage(m, i, rc, &k, p)
		f.hdr(hdrOps+i, float64(f.ops()-before))
		base := hdrCount + i*hdrPer
		for s, v := range k.In {
			f.hdr(base+s, float64(v))
		}
		f.hdr(base+rcAttempts, float64(k.Attempts))
		f.hdr(base+rcRetries, float64(k.Retries))
		f.hdr(base+rcWasted, float64(k.Wasted))
		f.hdr(base+rcWasted+1, 0)
	}
	f.end(m, p.t, true)
}

// Counter slots of a stage by calls, after its states' (window.CallState).
const (
	rcAttempts = int(window.NumCallStates)
	rcRetries  = rcAttempts + 1
	rcWasted   = rcRetries + 1 // attempts a worker serves for a client that gave up on them
)

// retryStage draws client i's calls at p.t: the cursor on the strip, each
// box's marks and count, and the marks in flight.
func (f *animFrame) retryStage(m *window.Summary, i int, rc *window.RetryClient, k *window.CallCounts, p frameParams) {
	l, r := &f.layout, &f.rlayout
	xt := l.tx0 + float32(float64(p.t-m.From)/float64(m.To-m.From))*(l.tx1-l.tx0)
	xt = min(max(xt, l.tx0), l.tx1)
	f.op(opRect, stBusy+i, l.tx0, rfStrip1-3, xt-l.tx0, 3)
	f.op(opLine, stCursor, xt, rfStrip0-2, xt, rfStrip1+2)
	// The marks standing in each box: its calls, less those still flying
	// into it.
	var standing [window.NumCallStates]int64
	for s := range standing {
		n := k.In[s]
		if p.flight > 0 {
			n -= rc.Entered(window.CallState(s), p.t-p.flight, p.t)
		}
		standing[s] = max(n, 0)
	}
	for s, b := range r.boxes {
		cols, cp := b.cells()
		st := retryMarkStyle(window.CallState(s), i)
		drawn := min(standing[s], cp)
		for j := int64(0); j < drawn; j++ {
			x, y := b.cell(j, cols)
			f.op(opRect, st, x+1, y+1, markCell-2, markCell-2)
		}
		// The box's name and count, or on a narrow stage (a phone) the
		// count alone when both would run into the next box (the name is
		// beside the client's name, in the same order).
		lb := retryBoxLabels[s]
		used := textWidth(len(animLabels[lb]) + 1 + len(units.Count(k.In[s])))
		if 4+used+4 > b.w {
			lb, used = lbNone, textWidth(len(units.Count(k.In[s])))
		}
		f.op(opCount, stInk, b.x+4, b.y+12, float32(k.In[s]), float32(0+4*lb))
		more := k.In[s] > cp
		wasted := window.CallState(s) == window.CallServing && k.Wasted > 0
		if wasted {
			// Wasted work: attempts a worker goes on serving for a client
			// that gave up on them, as hollow marks after the calls in
			// service, and their count at the box's top right.
			for j := int64(0); j < min(k.Wasted, cp-drawn); j++ {
				x, y := b.cell(drawn+j, cols)
				f.op(opStroke, stClient+i, x+1, y+1, markCell-2, markCell-2)
			}
			f.op(opCount, stMuted, b.x+b.w-4, b.y+12, float32(k.Wasted), float32(2+4*lbWasted))
			used += 8 + textWidth(len(animLabels[lbWasted])+1+len(units.Count(k.Wasted)))
			more = more || k.In[s]+k.Wasted > cp
		}
		if more {
			// "not all drawn" at the box's top right when the labels
			// leave room for it, else under the box where nothing else
			// is (the not sent yet box; the right of in service); left
			// out elsewhere (the legend says a box draws what it has room
			// for, and its count is every call).
			switch {
			case 4+used+8+textWidth(len(animLabels[lbMore]))+4 <= b.w && !wasted:
				f.op(opText, stMuted, b.x+b.w-4, b.y+12, float32(lbMore), 2)
			case window.CallState(s) == window.CallServing && b.w >= 2*textWidth(len(animLabels[lbMore])):
				f.op(opText, stMuted, b.x+b.w, b.y+b.h+11, float32(lbMore), 2)
			case window.CallState(s) == window.CallNotSent:
				f.op(opText, stMuted, b.x, b.y+b.h+11, float32(lbMore), 0)
			}
		}
	}
	if p.flight <= 0 {
		return
	}
	lo, hi := rc.MovesIn(p.t-p.flight, p.t)
	stride := max(1, (hi-lo+maxFlights-1)/maxFlights)
	for j := lo; j < hi; j += stride {
		mv := rc.Moves[j]
		fr := ease(float32(p.t-mv.At) / float32(p.flight))
		x0, y0 := r.boxes[mv.From].tail(standing[mv.From])
		x1, y1 := r.boxes[mv.To].tail(standing[mv.To])
		f.op(opDot, stClient+i, x0+(x1-x0)*fr, y0+(y1-y0)*fr, 3, 0)
	}
}

// retryReadouts writes the moment, from the window's outage or stall.
func (f *animFrame) retryReadouts(m *window.Summary, t int64) {
	what := "stall"
	switch m.Kind {
	case "outage":
		what = "outage"
	case "worst":
		what = "worst reply's send"
	}
	s := append(units.AppendDuration(f.scratch[:0], float64(t)), " ("...)
	if d := t - m.Start; d >= 0 {
		s = units.AppendDuration(append(append(s, what...), " + "...), float64(d))
	} else {
		s = append(append(units.AppendDuration(s, float64(-d)), " before the "...), what...)
	}
	f.setText(txTime, append(s, ')'))
}

// retryBackground draws what does not move: the strip with the outages and
// stalls, the window's ends, the boxes and the arrows between them.
func (f *animFrame) retryBackground(m *window.Summary) {
	l, r := &f.layout, &f.rlayout
	f.op(opStroke, stGrid, l.tx0, rfStrip0, l.tx1-l.tx0, rfStrip1-rfStrip0)
	f.bands(&m.Slowed, stSlow)
	f.bands(&m.Stalled, stStall)
	x := func(t int64) float32 {
		return l.tx0 + float32(float64(t-m.From)/float64(m.To-m.From))*(l.tx1-l.tx0)
	}
	from, to := units.Duration(float64(m.From)), units.Duration(float64(m.To))
	for k, o := range m.Retry.Outages {
		x0, x1 := x(o.From), x(o.To)
		f.op(opHatch, stThreshold, x0, rfStrip0, max(x1-x0, 1), rfStrip1-rfStrip0)
		if k == 0 {
			// Clear of the window's start written under the strip's left
			// end, and left out where it would run into its end.
			lx := max(x0+3, l.tx0+textWidth(len(from))+8)
			if lx+textWidth(len(animLabels[lbOutage]))+8 <= l.tx1-textWidth(len(to)) {
				f.op(opText, stMuted, lx, rfStrip1+7, float32(lbOutage), 0)
			}
		}
	}
	f.op(opText, stMuted, l.tx0, rfStrip1+7, f.label(from), 0)
	f.op(opText, stMuted, l.tx1, rfStrip1+7, f.label(to), 2)
	for s, b := range r.boxes {
		style := stGrid
		if window.CallState(s) == window.CallServing {
			style = stInk
		}
		f.op(opStroke, style, b.x, b.y, b.w, b.h)
	}
	// Arrows: sent to the queue, taken by a worker, answered; failed to
	// backing off or to gave up; backing off back to the queue.
	b := &r.boxes
	my := b[window.CallQueued].y + b[window.CallQueued].h/2
	for _, pair := range [][2]window.CallState{{window.CallNotSent, window.CallQueued}, {window.CallQueued, window.CallServing}, {window.CallServing, window.CallAnswered}} {
		x0, x1 := b[pair[0]].x+b[pair[0]].w, b[pair[1]].x
		f.arrow(x0+1, my, x1-1, my)
	}
	sv, bk, fl := b[window.CallServing], b[window.CallBackoff], b[window.CallFailed]
	f.arrow(sv.x+sv.w*0.3, sv.y+sv.h, sv.x+sv.w*0.3, bk.y)                     // failed, attempts left
	f.arrow(bk.x+bk.w*0.15, bk.y, bk.x+bk.w*0.15, b[window.CallQueued].y+sv.h) // back to the queue
	f.arrow(sv.x+sv.w*0.85, sv.y+sv.h, fl.x+fl.w*0.15, fl.y)                   // failed, none left
}

// arrow draws a line from (x0, y0) to (x1, y1) with a head at its end.
func (f *animFrame) arrow(x0, y0, x1, y1 float32) {
	f.op(opLine, stMuted, x0, y0, x1, y1)
	dx, dy := x1-x0, y1-y0
	n := float32(1)
	if d := dx*dx + dy*dy; d > 0 {
		n = float32(1 / math.Sqrt(float64(d)))
	}
	ux, uy := dx*n*4, dy*n*4
	f.op(opLine, stMuted, x1, y1, x1-ux-uy*0.7, y1-uy+ux*0.7)
	f.op(opLine, stMuted, x1, y1, x1-ux+uy*0.7, y1-uy-ux*0.7)
}
