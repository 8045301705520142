package page

import (
	"fmt"
	"omission/app/address"
	"omission/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/units"
)

// chartsPanel shows the four charts of the result on the page. The page
// has them drawn where it runs its simulations (app/worker) and hands them
// over as they arrive; the panel measures the width its container gives
// them and says so, and its toggles ask the page for other axes. Render
// only lays out what came.
type chartsPanel struct {
	app.Compo

	ILinear  bool    // the latency axes are linear
	ICDF     bool    // the distribution is cumulative
	IRefused refusal // nothing runs for the page's query: no chart comes

	set      chartSet // observed: stateCharts, the charts as they arrive
	reported int      // the width last reported to the page
	srcs     []src    // the charts' image addresses, made once per chart
}

// stateCharts carries the charts of the result on show to the panel, so
// that a chart's arrival renders the panel alone.
const stateCharts = "omission/page/charts"

// src is a chart and the data: URL of its SVG.
type src struct {
	chart *charts.Chart
	url   string
}

// The panel's actions, handled by the page.
const (
	actionChartsWidth  = "omission/page/charts-width"  // Value: the width in px
	actionChartsToggle = "omission/page/charts-toggle" // Value: address.KeyAxis or address.KeyCDF
)

// OnMount runs on the UI goroutine: the panel follows the charts and
// reports its width.
func (c *chartsPanel) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "charts")
	c.observe(ctx)
	// Charts the page published before the panel was built (below.go)
	// came with the state, not as a change of it.
	c.sources()
	c.report(ctx)
}

func (c *chartsPanel) observe(ctx app.Context) {
	ctx.ObserveState(stateCharts, &c.set).OnChange(func() {
		defer ui.Recover(ctx, "charts")
		c.sources()
	})
}

// OnResize runs on the UI goroutine when the window's size changes.
func (c *chartsPanel) OnResize(ctx app.Context) {
	defer ui.Recover(ctx, "charts")
	c.report(ctx)
}

// OnPreRender is OnMount where go-app runs natively (the static site's
// charts are in its HTML).
func (c *chartsPanel) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "charts")
	c.observe(ctx)
}

// sources makes the charts' image addresses, once each, when charts come:
// never in Render.
func (c *chartsPanel) sources() {
	out := make([]src, 0, len(c.set.charts))
	for _, ch := range c.set.charts {
		s := src{chart: ch}
		for _, old := range c.srcs {
			if old.chart == ch {
				s.url = old.url
			}
		}
		if s.url == "" {
			s.url = ch.Src
		}
		if s.url == "" {
			s.url = ui.SVGDataURL(ch.SVG)
		}
		out = append(out, s)
	}
	c.srcs = out
}

func (c *chartsPanel) report(ctx app.Context) {
	if w := c.width(); w != c.reported {
		c.reported = w
		ctx.NewActionWithValue(actionChartsWidth, w)
	}
}

// width is the chart width the panel's container allows, in CSS px.
func (c *chartsPanel) width() int {
	w := 640
	if app.IsClient && c.JSValue() != nil {
		if cw := c.JSValue().Get("clientWidth"); cw.Truthy() {
			w = cw.Int()
		}
	}
	return chartsWidthFor(w)
}

// chartsWidthFor is the width of a chart in a container w px wide: two
// columns on a wide screen.
func chartsWidthFor(w int) int {
	if w >= 1000 {
		w = w/2 - 16
	}
	return min(max(w, charts.MinWidth), 900)
}

// Render lays out the charts that came.
func (c *chartsPanel) Render() app.UI {
	body := []app.UI{app.H2().Text("The distributions, side by side")}
	if c.set.err != "" {
		body = append(body, app.P().Class("error").Text(c.set.err))
	}
	switch {
	case len(c.srcs) == 0 && c.IRefused.On:
		body = append(body, app.P().Class("muted", "refused").Text(c.IRefused.sentence("no chart was drawn")))
	case len(c.srcs) == 0:
		body = append(body, app.P().Class("muted").Text("The charts appear with the first result."))
	}
	toggle := func(key, label string, pressed bool) app.UI {
		// The label names what the button does when pressed; aria-pressed
		// says whether it is.
		return app.Button().Type("button").Class("toggle-btn").DataSet("toggle", key).Aria("pressed", pressed).
			OnClick(ui.On("charts/"+key, func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionChartsToggle, key) })).
			Text(label)
	}
	body = append(body, app.Div().Class("chart-toggles").Aria("label", "Chart options").Attr("role", "group").Body(
		toggle(address.KeyAxis, "Linear latency axes", c.ILinear),
		toggle(address.KeyCDF, "Distribution as a CDF", c.ICDF),
	))
	grid := make([]app.UI, 0, len(c.srcs))
	for _, s := range c.srcs {
		grid = append(grid, c.renderChart(s))
	}
	body = append(body, app.Div().Class("chart-grid").Body(grid...))
	sec := app.Section().ID("charts").Class("charts").Aria("label", "Charts").DataSet("ms", units.Raw(c.set.ms)).DataSet("mem", c.set.mem)
	if c.set.done {
		sec = sec.DataSet("seq", c.set.seq)
	}
	return sec.Body(body...)
}

func (c *chartsPanel) renderChart(s src) app.UI {
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
			app.Img().Src(s.url).Alt(ch.Title + ". " + ch.Caption).Width(ch.Width).Height(ch.Height),
		}, marks...)...),
		app.FigCaption().Body(
			app.Span().Text(ch.Caption), app.Text(" "),
			app.A().Href(s.url).Attr("download", "omission-"+ch.Kind.String()+".svg").Text("Download SVG"),
		),
		ui.ChartTable(ch.Table, ch.Title),
	)
}
