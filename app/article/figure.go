package article

import (
	"strconv"

	"omission/app/address"
	"omission/app/compute"
	"omission/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// chartFigure is one chart bound to a query: an article figure or an embed.
// The parent sets IKind and IQuery; the figure runs the query and draws the
// chart when they change or its box does (OnMount, OnUpdate, OnResize),
// never in Render. It is drawn for the width it gets, so that its text keeps
// its size on a phone; in an embed (IBare), no taller than the README's
// frame leaves.
type chartFigure struct {
	app.Compo

	IKind  charts.Kind
	IQuery string
	ILink  string         // the visualiser's query for it ("": IQuery)
	ICache *compute.Cache // where its runs are made and kept
	// IBare is the embed's figure: no heading, the caption and the data
	// folded under the chart, and a credit that links to the visualiser.
	IBare bool

	drawn string // the kind, query, size and theme the chart was drawn for
	chart *charts.Chart
	src   string // the chart as a data: URL
	err   string
	kept  string // the generator's: the chart as the HTML keeps it
}

// embedFoot is the height an embed keeps under its chart, in CSS px: its
// padding and the line that holds "About this chart" and the credit. An
// embed is prerendered for the README's iframe, embedFrameW × embedFrameH.
const (
	embedFoot                = 48
	embedFrameW, embedFrameH = 660, 420
)

// articleFigureW is the width of the article's figures wherever its column
// is at its widest, in CSS px: main.article's max-width of 46rem less its
// 1rem paddings, at 16 px (web/article.css). The generator draws them at
// it, so that a browser at least 736 px wide takes them over as they are
// (takeover.go); TestBrowserArticleTakeover holds the two together.
const articleFigureW = 704

// OnInit runs before the first Render: in the browser, the figure takes
// over the chart the HTML holds for it (takeover.go).
func (f *chartFigure) OnInit() {
	if app.IsClient {
		f.takeOver()
	}
}

// OnMount runs on the UI goroutine when the figure is mounted.
func (f *chartFigure) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "figure")
	f.draw()
}

// OnUpdate runs on the UI goroutine when the parent changed IKind or IQuery.
func (f *chartFigure) OnUpdate(ctx app.Context) {
	defer ui.Recover(ctx, "figure")
	f.draw()
}

// OnResize runs on the UI goroutine when the window's size changes.
func (f *chartFigure) OnResize(ctx app.Context) {
	defer ui.Recover(ctx, "figure")
	f.draw()
}

// size is the chart's size for the figure's box: its width, and the height
// the chart kind has at that width (in an embed, at most what the README's
// 660×420 frame leaves under its foot). It never depends on the window's
// height: a framing page that sizes its iframe to the height the embed
// reports (the README's snippet) would otherwise shrink the chart with every
// report (issue 26: 396, 389, … 201 px).
func (f *chartFigure) size() (w, h int) {
	dw, dh := charts.DefaultSize(f.IKind)
	w = dw
	if app.IsClient && f.JSValue() != nil {
		if cw := f.JSValue().Get("clientWidth"); cw.Truthy() && cw.Int() > 0 {
			w = cw.Int()
		}
	}
	if !app.IsClient {
		w = articleFigureW
		if f.IBare {
			w = embedFrameW - 16 // its padding
		}
	}
	w = min(max(w, charts.MinWidth), charts.MaxWidth)
	h = w * dh / dw
	if f.IBare {
		h = min(h, embedFrameH-embedFoot)
	}
	return w, h
}

func (f *chartFigure) draw() {
	w, h := f.size()
	theme := ui.PrefersTheme()
	key := f.IKind.String() + "?" + f.IQuery + "@" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + theme.String()
	if key == f.drawn {
		return
	}
	f.drawn, f.chart, f.err = key, nil, ""
	res, err := f.ICache.Run(f.IQuery, address.PageKeys()...)
	if err != nil {
		f.err = err.Error()
		return
	}
	opts := charts.Options{Width: w, Height: h, Theme: theme}
	if f.IKind.DrawsSweep() {
		// The landscape draws the query's sweep= (its metric=): a run per
		// point, each its own query's.
		addr := address.ParseAddress(f.IQuery)
		spec := addr.Get(address.KeySweep)
		if spec == "" {
			f.err = "The landscape draws a sweep: add sweep=<field>:<from>..<to>/<n> to the address, such as sweep=stall:0s..900ms/20."
			return
		}
		if opts.Sweep, err = f.ICache.Sweep(addr.Without(address.KeySweep).String(), spec, address.PageKeys()...); err != nil {
			f.err = err.Error()
			return
		}
		opts.Metric = addr.Get(address.KeyMetric)
	}
	ch, err := charts.Render(res, f.IKind, opts)
	if err != nil {
		f.err = err.Error()
		return
	}
	f.chart, f.src = ch, ui.SVGDataURL(ch.SVG)
}

// Render builds the figure from what draw cached.
func (f *chartFigure) Render() app.UI {
	fig := app.Figure().Class("figure").DataSet("chart", f.IKind.String()).DataSet("query", f.IQuery)
	if f.kept != "" {
		// The generator's: what the browser takes over (takeover.go).
		fig = fig.DataSet("prerender", f.kept)
	}
	if f.err != "" {
		return fig.Body(app.P().Class("error").Text(f.err))
	}
	if f.chart == nil {
		return fig.Body(app.P().Text("Drawing…"))
	}
	ch := f.chart
	img := app.Div().Class("chart-svg").Body(
		app.Img().Src(f.src).Alt(ch.Title + ". " + ch.Caption).Width(ch.Width).Height(ch.Height))
	link := app.A().Href(ui.VisualiserLink(f.IQuery))
	if f.ILink != "" {
		link = app.A().Href(ui.VisualiserLink(f.ILink))
	}
	var foot []app.UI
	if f.IBare {
		// The embed: its caption and data folded under the chart.
		foot = []app.UI{app.Div().Class("embed-foot").Body(
			app.Details().Class("embed-about").Body(
				app.Summary().Text("About this chart, and its data"),
				app.P().Text(ch.Caption),
				ui.ChartTable(ch.Table, ch.Title),
			),
			app.P().Class("embed-credit").Body(link.Target("_blank").Rel("noopener").Text("Omission: open in the visualiser")),
		)}
	} else {
		foot = []app.UI{app.FigCaption().Body(
			app.Span().Text(ch.Caption), app.Text(" "),
			link.Text("Open in the visualiser"), app.Text(" · "),
			app.A().Href(f.src).Attr("download", "omission-"+f.IKind.String()+".svg").Text("Download SVG")),
			ui.ChartTable(ch.Table, ch.Title)}
	}
	return fig.Body(append([]app.UI{img}, foot...)...)
}
