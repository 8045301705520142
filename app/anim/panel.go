package anim

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"omission/app/address"
	"omission/app/ui"
	"omission/app/view"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/units"
	"omission/sim"
	"omission/sim/window"
)

// The animation of the request queues through each stall (issue 5). It
// follows ui.StateResult like the table; its stall and moment live in the URL
// as anim (the stall's index in the run, from 0, as sim numbers stalls) and
// anim_t (the simulated instant, a Go duration such as 1.6s).
const (
	animKey  = address.KeyAnim
	animTKey = address.KeyAnimT
)

// Panel is the animation: controls, one stage per client and its
// counters. Its fields are its own state and change on the UI goroutine,
// except the player's, which the frame callback shares under the player's
// mutex.
type Panel struct {
	app.Compo

	// ICompact lays the panel out for an embed's frame: the explanations
	// visually hidden, the stages shorter (set by the embed route).
	ICompact bool

	view view.View // observed: ui.StateResult

	p          *animPlayer
	res        *sim.Result // the result the model was built from
	err        string      // why there is nothing to draw
	refused    bool        // err is a window's refusal: the other windows can be asked for
	retries    string      // a refused window of a run with retries: its retry lane (retrylane.go), an <svg> as a data URL
	retriesAlt string      // the lane in words
	byCalls    string      // a window drawn by calls (window.NewRetryWindow): why, in words
	stall      int         // the model's stall and how many there are (an event-driven run's windows)
	stalls     int
	from       int64 // the model's window
	to         int64
	speed      int // the speed slider, mirrored for Render
	group      int64

	preparing string // a large model being built
	buildSeq  int

	want         animWant    // a stall and moment from the URL, to apply to the next model
	traced       *sim.Result // the shown query run again with its requests' times
	tracing      bool        // a query is being traced
	tracingQuery string      // which
	traceSeq     int
	traceLater   bool // trace once the panel comes on screen

	wroteURL bool       // the animation has put its keys in the URL
	wrote    url.Values // the keys it wrote last
	url      string     // observed: ui.StateURL, the page's URL query
	urlSeq   int
	autoplay bool // play when first on screen (no moment in the URL, motion allowed)
	acted    bool // the reader played, stepped, scrubbed or chose a stall

	js animJS // the browser side (anim_bridge.go)
}

// animWant is a stall and moment asked for by the URL.
type animWant struct {
	set, hasT bool
	stall     int
	t         int64
}

// parseAnimURL reads the animation's keys from a raw query. Invalid values
// are ignored (the animation starts at its default there).
func parseAnimURL(raw string) animWant {
	vals := address.ParseAddress(raw)
	var w animWant
	if v := vals.Get(animKey); v != "" {
		if k, err := strconv.Atoi(v); err == nil && k >= 0 {
			w.set, w.stall = true, k
		}
	}
	if v := vals.Get(animTKey); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			w.set, w.hasT, w.t = true, true, int64(d)
		}
	}
	return w
}

// stripAnimKeys returns raw without the animation's keys, written as an
// address (address.Address).
func stripAnimKeys(raw string) string {
	return address.ParseAddress(raw).Without(animKey, animTKey).String()
}

// OnMount runs on the UI goroutine: the panel reads its URL keys, follows
// the result and, in the browser, starts its drawing side.
func (a *Panel) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "animation")
	a.p = newAnimPlayer()
	a.p.frame.compact = a.ICompact
	if u := ctx.Page().URL(); u != nil {
		a.want = parseAnimURL(u.RawQuery)
	}
	a.p.reduced = a.js.reducedMotion()
	a.autoplay = !a.want.hasT && !a.p.reduced
	// The page publishes ui.StateResult once the table is painted: the model
	// is built after that.
	// Back and forward: the URL's stall and moment are the state; the page
	// that owns the URL publishes it.
	ctx.ObserveState(ui.StateURL, &a.url).OnChange(func() {
		defer ui.Recover(ctx, "animation")
		a.followURL(ctx)
	})
	ctx.ObserveState(ui.StateResult, &a.view).OnChange(func() {
		defer ui.Recover(ctx, "animation")
		a.load(ctx)
	})
	a.load(ctx)
	ctx.Defer(func(ctx app.Context) {
		defer ui.Recover(ctx, "animation")
		a.js.start(ctx, a)
	})
}

// OnDismount runs on the UI goroutine: the frame loop, observers and
// callbacks stop.
func (a *Panel) OnDismount() {
	a.js.stop()
}

// load builds the model of the observed result, for the stall the URL asks
// for, or the one on show.
func (a *Panel) load(ctx app.Context) {
	res := a.view.Result
	if res == nil {
		res = a.traced
		if res == nil || res.Query != a.view.Query {
			a.trace(ctx) // the result was run in a Web Worker
			return
		}
	}
	if res == a.res {
		return
	}
	a.res = res
	// A refused window of an event-driven run leaves its other windows:
	// show says why that one is refused, beside the controls to move on.
	var refusal *window.Refusal
	if err := window.Animatable(res); err != nil && !errors.As(err, &refusal) {
		a.err, a.refused = err.Error(), false
		a.p.mu.Lock()
		a.p.model, a.p.playing = nil, false
		a.p.mu.Unlock()
		return
	}
	a.err, a.refused = "", false
	stall, t, keepT := a.stall, int64(0), false
	if a.p.model != nil {
		a.p.mu.Lock()
		t, keepT = a.p.t, true
		a.p.mu.Unlock()
	}
	w := a.want
	a.want = animWant{}
	if w.set {
		stall, keepT = w.stall, false
		if w.hasT {
			t, keepT = w.t, true
		}
	}
	a.show(ctx, stall, t, keepT)
}

// trace runs the shown result's query again on this thread, in slices,
// keeping every request's times (sim.Runner.TraceResult): a result run in a
// Web Worker comes without them. It waits until the panel is on screen and
// the results have come to rest (a slider dragged makes many).
func (a *Panel) trace(ctx app.Context) {
	q := a.view.Query
	if a.view.Seq == 0 || len(a.view.Rows) == 0 {
		return // no result, or none for this query (refused, failed)
	}
	if a.tracing && q == a.tracingQuery {
		return
	}
	a.tracing, a.tracingQuery = true, q
	a.traceSeq++
	seq := a.traceSeq
	if !a.js.onScreen() && !a.want.set {
		// Off screen, and the URL names no stall to watch: when it comes on
		// screen.
		a.traceLater = true
		return
	}
	a.traceLater = false
	ctx.After(traceRest, func(ctx app.Context) {
		defer ui.Recover(ctx, "animation")
		if seq != a.traceSeq {
			return
		}
		cfg, err := sim.ParseQuery(q, address.PageKeys()...)
		var r *sim.Runner
		if err == nil {
			r, err = sim.Start(cfg)
		}
		if err != nil {
			a.err = err.Error()
			return
		}
		a.preparing = "Preparing the animation…"
		var step func(ctx app.Context)
		step = func(ctx app.Context) {
			defer ui.Recover(ctx, "animation")
			if seq != a.traceSeq {
				ctx.PreventUpdate()
				return
			}
			if !r.Step(traceSlice) {
				ctx.PreventUpdate()
				ui.NextTask(ctx, step)
				return
			}
			a.preparing = ""
			res := r.TraceResult() // an event-driven run's too
			if res == nil {
				a.err = window.ErrWindowNoTrace.Error()
				if err := r.Err(); err != nil {
					a.err = err.Error()
				}
				return
			}
			a.traced = res
			a.load(ctx)
		}
		step(ctx)
	})
}

// A traced run starts once results have rested this long, and simulates
// this many requests a slice.
const (
	traceRest  = 300 * time.Millisecond
	traceSlice = 1 << 16
)

// Models of windows up to animSyncRequests requests are built at once;
// larger ones in slices of animSliceRequests (about 15 ms in WebAssembly),
// yielding to the browser between them.
const (
	animSyncRequests  = 150_000
	animSliceRequests = 60_000
)

// show builds the model of stall k and then shows instant t (clamped to the
// window) when keepT, else the window's start. A newer call supersedes a
// build in progress.
func (a *Panel) show(ctx app.Context, k int, t int64, keepT bool) {
	a.buildSeq++
	seq := a.buildSeq
	a.retries, a.byCalls = "", ""
	b, err := window.NewSummaryBuilder(a.res, k)
	if err != nil {
		a.err = err.Error()
		var refusal *window.Refusal
		if a.refused = errors.As(err, &refusal); a.refused {
			a.err = refusal.TextCounts(units.Duration[int64], units.Count) // its instants and counts as the page writes them
			a.stall, a.stalls = refusal.Window, refusal.Windows
			lanes := retryLanes(a.res, refusal.From, refusal.To)
			// Encoded once a window, not at every Render.
			if svg := retryLaneSVG(lanes); svg != "" {
				a.retries = ui.SVGDataURL(svg)
			}
			a.retriesAlt = retryLaneAlt(lanes)
			// A run with retries: the window is drawn by calls (its
			// attempt trace stopping early leaves the refusal).
			if m, err := window.NewRetryWindow(a.res, k); err == nil {
				a.byCalls = refusal.ByCalls(units.Duration[int64], units.Count)
				a.install(ctx, m, t, keepT)
				return
			} else if a.res.Config.Retrying() {
				a.err += " " + err.Error() + "."
			}
			a.p.mu.Lock()
			a.p.model, a.p.playing = nil, false
			a.p.mu.Unlock()
		}
		return
	}
	if b.Requests() <= animSyncRequests {
		b.Step(math.MaxInt)
		a.install(ctx, b.Summary(), t, keepT)
		return
	}
	a.preparing = fmt.Sprintf("Preparing the animation of %s (%s requests)…", windowName(b.Summary()), units.Count(b.Requests()))
	a.p.mu.Lock()
	a.p.playing = false
	a.p.mu.Unlock()
	var next func(ctx app.Context)
	next = func(ctx app.Context) {
		defer ui.Recover(ctx, "animation")
		if seq != a.buildSeq {
			ctx.PreventUpdate()
			return
		}
		if !b.Step(animSliceRequests) {
			ctx.PreventUpdate()
			ctx.After(time.Millisecond, next)
			return
		}
		a.preparing = ""
		a.install(ctx, b.Summary(), t, keepT)
	}
	ctx.After(time.Millisecond, next)
}

// install shows a built model. Once the animation has put its keys in the
// URL it keeps them current: after a new result too, since the page writes
// the keys it loaded with its own URL (a little later, once painted).
func (a *Panel) install(ctx app.Context, m *window.Summary, t int64, keepT bool) {
	if !keepT {
		t = m.From
	}
	// Autoplay once, if on screen already (else when it comes on screen).
	autoplay := a.autoplay && a.js.onScreen()
	if autoplay {
		a.autoplay = false
	}
	a.err, a.refused = "", false
	p := a.p
	p.mu.Lock()
	playing := p.playing
	p.setModel(m, t)
	p.playing = playing && keepT
	if autoplay {
		p.play(true)
	}
	a.speed = p.speed
	p.mu.Unlock()
	a.stall, a.stalls, a.from, a.to = m.Stall, m.Stalls, m.From, m.To
	a.group = m.ColMax
	a.js.request()
	if a.wroteURL {
		a.writeURL(ctx, 400*time.Millisecond)
	}
}

// The controls. Each runs on the UI goroutine.

func (a *Panel) togglePlay(ctx app.Context) {
	a.acted = true
	p := a.p
	p.mu.Lock()
	p.play(!p.playing)
	playing := p.playing
	p.mu.Unlock()
	a.autoplay = false
	a.js.request()
	if !playing {
		a.writeURL(ctx, 0)
	}
}

func (a *Panel) step(ctx app.Context, forward bool) {
	a.acted = true
	p := a.p
	p.mu.Lock()
	if p.model == nil {
		p.mu.Unlock()
		return
	}
	p.playing = false
	var t int64
	var ok bool
	if forward {
		t, ok = p.model.NextEvent(p.t)
	} else {
		t, ok = p.model.PrevEvent(p.t)
	}
	if !ok {
		t = p.model.To
		if !forward {
			t = p.model.From
		}
	}
	p.seek(t)
	p.mu.Unlock()
	a.autoplay = false
	a.js.request()
	a.writeURL(ctx, 250*time.Millisecond)
}

func (a *Panel) seek(ctx app.Context, t int64, delay time.Duration) {
	a.acted = true
	p := a.p
	p.mu.Lock()
	p.playing = false
	p.seek(t)
	p.mu.Unlock()
	a.autoplay = false
	a.js.request()
	a.writeURL(ctx, delay)
}

func (a *Panel) changeStall(ctx app.Context, k int) {
	if a.res == nil || k < 0 || k >= a.stalls || k == a.stall {
		return
	}
	a.acted = true
	a.p.mu.Lock()
	a.p.playing = false
	a.p.mu.Unlock()
	a.autoplay = false
	a.wroteURL = true // the new stall goes into the URL once shown
	a.show(ctx, k, 0, false)
}

func (a *Panel) setSpeed(s int) {
	s = min(max(s, 0), speedSteps)
	a.p.mu.Lock()
	a.p.speed = s
	a.p.dirty = true
	a.p.mu.Unlock()
	a.speed = s
	a.js.request()
}

// shown runs on the UI goroutine when the animation first comes on screen.
func (a *Panel) shown(ctx app.Context) {
	if a.traceLater {
		a.tracing = false
		a.trace(ctx)
	}
	if !a.autoplay || a.p.model == nil {
		return
	}
	a.autoplay = false
	a.p.mu.Lock()
	a.p.play(true)
	a.p.mu.Unlock()
	a.js.request()
}

// ended runs on the UI goroutine when playing reaches the window's end.
// The moment goes into the URL only when the reader played, stepped or
// scrubbed: the autoplay's end is no action of theirs, and the URL (and
// with it the entry Back returns to) stays the page they loaded.
func (a *Panel) ended(ctx app.Context) {
	if a.acted {
		a.writeURL(ctx, 0)
	}
}

// writeURL asks the page that owns the URL to put the stall and moment in
// it (replacing the entry: no history entry per step), after delay, so that
// a scrub writes once.
func (a *Panel) writeURL(ctx app.Context, delay time.Duration) {
	a.urlSeq++
	seq := a.urlSeq
	write := func(ctx app.Context) {
		if seq != a.urlSeq || a.p.model == nil {
			return
		}
		a.p.mu.Lock()
		stall, t := a.p.model.Stall, a.p.t
		a.p.mu.Unlock()
		keys := url.Values{animKey: {strconv.Itoa(stall)}, animTKey: {time.Duration(t).String()}}
		a.wrote = keys
		ctx.NewActionWithValue(ui.ActionKeys, keys)
		a.wroteURL = true
	}
	ui.NowOrAfter(ctx, delay, "animation URL", write)
}

// onKey handles the keyboard shortcuts while the focus is in the panel.
func (a *Panel) onKey(ctx app.Context, e app.Event) {
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		return
	}
	key := e.Get("key").String()
	tag := strings.ToLower(e.Get("target").Get("tagName").String())
	typ := strings.ToLower(e.Get("target").Get("type").String())
	onRange := tag == "input" && typ == "range"
	switch key {
	case " ", "k", "K":
		if tag == "button" && key == " " {
			return // the button's own click
		}
		e.PreventDefault()
		a.togglePlay(ctx)
	case "ArrowRight", ".":
		if onRange && key == "ArrowRight" {
			return
		}
		e.PreventDefault()
		a.step(ctx, true)
	case "ArrowLeft", ",":
		if onRange && key == "ArrowLeft" {
			return
		}
		e.PreventDefault()
		a.step(ctx, false)
	case "]", "PageDown":
		e.PreventDefault()
		a.changeStall(ctx, a.stall+1)
	case "[", "PageUp":
		e.PreventDefault()
		a.changeStall(ctx, a.stall-1)
	case "Home":
		if !onRange {
			e.PreventDefault()
			a.seek(ctx, a.from, 0)
		}
	case "End":
		if !onRange {
			e.PreventDefault()
			a.seek(ctx, a.to, 0)
		}
	case "+", "=":
		a.setSpeed(a.speed + 10)
	case "-", "_":
		a.setSpeed(a.speed - 10)
	}
}

// speedText says how fast the animation plays.
func speedText(m *window.Summary, s int) string {
	r := realPerSim(m, s)
	if r >= 1 {
		return "1 ms of simulated time takes " + units.Duration(r*1e6)
	}
	return "1 s of simulated time takes " + units.Duration(r*1e9)
}

// Render builds the panel from its state; the frame loop draws the canvases
// and writes the counters. Its controls are there from the first render (the
// prerendered page's too), inert (aria-disabled) until a model is built, so
// that the Tab order does not change when the panel comes on screen; the
// children keep their places, so an inert control that has the focus keeps
// it when it comes alive.
func (a *Panel) Render() app.UI {
	cls := "anim"
	if a.ICompact {
		cls += " anim-compact"
	}
	root := app.Section().ID("anim").Class(cls).DataSet("anim", "queues").DataSet("stall", a.stall).
		Aria("labelledby", "anim-title").
		OnKeyDown(ui.On("anim-keys", a.onKey))
	byCalls := a.err == "" && a.p != nil && a.p.model != nil && a.p.model.Retry != nil
	intro := "Each client meets the same stall. Marks are requests at their due time: they fly to the queue when sent, wait, are served, and leave a sample of what the client recorded in the tally beside its stage. The closed loop holds back what it cannot send (not sent yet); the paced client skips its slots (never sent); the open loop sends everything on time and records the wait."
	if byCalls {
		intro = "Each client meets the same outage. Marks are calls: each flies to the queue when its attempt is sent, to the server when a worker takes it, and on to answered; an attempt that fails flies to backing off and, when the backoff ends, back to the queue as the call's next attempt, or, with no attempt left, to gave up."
	}
	head := []app.UI{
		app.H2().ID("anim-title").Text("Watch a stall"),
		app.P().Class("anim-intro").Text(intro),
	}
	// note says why the stages are empty (an error), or that they are on
	// their way (progress: an embed shows it over the stages, web/anim.css).
	note := func(msg string, unavailable, progress bool) app.UI {
		n := app.P().Class("anim-note").Aria("live", "polite").Hidden(msg == "").Text(msg)
		if unavailable {
			n = n.DataSet("anim-unavailable", "1")
		}
		if progress {
			n = n.DataSet("anim-progress", "1")
		}
		return n
	}
	keys := app.P().Class("anim-keys").Text("Keys: Space play or pause · ← → previous or next event · [ ] previous or next stall · Home End the window's ends · + − speed.")
	if a.err != "" {
		return root.DataSet("ready", "false").Body(append(head,
			note(a.err, true, false),
			app.If(a.refused && a.retries != "", a.renderRetries),
			app.If(a.refused && a.stalls > 1, func() app.UI {
				return app.Div().Class("anim-controls").Aria("label", "Animation controls").Attr("role", "group").Body(
					app.Div().Class("anim-row").Body(a.windowButtons(fmt.Sprintf("Window %d of %d", a.stall+1, a.stalls))...))
			}),
			a.renderStages(true, false))...)
	}
	if a.p == nil || a.p.model == nil {
		msg := a.preparing
		if msg == "" {
			msg = "Waiting for the simulation…"
		}
		// The controls are inert until the model is built.
		return root.DataSet("ready", "false").Aria("busy", true).Body(append(head,
			note(msg, true, true), a.renderControls(nil, false, 0), a.renderStages(false, false), keys)...)
	}
	a.p.mu.Lock()
	playing, t, m := a.p.playing, a.p.t, a.p.model
	a.p.mu.Unlock()
	if byCalls {
		return root.DataSet("ready", "true").DataSet("anim-mode", "calls").Body(append(head,
			note(a.preparing, false, true),
			a.renderControls(m, playing, t),
			// The stages stand where the other modes have them (the fifth
			// child): go-app patches an element in place only when the
			// old tree had the same kind there, so the canvases the frame
			// loop draws on survive a change of mode.
			a.renderStages(false, true),
			app.P().Class("anim-note").DataSet("anim-bycalls", "1").Text(a.byCalls),
			app.P().Class("anim-legend").Text("Each box holds a mark per call in that state at the moment shown, with their count; a box draws as many marks as it has room for and says “not all drawn” past that (its count is every call). "+
				"Beside each client's name: its calls in each state, and the attempts and retries its calls have sent so far (those sent before the window included). "+
				"The strip over the boxes is the window's time: the outage hatched, the cursor at the moment shown. "+
				"In service lasts until the reply, or until the client gives up on the attempt; a worker goes on with a timed-out attempt all the same: that is wasted work, drawn as hollow marks after the calls in service and counted beside the client's name (attempts a worker is serving for a client that gave up on them)."),
			app.If(a.retries != "", a.renderRetries),
			keys,
		)...)
	}
	body := append(head,
		note(a.preparing, false, true),
		a.renderControls(m, playing, t),
		a.renderStages(false, false),
		app.P().Class("anim-legend").Body(
			app.Text(fmt.Sprintf("Marks stand on the line at their due time, grouped in %d columns across the window (a column holds up to %s requests); faint: not due yet; solid: not sent yet; ", window.WindowColumns, units.Count(a.group))),
			app.Span().Class("anim-x").Text("×"),
			app.Text(": a slot the paced client never sent. Under the line, the server's history: busy, or hatched when stalled. In the tally, the corrected samples are stacked in the corrected recording's colour on the client's own."),
		),
		app.If(m.Cut, func() app.UI {
			return app.P().Class("anim-note").DataSet("anim-cut", "1").Textf(
				"This stall's window holds more than %s requests of one client: it is shown up to %s, where that many have fallen due.",
				units.Count(window.MaxWindowRequests), units.Duration(float64(m.To)))
		}),
		keys,
	)
	return root.DataSet("ready", "true").Body(body...)
}

// renderRetries shows a refused window's retry lane, and says what it is
// and what it leaves out.
func (a *Panel) renderRetries() app.UI {
	what := "a still picture over time, not the queue animation"
	notDrawn := "Not drawn: the calls that sent one attempt, the work a worker went on doing after a timeout, and the marks flying between queue, server and tally."
	if a.byCalls != "" {
		what = "the whole window at once, as an overview of the animation above, which shows one instant"
		notDrawn = "Not drawn here: the calls that sent one attempt, and the work a worker went on doing after a timeout (the animation above shows it as wasted work)."
	}
	return app.Div().Class("anim-retry").DataSet("anim-retries", "1").Body(
		app.Img().Class("anim-retry-svg").Src(a.retries).Alt(a.retriesAlt),
		app.P().Class("anim-legend").Text("Retried calls in this window, from the run's trace of their attempts ("+what+"): "+
			"in each column, how many of the calls that sent more than one attempt had one waiting in the queue, one in service (until its reply, or until the client gave up on it), "+
			"or were backing off before the next attempt, as a mean over the column; the last row counts the attempts that failed there. "+
			notDrawn),
	)
}

// renderControls builds the controls for model m, at instant t; with no
// model, the same controls, inert (aria-disabled: still Tab stops, their
// handlers do nothing without a model).
func (a *Panel) renderControls(m *window.Summary, playing bool, t int64) app.UI {
	ready := m != nil
	inert := func(b app.HTMLButton) app.HTMLButton {
		if ready {
			return b
		}
		return b.Aria("disabled", true)
	}
	playText, stallText, speed := "Play", "Stall – of –", ""
	if playing {
		playText = "Pause"
	}
	if ready {
		stallText, speed = a.stallText(m), speedText(m, a.speed)
	}
	span := a.to - a.from
	speedIn := app.Input().Type("range").ID("anim-speed").DataSet("anim-speed", "1").Min(0).Max(speedSteps).Step(1).Value(a.speed).
		OnInput(ui.On("anim-speed", func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && a.p != nil && a.p.model != nil {
				a.setSpeed(v)
			}
		}))
	scrub := app.Input().Type("range").ID("anim-scrub").DataSet("anim-scrub", "1").Min(0).Max(span).Step(float64(max(1, span/2000))).Value(t-a.from).
		Aria("valuetext", units.Duration(float64(t))).
		OnInput(ui.On("anim-scrub", func(ctx app.Context, e app.Event) {
			if v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil {
				ctx.PreventUpdate()
				a.seek(ctx, a.from+int64(v), 300*time.Millisecond)
			}
		}))
	if !ready {
		speedIn, scrub = speedIn.Aria("disabled", true), scrub.Aria("disabled", true).Aria("valuetext", "not ready")
	}
	return app.Div().Class("anim-controls").Aria("label", "Animation controls").Attr("role", "group").Body(
		app.Div().Class("anim-row").Body(append(a.windowButtons(stallText),
			app.Span().Class("anim-sep"),
			inert(app.Button().Type("button").Class("anim-btn").DataSet("anim-back", "1").Aria("label", "Previous event").Title("Previous event (←)").
				OnClick(ui.On("anim-back", func(ctx app.Context, e app.Event) { a.step(ctx, false) }))).Text("◀ Event"),
			inert(app.Button().Type("button").Class("anim-btn", "anim-play").DataSet("anim-play", "1").Aria("pressed", playing).Title("Play or pause (Space)").
				OnClick(ui.On("anim-play", func(ctx app.Context, e app.Event) { a.togglePlay(ctx) }))).Text(playText),
			inert(app.Button().Type("button").Class("anim-btn").DataSet("anim-step", "1").Aria("label", "Next event").Title("Next event (→)").
				OnClick(ui.On("anim-step", func(ctx app.Context, e app.Event) { a.step(ctx, true) }))).Text("Event ▶"),
			app.Label().Class("anim-speed").For("anim-speed").Text("Speed"),
			speedIn,
			app.Span().Class("anim-speed-text").Text(speed),
		)...),
		app.Div().Class("anim-row", "anim-scrub").Body(
			app.Label().For("anim-scrub").Text("Moment"),
			scrub,
			app.Output().For("anim-scrub").Class("anim-time").DataSet("anim-time", "1"),
		),
	)
}

// windowButtons are the previous and next stall (window) buttons around
// the text that names the one shown. At the first or last window (or with
// no model yet) a button is aria-disabled, not disabled: it stays a Tab
// stop, so the Tab order does not change with the stall shown.
func (a *Panel) windowButtons(text string) []app.UI {
	return []app.UI{
		app.Button().Type("button").Class("anim-btn").DataSet("anim-prev-stall", "1").Aria("label", "Previous stall").
			Aria("disabled", a.stall == 0).OnClick(ui.On("anim-prev-stall", func(ctx app.Context, e app.Event) { a.changeStall(ctx, a.stall-1) })).Text("◀"),
		app.Span().Class("anim-stall").DataSet("anim-stall-text", "1").Aria("live", "polite").Text(text),
		app.Button().Type("button").Class("anim-btn").DataSet("anim-next-stall", "1").Aria("label", "Next stall").
			Aria("disabled", a.stall+1 >= a.stalls).OnClick(ui.On("anim-next-stall", func(ctx app.Context, e app.Event) { a.changeStall(ctx, a.stall+1) })).Text("▶"),
	}
}

// windowName names the window a model shows: its stall, or an
// event-driven run's outage or worst reply.
func windowName(m *window.Summary) string {
	switch m.Kind {
	case "outage":
		return fmt.Sprintf("outage %d", m.Stall+1)
	case "worst":
		return "the worst reply"
	}
	return fmt.Sprintf("stall %d", m.Stall+1)
}

// stallText says which stall is shown and when it is (shorter in an embed);
// an event-driven run without a stall shows its outages and its worst reply.
func (a *Panel) stallText(m *window.Summary) string {
	switch {
	case m.Kind == "outage" && a.ICompact:
		return fmt.Sprintf("Outage %d of %d (%s–%s)", a.stall+1, a.stalls, units.Duration(float64(m.Start)), units.Duration(float64(m.End)))
	case m.Kind == "outage":
		return fmt.Sprintf("Outage %d (window %d of %d), from %s to %s", a.stall+1, a.stall+1, a.stalls, units.Duration(float64(m.Start)), units.Duration(float64(m.End)))
	case m.Kind == "worst":
		return fmt.Sprintf("The worst reply (window %d of %d), sent at %s, answered at %s", a.stall+1, a.stalls, units.Duration(float64(m.Start)), units.Duration(float64(m.End)))
	}
	if a.ICompact {
		return fmt.Sprintf("Stall %d of %d (%s–%s)", a.stall+1, a.stalls, units.Duration(float64(m.Start)), units.Duration(float64(m.End)))
	}
	return fmt.Sprintf("Stall %d of %d, from %s to %s", a.stall+1, a.stalls, units.Duration(float64(m.Start)), units.Duration(float64(m.End)))
}

// renderStages renders a stage per client: its name, its counters (the
// frame loop fills them) and its canvas.
func (a *Panel) renderStages(hidden, byCalls bool) app.UI {
	stages := make([]app.UI, 0, 3)
	for i, c := range sim.Clients() {
		kind := c.Recording()
		if byCalls {
			stages = append(stages, a.retryStage(i, c))
			continue
		}
		counters := []app.UI{
			animCounter("recorded", "recorded"),
			animCounter("slowest", "slowest"),
			animCounter("above", "above "+units.Duration(float64(animAbove(a.res)))),
			animCounter("waiting", "waiting"),
		}
		switch c {
		case sim.ClosedClient:
			counters = append(counters, animCounter("not-sent", "not sent yet"), animCounter("synthetic", "corrected adds"))
		case sim.PacedClient:
			counters = append(counters, animCounter("never-sent", "never sent"), animCounter("synthetic", "corrected adds"))
		}
		// The stage's colour is its recording's (web/app.css --c-<kind>, the
		// charts' palette): a class, since the page allows no inline style.
		stages = append(stages, app.Div().Class("anim-stage", "anim-"+c.String(), "rec-"+kind.String()).DataSet("anim-stage", i).DataSet("client", c.String()).Body(
			app.Div().Class("anim-head").Body(
				app.Span().Class("anim-name").Text(viewLabel(kind)),
				app.Dl().Class("anim-counts").Body(counters...),
			),
			app.Canvas().Class("anim-canvas").Attr("role", "img").
				Aria("label", fmt.Sprintf("The %s: its requests on the time axis, its queue, the server and the tally of what it recorded", viewLabel(kind))),
		))
	}
	return app.Div().Class("anim-stages").Hidden(hidden).TabIndex(0).Attr("role", "group").
		Aria("label", "The three clients' stages. Space plays or pauses; the arrow keys step from event to event.").Body(stages...)
}

// retryStage is stage i of a window drawn by calls: client c's name, its
// counters of calls per state, attempts and retries (the frame loop fills
// them, web/anim.js's RCOUNTERS) and its canvas.
func (a *Panel) retryStage(i int, c sim.Client) app.UI {
	kind := c.Recording()
	counters := make([]app.UI, 0, len(retryCounters))
	for _, k := range retryCounters {
		counters = append(counters, animCounter(k[0], k[1]))
	}
	return app.Div().Class("anim-stage", "anim-"+c.String(), "rec-"+kind.String()).DataSet("anim-stage", i).DataSet("client", c.String()).DataSet("anim-calls", "1").Body(
		app.Div().Class("anim-head").Body(
			app.Span().Class("anim-name").Text(viewLabel(kind)),
			app.Dl().Class("anim-counts").Body(counters...),
		),
		app.Canvas().Class("anim-canvas").Attr("role", "img").
			Aria("label", fmt.Sprintf("The %s: its calls as marks in boxes by state (not sent yet, queued, in service, answered, backing off, gave up), and the window's time", viewLabel(kind))),
	)
}

// retryCounters are a stage by calls' counters, in the order of the
// frame's slots (window.CallState, then attempts and retries): the DOM's
// data-count and the label.
var retryCounters = [...][2]string{{"r-not-sent", "not sent yet"}, {"r-queued", "queued"}, {"r-serving", "in service"}, {"r-backoff", "backing off"},
	{"r-failed", "gave up"}, {"r-answered", "answered"}, {"r-attempts", "attempts sent"}, {"r-retries", "retries sent"}, {"r-wasted", "wasted work"}}

func animCounter(slot, label string) app.UI {
	return app.Div().Class("anim-count").Body(
		app.Dt().Text(label),
		app.Dd().DataSet("count", slot),
	)
}

func animAbove(res *sim.Result) int64 {
	if res == nil {
		return sim.Default().Above
	}
	return res.Config.Above
}

// viewLabel is a recording's name for people.
func viewLabel(k sim.Kind) string {
	name, _ := view.Label(k)
	return name
}
