//go:build js && wasm

package main

import (
	"encoding/json"
	"sync"
	"syscall/js"
)

// main serves the page's requests one at a time, in the order they came,
// each in two answers (the fit, then the whole fit with the tools' list:
// answers);
// requests that arrived while the module started wait in
// omissionFitPending (web/fitworker.js).
func main() {
	self := js.Global()
	var mu sync.Mutex
	var queue []string
	wake := make(chan struct{}, 1)
	take := func(v js.Value) {
		if v.Type() != js.TypeString {
			return
		}
		mu.Lock()
		queue = append(queue, v.String())
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	if p := self.Get("omissionFitPending"); p.Truthy() {
		for i := 0; i < p.Length(); i++ {
			take(p.Index(i))
		}
	}
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			take(args[0].Get("data"))
		}
		return nil
	}))
	self.Call("postMessage", `{"id":0,"ready":true}`)
	// A request that came while the module started is answered first;
	// otherwise the worker warms up while the reader picks a file.
	idle := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(queue) == 0
	}
	warm := "skipped" // a request was waiting
	if idle() {
		self.Call("postMessage", `{"id":0,"warm":"running"}`)
		warm = warmUp(idle)
	}
	b, _ := json.Marshal(map[string]any{"id": 0, "warm": warm})
	self.Call("postMessage", string(b))
	for range wake {
		for {
			mu.Lock()
			if len(queue) == 0 {
				mu.Unlock()
				break
			}
			msg := queue[0]
			queue = queue[1:]
			mu.Unlock()
			handleSteps(msg, true, func(a string) { self.Call("postMessage", a) })
		}
	}
}
