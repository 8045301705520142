// Package experiment runs the model for real on loopback: an HTTP/1.1
// server that stalls on the query's schedule, and the closed, paced and
// open clients of the model, each against a fresh server, recorded with
// hdrhistogram-go and held against the model (issue 14). It is native only:
// it opens sockets and reads the clock.
//
// It may import sim, app/measure (to record and write what it measured) and
// app/units (to write durations for people).
package experiment
