package article

import (
	"strings"

	"omission/app/anim"
	"omission/app/compute"
	"omission/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// Embed is /embed?figure=…&…query: one figure and nothing else, sized to
// its frame, for an iframe in someone else's article. It has a title and a
// heading of its own (the heading visually hidden), and web/page.js tells
// the framing page its height.
type Embed struct {
	app.Compo

	ICache *compute.Cache // where its runs are made and kept (set by the route)

	kind  charts.Kind
	anim  bool // the figure is the animation
	query string
	err   string
}

// OnNav runs on the UI goroutine when the embed is opened: the URL says
// which figure and which parameters.
func (e *Embed) OnNav(ctx app.Context) {
	defer ui.Recover(ctx, "embed")
	ui.OwnURL(ctx)
	e.load(ctx, ctx.Page().URL().RawQuery)
	ctx.Page().SetTitle("%s · Omission", e.title())
}

func (e *Embed) load(ctx app.Context, raw string) {
	if e.read(raw); e.anim && e.err == "" {
		// The animation follows the published result; its own keys (anim,
		// anim_t) stay in the query it reads from the URL.
		publishResult(ctx, e.ICache, e.query)
	}
}

// read sets the embed's figure and query from its address.
func (e *Embed) read(raw string) {
	addr := ui.ParseAddress(raw)
	e.err = ""
	if err := addr.Err(); err != nil {
		e.err = "the address cannot be read: " + err.Error()
		return
	}
	name := addr.Get(ui.KeyFigure)
	if name == "" {
		name = charts.Spectrum.String()
	}
	e.query, e.anim = addr.Without(ui.KeyFigure).String(), name == animationFigure
	if e.anim {
		return
	}
	k, ok := charts.ParseKind(name)
	if !ok {
		e.err = figureError()
		return
	}
	e.kind = k
}

// animationFigure is the one figure that is not a chart.
const animationFigure = "animation"

// figures are the embed's allowed figure= values: every chart, in page
// order, then the animation.
func figures() []string {
	var out []string
	for _, k := range charts.Kinds() {
		out = append(out, k.String())
	}
	return append(out, animationFigure)
}

// figureError is the embed's message for a figure it does not know:
// "figure: allowed spectrum, distribution, latency-time, queue-depth or animation".
func figureError() string {
	fs := figures()
	return "figure: allowed " + strings.Join(fs[:len(fs)-1], ", ") + " or " + fs[len(fs)-1]
}

// title names the embed's figure.
func (e *Embed) title() string {
	switch {
	case e.err != "":
		return "Embedded figure"
	case e.anim:
		return "Watch a stall: the queues of three load generators"
	}
	return e.kind.Title()
}

// Render builds the figure alone. data-live tells the prerendered page
// from the one the browser renders (web/page.js reports it with the height).
func (e *Embed) Render() app.UI {
	cls := "embed"
	var fig app.UI
	switch {
	case e.err != "":
		fig = app.P().Class("error").Text(e.err)
	case e.anim:
		cls = "embed embed-anim"
		fig = app.Div().Body(&anim.Panel{ICompact: true}, app.P().Class("embed-credit").Body(
			app.A().Href(ui.VisualiserLink(e.query)).Target("_blank").Rel("noopener").Text("Omission: open in the visualiser")))
	default:
		fig = &chartFigure{IKind: e.kind, IQuery: e.query, IBare: true, ICache: e.ICache}
	}
	return app.Main().Class(cls).DataSet("live", app.IsClient).Body(
		app.H1().Class("visually-hidden").Text("Omission: "+e.title()), fig)
}
