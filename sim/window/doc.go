// Package window holds the animation's windows of a run: one stall's
// window (for an event-driven run without a stall, an outage's or the
// worst reply's) summarised once (Summary, built in slices by a
// SummaryBuilder), so that any instant of it can be drawn in time
// independent of how many requests it holds; the requests of a window read
// one at a time (TraceIndex) or listed (TraceWindow, EngineTraceWindow,
// AttemptsWindow); the windows of a run with retries drawn by calls
// (NewRetryWindow); and why a window cannot be drawn (Refusal).
// app/anim draws them.
//
// It was sim's window*.go; what were methods of *sim.Result (Animatable,
// AnimWindows, StallWindow, TraceIndexOf, TraceWindow, EngineMoments,
// EngineTraceWindow, AttemptsWindow) are its functions of the result. A
// long run keeps no per-request data, and its windows are simulated again
// by sim's long path (sim's long_resim.go); an event-driven run's paced
// plans are rebuilt by sim with the engine's rule (engine_trace.go).
//
// It may import sim, sim/internal/stall (the stall model, which sim's
// server serves through) and sim/internal/hook, through which sim lends it
// those re-simulations, the paced plans and the correction's counts,
// which sim does not export.
package window
