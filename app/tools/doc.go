// Package tools plays real load generators' mechanics against the run on
// screen and prints what each would have printed. The mechanics are sim
// Profiles (sim/profile.go); this package holds each tool's settings, its
// summarising rule (nearest rank, HdrHistogram, wrk's microsecond array,
// t-digest, k6's trend, …) and its output layout, each re-implemented from
// the tool's own source and cited file and line. It builds for js/wasm: the
// page calls Run.
//
// It may import sim, and app/units to write durations for people (its
// notes).
package tools
