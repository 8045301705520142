//go:build js && wasm

package main

import (
	"time"

	"omission/app/compute"
	"omission/app/worker"
)

// main serves the page's requests; it never returns. A run goes in slices
// of 50 ms, between which the newer requests that came are taken.
func main() {
	worker.Serve(compute.Settings{Simulate: true, Slice: 50 * time.Millisecond})
}
