// Package yield lets a long computation make room for the browser between
// its pieces: the page's thread (app/ui's NextTask) and the simulation
// worker's (app/worker, between a run's slices) both yield through it.
//
// It may import no package of the project, and links no go-app, so that
// a worker program of its own would not.
package yield
