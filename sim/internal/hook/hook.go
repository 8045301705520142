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

// PointTakesLong is func(sim.Config) bool: whether RunPoint takes the long
// path for a run that Run would walk.
var PointTakesLong any

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
