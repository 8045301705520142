package anim

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/units"
	"omission/app/view"
	"omission/sim"
	"omission/sim/window"
)

// animRun runs a query natively.
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

// animBenchStall1 is the summary of the bench preset's stall 1.
func animBenchStall1(t testing.TB) (*sim.Result, *window.Summary) {
	t.Helper()
	res := animRun(t, "preset=bench")
	m, err := window.Summarise(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}

// animTraces are the traces of a summary's window, stage order.
func animTraces(m *window.Summary) [3]*window.Trace {
	var tr [3]*window.Trace
	for i, c := range sim.Clients() {
		tr[i] = window.TraceWindow(m.Result(), c, m.From, m.To)
	}
	return tr
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
	off := opsOff
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

// frameText reads readout k of a frame back.
func frameText(f *animFrame, k int) string {
	p := f.bytes()[hdrLen*8+k*textSlot:]
	return string(p[1 : 1+p[0]])
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
		mid := m.Start + 100e6
		f.build(m, frameParams{t: mid, flight: 5e6, playing: true})
		if f.dropped != 0 {
			t.Fatalf("width %v: %d operations did not fit", width, f.dropped)
		}
		hdr, stages, bg := decodeFrame(f)
		if len(bg) == 0 || hdr[hdrBg] != 1 || int(hdr[hdrLabels]) != len(f.labels) {
			t.Fatalf("the first frame carries no background (%d operations)", len(bg))
		}
		if hdr[hdrT] != float64(mid) || hdr[hdrStall] != 1 || hdr[hdrFrom] != float64(m.From) || hdr[hdrTo] != float64(m.To) {
			t.Fatalf("header: %v", hdr[:hdrCount])
		}
		l := &f.layout
		colW := (l.tx1 - l.tx0) / window.WindowColumns
		unit := min(6, (l.base-l.top)/float32(m.ColMax))
		for i, a := range m.Clients {
			want := traces[i].CountsAt(mid)
			base := hdrCount + i*hdrPer
			got := window.Counts{Recorded: int64(hdr[base+cRecorded]), Slowest: int64(hdr[base+cSlowest]), Above: int64(hdr[base+cAbove]),
				Synthetic: int64(hdr[base+cSynthetic]), Waiting: int64(hdr[base+cWaiting])}
			if got != want {
				t.Fatalf("%s: header counters %+v, trace %+v", a.Client, got, want)
			}
			slowest := "—"
			if want.Slowest > 0 {
				slowest = units.Duration(want.Slowest)
			}
			if got := frameText(f, txSlowest+i); got != slowest {
				t.Errorf("%s: the slowest readout %q, want %q", a.Client, got, slowest)
			}
			if hdr[base+cStalled] != 1 {
				t.Errorf("%s: the server is not stalled mid-stall", a.Client)
			}
			// The solid marks on the line are the requests not sent yet, in
			// the columns of their due times.
			st := a.State(mid)
			var solid float32
			for _, o := range stages[i] {
				if o.code == opRect && o.style == stClient+i && o.b+o.d <= l.base+0.01 && o.a < l.tx1 {
					b := int(math.Round(float64((o.a - l.tx0) / colW)))
					n := overlap(a.ColAt[b], a.ColAt[b+1], st.Send, st.Due)
					if n == 0 || math.Abs(float64(o.d-max(float32(n)*unit, 1))) > 1e-3 {
						t.Fatalf("%s: a solid mark at column %d is %v high, for %d requests not sent yet", a.Client, b, o.d, n)
					}
					solid += float32(n)
				}
			}
			if int64(solid) != int64(st.Due-st.Send) {
				t.Errorf("%s: solid marks stand for %v requests, %d are not sent yet", a.Client, solid, st.Due-st.Send)
			}
			// Crosses: the paced client's skipped slots that have passed.
			crosses := 0
			for _, o := range stages[i] {
				if o.code == opCross {
					crosses++
				}
			}
			if (crosses > 0) != (a.Client == sim.PacedClient) {
				t.Errorf("%s: %d crosses", a.Client, crosses)
			}
		}
		if got := frameText(f, txTime); got != "1.6 s (stall + 100 ms)" {
			t.Errorf("the moment reads %q", got)
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
		at := m.From
		allocs := testing.AllocsPerRun(200, func() {
			at += (m.To - m.From) / 150
			f.build(m, frameParams{t: at, flight: 5e6, playing: true})
		})
		if allocs != 0 {
			t.Errorf("width %v: a frame allocates %v times", width, allocs)
		}
	}
}

// TestAnimReadouts: the moment reads before the stall too, and the longest
// readouts fit their slots whole.
func TestAnimReadouts(t *testing.T) {
	_, m := animBenchStall1(t)
	f := newAnimFrame()
	f.setLayout(m, 1200)
	f.build(m, frameParams{t: m.Start - 20e6})
	if got, want := frameText(f, txTime), units.Duration(m.Start-20e6)+" (20 ms before the stall)"; got != want {
		t.Errorf("20 ms before the stall: %q, want %q", got, want)
	}
	for _, c := range []struct{ t, start int64 }{{math.MaxInt64 / 2, -math.MaxInt64 / 2}, {-math.MaxInt64 / 2, math.MaxInt64 / 2}} {
		f.readouts(&window.Summary{Start: c.start}, c.t)
		got := frameText(f, txTime)
		if !strings.HasSuffix(got, ")") || !strings.HasPrefix(got, units.Duration(c.t)+" (") {
			t.Errorf("t %d, stall at %d: the moment reads %q", c.t, c.start, got)
		}
	}
}

// TestAnimPlayer: the clock plays at the chosen speed, stops at the window's
// end, and with reduced motion moves in steps once a second.
func TestAnimPlayer(t *testing.T) {
	_, m := animBenchStall1(t)
	p := newAnimPlayer()
	p.setModel(m, m.From)
	if s := realPerSim(m, p.speed); s < 20 || s > 35 {
		t.Errorf("default speed: 1 simulated ms takes %v ms", s)
	}
	if realPerSim(m, 0) != slowestSpeed || math.Abs(realPerSim(m, speedSteps)-10) > 1e-9 {
		t.Errorf("speeds from %v to %v real ms per simulated ms, want 1000 to 10", realPerSim(m, 0), realPerSim(m, speedSteps))
	}
	if drawn, more, _ := p.tick(0, 0); drawn || more {
		t.Fatalf("a frame without a width")
	}
	if drawn, _, _ := p.tick(1000, 1200); !drawn || p.t != m.From {
		t.Fatalf("the first frame: drawn %v at %d", drawn, p.t)
	}
	p.play(true)
	p.tick(2000, 1200)
	p.tick(2016, 1200)
	want := m.From + int64(16/realPerSim(m, p.speed)*1e6)
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
	if !ended || p.playing || p.t != m.To {
		t.Fatalf("at the end: ended %v playing %v t %d", ended, p.playing, p.t)
	}
	// Playing again starts over.
	p.play(true)
	if p.t != m.From {
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
	a, h := mountPanel(t, res)
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
	if a.p.t != 1600e6 || a.p.model.Stall != 1 || a.p.playing {
		t.Errorf("landed on stall %d at %d (playing %v), want stall 1 at 1.6 s, paused", a.p.model.Stall, a.p.t, a.p.playing)
	}
	// Stepping and changing stall.
	a.step(ctx, true)
	if next, _ := a.p.model.NextEvent(1600e6); a.p.t != next {
		t.Errorf("step: %d, want %d", a.p.t, next)
	}
	a.changeStall(ctx, 2)
	if a.stall != 2 || a.p.t != a.p.model.From {
		t.Errorf("next stall: stall %d at %d", a.stall, a.p.t)
	}

	// What cannot be drawn is said.
	histogram := *res // as if beyond sim.ExactSamples: no per-request data
	histogram.Exact = false
	for q, want := range map[string]string{
		"stall=0s":                             "no stall",
		"histogram":                            "timings of every request",
		"arrivals=poisson&seed=7&timeout=50ms": "The animation cannot draw stall 1 of 20 yet: there the closed client&#39;s request 2,492 timed out at 550.2 ms (the client gave up on it)", // its instant and count as app/units writes them
	} {
		res := &histogram
		if q != "histogram" {
			res = animRun(t, q)
		}
		a := &Panel{p: newAnimPlayer(), view: view.View{Seq: 1, Result: res}}
		a.load(ctx)
		html := app.HTMLString(a.Render())
		if !strings.Contains(html, `data-anim-unavailable="1"`) || !strings.Contains(html, want) {
			t.Errorf("%s: the panel does not say %q: %s", q, want, html)
		}
		// A refused window of an event-driven run: the others can be asked for.
		if refused := strings.Contains(q, "timeout"); refused != strings.Contains(html, `data-anim-next-stall="1"`) || refused != a.refused {
			t.Errorf("%s: refused %v, the next window's button %v", q, a.refused, !refused)
		}
	}
}

// TestAnimPanelEngine: an event-driven run whose requests are answered in
// order is drawn, stall by stall; one without a stall shows its outages and
// its worst reply, and a refused window leaves the controls to move on.
func TestAnimPanelEngine(t *testing.T) {
	a, h := mountPanel(t, animRun(t, "arrivals=poisson&dist=exponential&seed=7"))
	ctx := h.ctx
	a.load(ctx)
	html := app.HTMLString(a.Render())
	if a.err != "" || a.p.model == nil || !strings.Contains(html, "Stall 1 of 20, from 500 ms to 700 ms") || strings.Contains(html, `data-ready="false"`) {
		t.Fatalf("poisson: %q, %s", a.err, html)
	}
	res := animRun(t, "arrivals=poisson&dist=lognormal&service=100us&service_p95=400us&rate=2000&outages=300ms-320ms,700ms-760ms&stall=0s&duration=1s&seed=6")
	a = &Panel{p: newAnimPlayer(), view: view.View{Seq: 1, Result: res}}
	a.load(ctx)
	html = app.HTMLString(a.Render())
	if !a.refused || a.stalls != 3 || !strings.Contains(html, "by an outage") || !strings.Contains(html, "Window 1 of 3") {
		t.Fatalf("outages: refused %v of %d windows: %s", a.refused, a.stalls, html)
	}
	a.changeStall(ctx, 2)
	html = app.HTMLString(a.Render())
	if a.err != "" || a.p.model == nil || a.p.model.Kind != "worst" || !strings.Contains(html, "The worst reply (window 3 of 3)") {
		t.Fatalf("the worst reply: %q, %s", a.err, html)
	}
	if b := DrawFrame(a.p.model, (a.p.model.From+a.p.model.To)/2, 640); len(b) == 0 {
		t.Error("no frame")
	}
}

// animHost hands its context to a test (go-app calls OnPreRender, not
// OnMount, outside the browser).
type animHost struct {
	app.Compo
	ctx   app.Context
	child *Panel
}

func (h *animHost) OnPreRender(ctx app.Context) { h.ctx = ctx }

func (h *animHost) Render() app.UI { return app.Div().Body(h.child) }

// TestFrameLargeWindows: windows of a million requests and more are drawn
// as counted groups, in a bounded buffer, with the model's counters, and
// without allocating.
func TestFrameLargeWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("long runs")
	}
	for _, q := range []string{
		"rate=10000&stall=30s&every=0s&first=1s&duration=40s&service=10us&conns=10&workers=unlimited",
		"preset=note60-single",
		"rate=1000&stall=3ms&every=5ms&first=0s&duration=20s&service=900us",
	} {
		m, err := window.Summarise(animRun(t, q), 0)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		f := newAnimFrame()
		f.setLayout(m, 1200)
		for k := 0; k <= 8; k++ {
			at := m.From + (m.To-m.From)*int64(k)/8
			f.build(m, frameParams{t: at, flight: (m.To - m.From) / 500})
			if f.dropped != 0 {
				t.Fatalf("%s: %d operations did not fit", q, f.dropped)
			}
			hdr, _, _ := decodeFrame(f)
			for i, a := range m.Clients {
				var c window.ClientCounts
				a.Counts(m, at, &c, nil)
				if int64(hdr[hdrCount+i*hdrPer+cRecorded]) != c.Recorded {
					t.Fatalf("%s: header disagrees with the model", q)
				}
			}
		}
		allocs := testing.AllocsPerRun(20, func() { f.build(m, frameParams{t: (m.From + m.To) / 2, flight: 1e6}) })
		if allocs != 0 {
			t.Errorf("%s: a frame allocates %v times", q, allocs)
		}
	}
}

// TestAnimURLKeys: the panel reads its stall and moment from the URL and
// ignores what does not parse.
func TestAnimURLKeys(t *testing.T) {
	for raw, want := range map[string]animWant{
		"anim=1&anim_t=1.6s":                     {set: true, hasT: true, stall: 1, t: 1600e6},
		"preset=tcp&stall=1s&anim=0&anim_t=2.5s": {set: true, hasT: true, stall: 0, t: 2500e6},
		"rate=7000&anim=2&anim_t=1.500123456s":   {set: true, hasT: true, stall: 2, t: 1500123456},
		"anim=4":                                 {set: true, stall: 4},
	} {
		if w := parseAnimURL(raw); w != want {
			t.Errorf("parseAnimURL(%q) = %+v, want %+v", raw, w, want)
		}
	}
	for _, raw := range []string{"", "anim=-1", "anim=x&anim_t=soon", "anim_t=-2s"} {
		if w := parseAnimURL(raw); w.set {
			t.Errorf("parseAnimURL(%q) = %+v, want nothing", raw, w)
		}
	}
}

// TestAnimPanelControlsFromTheStart: the panel's controls are in its first
// render (the prerendered page's, with no player yet) and while it waits
// for a model, inert (aria-disabled, still Tab stops), in the order and
// places they keep once the model is built (issue 26: tabbing quickly
// skipped them).
func TestAnimPanelControlsFromTheStart(t *testing.T) {
	hooks := []string{`data-anim-prev-stall="1"`, `data-anim-next-stall="1"`, `data-anim-back="1"`, `data-anim-play="1"`,
		`data-anim-step="1"`, `data-anim-speed="1"`, `data-anim-scrub="1"`}
	order := func(html string) []int {
		var at []int
		for _, h := range hooks {
			at = append(at, strings.Index(html, h))
		}
		return at
	}
	// go-app writes an attribute whose value is "true" bare.
	inert := func(html string) int {
		return strings.Count(html, `aria-disabled`) - strings.Count(html, `aria-disabled="false"`)
	}
	pre := app.HTMLString((&Panel{}).Render())
	waiting := &Panel{p: newAnimPlayer()}
	wait := app.HTMLString(waiting.Render())
	for name, html := range map[string]string{"prerendered": pre, "waiting": wait} {
		at := order(html)
		for i, h := range hooks {
			if at[i] < 0 || i > 0 && at[i] < at[i-1] {
				t.Errorf("%s: %s missing or out of order: %v", name, h, at)
			}
		}
		if n := inert(html); n != len(hooks) {
			t.Errorf("%s: %d inert controls, want %d: %s", name, n, len(hooks), html)
		}
		if strings.Contains(html, " disabled") || !strings.Contains(html, `data-ready="false"`) {
			t.Errorf("%s: a control is disabled (out of the Tab order), or the panel says it is ready: %s", name, html)
		}
	}
	res := animRun(t, "preset=bench")
	a, h := mountPanel(t, res)
	a.want = parseAnimURL("anim=1")
	a.load(h.ctx)
	ready := app.HTMLString(a.Render())
	if a.p.model == nil || strings.Contains(ready, `data-ready="false"`) {
		t.Fatalf("no model: %q", a.err)
	}
	at := order(ready)
	for i, h := range hooks {
		if at[i] < 0 || i > 0 && at[i] < at[i-1] {
			t.Errorf("ready: %s missing or out of order: %v", h, at)
		}
	}
	// At stall 2 of 20 no control is inert; at the first, "previous stall"
	// is (and still a Tab stop).
	if n := inert(ready); n != 0 {
		t.Errorf("ready at stall 2: %d inert controls, want 0", n)
	}
	a.changeStall(h.ctx, 0)
	first := app.HTMLString(a.Render())
	if n := inert(first); a.stall != 0 || n != 1 || strings.Contains(first, " disabled") {
		t.Errorf("ready at stall %d: %d inert controls, want 1 (previous stall)", a.stall+1, n)
	}
}

// TestAnimSlowdownBands: the background shades the columns of a slowdown
// window, in its own paler style, band by band as sim marks them, and names
// the window.
func TestAnimSlowdownBands(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=200&duration=10s&stall=300ms&every=3s&first=1s&service=1ms&slow=4.1s-4.25s@x3")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := window.Summarise(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := 0 // the runs of slowed columns
	for c := range window.WindowColumns {
		if m.Slowed[c] && (c == 0 || !m.Slowed[c-1]) {
			want++
		}
	}
	if want == 0 {
		t.Fatalf("the window [%d, %d] shows no slowdown", m.From, m.To)
	}
	f := newAnimFrame()
	f.setLayout(m, 1200)
	f.build(m, frameParams{t: m.Start, flight: 5e6})
	_, _, bg := decodeFrame(f)
	got := 0
	for _, o := range bg {
		if o.code == opRect && o.style == stSlow {
			got++
		}
	}
	if got != want {
		t.Errorf("%d slowdown bands drawn, sim marks %d", got, want)
	}
	if !slices.Contains(f.labels, "slowed ×3") {
		t.Errorf("no label names the slowdown: %q", f.labels)
	}
	if s := animStyles(charts.Light)[stSlow]; s == "" || s == animStyles(charts.Light)[stStall] {
		t.Errorf("the slowdown's style %q is not its own", s)
	}
}

// TestAnimPanelRetries: a window of a run with retries, which the animation
// cannot draw yet, says in text what happened there: per client, the
// retries sent, the calls that sent them, the calls that failed, and the
// most calls waiting out a backoff at once (window.Retries), the same
// counts as the window's attempt trace.
func TestAnimPanelRetries(t *testing.T) {
	res := animRun(t, "preset=retry-storm")
	a, h := mountPanel(t, res)
	a.load(h.ctx)
	html := app.HTMLString(a.Render())
	if a.refused || a.p.model == nil || a.p.model.Retry == nil || !strings.Contains(html, `data-anim-bycalls="1"`) || !strings.Contains(html, `data-anim-mode="calls"`) {
		t.Fatalf("the storm's outage window is not drawn by calls: %s", html)
	}
	if strings.Contains(html, "cannot draw") {
		t.Errorf("the panel says it cannot draw a window it draws: %s", html)
	}
	_, err := window.NewSummaryBuilder(res, 0)
	refusal, ok := err.(*window.Refusal)
	if !ok || len(refusal.Retries) != 3 {
		t.Fatalf("refusal %v", err)
	}
	if a.p.model.Retry.Order == nil || a.p.model.Retry.Order.Request != refusal.Request {
		t.Errorf("the model's order break %+v, the summary's refusal %+v", a.p.model.Retry.Order, refusal)
	}
	var sum int64
	for _, w := range refusal.Retries {
		tr := window.AttemptsWindow(res, w.Client, refusal.From, refusal.To)
		if got := tr.Retries(); got != w {
			t.Errorf("%s: the refusal counts %+v, the window's trace %+v", w.Client, w, got)
		}
		// Counts as the page writes them (11,897).
		want := "the " + w.Client.String() + " client sent " + units.Count(w.Retries) + " retries"
		if !strings.Contains(html, want) {
			t.Errorf("the panel does not say %q: %s", want, html)
		}
		sum += w.Retries
	}
	if sum == 0 {
		t.Fatal("no retry in the storm's outage window: the test checks nothing")
	}
	if want := "request " + units.Count(refusal.Request+1) + " "; refusal.Request+1 >= 1000 && !strings.Contains(html, want) {
		t.Errorf("the panel does not write %q: %s", want, html)
	}
}

// mountPanel loads a panel of a result in a test engine.
func mountPanel(t *testing.T, res *sim.Result) (*Panel, *animHost) {
	t.Helper()
	a := &Panel{p: newAnimPlayer(), view: view.View{Seq: 1, Result: res}}
	h := &animHost{child: a}
	e := app.NewTestEngine()
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return a, h
}
