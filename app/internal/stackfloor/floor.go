package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// floor is the page's one component. It says it is ready once it is
// mounted in the browser: go-app's Handler prerenders it into the HTML, and
// a ready element already there would time the HTML, not the stack's start.
type floor struct {
	app.Compo
	live bool
}

func (f *floor) OnMount(ctx app.Context) {
	ctx.Dispatch(func(app.Context) { f.live = true })
}

func (f *floor) Render() app.UI {
	state := "prerendered"
	if f.live {
		state = "ready"
	}
	return app.Div().ID("floor").DataSet("state", state).Text("The floor: one go-app component.")
}
