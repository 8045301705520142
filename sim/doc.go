// Package sim simulates one server that stalls on a schedule, one request
// schedule, and the recordings that load generators make of it, on a virtual
// clock of whole nanoseconds. It reads no clock, starts no goroutine, and is
// deterministic: the same Config gives the same Result natively and in
// WebAssembly.
//
// It holds every rule of the model: the query and its canonical writing
// (query.go, a row per field in fields.go), the typed, validated Config (config.go, engine_config.go), a
// run (run.go) and what it gives (result.go, report.go, hash.go, limits.go,
// notmodelled.go), the fast path's request-by-request walk (walk.go) and the
// event engine (engine*.go), one stall model for both (server.go, stalls.go),
// the long path for deterministic runs of any length (long.go), the exact
// distributions (dist.go, runs.go, in the 128-bit arithmetic of arith.go)
// and their closed-form checks (closedform.go, checks.go), the animation's
// windows (window*.go) and the load generators' mechanics (profile*.go).
//
// It may import the standard library and hdrhistogram-go only; every
// other package of the project reads the model through it.
package sim
