// Package worker runs the visualiser's simulations and draws its charts away
// from the page's main thread. In the browser that is a Web Worker running
// the same app.wasm (web/worker.js starts it with the module the page has
// compiled, and main hands over to Serve); where no worker can start, and
// natively, a Local client runs the same code on the page's own thread, in
// slices.
//
// The page sends a Request (a run, or new charts of the last run) and hears
// back Responses: progress, the formatted result (view.View, with no
// *sim.Result across the worker boundary), then each chart as it is drawn.
// A newer request supersedes the one in progress: the newest input wins.
//
// It may import app/compute, app/view, app/charts, app/ui, app/measure (the
// downloads), app/tools (what the tools would print), app/wire (the
// workers' protocol), sim and sim/sweep.
package worker
