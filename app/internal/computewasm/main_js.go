//go:build js && wasm

package main

import (
	"os"
	"time"

	"omission/app/compute"
	"omission/app/worker"
)

// main serves the page's requests; it never returns. A run goes in slices
// of 50 ms, between which the newer requests that came are taken. Its
// argument is the query of the address the page was loaded with
// (web/page.js passes it): the worker runs it before the page asks.
func main() {
	worker.Serve(compute.Settings{Simulate: true, Slice: 50 * time.Millisecond}, os.Args[1:])
}
