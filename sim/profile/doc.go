// Package profile holds the load generators' mechanics: a Profile says how
// many requests a tool holds in flight, when it sends, what it subtracts,
// what it keeps and what it does after a failure, and Run plays it against
// a query's server, the same stall model, service and workers as sim's
// closed, paced and open clients, keeping every request exactly. What a
// tool then does with its samples is its own rule: CorrectDist re-records
// them under HdrHistogram's or wrk's correction, WrkStatsCorrect is wrk's
// stats_correct on its array. The tools these mechanics come from, with
// the source lines they follow, are app/tools's.
//
// It was sim's profile*.go. It may import sim and sim/internal/hook,
// through which sim lends it the server a request meets, the schedule's
// due instants, the exact distribution of samples and its correction,
// which sim does not export.
package profile
