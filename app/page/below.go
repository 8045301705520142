package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/anim"
	"omission/app/ui"
)

// The page below its share box (the results table, the charts, the sweep,
// what goes beside the run, the animation, the checks and the glossary) is
// most of its elements: some 1,300 of the static HTML's 1,560. go-app
// builds every element of a page again when it mounts it, so a browser
// that took the static HTML's result over (takeOver) would wait for all of
// them before the first screen answers. Instead, web/page.js keeps the
// static HTML's lower sections (omissionKept, their controls disabled) when
// they are the address's own; the page's first render holds each in a
// keptTag element (laid out as if it were not there), and the page builds
// its own section only when the reader comes to it: once any of it is in
// sight, or the focus moves into it (web/page.js, omissionNear), one
// section at a time, each when the browser is idle after a paint. Until
// then a reader sees the same section, and loses nothing typed: nothing in
// it takes input. A section never reached is never built, which spares a
// phone the main thread's work of the sections it never scrolls to. A
// result other than the static HTML's has them all built, hidden until
// each is (lowerNow), and so does a file given to the page (its import
// panel is one of them).

// keptTag is the element each static section is kept in.
const keptTag = "omission-kept"

// renderLower is the page below its share box: its own sections, those
// of lowerBuilt until all are (the rest held static).
func (p *Page) renderLower(stale bool) []app.UI {
	sections := []func() app.UI{
		func() app.UI {
			return &resultsTable{IStale: stale, IView: p.shown, IExtra: p.beside.cols, IRefused: p.why}
		},
		func() app.UI {
			return &chartsPanel{ILinear: p.addr.Get(address.KeyAxis) == "linear", ICDF: p.addr.Get(address.KeyCDF) == "1", IRefused: p.why}
		},
		p.renderSweep,
		p.renderBeside,
		func() app.UI { return &anim.Panel{} },
		func() app.UI { return &checksList{IView: p.proofs, IFiles: p.beside.notes} },
		renderGlossary,
	}
	out := make([]app.UI, len(sections))
	for i, f := range sections {
		if p.lowerHeld && p.lowerBuilt&(1<<i) == 0 {
			h := app.Elem(keptTag).DataSet("i", i)
			if p.lowerStale {
				h = h.Class("stale")
			}
			out[i] = h
			continue
		}
		out[i] = f()
	}
	return out
}

// lowerSections is how many sections renderLower lays out, and
// lowerAll the bits of lowerBuilt when all are built.
const (
	lowerSections       = 7
	lowerAll      uint8 = 1<<lowerSections - 1
)

// keepsLower reports whether web/page.js kept the static HTML's lower
// sections for the page to hold: in a browser, at the address the static
// HTML was built for.
func keepsLower() bool {
	return app.IsClient && app.Window().Get("omissionKept").Truthy()
}

// keepLower runs at the page's mount, before the browser paints: it moves
// each of the static HTML's lower sections into its holder, and has
// web/page.js build the page's own as the reader comes to each. Where they
// cannot be held (not one static section for each of the page's) the page
// builds its own at once.
func (p *Page) keepLower(ctx app.Context) {
	if !p.lowerHeld {
		return
	}
	if !app.Window().Call("omissionKeep", keptTag, lowerSections).Bool() {
		p.lowerHeld = false
		return
	}
	p.lowerNear = app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) != 1 || args[0].Type() != app.TypeNumber {
			return nil
		}
		i := args[0].Int()
		ctx.Dispatch(func(ctx app.Context) {
			defer ui.Recover(ctx, "lower")
			if !p.lowerHeld || i < 0 || i >= lowerSections {
				return
			}
			p.lowerBuilt |= 1 << i
			if p.lowerBuilt == lowerAll {
				p.lowerDone(ctx)
			}
		})
		return nil
	})
	app.Window().Call("omissionNear", keptTag, p.lowerNear)
}

// lowerNow has the page build its own lower sections: the static HTML's
// are another result's once the page shows another (a query read, a
// preset chosen, an edit) and must not be seen beside it. They are hidden
// (stale) in the render that shows the other result, keeping their place,
// and built one a frame as web/page.js asks (omissionNearAll): built in
// one render, the seven took a 390 ms task of the page's thread at the
// first edit. A section in sight is built already, or asked for a frame
// or two before (keepLower), so what is hidden is mostly out of sight.
func (p *Page) lowerNow(ctx app.Context) {
	if !p.lowerHeld || p.lowerStale {
		return
	}
	if p.lowerNear == nil {
		p.lowerBuilt = lowerAll
		p.lowerDone(ctx)
		return
	}
	p.lowerStale = true
	app.Window().Call("omissionNearAll")
}

// lowerDone ends the holding once every section is the page's own: what
// web/page.js still has asked is dropped, and the callback goes.
func (p *Page) lowerDone(ctx app.Context) {
	p.lowerHeld, p.lowerStale = false, false
	if p.lowerNear == nil {
		return
	}
	app.Window().Call("omissionNearStop")
	p.lowerNear.Release()
	p.lowerNear = nil
	// The startup's parts, for make bench (app/browser).
	ctx.Defer(func(app.Context) { app.Window().Get("performance").Call("mark", "omission:lower") })
}
