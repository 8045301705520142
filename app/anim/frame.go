package anim

import (
	"encoding/binary"
	"math"
	"strconv"

	"omission/app/charts"
	"omission/app/units"
	"omission/sim"
	"omission/sim/window"
)

// A frame of the animation is a list of drawing operations that web/anim.js
// replays on one canvas per stage. Go writes the frame into a byte buffer
// allocated once (a float64 header, the readouts' texts, then float32
// operations) and hands it to JavaScript in one copy; building a frame
// allocates nothing.
//
// An operation is six float32: code, style, then four numbers whose meaning
// depends on the code. Styles index the colour table of animStyles; labels
// index the label table (animLabels, then the labels of the background).

const (
	opRect   = 1 // x, y, w, h: filled
	opStroke = 2 // x, y, w, h: outlined
	opDot    = 3 // x, y, r: a disc
	opCross  = 4 // x, y, r: a cross
	opLine   = 5 // x1, y1, x2, y2
	opText   = 6 // x, y, label, align (0 left, 1 centre, 2 right)
	opCount  = 7 // x, y, value, align + 4·label: "label value" with the value counted
	opHatch  = 9 // x, y, w, h: hatched
)

// Styles.
const (
	stInk = iota
	stMuted
	stGrid
	stStall
	stPanel
	stCursor
	stThreshold
	stClient                // + stage: the client's colour
	stFaint  = stClient + 3 // + stage: not due yet
	stSynth  = stFaint + 3  // + stage: corrected samples
	stBusy   = stSynth + 3  // + stage: the server lane when busy
	stSlow   = stBusy + 3   // slowdown windows, paler than a stall
	numStyle = stSlow + 1
)

// Fixed labels; the background appends its own.
const (
	lbNone = iota
	lbQueue
	lbServer
	lbStalled
	lbServing
	lbIdle
	lbInService
	lbRecorded
	lbStall
	lbNotSent
	lbNeverSent
	lbCorrected
	lbAnswered // a window by calls (retryframe.go)
	lbBackoff
	lbGaveUp
	lbOutage
	lbMore
	lbWasted
	numLabels
)

var animLabels = [numLabels]string{"", "queue", "server", "stalled", "serving", "idle", "in service", "recorded latencies (log scale)", "stall", "not sent yet", "never sent", "corrected",
	"answered", "backing off", "gave up", "outage", "not all drawn", "wasted work"}

// The header: float64 values before the operations.
const (
	hdrT       = 0  // the simulated instant shown, ns
	hdrStall   = 1  // the stall index
	hdrPlaying = 2  // 1 while playing
	hdrHeight  = 3  // a stage's canvas height, CSS px
	hdrBg      = 4  // 1 when the frame carries a new background
	hdrFrom    = 5  // the window
	hdrTo      = 6  //
	hdrWidth   = 7  // the width the frame was laid out for
	hdrOps     = 8  // 3 values: operations of each stage
	hdrBgOps   = 11 // background operations (the same for every stage)
	hdrLabels  = 14 // how many labels the background uses
	hdrStart   = 15 // the stall's start
	hdrCount   = 16 // 3 × hdrPer values: each stage's counters
	hdrPer     = 10
	hdrMode    = hdrCount + 3*hdrPer // 0: the queue animation; 1: a window by calls (retryframe.go)
	hdrLen     = hdrCount + 3*hdrPer + 2
)

// Counter slots within a stage's hdrPer values (read by anim.js).
const (
	cRecorded = iota
	cSlowest
	cAbove
	cSynthetic
	cWaiting
	cNotSent
	cNeverSent
	cQueued
	cServing
	cStalled
)

// The readouts: texts written after the header, which anim.js shows as they
// are (durations are written by app/units only). Each is a slot of textSlot
// bytes: its length in bytes, then its UTF-8.
const (
	txSlowest = 0 // + stage: the slowest latency recorded so far, a dash before the first
	txTime    = 3 // the moment: "1.6 s (stall + 100 ms)"
	numTexts  = 4
	textSlot  = 96
	opsOff    = hdrLen*8 + numTexts*textSlot // where the operations start
)

// compactWidth is the narrowest canvas a compact layout keeps side by side.
const compactWidth = 480

const (
	opSize      = 6 * 4
	animMaxOps  = 8192 // a frame holds at most this many operations
	animBufSize = opsOff + animMaxOps*opSize
	maxFlights  = 40 // marks drawn flying to the server, per client
	maxLeaving  = 12 // marks drawn flying to the tally, per client
	flightMs    = 240.0
)

// animLayout places a stage's parts in its canvas, in CSS px.
type animLayout struct {
	w, h           float32
	narrow         bool
	tx0, tx1       float32 // the timeline
	top, base      float32 // marks stand on base, up to top
	crossY         float32 // skipped slots
	laneY0, laneY1 float32 // the server's history
	bandY0, bandY1 float32 // stall bands
	axisY          float32
	qx, qy, qw, qh float32 // the queue
	sx, sy, sw, sh float32 // the server
	bx, by, bw, bh float32 // the tally (bars stand on by+bh)
}

// layoutFor lays out a stage for a canvas width w. Compact (an embed, whose
// frame holds the three stages at once) keeps the timeline, queue, server
// and tally side by side down to compactWidth, in a shorter band.
func layoutFor(w float32, compact bool) animLayout {
	w = max(w, 240)
	l := animLayout{w: w, top: 18, base: 58, crossY: 64, laneY0: 69, laneY1: 79, bandY0: 4, bandY1: 82, axisY: 83}
	tw := min(max(w*0.22, 150), 260)
	qw := min(max(w*0.11, 84), 130)
	const sw = 60
	if compact && w >= compactWidth {
		l = animLayout{w: w, h: 82, top: 14, base: 44, crossY: 49, laneY0: 53, laneY1: 61, bandY0: 3, bandY1: 63, axisY: 64}
		tw = min(max(w*0.26, 170), 260) // the tally's label fits
		qw = min(max(w*0.11, 72), 130)
		l.tx0, l.tx1 = 8, w-8-tw-12-sw-8-qw-12
		l.qx, l.qy, l.qw, l.qh = l.tx1+12, 16, qw, 48
		l.sx, l.sy, l.sw, l.sh = l.qx+qw+8, 16, sw, 48
		l.bx, l.by, l.bw, l.bh = l.sx+sw+12, 16, w-8-(l.sx+sw+12), 48
		return l
	}
	if w >= 700 {
		l.h = 104
		l.tx0, l.tx1 = 10, w-10-tw-14-sw-10-qw-14
		l.qx, l.qy, l.qw, l.qh = l.tx1+14, 18, qw, 61
		l.sx, l.sy, l.sw, l.sh = l.qx+qw+10, 18, sw, 61
		l.bx, l.by, l.bw, l.bh = l.sx+sw+14, 18, w-10-(l.sx+sw+14), 61
		return l
	}
	// Narrow: the timeline on top, the queue, server and tally below it.
	l.narrow = true
	l.h = 104 + 96
	l.tx0, l.tx1 = 8, w-8
	y := float32(104 + 14)
	qw = min(qw, w*0.28)
	l.qx, l.qy, l.qw, l.qh = 8, y, qw, 61
	l.sx, l.sy, l.sw, l.sh = l.qx+qw+8, y, sw, 61
	l.bx, l.by, l.bw, l.bh = l.sx+sw+12, y, w-8-(l.sx+sw+12), 61
	return l
}

// xOf places instant t of m's window on the timeline.
func xOf(m *window.Summary, l *animLayout, t int64) float32 {
	f := float64(t-m.From) / float64(m.To-m.From)
	f = min(max(f, 0), 1)
	return l.tx0 + float32(f)*(l.tx1-l.tx0)
}

// animFrame is the buffer of frames and what building one needs, allocated
// once per model and layout.
type animFrame struct {
	buf     []byte   // header, readouts, then operations
	scratch []byte   // a readout being written
	slowest [3]int64 // the slowest latencies the readouts hold (-1: none yet)
	n       int      // bytes of operations written after the header
	dropped int      // operations that did not fit (a bug: tests check 0)
	tally   []int32
	counts  [3]window.ClientCounts
	states  [3]window.State
	labels  []string // the label table of the current background
	layout  animLayout
	rlayout retryLayout // a window by calls: its boxes
	compact bool        // lay out for an embed (layoutFor)
	bgNeed  bool        // the next frame carries the background
	bgBuilt bool        // the last frame carried it
}

func newAnimFrame() *animFrame {
	return &animFrame{buf: make([]byte, animBufSize), scratch: make([]byte, 0, textSlot), slowest: [3]int64{-1, -1, -1}}
}

func (f *animFrame) hdr(i int, v float64) {
	binary.LittleEndian.PutUint64(f.buf[i*8:], math.Float64bits(v))
}

func (f *animFrame) op(code, style int, a, b, c, d float32) {
	off := opsOff + f.n
	if off+opSize > len(f.buf) {
		f.dropped++
		return
	}
	p := f.buf[off : off+opSize]
	binary.LittleEndian.PutUint32(p[0:], math.Float32bits(float32(code)))
	binary.LittleEndian.PutUint32(p[4:], math.Float32bits(float32(style)))
	binary.LittleEndian.PutUint32(p[8:], math.Float32bits(a))
	binary.LittleEndian.PutUint32(p[12:], math.Float32bits(b))
	binary.LittleEndian.PutUint32(p[16:], math.Float32bits(c))
	binary.LittleEndian.PutUint32(p[20:], math.Float32bits(d))
	f.n += opSize
}

// ops returns how many operations have been written so far.
func (f *animFrame) ops() int { return f.n / opSize }

// bytes returns the frame to copy to JavaScript.
func (f *animFrame) bytes() []byte { return f.buf[:opsOff+f.n] }

// setText writes readout k (cut to its slot: readouts are far shorter).
func (f *animFrame) setText(k int, b []byte) {
	p := f.buf[hdrLen*8+k*textSlot : hdrLen*8+(k+1)*textSlot]
	p[0] = byte(copy(p[1:], b))
}

// readouts writes the texts beside the canvases for instant t: each stage's
// slowest latency (only when it changed) and the moment, from the stall's
// start.
func (f *animFrame) readouts(m *window.Summary, t int64) {
	for i := range m.Clients {
		v := f.counts[i].Slowest
		if v == f.slowest[i] {
			continue
		}
		f.slowest[i] = v
		s := append(f.scratch[:0], "—"...)
		if v > 0 {
			s = units.AppendDuration(s[:0], float64(v))
		}
		f.setText(txSlowest+i, s)
	}
	s := append(units.AppendDuration(f.scratch[:0], float64(t)), " ("...)
	if d := t - m.Start; d >= 0 {
		s = units.AppendDuration(append(s, "stall + "...), float64(d))
	} else {
		s = append(units.AppendDuration(s, float64(-d)), " before the stall"...)
	}
	f.setText(txTime, append(s, ')'))
}

// setLayout lays the frame out for a canvas width; the next frame carries a
// new background.
func (f *animFrame) setLayout(m *window.Summary, w float32) {
	if m.Retry != nil {
		f.layout, f.rlayout = retryLayoutFor(w)
		f.labels = f.labels[:0]
		f.bgNeed = true
		return
	}
	f.layout = layoutFor(w, f.compact)
	f.tally = make([]int32, 2*(len(m.Bins)-1))
	f.labels = f.labels[:0]
	f.bgNeed = true
}

// frameParams is what a frame shows besides the model.
type frameParams struct {
	t       int64
	flight  int64 // simulated ns a mark takes to fly; 0 for no motion
	playing bool
}

// build writes the frame for instant p.t: the counters in the header and the
// operations of each stage, then (when needed) the background.
func (f *animFrame) build(m *window.Summary, p frameParams) {
	if m.Retry != nil {
		f.buildRetry(m, p)
		return
	}
	f.begin(m, p, 0)
	stalled := m.StalledAt(p.t)
	for i, a := range m.Clients {
		before := f.ops()
		f.stage(m, i, a, p, stalled)
		f.hdr(hdrOps+i, float64(f.ops()-before))
		c := &f.counts[i]
		base := hdrCount + i*hdrPer
		for k, v := range [...]int64{c.Recorded, c.Slowest, c.Above, c.Synthetic, c.Waiting, c.NotSent, c.NeverSent, c.Queued, c.Serving} {
			f.hdr(base+k, float64(v))
		}
		f.hdr(base+cStalled, b2f(stalled))
	}
	f.end(m, p.t, false)
}

// begin starts the frame of instant p.t: the header every mode writes
// (mode 0 for the queue animation, 1 for a window by calls).
func (f *animFrame) begin(m *window.Summary, p frameParams, mode float64) {
	f.n, f.dropped = 0, 0
	l := &f.layout
	f.hdr(hdrMode, mode)
	f.hdr(hdrT, float64(p.t))
	f.hdr(hdrStall, float64(m.Stall))
	f.hdr(hdrPlaying, b2f(p.playing))
	f.hdr(hdrHeight, float64(l.h))
	f.hdr(hdrFrom, float64(m.From))
	f.hdr(hdrTo, float64(m.To))
	f.hdr(hdrWidth, float64(l.w))
	f.hdr(hdrStart, float64(m.Start))
}

// end writes the readouts at t and, when needed, the background of the
// mode (byCalls: a window by calls), its operations counted in the header.
func (f *animFrame) end(m *window.Summary, t int64, byCalls bool) {
	if byCalls {
		f.retryReadouts(m, t)
	} else {
		f.readouts(m, t)
	}
	f.hdr(hdrBg, b2f(f.bgNeed))
	before := f.ops()
	if f.bgNeed {
		f.labels = f.labels[:0]
		if byCalls {
			f.retryBackground(m)
		} else {
			f.background(m)
		}
	}
	f.hdr(hdrBgOps, float64(f.ops()-before))
	f.hdr(hdrLabels, float64(len(f.labels)))
	f.bgBuilt, f.bgNeed = f.bgNeed, false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// stage draws client a's stage at p.t, part by part: the marks on the
// timeline, the server's lane, the queue, the server, the tally and the
// marks in flight between them.
func (f *animFrame) stage(m *window.Summary, i int, a *window.Client, p frameParams, stalled bool) {
	l := &f.layout
	c := &f.counts[i]
	st := a.Counts(m, p.t, c, f.tally)
	f.states[i] = st
	colW := (l.tx1 - l.tx0) / window.WindowColumns
	f.stageMarks(m, i, a, st, colW)
	f.stageLane(m, i, a, p.t, colW)

	// Requests before landed have landed (in the queue, the server or the
	// tally), those before left have reached the tally; with motion, those
	// sent or done within the last flight's time are still in the air.
	landed, left := st.Send, st.Done
	if p.flight > 0 {
		landed = a.Search(window.InstSend, p.t-p.flight)
		left = a.Search(window.InstDone, p.t-p.flight)
	}
	q := f.stageQueue(i, int64(max(0, landed-st.Start)))
	scx, scy := f.stageServer(m, i, stalled)
	g := newTallyScale(m, l)
	f.stageTally(i, g)
	if p.flight > 0 {
		f.stageFlights(m, i, a, p, flightEnds{landed: landed, left: left, queue: q, scx: scx, scy: scy, tally: g})
	}
}

// markCell is the side of a square cell holding one mark in the queue or
// the server, in CSS px.
const markCell = 7

// stageMarks draws the marks: each column is a counted group of requests due
// in it; not sent yet (solid) below not due yet (faint). Skipped slots that
// have passed are crosses under the line.
func (f *animFrame) stageMarks(m *window.Summary, i int, a *window.Client, st window.State, colW float32) {
	l := &f.layout
	c := &f.counts[i]
	barW := max(colW-0.3, 0.7)
	if colW >= 3 {
		barW = colW - 1
	}
	unit := min(6, (l.base-l.top)/float32(max(m.ColMax, 1)))
	height := func(n int64) float32 { return max(float32(n)*unit, 1) }
	for b := 0; b < window.WindowColumns; b++ {
		s, e := a.ColAt[b], a.ColAt[b+1]
		nev := a.NeverAt[b+1] - a.NeverAt[b]
		if s == e && nev == 0 {
			continue
		}
		x := l.tx0 + colW*float32(b)
		notSent := overlap(s, e, st.Send, st.Due)
		future := overlap(s, e, st.Due, a.N)
		nevPast := min(max(c.NeverSent-a.NeverAt[b], 0), nev)
		y := l.base
		if notSent > 0 {
			h := height(notSent)
			f.op(opRect, stClient+i, x, y-h, barW, h)
			y -= h
		}
		if n := future + nev - nevPast; n > 0 {
			h := height(n)
			f.op(opRect, stFaint+i, x, y-h, barW, h)
		}
		if nevPast > 0 {
			f.op(opCross, stInk, x+barW/2, l.crossY, 2.5, 0)
		}
	}
}

// stageLane draws the server's history up to t on its lane, and the cursor
// at t.
func (f *animFrame) stageLane(m *window.Summary, i int, a *window.Client, t int64, colW float32) {
	l := &f.layout
	xt := xOf(m, l, t)
	for _, r := range a.Lane {
		x0 := l.tx0 + colW*float32(r.From)
		if x0 >= xt {
			break
		}
		x1 := min(l.tx0+colW*float32(r.To), xt)
		switch r.State {
		case window.LaneBusy:
			f.op(opRect, stBusy+i, x0, l.laneY0, x1-x0, l.laneY1-l.laneY0)
		case window.LaneStalled:
			f.op(opHatch, stInk, x0, l.laneY0, x1-x0, l.laneY1-l.laneY0)
		}
	}
	f.op(opLine, stCursor, xt, l.bandY0, xt, l.bandY1)
}

// queueGrid is how the queue's marks fill its cells: waiting requests, cols
// cells a row, room for cap of them.
type queueGrid struct {
	waiting, cap int64
	cols         int
}

// tail returns the centre of the cell of the queue's last mark (or of its
// last cell when the queue overflows), where a mark flying in lands.
func (q queueGrid) tail(l *animLayout) (float32, float32) {
	k := min(q.waiting, q.cap-1)
	return l.qx + l.qw - 3 - markCell*float32(int(k)%q.cols+1) + markCell/2, l.qy + l.qh - 3 - markCell*float32(int(k)/q.cols+1) + markCell/2
}

// stageQueue draws the queue: the requests that have arrived and wait, from
// the server side, and the count of those queued. It returns the queue's grid.
func (f *animFrame) stageQueue(i int, waiting int64) queueGrid {
	l := &f.layout
	c := &f.counts[i]
	qcols := int((l.qw - 6) / markCell)
	qrows := int((l.qh - 18) / markCell)
	qcap := int64(max(qcols*qrows, 1))
	for k := int64(0); k < min(waiting, qcap); k++ {
		cx := l.qx + l.qw - 3 - markCell*float32(int(k)%qcols+1)
		cy := l.qy + l.qh - 3 - markCell*float32(int(k)/qcols+1)
		f.op(opRect, stClient+i, cx+1, cy+1, markCell-2, markCell-2)
	}
	f.op(opCount, stInk, l.qx+4, l.qy+12, float32(c.Queued), float32(0+4*lbQueue))
	return queueGrid{waiting: waiting, cap: qcap, cols: qcols}
}

// stageServer draws the server: stalled (hatched) or serving, with what it
// serves. It returns the point where marks enter and leave it.
func (f *animFrame) stageServer(m *window.Summary, i int, stalled bool) (float32, float32) {
	l := &f.layout
	c := &f.counts[i]
	if stalled {
		f.op(opHatch, stInk, l.sx, l.sy, l.sw, l.sh)
	}
	label := lbIdle
	switch {
	case stalled:
		label = lbStalled
	case c.Serving > 0:
		label = lbServing
	}
	f.op(opText, stInk, l.sx+l.sw/2, l.sy+12, float32(label), 1)
	scx, scy := l.sx+l.sw/2, l.sy+l.sh/2+6
	if m.Workers == 1 {
		if c.Serving > 0 {
			f.op(opRect, stClient+i, scx-7, scy-7, 14, 14)
		}
		return scx, scy
	}
	scols := int((l.sw - 6) / markCell)
	srows := int((l.sh - 30) / markCell)
	scap := int64(max(scols*srows, 1))
	for k := int64(0); k < min(c.Serving, scap); k++ {
		cx := l.sx + 3 + markCell*float32(int(k)%scols)
		cy := l.sy + 17 + markCell*float32(int(k)/scols)
		f.op(opRect, stClient+i, cx+1, cy+1, markCell-2, markCell-2)
	}
	if c.Serving > 0 {
		f.op(opCount, stInk, l.sx+l.sw/2, l.sy+l.sh-3, float32(c.Serving), 1)
	}
	return scx, scy
}

// tallyScale places counts on the tally: bins of width bw across it, heights
// logarithmic in the count, on one scale for all stages.
type tallyScale struct {
	l         *animLayout
	nb        int // bins
	bw, scale float32
}

// newTallyScale returns the tally's scale for m in layout l.
func newTallyScale(m *window.Summary, l *animLayout) tallyScale {
	nb := len(m.Bins) - 1
	return tallyScale{l: l, nb: nb, bw: l.bw / float32(nb), scale: float32(1 / math.Log1p(float64(max(m.BinMax, 1))))}
}

// h returns the height of a bar of n.
func (g tallyScale) h(n int32) float32 {
	return g.l.bh * g.scale * float32(math.Log1p(float64(n)))
}

// top returns the middle of the top of bin k's bar of n.
func (g tallyScale) top(k int, n int32) (float32, float32) {
	return g.l.bx + g.bw*(float32(k)+0.5), g.l.by + g.l.bh - g.h(n)
}

// stageTally draws the tally: recorded latencies per bin, the corrected
// samples stacked on them.
func (f *animFrame) stageTally(i int, g tallyScale) {
	l := &f.layout
	nb, bw := g.nb, g.bw
	for k := 0; k < nb; k++ {
		rec, syn := f.tally[k], f.tally[nb+k]
		if rec == 0 && syn == 0 {
			continue
		}
		x := l.bx + bw*float32(k) + 0.5
		h0 := g.h(rec)
		if rec > 0 {
			f.op(opRect, stClient+i, x, l.by+l.bh-h0, max(bw-1, 0.8), h0)
		}
		if syn > 0 {
			h1 := g.h(rec+syn) - h0
			f.op(opRect, stSynth+i, x, l.by+l.bh-h0-h1, max(bw-1, 0.8), max(h1, 1))
		}
	}
}

// flightEnds is what the marks in flight need: the first request still
// flying from the client and the first still flying from the server, and
// where marks land (the queue's tail, the server at scx, scy, the tally).
type flightEnds struct {
	landed, left int
	queue        queueGrid
	scx, scy     float32
	tally        tallyScale
}

// stageFlights draws the marks in flight: leaving the client for the queue
// (or straight to the server, or the tally when it was quick), and leaving
// the server for the tally. A few per frame stand for the rest.
func (f *animFrame) stageFlights(m *window.Summary, i int, a *window.Client, p frameParams, e flightEnds) {
	l := &f.layout
	st := f.states[i]
	scx, scy := e.scx, e.scy
	n := st.Send - e.landed
	stride := max(1, (n+maxFlights-1)/maxFlights)
	for j := e.landed; j < st.Send; j += stride {
		r := a.Trace().At(j)
		fr := ease(float32(p.t-r.Send) / float32(p.flight))
		x0, y0 := xOf(m, l, r.Due), l.base-3
		var x1, y1 float32
		switch {
		case r.Start > p.t:
			x1, y1 = e.queue.tail(l)
		case r.Done > p.t:
			x1, y1 = scx, scy
		default:
			x1, y1 = e.tally.top(m.Bin(r.Latency), f.tally[m.Bin(r.Latency)])
		}
		f.op(opDot, stClient+i, x0+(x1-x0)*fr, y0+(y1-y0)*fr, 3, 0)
	}
	n = st.Done - e.left
	stride = max(1, (n+maxLeaving-1)/maxLeaving)
	for j := e.left; j < st.Done; j += stride {
		done, lat := a.Trace().Done(j), a.Trace().Latency(j)
		fr := ease(float32(p.t-done) / float32(p.flight))
		k := m.Bin(lat)
		x1, y1 := e.tally.top(k, f.tally[k])
		f.op(opDot, stClient+i, scx+(x1-scx)*fr, scy+(y1-scy)*fr, 2.5, 0)
	}
}

// overlap returns how many positions [s, e) and [a, b) share.
func overlap(s, e, a, b int) int64 {
	return int64(max(0, min(e, b)-max(s, a)))
}

// ease is smoothstep on [0, 1].
func ease(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x * (3 - 2*x)
}

// label appends a background label and returns its index.
func (f *animFrame) label(s string) float32 {
	f.labels = append(f.labels, s)
	return float32(numLabels + len(f.labels) - 1)
}

// bands shades each run of flagged columns as one band across the stages.
func (f *animFrame) bands(cols *[window.WindowColumns]bool, style int) {
	l := &f.layout
	colW := (l.tx1 - l.tx0) / window.WindowColumns
	for b := 0; b < window.WindowColumns; {
		if !cols[b] {
			b++
			continue
		}
		e := b
		for e < window.WindowColumns && cols[e] {
			e++
		}
		x0, x1 := l.tx0+colW*float32(b), l.tx0+colW*float32(e)
		f.op(opRect, style, x0, l.bandY0, x1-x0, l.bandY1-l.bandY0)
		b = e
	}
}

// background draws what does not move: the stall bands, the axis, the
// boxes, the tally's scale and threshold. It allocates (labels), but only
// when the layout or the model changes.
func (f *animFrame) background(m *window.Summary) {
	l := &f.layout
	// Slowdown bands under the stall bands, from the columns a slowdown
	// window overlaps (charts shade them the same way, paler).
	f.bands(&m.Slowed, stSlow)
	if m.SlowLabel != "" && (m.SlowAt < m.Start || m.SlowAt > m.Start+(m.To-m.From)/8) {
		// Named where it starts, unless the stall's own label stands there.
		f.op(opText, stMuted, xOf(m, l, m.SlowAt)+3, l.bandY0+9, f.label(m.SlowLabel), 0)
	}
	// Stall bands, from the columns a stall overlaps.
	f.bands(&m.Stalled, stStall)
	if m.Start >= m.From && m.Start <= m.To {
		lb := float32(lbStall)
		switch m.Kind { // an event-driven run without a stall
		case "outage":
			lb = f.label("outage")
		case "worst":
			lb = f.label("worst reply sent")
		}
		f.op(opText, stMuted, xOf(m, l, m.Start)+3, l.bandY0+9, lb, 0)
	}
	f.op(opLine, stGrid, l.tx0, l.base+0.5, l.tx1, l.base+0.5)
	f.op(opStroke, stGrid, l.tx0, l.laneY0, l.tx1-l.tx0, l.laneY1-l.laneY0)
	// Time axis: ticks from the stall's start.
	// Heckbert's steps come within 1.5 of span/n: two thirds of the room
	// for labels 90 px apart keeps them from touching.
	step := units.NiceStep(float64(m.To-m.From), max(1, int(float64(l.tx1-l.tx0)/90*2/3)))
	k0 := int64(math.Ceil(float64(m.From-m.Start) / step))
	for k := k0; ; k++ {
		t := m.Start + int64(float64(k)*step)
		if t > m.To {
			break
		}
		x := xOf(m, l, t)
		f.op(opLine, stMuted, x, l.axisY, x, l.axisY+4)
		f.op(opText, stMuted, x, l.axisY+14, f.label(axisLabel(t-m.Start)), 1)
	}
	// Boxes.
	f.op(opStroke, stGrid, l.qx, l.qy, l.qw, l.qh)
	f.op(opStroke, stInk, l.sx, l.sy, l.sw, l.sh)
	// The tally: its base, decades, threshold.
	nb := len(m.Bins) - 1
	bw := l.bw / float32(nb)
	f.op(opText, stMuted, l.bx, l.by-6, float32(lbRecorded), 0)
	f.op(opLine, stGrid, l.bx, l.by+l.bh+0.5, l.bx+l.bw, l.by+l.bh+0.5)
	lastX := float32(-1e9)
	for k := 1; k < nb; k++ {
		if v := m.Bins[k]; isPow10(v) {
			x := l.bx + bw*float32(k)
			f.op(opLine, stMuted, x, l.by+l.bh, x, l.by+l.bh+4)
			if x-lastX >= 44 && x+16 <= l.bx+l.bw+10 {
				f.op(opText, stMuted, x, l.by+l.bh+14, f.label(units.Duration(float64(v))), 1)
				lastX = x
			}
		}
	}
	if m.Above > 0 {
		x := l.bx + bw*binPos(m.Bins, m.Above)
		f.op(opLine, stThreshold, x, l.by-2, x, l.by+l.bh)
		f.op(opText, stThreshold, x+3, l.by+8, f.label("> "+units.Duration(float64(m.Above))), 0)
	}
}

// binPos returns the position of latency v on the tally's axis, in bins.
func binPos(bins []int64, v int64) float32 {
	for k := 1; k+1 < len(bins); k++ {
		if v < bins[k+1] {
			if v < bins[k] {
				return float32(k)
			}
			return float32(k) + float32(math.Log(float64(v)/float64(bins[k]))/math.Log(float64(bins[k+1])/float64(bins[k])))
		}
	}
	return float32(len(bins) - 1)
}

func isPow10(v int64) bool {
	for v >= 10 && v%10 == 0 {
		v /= 10
	}
	return v == 1
}

// axisLabel writes an offset from the stall's start: "0", "+100 ms", "−20 ms".
func axisLabel(d int64) string {
	switch {
	case d == 0:
		return "0"
	case d > 0:
		return "+" + units.Duration(float64(d))
	}
	return "−" + units.Duration(float64(-d))
}

// animStyles returns the colour table of a theme: the page's colours per
// recording (charts.LookOf), the chart palette for ink and grid.
func animStyles(t charts.Theme) []string {
	p := charts.Colours(t)
	s := make([]string, numStyle)
	s[stInk] = p.Ink
	s[stMuted] = rgba(p.Ink, 0.62)
	s[stGrid] = rgba(p.Ink, 0.28)
	s[stStall] = rgba(p.Stall, p.StallAlpha)
	s[stSlow] = rgba(p.Stall, p.SlowAlpha)
	s[stPanel] = p.Background
	s[stCursor] = rgba(p.Ink, 0.85)
	s[stThreshold] = "#B3261E"
	if t == charts.Dark {
		s[stThreshold] = "#FF8A80"
	}
	kinds := [3]sim.Kind{sim.Closed, sim.Paced, sim.Open}
	synth := [3]sim.Kind{sim.Corrected, sim.PacedCorrected, sim.Corrected}
	for i := range kinds {
		col := charts.LookOf(kinds[i], t).Colour
		s[stClient+i] = col
		s[stFaint+i] = rgba(col, 0.28)
		s[stSynth+i] = charts.LookOf(synth[i], t).Colour
		s[stBusy+i] = rgba(col, 0.55)
	}
	return s
}

// rgba turns "#RRGGBB" and an opacity into a CSS colour.
func rgba(hex string, a float64) string {
	if len(hex) != 7 || hex[0] != '#' {
		return hex
	}
	var v [3]int
	for k := range v {
		for _, ch := range hex[1+2*k : 3+2*k] {
			v[k] <<= 4
			switch {
			case ch >= '0' && ch <= '9':
				v[k] |= int(ch - '0')
			case ch >= 'a' && ch <= 'f':
				v[k] |= int(ch-'a') + 10
			case ch >= 'A' && ch <= 'F':
				v[k] |= int(ch-'A') + 10
			}
		}
	}
	return "rgba(" + strconv.Itoa(v[0]) + "," + strconv.Itoa(v[1]) + "," + strconv.Itoa(v[2]) + "," + units.Decimals(a) + ")"
}

// DrawFrame builds the frame of instant t of m for a canvas w px wide and
// returns its bytes, as the browser's frame loop does (tests, benchmarks).
func DrawFrame(m *window.Summary, t int64, w float32) []byte {
	f := newAnimFrame()
	f.setLayout(m, w)
	f.build(m, frameParams{t: t, flight: 1, playing: true})
	return f.bytes()
}
