//go:build js && wasm

package main

import (
	"time"

	"omission/app/compute"
	"omission/app/worker"
)

// main serves the page's requests; it never returns. A run goes in slices
// of 50 ms, between which the newer requests that came are taken. The
// query of the address the page was loaded with comes with the worker's
// start (web/page.js; app/wire's Warm): the worker runs it before the page
// asks.
func main() {
	worker.Serve(compute.Settings{Simulate: true, Slice: 50 * time.Millisecond})
}
