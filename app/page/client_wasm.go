//go:build wasm

package page

import (
	"omission/app/compute"
	"omission/app/worker"
)

// nativeClient is never called in the browser (startClient takes the
// simulation worker there): app.wasm links no simulator.
func nativeClient(compute.Settings, func(worker.Response)) worker.Client { return nil }
