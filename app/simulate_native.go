//go:build !wasm

package main

import (
	"runtime"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// simulateNatively tells the page to run simulations when go-app runs
// natively. The static generator prerenders the page natively and must not
// show numbers for a query it cannot know (a shared URL would show the bench
// preset's while app.wasm loads), so it is off; go-app's test engine turns it
// on.
var simulateNatively = false

func canSimulate() bool { return simulateNatively }

// yieldToBrowser has no browser to yield to natively: it lets other
// goroutines run.
func yieldToBrowser() { runtime.Gosched() }

// afterPaint has no paint to wait for natively.
func afterPaint(ctx app.Context, f func(app.Context)) { ctx.Dispatch(f) }

// nextTask has no browser to make room for natively: f runs next.
func nextTask(ctx app.Context, f func(app.Context)) { ctx.Dispatch(f) }
