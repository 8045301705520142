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
// app/address, app/ui, app/units, app/tools, app/measure, app/fitmsg,
// app/jsonread, app/yield, sim and sim/sweep.
//
// # The URL
//
// The address is the page's only state, both ways: editing a control
// rewrites the URL (replacing the history entry while a slider moves or the
// arrow keys step a number box), and loading any URL gives exactly the view
// the edits gave (a browser test edits, reloads and compares every number).
// Every number box steps with the up and down arrows (Page Up and Page Down
// for three steps) along the same round numbers as the article's adjustable
// numbers; a seed steps by one. A query is read by the one rule of
// sim/QUERY.md ("How a query is read"), and the headline always describes
// exactly the run whose numbers are shown.
//
// # The page's budget
//
// Beyond the simulator's own limits (sim/QUERY.md), the page refuses a run
// whose estimated cost (sim.Config.Estimate: requests, path, stalls met,
// memory) passes 4·10⁹ ns of native work (about 12 s of WebAssembly) or
// 512 MiB of result, with the largest run that would fit at those settings
// and the command that runs it natively. A run that takes longer than a
// slice shows a progress bar with the share done and Cancel; the simulation
// and the charts run in a Web Worker, so the page answers input meanwhile
// (the newest input wins), and the event engine stops a run after 20 s of
// real time with a message. Every chart, the animation and the checks do
// work bounded by their pixels and the samples kept, not by virtual time or
// the number of stalls.
package page
