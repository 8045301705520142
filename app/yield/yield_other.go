//go:build !(js && wasm)

package yield

import "runtime"

// Yield lets other goroutines run: natively there is no event loop to
// yield to.
func Yield() { runtime.Gosched() }
