// Package fit runs the model backwards: from a measured file (a wrk, wrk2,
// hey, ab or fortio printout, an .hgrm, an .hlog or the project's
// per-sample CSV) it
// finds the deterministic query — service, stall, every, first, rate,
// duration and connections — whose recording, as the tool or recording
// that made the file would print it, reproduces the numbers the file holds;
// says how well (measured, fitted and their difference per number, and
// which parameters the file leaves free); and, from the fitted query, what
// the test never measured: the open loop's p99 on the same server, the
// requests never sent and what each other tool would have printed.
//
// The fit is a first estimate from the closed forms' shapes (the closed
// loop's K samples of L+S, the open loop's staircase L+S−j·(T−S), the
// correction's step E, the times of the slow samples), then a bounded
// coordinate search on exact runs that regenerates the file with the same
// writer or tool and compares. The same file gives the same fit.
//
// It may import app/measure, app/tools, app/units, app/fitmsg and sim.
package fit
