package main

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// stateFault carries the last panic caught in an event handler or hook, so
// the page can say something went wrong instead of going blank.
const stateFault = "omission/fault"

// on wraps an event handler so that a panic in it is reported on the page
// instead of ending the app, and gives it an event scope. go-app keeps an
// element's handler across renders when the handlers compare equal, and it
// compares them by code pointer: every closure made here has the same one,
// so the scope (unique per element and per captured value) is what tells
// them apart. Use it as el.OnClick(on("scope", h)).
func on(scope string, h app.EventHandler) (app.EventHandler, app.EventOption) {
	return func(ctx app.Context, e app.Event) {
		defer recoverFault(ctx, scope)
		h(ctx, e)
	}, app.EventScope(scope)
}

// recoverFault, deferred, turns a panic into the stateFault state.
func recoverFault(ctx app.Context, where string) {
	if r := recover(); r != nil {
		msg := fmt.Sprintf("%s: %v", where, r)
		app.Log("omission: recovered from a panic in " + msg)
		ctx.SetState(stateFault, msg)
	}
}

// panicError is a recovered panic as an error.
type panicError struct{ v any }

func (e panicError) Error() string { return fmt.Sprintf("internal error: %v", e.v) }
