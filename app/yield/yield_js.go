//go:build js && wasm

package yield

import (
	"sync"
	"syscall/js"
)

var (
	yieldOnce sync.Once
	yieldPort js.Value
	yieldDone = make(chan struct{}, 64) // one token a waiting goroutine
)

// Yield lets the browser's event loop run a task (input and paint on the
// page's thread, the page's messages in a worker) and returns when it is
// this goroutine's turn again. A MessageChannel message is
// a task without setTimeout's 4 ms clamp.
func Yield() {
	yieldOnce.Do(func() {
		ch := js.Global().Get("MessageChannel").New()
		ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case yieldDone <- struct{}{}:
			default:
			}
			return nil
		}))
		yieldPort = ch.Get("port2")
	})
	yieldPort.Call("postMessage", nil)
	<-yieldDone
}
