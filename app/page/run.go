package page

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/charts"
	"omission/app/compute"
	"omission/app/jsonread"
	"omission/app/ui"
	"omission/app/view"
	"omission/app/worker"
	"omission/app/yield"
	"omission/sim"
)

// How a simulation runs in the page.
//
// The page starts a run when its parameters change (never in Render). The
// first slice runs at once on the UI goroutine, inside the event that changed
// the parameters: a quick run (the presets take a few tens of milliseconds)
// is then painted in the frame that follows the event. go-app renders on a
// frame tick and picks at random among ready channel cases, so a result
// handed over by a dispatch from another goroutine tends to miss that frame
// and wait for the next tick, after a useless render.
//
// A run that needs more than one slice continues on its own goroutine. In
// the browser that goroutine shares the only thread: it yields to the browser
// between slices (input is handled, progress painted), and a newer parameter
// change cancels it. Its results come back to the UI goroutine by dispatch.
//
// Finished results are also published as the ui.StateResult state (a
// view.View), for components that follow it with ctx.ObserveState. The page
// publishes a result once its headline and table are painted, so that the
// heavier figures never hold them back.

// Status values of simStatus.
const (
	statusRunning   = "running"
	statusDone      = "done"
	statusFailed    = "failed"
	statusRefused   = "refused"
	statusCancelled = "cancelled"
)

// simStatus is where the latest run stands.
type simStatus struct {
	Seq      int64
	Status   string
	Err      string
	Progress float64 // 0 to 1, while running in slices
	Sliced   bool    // the run continues beyond its first slice
}

// startClient chooses where the page's runs go: in the browser, the
// simulation worker web/page.js started (this program's module, in a Web
// Worker or, where the browser has none, on the page's thread behind a
// stand-in); natively (prerendering, tests) this program, at once.
func (p *Page) startClient(ctx app.Context) {
	if p.client != nil {
		return
	}
	if !app.IsClient {
		p.client = worker.NewLocal(p.Settings, true, func(r worker.Response) { p.onResponse(ctx, r) }, yield.Yield)
		return
	}
	deliver := func(r worker.Response) {
		ctx.Dispatch(func(ctx app.Context) {
			defer ui.Recover(ctx, "result")
			p.onResponse(ctx, r)
		})
	}
	b, err := worker.NewBrowser(deliver, func(err error) {
		ctx.Dispatch(func(ctx app.Context) { p.workerFailed(ctx, err) })
	})
	if err != nil {
		app.Log("omission: no simulation worker: " + err.Error())
		p.fail(p.seq, err)
		return
	}
	p.client = b
}

// workerFailed shows why the worker stopped; the next change of the
// parameters starts another.
func (p *Page) workerFailed(ctx app.Context, err error) {
	app.Log("omission: the simulation worker stopped: " + err.Error())
	p.client = nil
	if p.running {
		p.running = false
		p.fail(p.seq, err)
	}
}

// start runs cfg, superseding any run in flight (the newest input wins).
func (p *Page) start(ctx app.Context, cfg sim.Config) {
	p.seq = compute.NextSeq()
	p.status = simStatus{Seq: p.seq, Status: statusRunning}
	p.charts = chartSet{}
	p.sweep = sweepShown{} // another query's points (the panel shows them for its run only)
	if !p.Settings.Simulate {
		return // no numbers for a query the page cannot know
	}
	if err := cfg.Validate(); err != nil {
		p.fail(p.seq, err)
		return
	}
	p.startClient(ctx)
	if p.client != nil {
		p.send(cfg, false)
	}
}

// send asks the client for a run of cfg (or new charts of the result on
// show, redraw) under the page's current run number.
func (p *Page) send(cfg sim.Config, redraw bool) {
	p.running = true
	p.charts.gen++
	p.charts.opts = p.chartOptions()
	req := worker.Request{ID: p.seq, Gen: p.charts.gen, Query: cfg.Query(), Charts: p.charts.opts, Redraw: redraw}
	p.besideRequest(&req)
	req.Sweep = p.sweepAsk()
	p.sweepAsked = askKey(req.Sweep)
	p.client.Send(req)
}

// publishCharts hands the charts to the panel.
func (p *Page) publishCharts(ctx app.Context) {
	p.charts.seq = p.seq
	ctx.SetState(stateCharts, p.charts)
}

// onResponse takes what the client answered, on the UI goroutine. Only
// the result itself and the end of a run change the page; a chart or the
// progress change their own part.
func (p *Page) onResponse(ctx app.Context, r worker.Response) {
	if r.Export != nil {
		p.saveExport(r.Export) // the file asked for, even of an older run
		return
	}
	if r.ID != p.seq {
		// An older run's: its result is still newer than the one on show
		// while a slider is dragged (the worker finishes the run it has
		// started, then takes the newest request), so it is shown, marked
		// as not the current query's; the rest of it is dropped.
		if r.View != nil && r.ID < p.seq && (p.shown == nil || r.ID > p.shown.Seq) && !p.refused {
			p.shown = r.View
			return
		}
		ctx.PreventUpdate()
		return
	}
	if r.Sweep != nil {
		// The panel follows the points (stateSweep); the page stays.
		p.sweepResponse(r.Sweep)
		p.publishSweep(ctx)
		ctx.PreventUpdate()
		return
	}
	if r.View == nil && !r.Done && r.Err == "" && !r.Sliced && !r.Beside() {
		ctx.PreventUpdate()
	}
	p.besideResponse(r)
	switch {
	case r.View != nil:
		p.show(ctx, r.ID, r.View)
	case r.Err != "" && (p.shown == nil || p.shown.Seq != p.seq):
		p.fail(r.ID, errors.New(r.Err))
		return
	case r.Sliced:
		p.status.Sliced, p.status.Progress = true, r.Progress
	}
	if r.Gen != p.charts.gen {
		return // charts of an older drawing
	}
	if r.Chart != nil {
		p.charts.add(r.Chart)
	}
	if r.Err != "" && p.shown != nil && p.shown.Seq == p.seq {
		p.charts.err = r.Err
	}
	if r.Done {
		p.running = false
		p.charts.done, p.charts.ms, p.charts.mem = true, r.Ms, r.Mem
		p.prerenderJSON = p.prerenderData()
	}
	if r.Chart != nil || r.Done || r.Err != "" {
		p.publishCharts(ctx)
	}
	if r.Done && p.charts.opts != p.chartOptions() {
		p.redraw() // the width or the axes changed while they were drawn
	}
}

// show puts a finished run on screen.
func (p *Page) show(ctx app.Context, seq int64, v *view.View) {
	p.shown = v
	p.status = simStatus{Seq: seq, Status: statusDone, Progress: 1}
	// The headline and the table are painted first. The checks list (long,
	// below the fold) and the components that follow ui.StateResult follow
	// once they are on screen.
	ui.AfterPaint(ctx, func(ctx app.Context) {
		if p.shown == v {
			p.proofs = v
			ctx.SetState(ui.StateResult, v)
		}
	})
	p.scheduleFlush(ctx)
}

// fail records that the latest run could not finish: no number shown is
// this query's, as when loading its URL.
func (p *Page) fail(seq int64, err error) {
	if seq != p.seq || err == compute.ErrCancelled {
		return
	}
	p.running = false
	p.status = simStatus{Seq: seq, Status: statusFailed, Err: "The simulation stopped: " + err.Error()}
	p.shown, p.proofs = nil, nil
	p.charts = chartSet{done: true}
	if p.hasCtx {
		p.ctx.SetState(ui.StateResult, view.View{Seq: seq})
		p.publishCharts(p.ctx)
	}
}

// cancelRun stops the run in flight, if any: a newer request supersedes
// it (a cancel).
func (p *Page) cancelRun() {
	if p.running && p.client != nil {
		p.client.Send(worker.Request{ID: p.seq, Cancel: true})
	}
	p.running = false
}

// chartSet is the charts of the result on screen, in the order they came.
// It goes to the charts panel as the stateCharts state.
type chartSet struct {
	seq    int64                // the run they are of
	gen    int                  // the drawing they belong to (worker.Request.Gen)
	opts   worker.ChartsOptions // how that drawing draws them
	charts []*charts.Chart
	done   bool    // every chart of the drawing came
	ms     float64 // how long drawing them took
	mem    uint64  // the worker's memory after drawing them (worker.Response.Mem)
	err    string
}

func (c *chartSet) add(ch *charts.Chart) {
	for i, old := range c.charts {
		if old.Kind == ch.Kind {
			c.charts[i] = ch
			return
		}
	}
	c.charts = append(c.charts, ch)
}

// chartOptions are how the charts of the page's runs are drawn: at the
// width the charts panel measured (or, before it has, the width the window
// suggests), in the reader's colour scheme, with the axes the URL asks for.
func (p *Page) chartOptions() worker.ChartsOptions {
	w := p.chartsWidth
	if w == 0 {
		w = chartsWidthFor(windowWidth())
	}
	return worker.ChartsOptions{Width: w, Dark: ui.PrefersTheme() == charts.Dark,
		Linear: p.addr.Get(address.KeyAxis) == "linear", CDF: p.addr.Get(address.KeyCDF) == "1"}
}

// windowWidth is the page's width in CSS px (640 natively).
func windowWidth() int {
	if app.IsClient {
		if w := app.Window().Get("innerWidth"); w.Truthy() {
			return w.Int()
		}
	}
	return 640
}

// redraw asks for the charts of the result on show again (a new width, a
// toggled axis), or, while its run goes on, lets the run draw them so.
func (p *Page) redraw() {
	if p.client == nil || !p.Settings.Simulate || p.refused {
		return
	}
	if p.shown == nil || p.shown.Seq != p.seq {
		return // the run in flight draws its charts, then onResponse sees they are out of date
	}
	p.charts.done = false
	p.send(p.cfg, true)
}

// computesIn says where the page's runs go (data-compute): "worker", or
// "page" (its own thread).
func (p *Page) computesIn() string {
	if p.client != nil {
		return p.client.Where()
	}
	return "page"
}

// prerendered is what the static site's HTML says it shows: the view and
// the charts (their SVG in the HTML's images, not here), for the app to take
// over without running again and without a visible jump.
type prerendered struct {
	View   *view.View
	Charts []*charts.Chart
}

// readPrerendered reads data-prerender's JSON: the view and its charts,
// without encoding/json's reflection, on the page's start (app/jsonread).
func readPrerendered(b []byte) (prerendered, error) {
	var pr prerendered
	r := jsonread.New(b)
	r.Object(func(k string) {
		switch k {
		case "View":
			pr.View = &view.View{}
			pr.View.ReadJSON(r)
		case "Charts":
			r.Array(func() {
				if r.Null() {
					pr.Charts = append(pr.Charts, nil)
					return
				}
				ch := &charts.Chart{}
				ch.ReadJSON(r)
				pr.Charts = append(pr.Charts, ch)
			})
		default:
			r.Skip()
		}
	})
	return pr, r.End()
}

// prerenderData is the JSON of the result on show, for data-prerender
// (the static generator only).
func (p *Page) prerenderData() string {
	if !p.Settings.Prerender || p.shown == nil || !p.charts.done {
		return ""
	}
	pr := prerendered{View: p.shown}
	for _, ch := range p.charts.charts {
		c := *ch
		c.SVG = "" // the HTML has it, in the chart's image
		pr.Charts = append(pr.Charts, &c)
	}
	b, err := json.Marshal(pr)
	if err != nil {
		return ""
	}
	return ui.AttrSafe(string(b))
}

// takeOver reads what web/page.js kept of the static HTML (its result, its
// charts' images) when the app starts in the browser: the page shows it at
// once, and runs nothing when it is the URL's own query. It runs before the
// page's first render (OnInit), so that go-app builds the page's DOM once,
// with the result, rather than a page without it and then the result's
// part (about a second of the main thread on a cold start); OnMount
// publishes the charts taken over.
func (p *Page) takeOver() {
	if !app.IsClient || p.takenOver {
		return
	}
	kept := app.Window().Get("omissionPrerender")
	if !kept.Truthy() || kept.Get("json").Type() != app.TypeString {
		return
	}
	pr, err := readPrerendered([]byte(kept.Get("json").String()))
	if err != nil || pr.View == nil {
		return
	}
	srcs := kept.Get("srcs")
	var chs []*charts.Chart
	for _, ch := range pr.Charts {
		if s := srcs.Get(ch.Kind.String()); s.Type() == app.TypeString {
			ch.Src = s.String()
			chs = append(chs, ch)
		}
	}
	p.seq = compute.NextSeq()
	pr.View.Seq = p.seq
	p.shown, p.proofs, p.query = pr.View, pr.View, pr.View.Query
	p.status = simStatus{Seq: p.seq, Status: statusDone, Progress: 1}
	p.charts = chartSet{charts: chs, done: len(chs) == len(charts.Kinds())}
	p.takenOver, p.takenSeq = true, p.seq
	if asked := strings.TrimPrefix(app.Window().Get("location").Get("search").String(), "?"); asked != kept.Get("query").String() {
		// Another address's: its numbers are shown as not this one's
		// (running, and marked stale: staleResult) until its own run
		// answers, and never as ready, not even before the page has read
		// its URL (OnNav).
		p.seq = compute.NextSeq()
	}
}
