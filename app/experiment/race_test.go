//go:build race

package experiment

// raceEnabled: the race detector slows every goroutine several times, so
// the real-time experiment does not run under it (make test runs it alone,
// without -race: test-experiment).
const raceEnabled = true
