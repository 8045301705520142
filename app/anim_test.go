package main

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

func animRun(t testing.TB, q string) *sim.Result {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", q, err)
	}
	return res
}

// animBenchStall1 is the model of the bench preset's stall 1 (it begins at 1.5 s).
func animBenchStall1(t testing.TB) (*sim.Result, *animModel) {
	t.Helper()
	res := animRun(t, "preset=bench")
	m, err := newAnimModel(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}

// animCheckCounts compares the model's counters at t with the trace's.
func animCheckCounts(t *testing.T, m *animModel, traces [3]*sim.Trace, at int64) {
	t.Helper()
	tally := make([]int32, 2*(len(m.bins)-1))
	for i, a := range m.clients {
		var got animCounts
		a.counts(m, at, &got, tally)
		want := traces[i].CountsAt(at)
		if got.Counts != want {
			t.Fatalf("%s at %d: model %+v, trace %+v", a.c, at, got.Counts, want)
		}
		// The tally holds every recorded sample and every corrected one.
		var rec, syn int64
		nb := len(m.bins) - 1
		for k := 0; k < nb; k++ {
			rec += int64(tally[k])
			syn += int64(tally[nb+k])
		}
		if rec != want.Recorded || syn != want.Synthetic {
			t.Fatalf("%s at %d: tally holds %d samples and %d corrected, want %d and %d", a.c, at, rec, syn, want.Recorded, want.Synthetic)
		}
		// Skipped slots passed so far.
		var never int64
		for _, s := range traces[i].NeverSent {
			if s <= at {
				never++
			}
		}
		if first, n := a.x.NeverSentTail(); n > 0 && at >= first {
			never += min(n, (at-first)/a.x.Slot()+1)
		}
		if got.NeverSent != never {
			t.Fatalf("%s at %d: %d skipped slots passed, trace %d", a.c, at, got.NeverSent, never)
		}
		// States partition the requests due.
		var notSent, queued, serving int64
		for _, r := range traces[i].Requests {
			switch {
			case r.Due > at || r.Done <= at:
			case r.Send > at:
				notSent++
			case r.Start > at:
				queued++
			default:
				serving++
			}
		}
		if got.NotSent != notSent || got.Queued != queued || got.Serving != serving {
			t.Fatalf("%s at %d: not sent %d queued %d serving %d, trace %d %d %d", a.c, at, got.NotSent, got.Queued, got.Serving, notSent, queued, serving)
		}
	}
}

func animTraces(m *animModel) [3]*sim.Trace {
	var tr [3]*sim.Trace
	for i, c := range animOrder {
		tr[i] = m.res.TraceWindow(c, m.from, m.to)
	}
	return tr
}

// TestAnimBenchStall1 is the story the animation tells for the bench
// preset's stall 1, read from the model.
func TestAnimBenchStall1(t *testing.T) {
	res, m := animBenchStall1(t)
	if m.start != 1500e6 || m.end != 1700e6 || m.from >= m.start || m.to < m.end+200e6 {
		t.Fatalf("window [%d, %d] around the stall [%d, %d)", m.from, m.to, m.start, m.end)
	}
	if m.stalls != res.NumStalls() {
		t.Fatalf("%d stalls, want %d", m.stalls, res.NumStalls())
	}
	closed, paced, open := m.clients[0], m.clients[1], m.clients[2]

	// Open loop: 2000 requests delayed by the stall, 200100 µs down in
	// 100 µs steps, all recorded by the end of the window.
	var delayed []int64
	for j := 0; j < open.n; j++ {
		if r := open.x.At(j); r.Stall == 1 {
			delayed = append(delayed, r.Latency)
		}
	}
	if len(delayed) != 2000 {
		t.Fatalf("open: %d delayed requests, want 2000", len(delayed))
	}
	for j, v := range delayed {
		if want := int64(200100e3 - int64(j)*100e3); v != want {
			t.Fatalf("open delayed %d: %d, want %d", j, v, want)
		}
	}
	if open.total.Recorded+open.total.Waiting != int64(open.n) || open.total.Recorded < 2000 || open.total.Slowest != 200100e3 {
		t.Errorf("open at the end: %+v", open.total)
	}
	// Above 1 ms: the delayed ones recording more than 1 ms, 200.1 ms down to 1.1 ms.
	var above int64
	for j := 0; j < open.n; j++ {
		if open.x.Latency(j) > 1e6 {
			above++
		}
	}
	if open.total.Above != above || above != 1991 {
		t.Errorf("open above: %d, want %d (1991)", open.total.Above, above)
	}

	// Closed loop: one 200100 µs sample, then 1999 late sends of 100 µs.
	var slow, late int
	for j := 0; j < closed.n; j++ {
		r := closed.x.At(j)
		switch {
		case r.Latency == 200100e3:
			slow++
		case r.Send > r.Due:
			late++
			if r.Latency != 100e3 {
				t.Fatalf("closed late request %d records %d", r.Index, r.Latency)
			}
		}
	}
	if slow != 1 || late != 1999 {
		t.Fatalf("closed: %d slow and %d late, want 1 and 1999", slow, late)
	}
	if closed.total.Slowest != 200100e3 || closed.total.Above != 1 {
		t.Errorf("closed at the end: %+v", closed.total)
	}
	// The correction adds 999 samples 200 µs apart, from 199900 µs down to
	// 200 µs, when the slow reply arrives; the tally holds exactly those.
	if closed.total.Synthetic != 999 {
		t.Fatalf("closed: %d corrected samples, want 999", closed.total.Synthetic)
	}
	tally := make([]int32, 2*(len(m.bins)-1))
	var c animCounts
	closed.counts(m, m.to, &c, tally)
	nb := len(m.bins) - 1
	want := make([]int32, nb)
	for k := int64(1); k <= 999; k++ {
		want[m.bin(200100e3-k*200e3)]++
	}
	for k := 0; k < nb; k++ {
		if tally[nb+k] != want[k] {
			t.Fatalf("closed tally bin %d [%d, %d): %d corrected samples, want %d", k, m.bins[k], m.bins[k+1], tally[nb+k], want[k])
		}
	}
	// They appear when the slow reply arrives, not before.
	var slowDone int64
	for j := 0; j < closed.n; j++ {
		if r := closed.x.At(j); r.Latency == 200100e3 {
			slowDone = r.Done
		}
	}
	closed.counts(m, slowDone-1, &c, nil)
	if c.Synthetic != 0 || c.Slowest != 100e3 {
		t.Errorf("closed just before the slow reply: %+v", c)
	}
	closed.counts(m, slowDone, &c, nil)
	if c.Synthetic != 999 || c.Slowest != 200100e3 {
		t.Errorf("closed at the slow reply: %+v", c)
	}

	// In the middle of the stall: the open loop's requests wait in the queue,
	// the closed loop's are not sent yet, the paced client skips its slots.
	mid := m.start + 100e6
	var o, cl, p animCounts
	open.counts(m, mid, &o, nil)
	closed.counts(m, mid, &cl, nil)
	paced.counts(m, mid, &p, nil)
	if o.Queued < 490 || o.Queued > 510 || o.NotSent != 0 {
		t.Errorf("open mid-stall: %+v, want about 500 queued", o)
	}
	if cl.NotSent < 490 || cl.NotSent > 510 || cl.Queued+cl.Serving != 1 {
		t.Errorf("closed mid-stall: %+v, want about 500 not sent yet and one in service", cl)
	}
	if p.NeverSent < 490 || p.NeverSent > 510 {
		t.Errorf("paced mid-stall: %+v, want about 500 slots skipped", p)
	}
	paced.counts(m, m.to, &p, nil)
	if p.NeverSent < 990 {
		t.Errorf("paced at the end: %d slots skipped, want about 1000", p.NeverSent)
	}
}

// TestAnimCountsMatchTrace: at every event of the bench window, and at
// random instants of random runs, the model's counters are the trace's.
func TestAnimCountsMatchTrace(t *testing.T) {
	_, m := animBenchStall1(t)
	traces := animTraces(m)
	for k, at := range animAllEvents(traces) {
		// Every event in and around the stall, one in five elsewhere.
		if k%5 == 0 || at >= m.start-1e6 && at <= m.end+1e6 {
			animCheckCounts(t, m, traces, at)
			animCheckCounts(t, m, traces, at-1)
		}
	}
	r := rand.New(rand.NewPCG(3, 33))
	checked := 0
	for _, q := range animRandomQueries(r, 40) {
		res := animRun(t, q)
		if animAvailable(res) != nil {
			continue
		}
		checked++
		k := r.IntN(res.StallCount())
		m, err := newAnimModel(res, k)
		if err != nil {
			t.Fatalf("%s stall %d: %v", q, k, err)
		}
		traces := animTraces(m)
		for n := 0; n < 40; n++ {
			animCheckCounts(t, m, traces, m.from-1+r.Int64N(m.to-m.from+3))
		}
		animCheckCounts(t, m, traces, m.to)
	}
	if checked < 25 {
		t.Errorf("only %d random runs could be animated", checked)
	}
}

// animAllEvents merges the traces' events.
func animAllEvents(traces [3]*sim.Trace) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, tr := range traces {
		for _, e := range tr.Events() {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	animSortInt64(out)
	return out
}

func animSortInt64(v []int64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// animRandomQueries returns valid queries across the page's parameters: one or
// many connections, one to unlimited workers, short to long stalls.
func animRandomQueries(r *rand.Rand, n int) []string {
	var out []string
	rates := []string{"200", "1000", "5000", "20000"}
	for len(out) < n {
		q := "rate=" + rates[r.IntN(len(rates))] +
			"&service=" + []string{"0s", "10us", "100us", "1ms", "3ms"}[r.IntN(5)] +
			"&stall=" + []string{"1ms", "20ms", "200ms", "1s"}[r.IntN(4)] +
			"&every=" + []string{"0s", "300ms", "1s", "2s"}[r.IntN(4)] +
			"&first=" + []string{"0s", "50ms", "400ms"}[r.IntN(3)] +
			"&duration=" + []string{"300ms", "1s", "3s"}[r.IntN(3)] +
			"&conns=" + []string{"1", "3", "10"}[r.IntN(3)] +
			"&workers=" + []string{"1", "2", "unlimited"}[r.IntN(3)]
		if _, err := sim.ParseQuery(q); err == nil {
			out = append(out, q)
		}
	}
	return out
}

// TestAnimEvents: stepping from event to event visits exactly the traces'
// events, forwards and backwards.
func TestAnimEvents(t *testing.T) {
	_, m := animBenchStall1(t)
	want := animAllEvents(animTraces(m))
	var got []int64
	for at, ok := m.nextEvent(m.from - 1); ok; at, ok = m.nextEvent(at) {
		got = append(got, at)
		if len(got) > len(want) {
			break
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d events stepping forwards, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("event %d at %d, want %d", i, got[i], want[i])
		}
	}
	var back []int64
	for at, ok := m.prevEvent(m.to + 1); ok; at, ok = m.prevEvent(at) {
		back = append(back, at)
		if len(back) > len(want) {
			break
		}
	}
	if len(back) != len(want) {
		t.Fatalf("%d events stepping backwards, want %d", len(back), len(want))
	}
	for i := range back {
		if back[i] != want[len(want)-1-i] {
			t.Fatalf("backwards event %d at %d, want %d", i, back[i], want[len(want)-1-i])
		}
	}
}

// TestAnimColumns: the columns group the requests by due instant without
// losing any, and the skipped slots by instant.
func TestAnimColumns(t *testing.T) {
	_, m := animBenchStall1(t)
	traces := animTraces(m)
	for i, a := range m.clients {
		if a.colAt[0] != 0 || a.colAt[animColumns] != a.n {
			t.Fatalf("%s: columns hold [%d, %d) of %d requests", a.c, a.colAt[0], a.colAt[animColumns], a.n)
		}
		for b := 0; b < animColumns; b++ {
			for j := a.colAt[b]; j < a.colAt[b+1]; j++ {
				if d := a.x.Due(j); b > 0 && (d < m.edges[b] || d >= m.edges[b+1]) {
					t.Fatalf("%s: request %d due %d in column %d [%d, %d)", a.c, j, d, b, m.edges[b], m.edges[b+1])
				}
			}
		}
		_, tail := a.x.NeverSentTail()
		if got := a.neverAt[animColumns]; got != int64(len(traces[i].NeverSent))+tail {
			t.Fatalf("%s: columns hold %d skipped slots, trace %d", a.c, got, len(traces[i].NeverSent))
		}
		for _, s := range traces[i].NeverSent {
			b := m.column(s)
			if a.neverAt[b+1]-a.neverAt[b] == 0 {
				t.Fatalf("%s: skipped slot %d not in its column %d", a.c, s, b)
			}
		}
	}
	// Bench: 5000 requests a second over a window of about 0.44 s in 320
	// columns: each column is a group of a few requests.
	if m.colMax < 5 || m.colMax > 12 {
		t.Errorf("largest column: %d requests", m.colMax)
	}
}

// animOp is one decoded drawing operation.
type animOp struct {
	code, style int
	a, b, c, d  float32
}

// decodeFrame reads a frame's header and each stage's operations back.
func decodeFrame(f *animFrame) (hdr []float64, stages [3][]animOp, bg []animOp) {
	buf := f.bytes()
	hdr = make([]float64, hdrLen)
	for i := range hdr {
		hdr[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[i*8:]))
	}
	off := hdrLen * 8
	read := func(n int) []animOp {
		var out []animOp
		for k := 0; k < n; k++ {
			p := buf[off : off+opSize]
			v := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:])) }
			out = append(out, animOp{int(v(0)), int(v(1)), v(2), v(3), v(4), v(5)})
			off += opSize
		}
		return out
	}
	for i := range stages {
		stages[i] = read(int(hdr[hdrOps+i]))
	}
	bg = read(int(hdr[hdrBgOps]))
	return hdr, stages, bg
}

// TestAnimFrame: a frame of the bench's stall 1 carries the trace's counters,
// draws each counted group where its requests are due, fits its buffer and
// allocates nothing once laid out.
func TestAnimFrame(t *testing.T) {
	_, m := animBenchStall1(t)
	traces := animTraces(m)
	for _, width := range []float32{1200, 360} {
		f := newAnimFrame()
		f.setLayout(m, width)
		mid := m.start + 100e6
		f.build(m, frameParams{t: mid, flight: 5e6, playing: true})
		if f.dropped != 0 {
			t.Fatalf("width %v: %d operations did not fit", width, f.dropped)
		}
		hdr, stages, bg := decodeFrame(f)
		if len(bg) == 0 || hdr[hdrBg] != 1 || int(hdr[hdrLabels]) != len(f.labels) {
			t.Fatalf("the first frame carries no background (%d operations)", len(bg))
		}
		if hdr[hdrT] != float64(mid) || hdr[hdrStall] != 1 || hdr[hdrFrom] != float64(m.from) || hdr[hdrTo] != float64(m.to) {
			t.Fatalf("header: %v", hdr[:hdrCount])
		}
		l := &f.layout
		colW := (l.tx1 - l.tx0) / animColumns
		unit := min(6, (l.base-l.top)/float32(m.colMax))
		for i, a := range m.clients {
			want := traces[i].CountsAt(mid)
			base := hdrCount + i*hdrPer
			got := sim.Counts{Recorded: int64(hdr[base+cRecorded]), Slowest: int64(hdr[base+cSlowest]), Above: int64(hdr[base+cAbove]),
				Synthetic: int64(hdr[base+cSynthetic]), Waiting: int64(hdr[base+cWaiting])}
			if got != want {
				t.Fatalf("%s: header counters %+v, trace %+v", a.c, got, want)
			}
			if hdr[base+cStalled] != 1 {
				t.Errorf("%s: the server is not stalled mid-stall", a.c)
			}
			// The solid marks on the line are the requests not sent yet, in
			// the columns of their due times.
			st := a.state(mid)
			var solid float32
			for _, o := range stages[i] {
				if o.code == opRect && o.style == stClient+i && o.b+o.d <= l.base+0.01 && o.a < l.tx1 {
					b := int(math.Round(float64((o.a - l.tx0) / colW)))
					n := overlap(a.colAt[b], a.colAt[b+1], st.send, st.due)
					if n == 0 || math.Abs(float64(o.d-max(float32(n)*unit, 1))) > 1e-3 {
						t.Fatalf("%s: a solid mark at column %d is %v high, for %d requests not sent yet", a.c, b, o.d, n)
					}
					solid += float32(n)
				}
			}
			if int64(solid) != int64(st.due-st.send) {
				t.Errorf("%s: solid marks stand for %v requests, %d are not sent yet", a.c, solid, st.due-st.send)
			}
			// Crosses: the paced client's skipped slots that have passed.
			crosses := 0
			for _, o := range stages[i] {
				if o.code == opCross {
					crosses++
				}
			}
			if (crosses > 0) != (a.c == sim.PacedClient) {
				t.Errorf("%s: %d crosses", a.c, crosses)
			}
		}
		// Mid-stall: the open loop's queue is full of marks (it holds ~500);
		// the closed loop's holds the one request it sent into the stall.
		queueDots := func(i int) int {
			n := 0
			for _, o := range stages[i] {
				if o.code == opRect && o.style == stClient+i && o.a >= l.qx && o.a < l.qx+l.qw && o.b >= l.qy && o.b < l.qy+l.qh {
					n++
				}
			}
			return n
		}
		if queueDots(2) < 20 || queueDots(0) != 1 {
			t.Errorf("queue marks: open %d, closed %d", queueDots(2), queueDots(0))
		}

		// Once laid out, frames allocate nothing.
		at := m.from
		allocs := testing.AllocsPerRun(200, func() {
			at += (m.to - m.from) / 150
			f.build(m, frameParams{t: at, flight: 5e6, playing: true})
		})
		if allocs != 0 {
			t.Errorf("width %v: a frame allocates %v times", width, allocs)
		}
	}
}

// TestAnimLargeWindows: windows of a million requests and more are drawn as
// counted groups, in a bounded buffer, with the trace's counters, and
// without allocating.
func TestAnimLargeWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("long runs")
	}
	for _, q := range []string{
		"rate=10000&stall=30s&every=0s&first=1s&duration=40s&service=10us&conns=10&workers=unlimited",
		"rate=500&stall=1h&every=0s&first=1s&duration=30m&service=100us",
		"preset=note60-single",
		"preset=clients10",
		"rate=1000&stall=3ms&every=5ms&first=0s&duration=20s&service=900us", // thousands of stalls in one window
	} {
		res := animRun(t, q)
		if err := animAvailable(res); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		m, err := newAnimModel(res, 0)
		if err != nil {
			t.Fatal(err)
		}
		f := newAnimFrame()
		f.setLayout(m, 1200)
		for k := 0; k <= 8; k++ {
			at := m.from + (m.to-m.from)*int64(k)/8
			f.build(m, frameParams{t: at, flight: (m.to - m.from) / 500})
			if f.dropped != 0 {
				t.Fatalf("%s: %d operations did not fit", q, f.dropped)
			}
			hdr, _, _ := decodeFrame(f)
			for i, a := range m.clients {
				var c animCounts
				a.counts(m, at, &c, nil)
				if int64(hdr[hdrCount+i*hdrPer+cRecorded]) != c.Recorded {
					t.Fatalf("%s: header disagrees with the model", q)
				}
			}
		}
		// Spot checks against the trace itself (a walk over every request).
		traces := animTraces(m)
		animCheckCountsNoTally(t, m, traces, m.start+(m.end-m.start)/3)
		animCheckCountsNoTally(t, m, traces, m.end+(m.to-m.end)/2)
		allocs := testing.AllocsPerRun(20, func() { f.build(m, frameParams{t: (m.from + m.to) / 2, flight: 1e6}) })
		if allocs != 0 {
			t.Errorf("%s: a frame allocates %v times", q, allocs)
		}
		t.Logf("%s: %d, %d, %d requests in the window; a column holds up to %d", q, m.clients[0].n, m.clients[1].n, m.clients[2].n, m.colMax)
	}
}

func animCheckCountsNoTally(t *testing.T, m *animModel, traces [3]*sim.Trace, at int64) {
	t.Helper()
	for i, a := range m.clients {
		var got animCounts
		a.counts(m, at, &got, nil)
		if want := traces[i].CountsAt(at); got.Counts != want {
			t.Fatalf("%s at %d: model %+v, trace %+v", a.c, at, got.Counts, want)
		}
	}
}

// TestAnimURL: the animation's keys go last, replace earlier ones, and leave
// the page's canonical query as it was.
func TestAnimURL(t *testing.T) {
	for _, c := range []struct {
		raw   string
		stall int
		t     int64
		want  string
	}{
		{"", 1, 1600e6, "anim=1&anim_t=1.6s"},
		{"preset=tcp&stall=1s", 0, 2500e6, "preset=tcp&stall=1s&anim=0&anim_t=2.5s"},
		{"anim=3&rate=7000&anim_t=9s&conns=2", 2, 1500123456, "rate=7000&conns=2&anim=2&anim_t=1.500123456s"},
	} {
		if got := animURLQuery(c.raw, c.stall, c.t); got != c.want {
			t.Errorf("animURLQuery(%q, %d, %d) = %q, want %q", c.raw, c.stall, c.t, got, c.want)
		}
		w := parseAnimURL(c.want)
		if !w.set || !w.hasT || w.stall != c.stall || w.t != c.t {
			t.Errorf("parseAnimURL(%q) = %+v", c.want, w)
		}
	}
	for _, raw := range []string{"", "anim=-1", "anim=x&anim_t=soon", "anim_t=-2s"} {
		if w := parseAnimURL(raw); w.set {
			t.Errorf("parseAnimURL(%q) = %+v, want nothing", raw, w)
		}
	}
	// The page accepts the keys beside the simulator's query.
	if _, err := sim.ParseQuery("preset=bench&anim=1&anim_t=1.6s", pageKeys...); err != nil {
		t.Errorf("the page refuses the animation's keys: %v", err)
	}
}

// TestAnimPlayer: the clock plays at the chosen speed, stops at the window's
// end, and with reduced motion moves in steps once a second.
func TestAnimPlayer(t *testing.T) {
	_, m := animBenchStall1(t)
	p := newAnimPlayer()
	p.setModel(m, m.from)
	if s := realPerSim(m, p.speed); s < 20 || s > 35 {
		t.Errorf("default speed: 1 simulated ms takes %v ms", s)
	}
	if realPerSim(m, 0) != slowestSpeed || math.Abs(realPerSim(m, speedSteps)-10) > 1e-9 {
		t.Errorf("speeds from %v to %v real ms per simulated ms, want 1000 to 10", realPerSim(m, 0), realPerSim(m, speedSteps))
	}
	if drawn, more, _ := p.tick(0, 0); drawn || more {
		t.Fatalf("a frame without a width")
	}
	if drawn, _, _ := p.tick(1000, 1200); !drawn || p.t != m.from {
		t.Fatalf("the first frame: drawn %v at %d", drawn, p.t)
	}
	p.play(true)
	p.tick(2000, 1200)
	p.tick(2016, 1200)
	want := m.from + int64(16/realPerSim(m, p.speed)*1e6)
	if p.t != want {
		t.Errorf("after 16 ms at speed %d: t = %d, want %d", p.speed, p.t, want)
	}
	// A long gap (a hidden tab) plays at most maxFrameGap.
	before := p.t
	p.tick(60000, 1200)
	if got := p.t - before; got != int64(maxFrameGap/realPerSim(m, p.speed)*1e6) {
		t.Errorf("after a gap: moved %d ns", got)
	}
	// Playing to the end stops there.
	var ended bool
	for now := 60000.0; !ended && now < 1e7; now += 16 {
		_, _, ended = p.tick(now, 1200)
	}
	if !ended || p.playing || p.t != m.to {
		t.Fatalf("at the end: ended %v playing %v t %d", ended, p.playing, p.t)
	}
	// Playing again starts over.
	p.play(true)
	if p.t != m.from {
		t.Errorf("replay from %d", p.t)
	}
	// Reduced motion: no flight, one step a second.
	p.reduced = true
	if p.flight() != 0 {
		t.Errorf("flights with reduced motion")
	}
	p.tick(100000, 1200)
	t0 := p.t
	for now := 100016.0; now < 100990; now += 16 {
		p.tick(now, 1200)
	}
	if p.t != t0 {
		t.Errorf("reduced motion moved before a second passed")
	}
	p.tick(101010, 1200)
	if want := t0 + int64(stepEvery/realPerSim(m, p.speed)*1e6); p.t != want {
		t.Errorf("reduced motion: one step moved to %d, want %d", p.t, want)
	}
}

// TestAnimPanelRender: the panel renders its test hooks and controls from a
// result, lands on the URL's stall and moment, and explains what it cannot
// draw.
func TestAnimPanelRender(t *testing.T) {
	res := animRun(t, "preset=bench")
	a := &animPanel{p: newAnimPlayer(), view: resultView{Seq: 1, Result: res}}
	h := &animHost{child: a}
	e := app.NewTestEngine()
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	ctx := h.ctx
	a.want = parseAnimURL("anim=1&anim_t=1.6s")
	a.load(ctx)
	if a.err != "" {
		t.Fatal(a.err)
	}
	html := app.HTMLString(a.Render())
	for _, want := range []string{`data-anim="queues"`, `data-stall="1"`, "Stall 2 of 20, from 1.5 s to 1.7 s",
		`data-anim-scrub="1"`, `data-anim-play="1"`, `data-count="not-sent"`, `data-count="never-sent"`, `data-client="open"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the panel lacks %s", want)
		}
	}
	if strings.Contains(html, `data-ready="false"`) {
		t.Errorf("the panel says it is not ready")
	}
	if n := strings.Count(html, "<canvas"); n != 3 {
		t.Errorf("%d canvases, want 3", n)
	}
	if a.p.t != 1600e6 || a.p.model.stall != 1 || a.p.playing {
		t.Errorf("landed on stall %d at %d (playing %v), want stall 1 at 1.6 s, paused", a.p.model.stall, a.p.t, a.p.playing)
	}
	// Stepping and changing stall.
	a.step(ctx, true)
	if next, _ := a.p.model.nextEvent(1600e6); a.p.t != next {
		t.Errorf("step: %d, want %d", a.p.t, next)
	}
	a.changeStall(ctx, 2)
	if a.stall != 2 || a.p.t != a.p.model.from {
		t.Errorf("next stall: stall %d at %d", a.stall, a.p.t)
	}

	// What cannot be drawn is said.
	histogram := *res // as if beyond sim.ExactSamples: no per-request data
	histogram.Exact = false
	for q, want := range map[string]string{
		"stall=0s":                "no stall",
		"histogram":               "timings of every request",
		"arrivals=poisson&seed=7": "event engine",
	} {
		res := &histogram
		if q != "histogram" {
			res = animRun(t, q)
		}
		a := &animPanel{p: newAnimPlayer(), view: resultView{Seq: 1, Result: res}}
		a.load(ctx)
		html := app.HTMLString(a.Render())
		if !strings.Contains(html, `data-anim-unavailable="1"`) || !strings.Contains(html, want) {
			t.Errorf("%s: the panel does not say %q", q, want)
		}
	}
}

// animHost hands its context to a test (go-app calls OnPreRender, not
// OnMount, outside the browser).
type animHost struct {
	app.Compo
	ctx   app.Context
	child *animPanel
}

func (h *animHost) OnPreRender(ctx app.Context) { h.ctx = ctx }

func (h *animHost) Render() app.UI { return app.Div().Body(h.child) }
