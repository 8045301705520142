package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/fitmsg"
)

// "What did this test hide?" (issue 23): beside a file the reader
// imported, the fit of the model to it (app/fit), run in a worker of its
// own with fit.wasm (app/internal/fitwasm), which the page loads when the
// reader first reaches for a file and never on its load alone: app.wasm
// holds neither the fit nor its layout, nor the checks that a file is
// whole, which the page asks fit.wasm of each file given (fit.Lacks;
// fileCheck). web/page.js keeps the files' text, takes the button's
// click, starts the worker and hands back, for each file, its progress,
// its failure or its panel, laid out as nodes (fitmsg.Node), which the
// page renders with the tags and attributes it allows, every text a text
// node.

// handleFit takes page.js's word on each fit asked (omissionFitDone):
// on the UI goroutine, the file's fit shown.
func (p *Page) handleFit(ctx app.Context) {
	if !app.IsClient || p.fitCB != nil {
		return
	}
	ctx = p.own(ctx)
	p.fitCB = app.FuncOf(func(_ app.Value, args []app.Value) any {
		name, a := args[0].String(), args[1]
		ctx.Dispatch(func(ctx app.Context) { p.beside.setFit(name, a) })
		return nil
	})
	app.Window().Set("omissionFitDone", p.fitCB)
	// omissionFileChecked(name, state, lacks, why): page.js's word on
	// whether a file given is whole (fileCheck), which fit.wasm tells.
	p.checkCB = app.FuncOf(func(_ app.Value, args []app.Value) any {
		c := fileCheck{State: args[1].String(), Why: args[3].String()}
		for l, i := args[2], 0; l.Truthy() && i < l.Length(); i++ {
			c.Lacks = append(c.Lacks, l.Index(i).String())
		}
		name := args[0].String()
		ctx.Dispatch(func(ctx app.Context) {
			p.beside.setCheck(name, c)
			p.refreshExtras()
			if c.State == "incomplete" && p.shown != nil {
				p.send(p.cfg, true) // its series in the charts named so
			}
		})
		return nil
	})
	app.Window().Set("omissionFileChecked", p.checkCB)
}

// fitControls are a file's button "What did this test hide?" (page.js
// takes its click and sends the rate typed beside it, which pins a rate
// the file leaves free: fit.ParseRate reads it in fit.wasm and names the
// field and its range when it cannot) and what page.js said of its fit: progress, a failure,
// or the panel with the link that opens the fitted run (go-app follows it
// on the page: OnNav makes its query the state, with a history entry).
func fitControls(fits map[string]app.Value, name string) []app.UI {
	out := []app.UI{app.Text(" "), app.Button().Type("button").Class("fit-ask").DataSet("file", name).Text("What did this test hide?"),
		app.Text(" "), app.Label().Class("fit-rate").Body(
			app.Text("at the rate it was asked for (optional, requests per second) "),
			app.Input().Type("text").Class("fit-rate").Attr("inputmode", "decimal").Attr("autocomplete", "off").Attr("spellcheck", "false").Size(8).DataSet("file", name),
		)}
	if a, ok := fits[name]; ok && a != nil {
		out = append(out, fitNode(a.Get("panel")))
	}
	return out
}

// fitNode renders a node of the panel (a fitmsg.Node): an allowed
// element with its allowed attributes, anything else as a text node.
func fitNode(n app.Value) app.UI {
	t, x := n.Get("t"), n.Get("x")
	if t.Type() != app.TypeString || !fitmsg.Tag(t.String()) {
		if x.Type() != app.TypeString {
			return app.Text("")
		}
		return app.Text(x.String())
	}
	e := app.Elem(t.String())
	as, ks := n.Get("a"), n.Get("k")
	for i := 1; as.Truthy() && i < as.Length(); i += 2 {
		if k, v := as.Index(i-1).String(), as.Index(i).String(); fitmsg.Attr(k, v) {
			e = e.Attr(k, v)
		}
	}
	var kids []app.UI
	for i := 0; ks.Truthy() && i < ks.Length(); i++ {
		kids = append(kids, fitNode(ks.Index(i)))
	}
	return e.Body(kids...)
}
