package page

import (
	"fmt"
	"omission/app/ui"
	"omission/app/view"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/units"
)

// chartsPanel shows the four charts of the result on the page. It follows
// ui.StateResult (published once the table is painted) and draws the charts
// then, at the width of its container; Render only reads what was drawn.
type chartsPanel struct {
	app.Compo

	view view.View // observed: ui.StateResult

	drawnSeq   int64
	drawnWidth int
	drawing    int  // the latest draw; an older one in progress stops
	linear     bool // the spectrum and latency axes are linear
	cdf        bool // the distribution is cumulative
	shown      []chartShown
	drawMs     float64 // how long the last drawing of the four charts took
	err        string
}

// chartShown is one drawn chart and its image address.
type chartShown struct {
	chart *charts.Chart
	src   string
}

// OnMount runs on the UI goroutine: follow the result.
func (c *chartsPanel) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "charts")
	ctx.ObserveState(ui.StateResult, &c.view).OnChange(func() {
		defer ui.Recover(ctx, "charts")
		c.draw(ctx, false)
	})
	c.draw(ctx, false)
}

// OnResize runs on the UI goroutine when the window's size changes.
func (c *chartsPanel) OnResize(ctx app.Context) {
	defer ui.Recover(ctx, "charts")
	c.draw(ctx, false)
}

// width is the chart width the panel's container allows, in CSS px.
func (c *chartsPanel) width() int {
	w := 640
	if app.IsClient && c.JSValue() != nil {
		if cw := c.JSValue().Get("clientWidth"); cw.Truthy() {
			w = cw.Int()
		}
	}
	// Two columns on a wide screen.
	if w >= 1000 {
		w = w/2 - 16
	}
	return min(max(w, charts.MinWidth), 900)
}

// draw renders the charts when the result, the width or a toggle changed:
// one chart a task, yielding to the browser between them, so that the four
// never hold the page at once. A newer draw supersedes one in progress;
// data-seq names the result once all four are drawn.
func (c *chartsPanel) draw(ctx app.Context, force bool) {
	res := c.view.Result
	if res == nil {
		if c.view.Seq != c.drawnSeq || len(c.shown) > 0 {
			// A refused query: no chart is for it.
			c.drawing++
			c.shown, c.drawnSeq, c.err = nil, c.view.Seq, ""
		}
		return
	}
	w := c.width()
	if !force && c.view.Seq == c.drawnSeq && w == c.drawnWidth {
		return
	}
	c.drawing++
	gen, seq := c.drawing, c.view.Seq
	y := charts.YAuto
	if c.linear {
		y = charts.YLinear
	}
	kinds := charts.Kinds()
	next := make([]chartShown, 0, len(kinds))
	errs := ""
	t0 := time.Now()
	var step func(ctx app.Context, i int)
	step = func(ctx app.Context, i int) {
		defer ui.Recover(ctx, "charts")
		if gen != c.drawing {
			ctx.PreventUpdate()
			return // superseded
		}
		k := kinds[i]
		o := charts.Options{Width: w, Theme: ui.PrefersTheme(), Y: y, CDF: c.cdf}
		if k == charts.Distribution && !c.cdf {
			o.Y = charts.YAuto
		}
		if ch, err := charts.Render(res, k, o); err != nil {
			errs = err.Error()
		} else {
			next = append(next, chartShown{ch, ui.SVGDataURL(ch.SVG)})
		}
		if i+1 < len(kinds) {
			ctx.PreventUpdate()
			ui.NextTask(ctx, func(ctx app.Context) { step(ctx, i+1) })
			return
		}
		c.shown, c.err = next, errs
		c.drawnSeq, c.drawnWidth = seq, w
		c.drawMs = float64(time.Since(t0).Microseconds()) / 1000
	}
	step(ctx, 0)
}

func (c *chartsPanel) toggle(ctx app.Context, flag *bool) {
	*flag = !*flag
	c.draw(ctx, true)
}

// Render lays out what draw made.
func (c *chartsPanel) Render() app.UI {
	body := []app.UI{app.H2().Text("The distributions, side by side")}
	if c.err != "" {
		body = append(body, app.P().Class("error").Text(c.err))
	}
	if len(c.shown) == 0 {
		body = append(body, app.P().Class("muted").Text("The charts appear with the first result."))
	}
	body = append(body, app.Div().Class("chart-toggles").Body(
		app.Button().Type("button").Aria("pressed", c.linear).
			OnClick(ui.On("charts/linear", func(ctx app.Context, e app.Event) { c.toggle(ctx, &c.linear) })).
			Text(map[bool]string{false: "Linear latency axis", true: "Log latency axis"}[c.linear]),
		app.Button().Type("button").Aria("pressed", c.cdf).
			OnClick(ui.On("charts/cdf", func(ctx app.Context, e app.Event) { c.toggle(ctx, &c.cdf) })).
			Text(map[bool]string{false: "Distribution as a CDF", true: "Distribution as a histogram"}[c.cdf]),
	))
	grid := make([]app.UI, 0, len(c.shown))
	for _, s := range c.shown {
		grid = append(grid, c.renderChart(s))
	}
	body = append(body, app.Div().Class("chart-grid").Body(grid...))
	return app.Section().Class("charts").Aria("label", "Charts").DataSet("seq", c.drawnSeq).DataSet("ms", units.Raw(c.drawMs)).Body(body...)
}

func (c *chartsPanel) renderChart(s chartShown) app.UI {
	ch := s.chart
	// The spectrum's percentile markers link to the checks of the same
	// numbers, over the image at the markers' places.
	marks := make([]app.UI, 0, len(ch.Markers))
	for _, m := range ch.Markers {
		id := m.Recording.String() + "." + m.Percentile
		href, title := "#check-"+m.Check, id+" = "+units.ExactNs(float64(m.Value))+": its proof"
		if !m.HasCheck {
			href, title = "#proof-none", id+" = "+units.ExactNs(float64(m.Value))+": simulation only"
		}
		marks = append(marks, app.A().Class("marker").Href(href).Title("%s", title).
			Aria("label", title).
			// Placed by web/page.js through the CSSOM: the page allows no
			// inline style attribute.
			DataSet("left", fmt.Sprintf("%.3f", 100*m.X/float64(ch.Width))).
			DataSet("top", fmt.Sprintf("%.3f", 100*m.Y/float64(ch.Height))).
			OnClick(ui.On("charts/marker", func(ctx app.Context, e app.Event) {
				e.PreventDefault()
				e.StopImmediatePropagation()
				ctx.SetState(ui.StateProof, id)
			})))
	}
	return app.Figure().Class("figure").DataSet("chart", ch.Kind.String()).Body(
		app.H3().Text(ch.Title),
		app.Div().Class("chart-svg").Body(append([]app.UI{
			app.Img().Src(s.src).Alt(ch.Title + ". " + ch.Caption).Width(ch.Width).Height(ch.Height),
		}, marks...)...),
		app.FigCaption().Body(
			app.Span().Text(ch.Caption), app.Text(" "),
			app.A().Href(s.src).Attr("download", "omission-"+ch.Kind.String()+".svg").Text("Download SVG"),
		),
		ui.ChartTable(ch.Table),
	)
}
