package main

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

func init() {
	// The embed route's own key, beside the simulator's query.
	pageKeys = append(pageKeys, "figure")
}

// embedPage is /embed?figure=…&…query: one figure and nothing else, sized to
// its frame, for an iframe in someone else's article.
type embedPage struct {
	app.Compo

	kind  charts.Kind
	anim  bool // the figure is the animation
	query string
	err   string
}

// OnNav runs on the UI goroutine when the embed is opened: the URL says
// which figure and which parameters.
func (e *embedPage) OnNav(ctx app.Context) {
	defer recoverFault(ctx, "embed")
	e.load(ctx, ctx.Page().URL().RawQuery)
}

func (e *embedPage) load(ctx app.Context, raw string) {
	vals, err := url.ParseQuery(raw)
	e.err = ""
	if err != nil {
		e.err = "the address cannot be read: " + err.Error()
		return
	}
	name := vals.Get("figure")
	if name == "" {
		name = "spectrum"
	}
	vals.Del("figure")
	e.query, e.anim = vals.Encode(), name == "animation"
	if e.anim {
		// The animation follows the published result; its own keys (anim,
		// anim_t) stay in the query it reads from the URL.
		publishResult(ctx, e.query)
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
func (e *embedPage) Render() app.UI {
	if e.err != "" {
		return app.Main().Class("embed").Body(app.P().Class("error").Text(e.err))
	}
	var fig app.UI = &chartFigure{IKind: e.kind, IQuery: e.query, IBare: true}
	if e.anim {
		fig = &animPanel{}
	}
	return app.Main().Class("embed").Body(
		fig,
		app.P().Class("embed-credit").Body(
			app.A().Href(visualiserLink(e.query)).Target("_blank").Rel("noopener").Text("Omission: open in the visualiser"),
		),
	)
}
