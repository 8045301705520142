//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"sync"

	"omission/app/wire"
)

// main serves the page's requests one at a time, in the order they came,
// each fit in two answers (the fit, then the whole fit with the tools'
// list: answers), each check in one;
// requests that arrived while the module started wait in the script's
// queue (web/worker.js; package wire).
func main() {
	var mu sync.Mutex
	var queue []string
	wake := make(chan struct{}, 1)
	// The protocol's boot and ready (package wire).
	wire.Listen(func(msg string) {
		mu.Lock()
		queue = append(queue, msg)
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	// pop takes the queue's first message; checkFirst answers the checks
	// at its head (fitmsg.Request.Check: each a file's reading, quick).
	pop := func(checksOnly bool) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		if len(queue) == 0 || checksOnly && !isCheck(queue[0]) {
			return "", false
		}
		msg := queue[0]
		queue = queue[1:]
		return msg, true
	}
	checkFirst := func() {
		for msg, ok := pop(true); ok; msg, ok = pop(true) {
			handleSteps(msg, true, wire.Post)
		}
	}
	// A fit asked while the module started is answered first; otherwise
	// the worker warms up while the reader picks a file, giving way to
	// each check (the page asks one for each file given) and starting
	// again after it.
	idle := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(queue) == 0
	}
	warm := "skipped" // a fit was waiting
	for {
		checkFirst()
		if !idle() {
			break
		}
		wire.Post(`{"id":0,"warm":"running"}`)
		if warm = warmUp(idle); !strings.HasPrefix(warm, "gave way") {
			break // done, or failed
		}
	}
	b, _ := json.Marshal(map[string]any{"id": 0, "warm": warm})
	wire.Post(string(b))
	for range wake {
		for msg, ok := pop(false); ok; msg, ok = pop(false) {
			handleSteps(msg, true, wire.Post)
		}
	}
}
