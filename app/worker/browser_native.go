//go:build !wasm

package worker

import "omission/app/compute"

// Serve has no worker to serve natively.
func Serve(compute.Settings) {}

// NewBrowser has no Web Worker to start natively.
func NewBrowser(deliver func(Response), failed func(error)) (Client, error) {
	return nil, errNoWorker
}

var errNoWorker = errorString("no Web Worker outside the browser")

type errorString string

func (e errorString) Error() string { return string(e) }

// Save has no browser to hand a file to natively: the file's Data is the
// caller's.
func Save(*ExportFile) {}
