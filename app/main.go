package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/routes"
)

// main is the site natively (serve, static, report: nativeMain) and, as
// app.wasm, the page's own program in the browser; the simulations run in
// compute.wasm (app/internal/computewasm).
func main() {
	routes.Register()
	app.RunWhenOnBrowser() // returns at once outside the browser
	nativeMain()
}
