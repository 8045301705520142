//go:build linux

package experiment

import (
	"runtime"
	"syscall"
	"time"
)

// prSetTimerslack is prctl's PR_SET_TIMERSLACK (linux/prctl.h).
const prSetTimerslack = 29

// sleepPrecise sleeps d with nanosleep on a thread whose timer slack is
// 1 ns (the default 50 µs would add that much to every wake-up). The
// goroutine holds its thread for the sleep; the experiment raises
// GOMAXPROCS so that sleeping threads never leave the network poller
// without a processor.
func sleepPrecise(d time.Duration) {
	runtime.LockOSThread()
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerslack, 1, 0)
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		err := syscall.Nanosleep(&ts, &rem)
		if err != syscall.EINTR {
			break
		}
		ts = rem
	}
	runtime.UnlockOSThread()
}
