package article

import (
	"net/url"
	"omission/app/anim"
	"omission/app/compute"
	"omission/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// Embed is /embed?figure=…&…query: one figure and nothing else, sized to
// its frame, for an iframe in someone else's article.
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
}

func (e *Embed) load(ctx app.Context, raw string) {
	vals, err := url.ParseQuery(raw)
	e.err = ""
	if err != nil {
		e.err = "the address cannot be read: " + err.Error()
		return
	}
	name := vals.Get(ui.KeyFigure)
	if name == "" {
		name = "spectrum"
	}
	vals.Del(ui.KeyFigure)
	e.query, e.anim = vals.Encode(), name == "animation"
	if e.anim {
		// The animation follows the published result; its own keys (anim,
		// anim_t) stay in the query it reads from the URL.
		publishResult(ctx, e.ICache, e.query)
		return
	}
	k, ok := charts.ParseKind(name)
	if !ok {
		e.err = "figure: allowed spectrum, distribution, latency-time, queue-depth or animation"
		return
	}
	e.kind = k
}

// Render builds the figure alone.
func (e *Embed) Render() app.UI {
	if e.err != "" {
		return app.Main().Class("embed").Body(app.P().Class("error").Text(e.err))
	}
	var fig app.UI = &chartFigure{IKind: e.kind, IQuery: e.query, IBare: true, ICache: e.ICache}
	if e.anim {
		fig = &anim.Panel{}
	}
	return app.Main().Class("embed").Body(
		fig,
		app.P().Class("embed-credit").Body(
			app.A().Href(ui.VisualiserLink(e.query)).Target("_blank").Rel("noopener").Text("Omission: open in the visualiser"),
		),
	)
}
