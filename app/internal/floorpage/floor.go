package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// floor is the page's one component.
type floor struct{ app.Compo }

func (f *floor) Render() app.UI {
	return app.Div().ID("floor").DataSet("state", "ready").Text("The floor: one go-app component.")
}
