// Package anim is the animation of the request queues through each stall:
// one stage per client, the requests sent, waiting and served as the
// simulated clock runs through a stall window, with counters that add up
// to the run's numbers.
//
// Panel follows ui.StateResult like the results table. A result that comes
// from the Web Worker carries no per-request times, so the panel runs the
// query again on the page's thread in slices, keeping them
// (sim.Runner.TraceResult, an event-driven run's too), once it is on screen
// or the URL names a stall; window.Summarise gives each stall's window. An
// event-driven run's windows are drawn where its requests are answered in
// the order they were sent; the panel says why the others are not, beside
// the controls that move to the next window. frame.go lays out the stages
// and their frames, player.go keeps the clock, and bridge.go hands each
// frame to web/anim.js, which draws it on a canvas and shows the readouts
// the frame carries (durations written in Go by app/units; web/anim.js
// writes only counts, as units.Count does). Its stall and instant
// live in the URL (address.KeyAnim, address.KeyAnimT): the panel posts
// ui.ActionKeys and the page writes them.
//
// It may import app/address, app/ui, app/view, app/units, app/charts (the
// palette), sim and sim/window (the windows it draws).
package anim
