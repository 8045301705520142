package main

import (
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/sim"
)

// runCache keeps the results of the last few queries the article and the
// embeds asked for. A result is a pure function of its canonical query, so
// a cached one is the same result.
var runCache = struct {
	sync.Mutex
	order []string
	res   map[string]*sim.Result
}{res: map[string]*sim.Result{}}

// maxFigureRequests bounds the runs figures and embeds make.
const maxFigureRequests = 300_000

// runQuery parses and runs a query, reusing a cached result.
func runQuery(q string) (*sim.Result, error) {
	cfg, err := sim.ParseQuery(q, pageKeys...)
	if err != nil {
		return nil, err
	}
	// These runs are not sliced: a figure or an embed takes only what
	// finishes at once, and sends larger runs to the visualiser.
	if n := cfg.ExpectedArrivals(); n > maxFigureRequests {
		return nil, fmt.Errorf("this run plans about %.0f requests a client, more than the %d a figure draws at once: open it in the visualiser", n, maxFigureRequests)
	}
	key := cfg.Query()
	runCache.Lock()
	res, ok := runCache.res[key]
	runCache.Unlock()
	if ok {
		return res, nil
	}
	res, err = sim.Run(cfg)
	if err != nil {
		return nil, err
	}
	runCache.Lock()
	defer runCache.Unlock()
	runCache.res[key] = res
	runCache.order = append(runCache.order, key)
	if len(runCache.order) > 6 {
		delete(runCache.res, runCache.order[0])
		runCache.order = runCache.order[1:]
	}
	return res, nil
}

// rootPrefix is the path the site is served under ("" at a host's root).
func rootPrefix() string { return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") }

// visualiserLink is the address of the visualiser with a query.
func visualiserLink(q string) string {
	if q == "" {
		return rootPrefix() + "/"
	}
	return rootPrefix() + "/?" + q
}

// chartFigure is one chart bound to a query: an article figure or an embed.
// The parent sets IKind and IQuery; the figure runs the query and draws the
// chart when they change (OnMount, OnUpdate), never in Render.
type chartFigure struct {
	app.Compo

	IKind  charts.Kind
	IQuery string
	// IBare drops the caption's link and heading (the embed route).
	IBare bool

	drawn string // the kind and query the chart was drawn for
	chart *charts.Chart
	src   string // the chart as a data: URL
	err   string
}

// OnMount runs on the UI goroutine when the figure is mounted.
func (f *chartFigure) OnMount(ctx app.Context) {
	defer recoverFault(ctx, "figure")
	f.draw()
}

// OnUpdate runs on the UI goroutine when the parent changed IKind or IQuery.
func (f *chartFigure) OnUpdate(ctx app.Context) {
	defer recoverFault(ctx, "figure")
	f.draw()
}

func (f *chartFigure) draw() {
	key := f.IKind.String() + "?" + f.IQuery
	if key == f.drawn {
		return
	}
	f.drawn, f.chart, f.err = key, nil, ""
	res, err := runQuery(f.IQuery)
	if err != nil {
		f.err = err.Error()
		return
	}
	ch, err := charts.Render(res, f.IKind, charts.Options{Theme: prefersTheme()})
	if err != nil {
		f.err = err.Error()
		return
	}
	f.chart, f.src = ch, svgDataURL(ch.SVG)
}

// svgDataURL makes an SVG an image address: shown with <img>, it is a
// picture, never markup in the page.
func svgDataURL(svg string) string {
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))
}

// Render builds the figure from what draw cached.
func (f *chartFigure) Render() app.UI {
	fig := app.Figure().Class("figure").DataSet("chart", f.IKind.String())
	if f.err != "" {
		return fig.Body(app.P().Class("error").Text(f.err))
	}
	if f.chart == nil {
		return fig.Body(app.P().Text("Drawing…"))
	}
	ch := f.chart
	caption := []app.UI{app.Span().Text(ch.Caption)}
	if !f.IBare {
		caption = append(caption, app.Text(" "),
			app.A().Href(visualiserLink(f.IQuery)).Text("Open in the visualiser"), app.Text(" · "),
			app.A().Href(f.src).Attr("download", "omission-"+f.IKind.String()+".svg").Text("Download SVG"))
	}
	return fig.Body(
		app.Div().Class("chart-svg").Body(
			app.Img().Src(f.src).Alt(ch.Title+". "+ch.Caption).Width(ch.Width).Height(ch.Height)),
		app.FigCaption().Body(caption...),
		chartTable(ch.Table),
	)
}

// chartTable is the chart's data as a table a screen reader can read.
func chartTable(t charts.Table) app.UI {
	if len(t.Header) == 0 {
		return app.Text("")
	}
	head := make([]app.UI, len(t.Header))
	for i, h := range t.Header {
		head[i] = app.Th().Scope("col").Text(h)
	}
	rows := make([]app.UI, len(t.Rows))
	for i, r := range t.Rows {
		cells := make([]app.UI, len(r))
		for j, c := range r {
			if j == 0 {
				cells[j] = app.Th().Scope("row").Text(c)
			} else {
				cells[j] = app.Td().Text(c)
			}
		}
		rows[i] = app.Tr().Body(cells...)
	}
	return app.Details().Class("chart-data").Body(
		app.Summary().Text("The data behind this chart"),
		app.Table().Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
	)
}

// prefersTheme is the colour scheme the reader's system asks for.
func prefersTheme() charts.Theme {
	if app.IsClient {
		if mq := app.Window().Call("matchMedia", "(prefers-color-scheme: dark)"); mq.Truthy() && mq.Get("matches").Bool() {
			return charts.Dark
		}
	}
	return charts.Light
}
