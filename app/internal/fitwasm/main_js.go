//go:build js && wasm

package main

import (
	"encoding/json"
	"sync"

	"omission/app/wire"
)

// main serves the page's requests one at a time, in the order they came,
// each in two answers (the fit, then the whole fit with the tools' list:
// answers);
// requests that arrived while the module started wait in the script's
// queue (web/fitworker.js; package wire).
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
	// A request that came while the module started is answered first;
	// otherwise the worker warms up while the reader picks a file.
	idle := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(queue) == 0
	}
	warm := "skipped" // a request was waiting
	if idle() {
		wire.Post(`{"id":0,"warm":"running"}`)
		warm = warmUp(idle)
	}
	b, _ := json.Marshal(map[string]any{"id": 0, "warm": warm})
	wire.Post(string(b))
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
			handleSteps(msg, true, wire.Post)
		}
	}
}
