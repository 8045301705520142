package article

import (
	"omission/app/compute"
	"omission/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// chartFigure is one chart bound to a query: an article figure or an embed.
// The parent sets IKind and IQuery; the figure runs the query and draws the
// chart when they change (OnMount, OnUpdate), never in Render.
type chartFigure struct {
	app.Compo

	IKind  charts.Kind
	IQuery string
	ICache *compute.Cache // where its runs are made and kept
	// IBare drops the caption's link and heading (the embed route).
	IBare bool

	drawn string // the kind and query the chart was drawn for
	chart *charts.Chart
	src   string // the chart as a data: URL
	err   string
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

func (f *chartFigure) draw() {
	key := f.IKind.String() + "?" + f.IQuery
	if key == f.drawn {
		return
	}
	f.drawn, f.chart, f.err = key, nil, ""
	res, err := f.ICache.Run(f.IQuery, ui.PageKeys()...)
	if err != nil {
		f.err = err.Error()
		return
	}
	ch, err := charts.Render(res, f.IKind, charts.Options{Theme: ui.PrefersTheme()})
	if err != nil {
		f.err = err.Error()
		return
	}
	f.chart, f.src = ch, ui.SVGDataURL(ch.SVG)
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
			app.A().Href(ui.VisualiserLink(f.IQuery)).Text("Open in the visualiser"), app.Text(" · "),
			app.A().Href(f.src).Attr("download", "omission-"+f.IKind.String()+".svg").Text("Download SVG"))
	}
	return fig.Body(
		app.Div().Class("chart-svg").Body(
			app.Img().Src(f.src).Alt(ch.Title+". "+ch.Caption).Width(ch.Width).Height(ch.Height)),
		app.FigCaption().Body(caption...),
		ui.ChartTable(ch.Table),
	)
}
