//go:build !wasm

package page

import (
	"omission/app/compute"
	"omission/app/worker"
	"omission/app/yield"
)

// nativeClient runs the page's requests in this program, at once: the
// static generator prerenders each page with its numbers, and the tests
// read them.
func nativeClient(s compute.Settings, deliver func(worker.Response)) worker.Client {
	return worker.NewLocal(s, true, deliver, yield.Yield)
}
