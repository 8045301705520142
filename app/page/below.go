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
// its own sections one at a time, each when the browser is idle after a
// paint, once the first screen is live (lowerHeld, lowerBuilt). Until then
// a reader sees the same sections, and what they would type into them is
// not lost: nothing in them takes input. A result other than the static
// HTML's builds them all at once (lowerNow).

// keptTag is the element each static section is kept in.
const keptTag = "omission-kept"

// renderLower is the page below its share box: its own sections, the
// first lowerBuilt of them until all are (the rest held static).
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
		if p.lowerHeld && i >= p.lowerBuilt {
			out[i] = app.Elem(keptTag).DataSet("i", i)
			continue
		}
		out[i] = f()
	}
	return out
}

// lowerSections is how many sections renderLower lays out.
const lowerSections = 7

// keepsLower reports whether web/page.js kept the static HTML's lower
// sections for the page to hold: in a browser, at the address the static
// HTML was built for.
func keepsLower() bool {
	return app.IsClient && app.Window().Get("omissionKept").Truthy()
}

// keepLower runs at the page's mount, before the browser paints: it moves
// each of the static HTML's lower sections into its holder, then builds
// the page's own, one at a time, each when the browser is idle after a
// paint, so that the page answers input between them. Where they cannot
// be held (not one static section for each of the page's) the page builds
// its own at once.
func (p *Page) keepLower(ctx app.Context) {
	if !p.lowerHeld {
		return
	}
	if !app.Window().Call("omissionKeep", keptTag, lowerSections).Bool() {
		p.lowerHeld = false
		return
	}
	p.lowerWait = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			defer ui.Recover(ctx, "lower")
			if p.lowerHeld {
				p.lowerBuilt++
				if p.lowerBuilt < lowerSections {
					app.Window().Call("omissionAfterPaint", p.lowerWait)
					return
				}
				p.lowerHeld = false
			}
			// Built, here or by lowerNow: the callback has no call
			// pending, and goes.
			p.lowerWait.Release()
			p.lowerWait = nil
			// The startup's parts, for make bench (app/browser).
			ctx.Defer(func(app.Context) { app.Window().Get("performance").Call("mark", "omission:lower") })
		})
		return nil
	})
	app.Window().Call("omissionAfterPaint", p.lowerWait)
}

// lowerNow builds the page's own lower sections in its next render: the
// static HTML's are another result's once the page shows another (a query
// read, a preset chosen, an edit) and must not stay on screen beside it.
func (p *Page) lowerNow() {
	if p.lowerHeld {
		p.lowerHeld, p.lowerBuilt = false, lowerSections
	}
}
