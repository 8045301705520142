//go:build fitpage

package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/fitmsg"
	"omission/app/ui"
)

// "What did this test hide?" (issue 23): beside a file the reader
// imported, the fit of the model to it (app/fit), run in a worker of its
// own with fit.wasm (app/internal/fitwasm), which the page loads the first
// time the reader asks and never before: app.wasm holds neither the fit
// nor its layout. web/page.js starts the worker (omissionFit); fit.wasm
// answers with the panel laid out (fitmsg.Node), which the page renders
// with the tags and attributes it allows, every text a text node.

const (
	actionFit = "omission/page/fit" // Value: a file's name
)

// askFit sends a file to the fit worker (web/page.js starts it once).
func (p *Page) askFit(ctx app.Context, name string) {
	ctx = p.own(ctx)
	data, ok := p.beside.raw[name]
	script, wasm := app.Getenv(FitWorkerEnv), app.Getenv(FitWasmEnv)
	if !ok || script == "" || !app.Window().Get("omissionFit").Truthy() {
		p.setFit(fitState{Name: name, Err: "this page cannot fit it (go run ./app report -fit FILE prints the fit)"})
		return
	}
	if p.fitCB == nil {
		p.fitCB = app.FuncOf(func(_ app.Value, args []app.Value) any {
			a := args[0]
			ctx.Dispatch(func(ctx app.Context) { p.fitAnswered(a) })
			return nil
		})
	}
	p.fitSeq++
	p.setFit(fitState{Name: name, ID: p.fitSeq, Busy: "Fitting the model to " + name + "… (the first fit loads fit.wasm)"})
	app.Window().Call("omissionFit", script, ui.RootPrefix()+"/wasm_exec.js", wasm, p.fitSeq, name, data, p.fitCB)
}

// fitAnswered takes the worker's answer, a fitmsg.Answer parsed by
// page.js: a fit, or the worker's failure (every fit asked fails with
// it; the next starts a new worker).
func (p *Page) fitAnswered(a app.Value) {
	id := int64(a.Get("id").Int())
	for _, f := range p.beside.fits {
		if f.Busy != "" && (f.ID == id || id < 0) {
			f.Busy, f.Err, f.Query = "", jsText(a.Get("err")), jsText(a.Get("query"))
			if pn := a.Get("panel"); pn.Truthy() {
				f.Panel = pn
			} else if f.Err == "" {
				f.Err = "no fit came back"
			}
			p.setFit(f)
		}
	}
}

// handleFit registers the fit's action.
func (p *Page) handleFit(ctx app.Context) {
	ctx.Handle(actionFit, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "fit")
		if name, ok := a.Value.(string); ok {
			p.askFit(ctx, name)
		}
	})
}

// fitPanel shows a file's fit: progress, a message, or the panel and the
// link that opens the fitted run.
func fitPanel(f fitState) app.UI {
	switch {
	case f.Panel != nil:
		// go-app follows the link on the page: OnNav makes its query the
		// state (loadURL), with a history entry.
		return app.Div().Body(fitNode(f.Panel), app.A().Class("fit-open").Href(ui.VisualiserLink(f.Query)).Text("Open the fitted run"))
	case f.Busy != "":
		return app.P().Class("status").Attr("role", "status").DataSet("fit", "busy").Text(f.Busy)
	}
	return app.P().Class("error").Attr("role", "alert").DataSet("fit", "error").Text("The fit of " + f.Name + " failed: " + f.Err + ".")
}

// fitNode renders a node of the panel (a fitmsg.Node): an allowed
// element with its allowed attributes, a text as a text node.
func fitNode(n app.Value) app.UI {
	t := jsText(n.Get("t"))
	if !fitmsg.Allowed(t, false) {
		return app.Text(jsText(n.Get("x")))
	}
	e := app.Elem(t)
	as, ks := n.Get("a"), n.Get("k")
	for i := 1; as.Truthy() && i < as.Length(); i += 2 {
		if k := as.Index(i - 1).String(); fitmsg.Allowed(k, true) {
			e = e.Attr(k, as.Index(i).String())
		}
	}
	var kids []app.UI
	for i := 0; ks.Truthy() && i < ks.Length(); i++ {
		kids = append(kids, fitNode(ks.Index(i)))
	}
	return e.Body(kids...)
}

// jsText is a string of the answer, "" when it is missing.
func jsText(v app.Value) string {
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}

// fitOf is a file's fit state, if one was asked.
func fitOf(fits []fitState, name string) (fitState, bool) {
	for _, f := range fits {
		if f.Name == name {
			return f, true
		}
	}
	return fitState{}, false
}

// fitOn: the page offers the fit (built with -tags fitpage).
const fitOn = true

// fitControls are a file's button "What did this test hide?" and its fit.
func fitControls(fits []fitState, name string) []app.UI {
	out := []app.UI{app.Text(" "), app.Button().Type("button").Class("fit-ask").
		OnClick(ui.On("fit/"+name, func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionFit, name) })).Text("What did this test hide?")}
	if f, ok := fitOf(fits, name); ok {
		out = append(out, fitPanel(f))
	}
	return out
}
