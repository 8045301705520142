package experiment

import "time"

// spinMargin is how long before a deadline waitUntil stops sleeping and
// spins: the kernel wakes a sleeping thread 20-40 µs late on this kind of
// machine (measured: nanosleep with a timer slack of 1 ns), and Go's own
// timers (time.Sleep) a whole millisecond late, since the runtime waits for
// them in epoll with millisecond timeouts.
const spinMargin = 80 * time.Microsecond

// waitUntil returns at the deadline, as close to it as the machine allows:
// a precise sleep (sleepPrecise) to spinMargin before it, then a spin on
// the monotonic clock.
func waitUntil(deadline time.Time) {
	for {
		d := time.Until(deadline)
		if d <= 0 {
			return
		}
		if d > spinMargin {
			sleepPrecise(d - spinMargin)
			continue
		}
		for time.Now().Before(deadline) {
		}
		return
	}
}
