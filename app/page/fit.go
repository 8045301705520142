//go:build fitpage

package page

import (
	"encoding/json"

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

// fitAnswer is what the page reads of a fitmsg.Answer.
type fitAnswer struct {
	ID         int64
	Err, Query string
	Panel      *fitmsg.Node
}

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
			s := args[0].String()
			ctx.Dispatch(func(ctx app.Context) { p.fitAnswered(s) })
			return nil
		})
	}
	p.fitSeq++
	p.setFit(fitState{Name: name, ID: p.fitSeq, Busy: "Fitting the model to " + name + "… (the first fit loads fit.wasm)"})
	app.Window().Call("omissionFit", script, ui.RootPrefix()+"/wasm_exec.js", wasm, p.fitSeq, name, data, p.fitCB)
}

// fitAnswered takes the worker's answer (a fitmsg.Answer): a fit, or the
// worker's failure (every fit asked fails with it; the next starts a new
// worker).
func (p *Page) fitAnswered(s string) {
	var a fitAnswer
	if json.Unmarshal([]byte(s), &a) != nil {
		a.ID, a.Err = -1, "its answer could not be read"
	}
	for _, f := range p.beside.fits {
		if f.Busy != "" && (f.ID == a.ID || a.ID < 0) {
			p.setFit(fitState{Name: f.Name, ID: f.ID, Err: a.Err, Query: a.Query, Panel: a.Panel})
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
		return app.Div().Body(fitNode(*f.Panel), app.A().Class("fit-open").Href(ui.VisualiserLink(f.Query)).Text("Open the fitted run"))
	case f.Busy != "":
		return app.P().Class("status").Attr("role", "status").DataSet("fit", "busy").Text(f.Busy)
	}
	return app.P().Class("error").Attr("role", "alert").DataSet("fit", "error").Text("The fit of " + f.Name + " failed: " + f.Err + ".")
}

// fitNode renders a node of the panel: an allowed element with its
// allowed attributes, a text as a text node.
func fitNode(n fitmsg.Node) app.UI {
	if !fitmsg.Allowed(n.T, false) {
		return app.Text(n.X)
	}
	e := app.Elem(n.T)
	for i := 1; i < len(n.A); i += 2 {
		if fitmsg.Allowed(n.A[i-1], true) {
			e = e.Attr(n.A[i-1], n.A[i])
		}
	}
	kids := make([]app.UI, len(n.K))
	for i, k := range n.K {
		kids[i] = fitNode(k)
	}
	return e.Body(kids...)
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
