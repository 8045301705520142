//go:build js && wasm

package main

import "syscall/js"

// main serves the page's requests, one at a time, in the order they came;
// requests that arrived while the module started wait in
// omissionFitPending (web/fitworker.js).
func main() {
	self := js.Global()
	in := make(chan string, 16)
	take := func(v js.Value) {
		if v.Type() == js.TypeString {
			in <- v.String()
		}
	}
	if p := self.Get("omissionFitPending"); p.Truthy() {
		for i := 0; i < p.Length(); i++ {
			take(p.Index(i))
		}
	}
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			go take(args[0].Get("data"))
		}
		return nil
	}))
	self.Call("postMessage", `{"id":0,"ready":true}`)
	for msg := range in {
		self.Call("postMessage", handle(msg))
	}
}
