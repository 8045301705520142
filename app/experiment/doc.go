// Package experiment runs the model for real on loopback: an HTTP/1.1
// server that stalls on the query's schedule, and the closed, paced and
// open clients of the model, each against a fresh server, recorded with
// hdrhistogram-go and held against the model (issue 14); and real load
// generators (wrk, wrk2, hey, vegeta, fortio, locust, ab), each against a
// fresh server, beside what their profiles predict (issue 27, real.go). It
// is native only: it opens sockets, reads the clock and runs commands.
//
// It may import sim, app/measure (to record and write what it measured and
// to read the real tools' printouts), app/tools (the tools' profiles) and
// app/units (to write durations for people).
package experiment
