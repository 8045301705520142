package main

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/compute"
	"omission/app/routes"
	"omission/app/worker"
)

func main() {
	if worker.InWorker() {
		// The same app.wasm, started by the page in a Web Worker: it runs the
		// page's simulations and draws its charts (app/worker).
		worker.Serve(compute.Settings{Simulate: true, Slice: 50 * time.Millisecond})
		return
	}
	routes.Register()
	app.RunWhenOnBrowser() // returns at once outside the browser
	nativeMain()
}
