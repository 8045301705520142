// Package tools holds each real load generator whole, as one descriptor
// (Tool) in a file of its own: what it does in words and as a rule, the
// command it stands for, its mechanics (a sim Profile, sim/profile.go), its
// summarising rule (nearest rank, HdrHistogram, wrk's microsecond array,
// t-digest, k6's trend, …) and its output layout, each re-implemented from
// the tool's own source and cited file and line; what the fit needs of its
// files (its timing class, read from its profile; the formats it writes;
// its print unit); and how the experiment runs it for real (Real). Other
// packages ask the descriptor (Lookup, Writing) and compare no tool names.
// It builds for js/wasm: the page calls Run.
//
// Adding a tool is one file here: its Tool and, when the experiment runs
// it, its Real; its line in the registry (tools.go) and in runs
// (real_run.go); its mechanics in sim's profile when they are new.
//
// It may import sim, app/measure (the formats its files are read as) and
// app/units to write durations for people (its notes).
package tools
