//go:build js && wasm

package wire

import "syscall/js"

// Listen hands take every request the page posts to this worker, as a
// string: first those that waited in the script's Pending queue, then each
// as it comes (on the JavaScript turn that delivers it: take must not
// block); then it posts Ready. Messages that are not strings are not
// requests and are dropped.
func Listen(take func(msg string)) {
	self := js.Global()
	give := func(v js.Value) {
		if v.Type() == js.TypeString {
			take(v.String())
		}
	}
	if p := self.Get(Pending); p.Truthy() {
		for i := 0; i < p.Length(); i++ {
			give(p.Index(i))
		}
	}
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			give(args[0].Get("data"))
		}
		return nil
	}))
	Post(Ready)
}

// Post sends the page one message: a JSON string.
func Post(msg string) { js.Global().Call("postMessage", msg) }
