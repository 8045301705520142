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
// and their closed-form checks (closedform.go, checks.go). Sweeps, a run
// per point of one field moved over a range, are sim/sweep's; the load
// generators' mechanics, played against the server, sim/profile's; the
// animation's windows of a run, sim/window's.
//
// It may import the standard library, hdrhistogram-go, sim/internal/hook
// and sim/internal/stall (its stall model) only; every other package of
// the project reads the model through it. Its subpackages build on the
// model: what they need of its unexported code, sim lends them through
// sim/internal/hook (hooks.go) rather than export it.
//
// QUERY.md, beside this file, is the query language's reference: every
// field, the presets, the event engine's rules, the limits, what the report
// holds, the checks of an event-driven run and sweeps.
//
// # The recordings
//
// One schedule is played against its own copy of the server by each client:
//
//   - closed waits for each reply before it sends the next request, over
//     conns connections, and records reply − send;
//   - paced sleeps to its next slot and, when late, sends at once and goes
//     on with the schedule from there (the slots it missed are never sent),
//     and records reply − send;
//   - open sends every request when it is due, as wrk2 does, and records
//     reply − due;
//   - corrected is the closed samples again with HdrHistogram's
//     expected-interval correction: a sample v above E adds v − E, v − 2E, …
//     while they are at least E (E is interval, or conns/rate);
//   - paced_corrected is the paced samples corrected with E = 1/rate.
//
// # Exact numbers
//
// On the deterministic model every percentile is an exact sample value at
// any length: a run's samples are kept one by one up to ExactSamples
// (2000000) a client, and beyond as counted runs (value, step, count) by the
// long path; the corrected set is counted as arithmetic sequences, never
// written out when it can be counted. The event engine's recordings go into
// hdrhistogram-go histograms of 3 significant digits beyond 2000000 arrivals
// a client, and the report says so. Every number comes with a check: a
// closed form derived from the parameters alone where one holds
// (closedform.go shares no code with the simulation loops), and otherwise
// the invariants every run obeys.
//
// # Where to add things
//
// A query field is one row of fieldTable (fields.go): its name, a typed
// value that parses and writes it, its doc line, and a check method for its
// rules with other fields; then its behaviour in the model, and its row in
// QUERY.md, which TestQueryDocFields holds to the table. Fields, Values,
// Query, CanonicalField, ParseQuery, the reset to a preset and Validate's
// per-field checks loop over the table. The page's controls are keyed by
// field name and take their choices from FieldTable; their labels and hints
// are app/page's fieldWords (a field without words there gets its name and
// doc line).
//
// # Where things moved
//
// sim held the sweep (sweep.go), the tools' mechanics (profile*.go) and
// the animation's windows (window*.go) until issue 38: they are sim/sweep
// (sweep.Parse, Sweep.Run), sim/profile (profile.Profile, profile.Run,
// profile.CorrectDist) and sim/window (window.NewSummaryBuilder,
// window.TraceIndexOf, window.Animatable, …; what were methods of
// *Result are its functions) now. What of them needs sim's unexported
// parts stays here, lent through sim/internal/hook (hooks.go): a sweep
// point's long-path choice (runPoint), the server a profile's requests
// meet (profileServer), the re-recording of a Dist under wrk's correction
// (dist.go's correctDist), a long run's windows simulated again
// (long_resim.go) and an event-driven run's paced plans
// (engine_trace.go). The stall series and the stall model over it
// (server.go's, and long.go's zoneEnd), which sim/window reads too, are
// sim/internal/stall's.
package sim
