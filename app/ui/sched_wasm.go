//go:build wasm

package ui

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/yield"
)

// AfterPaint runs f on the UI goroutine once the browser has painted what
// the current update renders: two animation frames later (go-app renders on
// its own timer, which may fall after the first), in a task of its own. Work
// that may block (the History API can take milliseconds) goes there, off the
// path from an input to its painted result.
func AfterPaint(ctx app.Context, f func(app.Context)) {
	var first, second, task js.Func
	ch := js.Global().Get("MessageChannel").New()
	task = js.FuncOf(func(js.Value, []js.Value) any {
		first.Release()
		second.Release()
		task.Release()
		ctx.Dispatch(f)
		return nil
	})
	ch.Get("port1").Set("onmessage", task)
	second = js.FuncOf(func(js.Value, []js.Value) any {
		ch.Get("port2").Call("postMessage", nil)
		return nil
	})
	first = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Call("requestAnimationFrame", second)
		return nil
	})
	js.Global().Call("requestAnimationFrame", first)
}

// NextTask runs f on the UI goroutine in a browser task of its own, after
// the browser has handled what is waiting (input, paint): long work cut in
// pieces this way never holds the page for more than a piece.
func NextTask(ctx app.Context, f func(app.Context)) {
	go func() {
		yield.Yield()
		ctx.Dispatch(f)
	}()
}
