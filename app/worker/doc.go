// Package worker runs the visualiser's simulations and draws its charts away
// from the page's main thread. In the browser that is the page's own
// app.wasm, run with the argument "worker" (its main hands over to Serve),
// which web/page.js starts in a Web Worker with the module the page
// compiled, or, where the browser has none, on the page's thread behind a
// stand-in; the page talks to it through a Browser client. Natively
// (prerendering, tests) a Local client runs the same code at once.
//
// The page sends a Request (a run, or new charts of the last run) and hears
// back Responses: progress, the formatted result (view.View, with no
// *sim.Result across the worker boundary), then each chart as it is drawn.
// A newer request supersedes the one in progress: the newest input wins.
//
// It may import app/compute, app/view, app/charts, app/address (the page's
// keys), app/jsonread (the page's reading of the answers, decode.go),
// app/measure (the downloads), app/tools (what the tools would print),
// app/wire (the workers' protocol), app/yield, sim and sim/sweep;
// not go-app, so that a program of its own (issue 42's split) would link
// none.
package worker
