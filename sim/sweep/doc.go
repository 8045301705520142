// Package sweep runs one query per point of one field moved over a range:
// sweep=<field>:<from>..<to>/<form> (sim's QUERY.md, "Sweeps"). Parse reads
// the text, Sweep.Points writes each point through the field's own row of
// sim's table (each a sim.Config with its own canonical query, refused
// alone when Validate or a caller's Budget refuses it), and Sweep.Run, or
// Point.Run one at a time, runs them.
//
// A deterministic point that sim.Run would walk request by request runs on
// the long path when its stalls cost less, with the same report and hash
// (TestSweepTruth holds every point to its own query's report), so a
// 50-point sweep of the bench preset over the stall length takes some 35 ms
// natively (make bench: sim.sweep.bench_stall50).
//
// It was sim's sweep.go. It may import sim and sim/internal/hook, through
// which sim lends it the field table's reading of a field and the long
// path's choice, which sim does not export.
package sweep
