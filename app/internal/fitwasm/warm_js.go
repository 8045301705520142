//go:build js && wasm

package main

import (
	_ "embed"
	"time"

	"omission/app/fit"
)

// warm.hgrm is the open loop's recording of a small query
// (rate=1000&stall=50ms&every=500ms&first=250ms&duration=2s: 2,000
// samples, four stalls), written by app export -format hgrm -recording
// open.
//
//go:embed warm.hgrm
var warmFile string

// warmUp fits warm.hgrm once and throws the fit away, while the worker has
// nothing else to do: the browser first compiles the module's code fast
// and plain, and compiles the code a fit runs most again, optimised, once
// it has run enough, so that the reader's first fit runs nearly at the
// speed of the next. It gives way to a request: every 10 ms of it, the
// worker lets the browser deliver the messages that came and stops when
// one did (idle false), before the model's next run.
// It returns how it ended, which the worker tells the page
// (data-fit-warm on the page's root, for the tests): "done", "gave way in
// its fit" or "gave way before its tools".
func warmUp(idle func() bool) string {
	rate, err := fit.ParseRate("1000")
	if err != nil {
		return "failed: " + err.Error()
	}
	last := time.Now()
	giveWay := func() bool {
		time.Sleep(time.Millisecond) // the browser delivers the messages
		last = time.Now()
		return !idle()
	}
	yield := func() bool { return time.Since(last) >= 10*time.Millisecond && giveWay() }
	r, err := fit.Fit("warm.hgrm", []byte(warmFile), fit.Options{Rate: rate, NoTools: true, Abort: yield})
	switch {
	case err == fit.ErrAborted:
		return "gave way in its fit"
	case err != nil:
		return "failed: " + err.Error()
	case giveWay():
		return "gave way before its tools"
	}
	if err := r.Tools(); err != nil { // what each tool would have printed
		return "failed: " + err.Error()
	}
	return "done"
}
