// Package page is the visualiser: the controls, the headline, the results
// table, the charts panel, the panels beside the run (the tools, the
// comparison, the downloads, the reader's measurement files) and the
// checks list, as go-app components.
//
// The URL query is the page's only state. readQuery (querystate.go) turns
// an address into the controls' text, the run's sim.Config and the
// messages of the fields it could not take; the page writes the URL back
// as the controls change (page.go). It computes nothing itself: a run goes
// to a worker.Client (run.go), whose responses (progress, the formatted
// view.View, each chart, what goes beside the run) come back on the UI
// goroutine and are handed to the components as props or, for the parts
// that follow the result on their own (the animation, the charts panel),
// as go-app states.
//
// It may import app/worker, app/view, app/compute, app/charts, app/anim,
// app/ui, app/units, app/tools, app/measure, app/fitmsg and sim.
package page
