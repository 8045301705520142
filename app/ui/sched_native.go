//go:build !wasm

package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// AfterPaint has no paint to wait for natively.
func AfterPaint(ctx app.Context, f func(app.Context)) { ctx.Dispatch(f) }

// NextTask has no browser to make room for natively: f runs next.
func NextTask(ctx app.Context, f func(app.Context)) { ctx.Dispatch(f) }
