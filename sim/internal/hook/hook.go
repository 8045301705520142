package hook

// SetField is func(c *sim.Config, name, text string) *sim.FieldError: the
// field's row of sim's table reads text into c (the row's own read, as
// ParseQuery reads the field), or returns its error. name is a field of
// the table.
var SetField any

// RunPoint is func(sim.Config) (*sim.Result, error): sim.Run, except that a
// deterministic run that Run would walk request by request takes the long
// path when its stretches cost less (the same report and hash).
var RunPoint any

// Server is func(cfg sim.Config) func(t int64) (done int64): cfg's server
// (its stall model, its service, a draw of the "service" stream a request
// when the service is random, as the event engine draws, and its workers)
// as one load generator's requests meet it, for sim/profile's runner. Each
// call hands it a request sent at t, never earlier than the last, and
// returns the instant its reply is written.
var Server any

// Dues is func(rate sim.Rate) func() int64: rate's schedule, due(0),
// due(1), … one a call, with additions only (sim.Schedule.Due's values).
var Dues any

// ExactDist is func(samples []int64) *sim.Dist: the exact distribution of
// the samples, which it keeps and sorts.
var ExactDist any

// RadixSort sorts int64s in increasing order (sim's dist.go radixSort).
var RadixSort func(a []int64)

// CorrectDist is func(d *sim.Dist, e int64, wrk bool) (*sim.Dist, error):
// d re-recorded with expected interval e under HdrHistogram's rule, or
// with wrk, under wrk 4.x's stats_correct (sim/profile's CorrectDist).
var CorrectDist any

// LongRun is a long deterministic run of sim, which keeps no per-request
// data but simulates any window of it again (sim's long_resim.go); c is a
// sim.Client.
type LongRun interface {
	// Window returns requests lo … hi−1 of client c simulated again (and
	// for the paced client the send after them): their sends (nil for the
	// open loop) and replies, and the anchor and slot number of the paced
	// client's send lo.
	Window(c int, lo, hi int64) (send, done []int64, anchor, slot int64)
	// FirstDoneAfter returns the first request of client c, in send
	// order, sent at or after t or answered after it.
	FirstDoneAfter(c int, t int64) int64
	// PacedFirst returns the first send of the paced client for which f
	// holds (f never turns false again along the sends), or its count.
	PacedFirst(f func(send, done int64) bool) int64
	// DelayedUntil returns the last reply of client c, from the first
	// request answered after s, while requests wait longer than their
	// service, over at most most requests.
	DelayedUntil(c int, s, most int64) int64
}

// Long returns r's long run, or nil when r (a *sim.Result) is none.
var Long func(r any) LongRun

// PacedPlans returns the paced client's plan after each of its sends in r
// (a *sim.Result of an event-driven run) and, for constant arrivals, the
// anchor of its slots, rebuilt once with the engine's rule; ok is false
// without per-request data.
var PacedPlans func(r any) (plan, anchor []int64, ok bool)

// SeqAtOrBelow counts j in [1, k] with v − j·e ≤ x: the corrected samples
// of a reply of latency v at or below x (sim's dist.go).
var SeqAtOrBelow func(v, e, k, x int64) int64

// CorrectedAbove counts v and its corrected sequence strictly above a
// (sim's dist.go).
var CorrectedAbove func(v, e, a int64) int64

// For the tests (sim's hooks_tests.go sets them, but for app.wasm):
// sim/sweep's hold the sweep to the long path's choice, and
// sim/internal/simtest runs each way, and draws sim's streams, for
// sim/window's tests and sim's external ones.

// PointTakesLong is func(sim.Config) bool: whether RunPoint takes the long
// path for a run that Run would walk.
var PointTakesLong any

// RunOn is func(cfg sim.Config, path string) (*sim.Result, error): cfg run
// on one path whatever path sim.Run would take: "engine" (the event
// engine), "long" (the long path, cfg deterministic) or "walk" (the
// request-by-request walk, cfg deterministic).
var RunOn any

// Stream is sim's random stream of a purpose, one output a call.
var Stream func(seed uint64, purpose string) func() uint64
