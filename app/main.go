package main

import (
	"os"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/compute"
	"omission/app/routes"
	"omission/app/worker"
)

// main is the site natively (serve, static, report: nativeMain) and, as
// app.wasm, the page's own program in the browser. The page's simulation
// worker runs the same module, which the page compiled once (web/page.js
// starts it with the argument "worker"): it serves the page's requests
// (app/worker).
func main() {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		worker.Serve(compute.Settings{Simulate: true, Slice: 50 * time.Millisecond})
		return
	}
	routes.Register()
	app.RunWhenOnBrowser() // returns at once outside the browser
	nativeMain()
}
