//go:build race

package browser

// raceEnabled: the race detector slows code about tenfold, so the tests of
// the largest runs leave it to the run without it (make test-large).
const raceEnabled = true
