//go:build !linux

package experiment

import "time"

// sleepPrecise falls back to time.Sleep, whose wake-up can be a millisecond
// late; waitUntil spins the last spinMargin only, so on such systems the
// experiment's sends and holds are late by up to that much, and the output
// says what the service achieved.
func sleepPrecise(d time.Duration) { time.Sleep(d) }
