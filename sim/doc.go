// Package sim simulates one server that stalls on a schedule, one request
// schedule, and the recordings that load generators make of it, on a virtual
// clock of whole nanoseconds. It reads no clock, starts no goroutine, and is
// deterministic: the same Config gives the same Result natively and in
// WebAssembly.
//
// It holds every rule of the model: the query and its canonical writing
// (query.go), the typed, validated Config, the fast path and the event
// engine (one stall model for both, server.go), the long path for
// deterministic runs of any length (long.go), the exact distributions and
// their closed-form checks (closedform.go), the animation's windows
// (window*.go) and the load generators' mechanics (profile.go).
//
// It may import the standard library and hdrhistogram-go only; every
// other package of the project reads the model through it.
package sim
