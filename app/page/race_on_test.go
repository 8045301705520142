//go:build race

package page

// raceEnabled: the race detector slows code about tenfold; the tests that
// only compute (the fit, the simulator and the charts, in one goroutine)
// leave it to make test-native's run without it.
const raceEnabled = true
