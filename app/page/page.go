package page

import (
	"fmt"
	"net/url"
	"omission/app/address"
	"omission/app/compute"
	"omission/app/ui"
	"omission/app/view"
	"omission/app/worker"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

// Debounce: typing waits for a pause (or maxWait while it goes on); a
// slider recomputes at every step, since the runs go to a Web Worker where
// the newest one supersedes the rest; a change event (Enter, leaving the
// box, releasing the slider, ticking a box) recomputes at once.
const (
	typingDelay  = 400 * time.Millisecond
	slidingDelay = 0
	maxWait      = 300 * time.Millisecond
)

// page is the visualiser: the controls, the headline, the results table and
// the checks. The URL query is its only state: the controls are read from
// it and written back to it.
//
// Its fields are its own state (unexported) and change only on the UI
// goroutine. The children get what they show as props.
type Page struct {
	app.Compo

	// Settings say whether and how the page runs simulations (set by the
	// route: compute.Browser).
	Settings compute.Settings

	inputs  []string   // the text of each control, in sim.Fields() order; replaced, never changed in place
	sliders []int      // slider positions; replaced likewise
	gens    []int      // per field: how often the page set its text from elsewhere
	applied int        // states adopted (data-applied: a test knows its action was read)
	errs    sim.Errors // the problems of the query the controls hold
	msgs    []fieldMsg // errs in words
	// The form's folds drawn open before the reader's pending edits
	// (pinFolds), when foldsSeen.
	foldsSeen, foldParams, foldMore bool
	notices                         []string        // what the page dropped from the address (unknown or repeated keys)
	refused                         bool            // the query is over a limit or its fields conflict: nothing runs, no number is shown
	why                             refusal         // why it is refused, and the fields to change
	cancelled                       bool            // the reader cancelled the run
	cfg                             sim.Config      // the configuration that runs
	addr                            address.Address // the URL's query: the simulator's fields as readQuery wrote them, and the page's own keys
	query                           string          // the canonical query of cfg
	link                            string          // the page's current URL, for the share box
	copied                          string          // the copy button's last message

	editSeq   int64     // debounce counter of the controls
	editSince time.Time // when the pending edits began

	seq     int64         // the latest run
	running bool          // the latest run is in flight (or its charts are)
	client  worker.Client // where runs go: a Web Worker, or this thread
	fitCB   app.Func      // takes the fit worker's answers (fit.go)
	checkCB app.Func      // takes its word on whether a file is whole (fit.go)
	status  simStatus     // where it stands
	shown   *view.View    // the result on screen
	proofs  *view.View    // the result the checks list shows: shown, one paint later
	charts  chartSet      // the charts of the result on screen, as they arrive
	sweep   sweepShown    // the sweep's points that came (sweep=)
	// sweepAsked is the sweep last asked of the client for this run
	// (askKey), so that a state adopted again asks only for a new one.
	sweepAsked string

	chartsWidth   int    // the width the charts panel measured (0: not yet)
	beside        beside // tools, the comparison, measured files
	takenOver     bool   // the app took over the static HTML's result
	takenSeq      int64  // its run number
	prerenderJSON string // the static generator's: what data-prerender holds
	// The sections below the share box (below.go): in a browser that took
	// the static HTML over, the static HTML's are held (lowerHeld) and the
	// page builds its own, those of the bits of lowerBuilt so far, as the
	// reader comes to each.
	lowerHeld  bool
	lowerStale bool // held beside another result: hidden until built
	lowerBuilt uint8
	lowerNear  app.Func // web/page.js's callback that builds one
	fault      string   // observed: a panic caught in a handler

	pendingURL     *url.URL // the URL to write once the browser has painted
	pendingPush    bool
	flushScheduled bool

	ctx      app.Context // the page's own context, for work that ends later
	hasCtx   bool        // ctx is set (mounted or prerendered)
	hist     history     // the URL bar; nil is the browser's
	popstate app.Func    // the popstate listener (browser only)
}

// OnInit runs before the first Render: the controls start at the bench
// preset until the URL is read, and in the browser the page takes over the
// static HTML's result (takeOver).
func (p *Page) OnInit() {
	p.setInputs(sim.Default().Values())
	p.takeOver()
	p.lowerHeld = keepsLower()
}

// OnMount runs on the UI goroutine when the page is mounted in the browser:
// it follows the fault state and the history's back and forward.
func (p *Page) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "mount")
	if app.IsClient {
		// The startup's parts, for make bench (web/page.js).
		app.Window().Get("performance").Call("mark", "omission:mount")
	}
	p.attach(ctx)
	if p.takenOver {
		p.publishCharts(ctx) // taken over in OnInit
	}
	p.keepLower(ctx)
	p.startClient(ctx)
	p.listenHistory(ctx)
	if app.IsClient {
		// go-app calls OnNav next, the first load included, and the page
		// renders then with what this changed (data-compute): a render
		// here too would diff the whole page once more, some 60 ms of the
		// page's thread just after it mounts.
		ctx.PreventUpdate()
	}
}

// OnPreRender runs instead of OnMount where go-app runs natively (the
// static generator, go-app's test engine).
func (p *Page) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "prerender")
	p.attach(ctx)
	p.startClient(ctx)
}

// attach keeps the page's context, follows the fault state and handles the
// children's actions: what OnMount and OnPreRender share.
func (p *Page) attach(ctx app.Context) {
	p.ctx, p.hasCtx = ctx, true
	ctx.ObserveState(ui.StateFault, &p.fault)
	p.handle(ctx)
}

// handle registers what the page does with its children's actions. They
// run on the UI goroutine with the page's own context.
func (p *Page) handle(ctx app.Context) {
	ctx.Handle(actionEdit, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "edit")
		if e, ok := a.Value.(edit); ok {
			i := fieldIndex(e.Field)
			if i >= 0 && i < len(p.gens) && e.Gen != p.gens[i] {
				// The page set this control's text (a URL) after the
				// control last rendered, and the reader typed over the
				// old one: the edit is newer, and the control must show
				// it, so its text is set again.
				p.gens = append([]int(nil), p.gens...)
				p.gens[i]++
			}
			p.setInput(ctx, i, e.Text, e.Delay)
		}
	})
	ctx.Handle(actionSubmit, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "submit")
		p.editSeq++
		p.applyInputs(ctx)
	})
	ctx.Handle(actionPreset, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "preset")
		if name, ok := a.Value.(string); ok {
			p.choosePreset(ctx, name)
		}
	})
	p.handleBeside(ctx)
	p.handleSweep(ctx)
	ctx.Handle(actionSweepField, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "sweep")
		if f, ok := a.Value.(string); ok {
			ctx.NewActionWithValue(actionSweep, sweepFor(f, p.cfg))
		}
	})
	ctx.Handle(actionChartsWidth, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "charts")
		if w, ok := a.Value.(int); ok && w != p.chartsWidth {
			p.chartsWidth = w
			p.redraw()
		}
	})
	ctx.Handle(actionChartsToggle, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "charts")
		key, _ := a.Value.(string)
		on := map[string]string{address.KeyAxis: "linear", address.KeyCDF: "1"}[key]
		if on == "" {
			return
		}
		if p.addr.Get(key) == on {
			on = ""
		}
		p.setKeys(ctx, url.Values{key: {on}})
		p.redraw()
	})
	ctx.Handle(actionFold, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "fold")
		if f, ok := a.Value.(foldState); ok && f.Open != f.Drawn {
			show := p.addr.Get(address.KeyShow)
			if now := ShowValue(show, f.Name, f.Open); now != show {
				p.setKeys(ctx, url.Values{address.KeyShow: {now}})
			}
		}
	})
	ctx.Handle(ui.ActionKeys, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "keys")
		if keys, ok := a.Value.(url.Values); ok {
			p.setKeys(ctx, keys)
		}
	})
}

// setKeys sets page keys (the animation's stall and moment) in the URL (an
// empty value removes a key), replacing the entry; the page owns the URL
// and writes it.
func (p *Page) setKeys(ctx app.Context, keys url.Values) {
	p.addr = p.addr.WithKeys(keys)
	p.writeURL(ctx, p.addr, false)
}

// OnNav runs on the UI goroutine when the page becomes the navigation
// target, the first load included: the URL's query is the state.
func (p *Page) OnNav(ctx app.Context) {
	defer ui.Recover(ctx, "navigation")
	p.loadURL(ctx, ctx.Page().URL().RawQuery)
}

// OnDismount runs on the UI goroutine when the page is removed.
func (p *Page) OnDismount() {
	if p.hasCtx && p.lowerHeld {
		p.lowerBuilt = lowerAll
		p.lowerDone(p.ctx)
	}
	p.stopHistory()
	p.cancelRun()
}

// listenHistory follows back and forward. go-app calls OnNav on popstate too,
// but not when the URL equals the last one it navigated to itself, and the
// page writes its URLs with the History API, behind go-app's back.
func (p *Page) listenHistory(ctx app.Context) {
	if !app.IsClient || p.hist != nil {
		return
	}
	p.popstate = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			defer ui.Recover(ctx, "history")
			p.loadURL(ctx, app.Window().URL().RawQuery)
		})
		return nil
	})
	app.Window().Call("addEventListener", "popstate", p.popstate)
}

func (p *Page) stopHistory() {
	if p.popstate != nil {
		app.Window().Call("removeEventListener", "popstate", p.popstate)
		p.popstate.Release()
		p.popstate = nil
	}
}

func (p *Page) history() history {
	if p.hist == nil {
		return browserHistory{}
	}
	return p.hist
}

// loadURL makes a URL query the state: controls, messages, notices, and a
// run. It is how the page starts, and how back and forward restore a state.
func (p *Page) loadURL(ctx app.Context, raw string) {
	ctx = p.own(ctx)
	ctx.SetState(ui.StateURL, raw)
	st := readQuery(raw)
	p.editSeq++ // the URL wins over pending edits
	p.pendingURL = nil
	p.setInputs(st.inputs)
	p.notices = p.notices[:0]
	base, _ := sim.PresetConfig(st.cfg.Preset)
	for _, fe := range st.dropped {
		p.notices = append(p.notices, droppedNotice(fe, base))
	}
	p.adopt(ctx, st, false)
}

// adopt makes a read query the state (see querystate.go for the rule): the
// messages, the URL, and the run. The controls' texts are the caller's.
func (p *Page) adopt(ctx app.Context, st queryState, push bool) {
	p.applied++
	p.setErrs(st.errs())
	p.cancelled = false
	p.cfg, p.addr = st.cfg, st.addr
	p.writeURL(ctx, st.addr, push)
	p.refused = len(st.refused) > 0
	p.why = refusalOf(st.refused)
	if p.refused || !p.current(st.canon) {
		p.lowerNow(ctx) // below.go
	}
	if p.refused {
		// Nothing runs, and nothing shown is for this query.
		p.cancelRun()
		p.query, p.shown, p.proofs = "", nil, nil
		p.seq = compute.NextSeq()
		p.status = simStatus{Seq: p.seq, Status: statusRefused}
		p.charts = chartSet{done: true}
		p.publishCharts(ctx)
		ctx.SetState(ui.StateResult, view.View{Seq: p.seq})
		return
	}
	if p.current(st.canon) {
		p.sendSweep(false) // the run is on screen, or on its way; its sweep= may be new
		return
	}
	p.query = st.canon
	p.start(ctx, st.cfg)
}

// own returns the page's own context for work that a child's event starts:
// a child's context dies with the child (a re-render may replace it), and
// a dispatch on a dead context is dropped, so deferred work (the URL write
// after paint, a debounced edit) must hold the page's.
func (p *Page) own(ctx app.Context) app.Context {
	if p.hasCtx {
		return p.ctx
	}
	return ctx
}

// current reports whether the latest run is for canon and not abandoned.
func (p *Page) current(canon string) bool {
	return p.seq != 0 && canon == p.query && (p.running || p.shown != nil && p.shown.Seq == p.seq)
}

// setInput records a control's new text and recomputes after delay (at
// once when 0). Later edits supersede pending ones.
func (p *Page) setInput(ctx app.Context, i int, text string, delay time.Duration) {
	ctx = p.own(ctx)
	if i < 0 || i >= len(p.inputs) {
		return
	}
	if !p.foldsSeen {
		// The form's folds as drawn before this run of edits.
		p.foldsSeen = true
		p.foldParams, p.foldMore = formFolds(p.inputs, p.msgs, p.addr.Get(address.KeyShow))
	}
	inputs := append([]string(nil), p.inputs...)
	inputs[i] = text
	withCompanions(inputs, i, p.cfg)
	gens := append([]int(nil), p.gens...)
	for j := range inputs {
		if j != i && j < len(p.inputs) && inputs[j] != p.inputs[j] && j < len(gens) {
			gens[j]++ // a companion field changed with its choice
		}
	}
	p.inputs, p.gens = nil, gens
	p.setText(inputs)
	p.editSeq++
	now := time.Now()
	if p.editSince.IsZero() {
		p.editSince = now
	}
	if delay <= 0 || delay < typingDelay && now.Sub(p.editSince) >= maxWait {
		p.applyInputs(ctx)
		return
	}
	seq := p.editSeq
	ctx.After(delay, func(ctx app.Context) {
		defer ui.Recover(ctx, "edit")
		if seq == p.editSeq {
			p.applyInputs(ctx)
		}
	})
}

// pinFolds keeps open the form's folds that were drawn open before the
// reader's edits (foldsSeen) and would now close: a value set back to the
// preset's does not close its fold under the reader's hand. Their names go
// into the show key of st's address, which is read again.
func (p *Page) pinFolds(st queryState) queryState {
	if !p.foldsSeen {
		return st
	}
	p.foldsSeen = false
	show := st.addr.Get(address.KeyShow)
	params, more := formFolds(st.inputs, fieldMessages(st.errs()), show)
	pinned := show
	if p.foldParams && !params {
		pinned = ShowValue(pinned, foldParams, true)
	}
	if p.foldMore && !more {
		pinned = ShowValue(pinned, foldMore, true)
	}
	if pinned == show {
		return st
	}
	return readAddress(inputsAddress(p.inputs, p.addr.WithKeys(url.Values{address.KeyShow: {pinned}})))
}

// applyInputs turns the controls into the state, by the same rule as a
// URL (querystate.go): every valid field takes effect, an invalid one runs
// with the preset's value and keeps its text in the URL, fields that
// conflict are all marked and refuse the run, and the URL is replaced (no
// history entry).
func (p *Page) applyInputs(ctx app.Context) {
	ctx = p.own(ctx)
	p.editSince = time.Time{}
	p.notices = p.notices[:0]
	p.adopt(ctx, p.pinFolds(readAddress(inputsAddress(p.inputs, p.addr))), false)
}

// choosePreset starts over from a preset and adds a history entry.
func (p *Page) choosePreset(ctx app.Context, name string) {
	ctx = p.own(ctx)
	if _, ok := sim.PresetConfig(name); !ok {
		return
	}
	p.editSeq++ // drop pending edits
	p.editSince = time.Time{}
	p.foldsSeen = false // and what they saw of the folds (pinFolds)
	p.notices = p.notices[:0]
	st := readAddress(p.addr.Only(address.PageKeys()...).With("preset", name))
	p.setInputs(st.inputs)
	p.adopt(ctx, st, true)
}

// cancel stops the run in flight at the reader's request: the numbers of
// the previous run stay, marked as not this query's.
func (p *Page) cancel(ctx app.Context) {
	ctx = p.own(ctx)
	if !p.running {
		return
	}
	p.cancelRun()
	p.cancelled = true
	p.query = "" // the same query runs again when asked
	p.status = simStatus{Seq: p.seq, Status: statusCancelled}
}

// rerun starts the current state's run again after a cancel.
func (p *Page) rerun(ctx app.Context) {
	ctx = p.own(ctx)
	p.cancelled = false
	p.query = p.cfg.Query()
	p.start(ctx, p.cfg)
}

// setInputs sets the controls' texts from elsewhere (the URL, a preset):
// every control takes its new text over what the reader typed.
func (p *Page) setInputs(values []string) {
	gens := make([]int, len(fieldNames))
	for i := range gens {
		if i < len(p.gens) {
			gens[i] = p.gens[i] + 1
		}
	}
	p.gens = gens
	p.setText(values)
}

// setText records the controls' texts and slider positions.
func (p *Page) setText(values []string) {
	inputs := make([]string, len(fieldNames))
	copy(inputs, values)
	p.inputs = inputs
	sliders := make([]int, len(inputs))
	for i := range inputs {
		sliders[i] = sliderIndex(specAt(i), inputs[i])
		if sliders[i] < 0 && i < len(p.sliders) {
			sliders[i] = p.sliders[i] // an invalid text leaves the slider where it was
		}
	}
	p.sliders = sliders
}

func (p *Page) setErrs(errs sim.Errors) {
	p.errs = errs
	p.msgs = fieldMessages(errs)
}

// toggleOffs are the values the toggled fields take when their box is
// unticked: the interval the run uses, else the field's fallback.
func (p *Page) toggleOffs() []string {
	out := make([]string, len(fieldNames))
	for i := range out {
		out[i] = specAt(i).Fallback
	}
	out[fieldIndex("interval")] = sim.FormatDuration(p.cfg.ExpectedInterval())
	return out
}

// writeURL sets the address (the query and the page's own keys) the URL bar
// must show, replacing the entry or pushing a new one. The write itself waits until the
// browser has painted (the History API can block for milliseconds), and
// successive writes before it merge: a push followed by replaces is one new
// entry with the last URL.
func (p *Page) writeURL(ctx app.Context, a address.Address, push bool) {
	u := p.urlFor(ctx, a)
	p.link = u.String()
	if p.pendingURL != nil {
		if p.pendingPush && !push {
			push = true
		} else if !p.pendingPush && push {
			p.flushURL(ctx)
		}
	}
	p.pendingURL, p.pendingPush = u, push
	p.scheduleFlush(ctx)
}

func (p *Page) scheduleFlush(ctx app.Context) {
	if p.flushScheduled || p.pendingURL == nil {
		return
	}
	p.flushScheduled = true
	ui.AfterPaint(ctx, func(ctx app.Context) {
		// The write changes nothing the page renders (what follows the
		// URL observes StateURL and updates itself): no render of the
		// whole page for it.
		ctx.PreventUpdate()
		p.flushScheduled = false
		p.flushURL(ctx)
	})
}

// flushURL writes the pending URL.
func (p *Page) flushURL(ctx app.Context) {
	u, push := p.pendingURL, p.pendingPush
	p.pendingURL = nil
	if u == nil {
		return
	}
	if cur := ctx.Page().URL(); cur != nil && cur.RawQuery == u.RawQuery && cur.Path == u.Path && cur.Fragment == "" {
		return // already there: no write, and no duplicate entry
	}
	if push {
		p.history().push(ctx, u)
	} else {
		p.history().replace(ctx, u)
	}
	ctx.SetState(ui.StateURL, u.RawQuery)
}

// urlFor is the page's URL with the address a.
func (p *Page) urlFor(ctx app.Context, a address.Address) *url.URL {
	u := &url.URL{Path: "/"}
	if cur := ctx.Page().URL(); cur != nil {
		c := *cur
		u = &c
	}
	u.RawQuery, u.Fragment, u.RawFragment = a.String(), "", ""
	return u
}

// phase is what the page is showing, for the reader and for tests
// (data-state): loading (no result yet), running, ready, refused (over a
// limit: no number is shown), cancelled (the reader stopped the run),
// failed; prerendered in the static site's HTML.
func (p *Page) phase() string {
	switch {
	case p.refused:
		return "refused"
	case p.cancelled:
		return "cancelled"
	case p.status.Seq == p.seq && p.status.Status == statusFailed:
		return "failed"
	case p.shown != nil && p.shown.Seq == p.seq && p.Settings.Prerender:
		return "prerendered" // the static site's HTML: the app takes over
	case p.shown != nil && p.shown.Seq == p.seq:
		return "ready"
	case p.shown != nil || p.status.Sliced:
		return "running"
	}
	return "loading"
}

// staleResult tells whether the numbers on screen should be marked as not
// matching the parameters. A run that finishes within its first slice is
// never marked: it is painted in the next frame anyway.
func (p *Page) staleResult(phase string) bool {
	switch phase {
	case "cancelled", "failed":
		return true
	case "running":
		// A run sliced long enough to show its progress, the static HTML's
		// result while the URL's own query runs, or a result of a slider's
		// earlier step.
		return p.status.Sliced || p.takenOver && p.shown != nil && p.shown.Seq == p.takenSeq || p.shown != nil && p.shown.Seq < p.seq-1
	}
	return false
}

// preset is the case the controls start from ("" before they are set).
func (p *Page) preset() string {
	if i := fieldIndex("preset"); i < len(p.inputs) {
		return p.inputs[i]
	}
	return ""
}

// copyLink puts the page's URL on the clipboard.
func (p *Page) copyLink(ctx app.Context) {
	href := app.Window().Get("location").Get("href").String()
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		p.copied = "Copy the address above: this browser does not let the page use the clipboard."
		return
	}
	var done, failed app.Func
	release := func() { done.Release(); failed.Release() }
	done = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { p.copied = "Link copied." })
		release()
		return nil
	})
	failed = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			p.copied = "The clipboard refused: copy the address above."
		})
		release()
		return nil
	})
	clip.Call("writeText", href).Call("then", done).Call("catch", failed)
}

// Render builds the page from its state. It computes nothing.
func (p *Page) Render() app.UI {
	phase := p.phase()
	stale := p.staleResult(phase)
	var shownQuery, shownHash string
	var shownSeq int64
	if p.shown != nil {
		shownQuery, shownSeq, shownHash = p.shown.Query, p.shown.Seq, p.shown.Hash
	}
	// A measurement file may be dropped anywhere on the page: web/page.js
	// takes the drop, imports the file and asks its fit; the page lets it.
	over, overScope := ui.On("drop/over", func(ctx app.Context, e app.Event) { e.PreventDefault() })
	return app.Div().ID("omission").Class("omission", "phase-"+phase).
		DataSet("state", phase).DataSet("query", shownQuery).DataSet("seq", shownSeq).DataSet("hash", shownHash).DataSet("run", p.seq).DataSet("applied", p.applied).DataSet("compute", p.computesIn()).
		DataSet("prerender", p.prerenderJSON).
		On("dragover", over, overScope).
		Body(
			renderSkipLinks(),
			app.Header().Class("masthead").Body(
				app.H1().Text("Omission"),
				app.P().Class("tagline").Text("The latency a load test never measured, simulated in your browser."),
			),
			app.If(p.fault != "", func() app.UI {
				return app.P().Class("fault").Attr("role", "alert").Text("Something went wrong (" + p.fault + "). The page still works; reloading starts afresh.")
			}),
			app.Main().ID("main").Body(append([]app.UI{
				// The first screen: why, the two ways in and the two p99;
				// what is below is named at its foot.
				app.Div().Class("first").Body(
					app.Div().Class("top").Body(
						app.Div().Class("ways").Body(
							renderLead(),
							&controlsPanel{IInputs: p.inputs, ISliders: p.sliders, IErrs: p.msgs, IToggleOff: p.toggleOffs(), IGens: p.gens, IShow: p.addr.Get(address.KeyShow)},
							renderCheckYours(),
						),
						app.Div().Class("story").Body(
							&headline{IStale: stale, IView: p.shown, IRefused: p.why, IShow: p.addr.Get(address.KeyShow), IPreset: p.preset()},
							p.renderStatus(phase),
						),
					),
					app.P().Class("below").Aria("hidden", "true").Text(belowWords),
				),
				// Just below the first screen: the URL holds the state, and
				// this box copies it.
				p.renderShare(),
			}, p.renderLower(stale)...)...),
			app.Footer().Class("colophon").Body(
				app.P().Text("Every number above comes from a deterministic simulation that runs in this page (Go compiled to WebAssembly). The same query gives the same numbers here and in the command line report."),
			),
		)
}

// renderSkipLinks are the links that take a keyboard past the controls:
// hidden until focused. web/page.js moves the focus to their target (go-app
// would otherwise take the click for a navigation).
func renderSkipLinks() app.UI {
	return app.Nav().Class("skip-links").Aria("label", "Skip links").Body(
		app.A().Class("skip-link").Href("#results").DataSet("jump", "1").Text("Skip to the results"),
		app.A().Class("skip-link").Href("#charts").DataSet("jump", "1").Text("Skip to the charts"),
		app.A().Class("skip-link").Href("#tools").DataSet("jump", "1").Text("Skip to the tools' printouts"),
		app.A().Class("skip-link").Href("#anim").DataSet("jump", "1").Text("Skip to the animation"),
		app.A().Class("skip-link").Href("#checks").DataSet("jump", "1").Text("Skip to the proofs"),
	)
}

// renderLead says in plain words why the page matters, with the way to
// the explainer and to the tools; the two ways in follow it (a case to play
// with, the reader's own test).
func renderLead() app.UI {
	return app.Section().Class("lead").Aria("label", "What this page shows").Body(
		app.P().Class("lead-why").Body(
			app.Text("A load test that waits for each reply stops sending while the server stalls, so the requests that would have waited are never timed and its p99 looks healthy. Here the "),
			term("closed", "closed loop"),
			app.Text(" waits; the "),
			term("open", "open loop"),
			app.Text(" keeps to its schedule."),
		),
		app.P().Class("lead-more").Body(
			app.A().Href(ui.RootPrefix()+"/article/").Text("New to this? Read the explainer"),
			app.Text(" · "),
			renderToolsPointer(),
		),
	)
}

// renderHow says how the page works: the three clients, what the numbers
// are and where their proofs and words are. It stands under "Why do they
// differ?", beside this run's own story.
func renderHow() app.UI {
	return app.P().Class("how").Body(
		app.Text("How this page works: one server stalls on a schedule, and three load generators send it the same schedule of requests. The closed loop sends each request only when its connection is free; a "),
		term("paced", "paced client"),
		app.Text(" keeps to its own slots and skips those a stall made it miss; the open loop sends every request when it falls due and times it from then. Each number opens its proof, the closed form or invariant it is held to, or says it is simulation only: the page's "),
		term("checks", "checks"),
		app.Text(". The "),
		app.A().Href("#glossary").DataSet("jump", "1").Text("words used here"),
		app.Text(" are explained at the end of the page."),
	)
}

// belowWords name what the page holds below its first screen (the skip
// links take a keyboard there; for a screen reader the headings do).
const belowWords = "The full table, the charts and the proofs are below ↓"

// renderCheckYours is the first screen's way in for a reader who came with
// a file: choosing it here reads it into the import panel and asks its fit
// at once (web/page.js), which the panel below then shows.
func renderCheckYours() app.UI {
	return app.Section().Class("check-yours").Aria("labelledby", "check-yours-title").Body(
		app.H2().ID("check-yours-title").Class("way").Text("Came with a test?"),
		app.P().Body(
			app.Span().Class("check-button").Body(
				app.Label().For("yours-file").Class("button-like").Text("Check what your test hid"),
				app.Input().Type("file").ID("yours-file"),
			),
			app.Text(checkYoursWords),
		),
	)
}

// checkYoursWords say what the check reads, in a few words: every tool's
// file (each writes one that package tools reads back:
// TestEachToolsFileIsRead) and HdrHistogram's. The panel the file goes to
// names the tools (fileKinds).
var checkYoursWords = fmt.Sprintf(" or drop it here: the output of %d load tools or an HdrHistogram log, read only in this browser.", len(toolBrands()))

// fileKinds names the files the import reads, every tool by name.
var fileKinds = func() string {
	b := toolBrands()
	return "the output of " + strings.Join(b[:len(b)-1], ", ") + " or " + b[len(b)-1] + ", or an .hgrm or .hlog from HdrHistogram"
}()

func (p *Page) renderStatus(phase string) app.UI {
	var msg app.UI
	switch phase {
	case "refused":
		msg = app.P().Class("status refused").Attr("role", "alert").Text(refusedTitle + " " + p.why.what())
	case "cancelled":
		msg = app.P().Class("status cancelled").Body(
			app.Text("Cancelled: the numbers shown are for the previous parameters. "),
			app.Button().Type("button").ID("rerun").
				OnClick(ui.On("rerun", func(ctx app.Context, e app.Event) { p.rerun(ctx) })).Text("Run it"),
		)
	case "failed":
		msg = app.P().Class("status failed").Attr("role", "alert").Text(p.status.Err)
	case "running":
		if p.status.Sliced {
			pct := int(100*p.status.Progress + 0.5)
			msg = app.Div().Class("status running").Body(
				app.Label().For("progress").Text("Simulating… "),
				app.Progress().ID("progress").Max(100).Value(pct).Aria("valuetext", fmt.Sprintf("%d%% simulated", pct)).Text(fmt.Sprintf("%d%%", pct)),
				app.Button().Type("button").ID("cancel-run").
					OnClick(ui.On("cancel-run", func(ctx app.Context, e app.Event) { p.cancel(ctx) })).Text("Cancel"),
			)
		}
	case "loading":
		msg = app.P().Class("status loading").Text("Loading the simulator…")
	default:
		if len(p.errs) > 0 {
			what := "1 value is not valid"
			if len(p.errs) > 1 {
				what = fmt.Sprintf("%d values are not valid", len(p.errs))
			}
			msg = app.P().Class("status partial").Textf("%s (%s): each runs with the preset's value until it is fixed; the messages beside the fields say why.",
				what, errFields(p.errs))
		}
	}
	var notes []app.UI
	for _, n := range p.notices {
		notes = append(notes, app.Li().Text(n))
	}
	return app.Div().Class("status-line").Aria("live", "polite").Body(
		msg,
		app.If(len(notes) > 0, func() app.UI { return app.Ul().Class("notices").DataSet("notices", len(notes)).Body(notes...) }),
	)
}

// errFields lists the fields in error.
func errFields(es sim.Errors) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Field
	}
	return strings.Join(names, ", ")
}

func (p *Page) renderShare() app.UI {
	return app.Div().Class("share").Body(
		app.Label().For("share-url").Text("Share this state"),
		app.Div().Class("share-row").Body(
			app.Input().Type("text").ID("share-url").ReadOnly(true).Value(p.link).
				OnFocus(ui.On("share-focus", func(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") })),
			app.Button().Type("button").ID("copy-link").
				OnClick(ui.On("copy-link", func(ctx app.Context, e app.Event) { p.copyLink(ctx) })).
				Text("Copy link"),
		),
		app.Span().Class("copied").Aria("live", "polite").Text(p.copied),
	)
}

// inputsAddress is the address the controls hold, with the page keys of
// keys: the preset, and every field whose text is not the preset's own.
func inputsAddress(inputs []string, keys address.Address) address.Address {
	preset := inputs[fieldIndex("preset")]
	base, ok := sim.PresetConfig(preset)
	if !ok {
		base = sim.Default()
	}
	baseVals := base.Values()
	a := keys.Only(address.PageKeys()...).With("preset", preset)
	for i, name := range fieldNames {
		// An empty box leaves its field out: a companion field cleared is
		// not given (its message then says whether it is required).
		if name == "preset" || i >= len(inputs) || i < len(baseVals) && inputs[i] == baseVals[i] || strings.TrimSpace(inputs[i]) == "" {
			continue
		}
		a = a.With(name, inputs[i])
	}
	return a
}

// fieldNames is sim.Fields(), read once: the page never changes it.
var fieldNames = sim.Fields()

// defaultInputs is the bench preset's text of each control, computed once.
var defaultInputs = sync.OnceValue(func() []string { return sim.Default().Values() })

func fieldIndex(name string) int {
	for i, f := range fieldNames {
		if f == name {
			return i
		}
	}
	return -1
}

// asErrors returns the field errors of a parse, or nil. Any other error
// becomes a field error of the whole query.
func asErrors(err error) sim.Errors {
	if err == nil {
		return nil
	}
	if es, ok := err.(sim.Errors); ok {
		return es
	}
	return sim.Errors{{Field: "query", Allowed: err.Error()}}
}

// history writes the URL bar.
type history interface {
	replace(ctx app.Context, u *url.URL)
	push(ctx app.Context, u *url.URL)
}

// browserHistory is the browser's History API.
type browserHistory struct{}

func (browserHistory) replace(ctx app.Context, u *url.URL) { ctx.Page().ReplaceURL(u) }

func (browserHistory) push(ctx app.Context, u *url.URL) {
	if !app.IsClient {
		ctx.Page().ReplaceURL(u)
		return
	}
	app.Window().Get("history").Call("pushState", nil, "", u.String())
}
