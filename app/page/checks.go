package page

import (
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// checksList lists every check of the result: the closed forms and the
// invariants, each a <details id="check-<id>" data-pass>. It follows
// ui.StateProof: the number a reader clicked opens its check and scrolls to it,
// or, for a number with no closed form, a panel saying so with the
// invariants its recording was checked against.
type checksList struct {
	app.Compo

	IView  *view.View // the result on screen (nil: none yet)
	IFiles []string   // what each measurement file read holds, in words

	asked    string          // observed: ui.StateProof, a cell id ("open.p99") or a check id
	open     map[string]bool // checks the reader has open
	selected string          // the check on show
	none     *noProof        // the number on show when it has no check
}

// noProof explains a number that no closed form covers.
type noProof struct {
	Cell       view.Cell
	Recording  string
	Why        string
	Invariants []view.Check
}

// OnInit runs before the first Render.
func (c *checksList) OnInit() { c.open = map[string]bool{} }

// OnMount runs on the UI goroutine: the list follows the reader's choice of
// proof (ui.StateProof); the result comes from the page (IView).
func (c *checksList) OnMount(ctx app.Context) { c.observe(ctx) }

// OnPreRender is OnMount where go-app runs natively (prerendering, tests).
func (c *checksList) OnPreRender(ctx app.Context) { c.observe(ctx) }

// OnUpdate runs on the UI goroutine when the page hands over a new result:
// the proof on show is looked up again.
func (c *checksList) OnUpdate(ctx app.Context) {
	defer ui.Recover(ctx, "checks")
	c.resolve()
}

func (c *checksList) observe(ctx app.Context) {
	ctx.ObserveState(ui.StateProof, &c.asked).OnChange(func() {
		defer ui.Recover(ctx, "proof")
		c.reveal(ctx)
	})
}

// reveal opens the proof asked for and scrolls to it once rendered.
func (c *checksList) reveal(ctx app.Context) {
	c.resolve()
	target := "proof-none"
	if c.selected != "" {
		c.open[c.selected] = true
		target = "check-" + c.selected
	}
	ctx.ScrollTo(target)
	// Move the focus with the view, for keyboard readers.
	ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID(target); el.Truthy() {
			if s := el.Call("querySelector", "summary, [tabindex]"); s.Truthy() {
				s.Call("focus", map[string]any{"preventScroll": true})
			}
		}
	})
}

// resolve maps the asked-for id onto the current result: a check, or a
// number without one.
func (c *checksList) resolve() {
	c.selected, c.none = "", nil
	id := c.asked
	v := c.IView
	if id == "" || v == nil {
		return
	}
	if v.CheckByID(id) != nil {
		c.selected = id
		return
	}
	if p := v.ProofFor(id); p != "" {
		c.selected = p
		return
	}
	rec, _, _ := strings.Cut(id, ".")
	cell := v.CellByID(id)
	if cell == nil && v.Headline.NeverSent.ID == id {
		cell = &v.Headline.NeverSent
	}
	if cell == nil {
		return
	}
	np := &noProof{Cell: *cell, Recording: rec, Why: v.NoClosedForm[rec]}
	for _, inv := range v.Invariants[rec] {
		if ch := v.CheckByID(inv); ch != nil {
			np.Invariants = append(np.Invariants, *ch)
		}
	}
	c.none = np
}

// Render reads the formatted checks.
func (c *checksList) Render() app.UI {
	v := c.IView
	if v == nil {
		return app.Section().ID("checks").Class("checks").Body(app.H2().Text("Checks"))
	}
	var closed, inv []app.UI
	for i := range v.Checks {
		ch := &v.Checks[i]
		item := c.renderCheck(ch)
		if ch.Invariant {
			inv = append(inv, item)
		} else {
			closed = append(closed, item)
		}
	}
	failed := v.Total - v.Passed
	sumCls := "summary pass"
	if failed > 0 {
		sumCls = "summary fail"
	}
	notes := make([]app.UI, len(v.Notes))
	for i, n := range v.Notes {
		notes[i] = app.Li().Text(n)
	}
	return app.Section().ID("checks").Class("checks").DataSet("seq", v.Seq).Aria("labelledby", "checks-title").Body(
		app.H2().ID("checks-title").Text("Proofs: every number checked"),
		app.P().ID("checks-summary").Class(sumCls).DataSet("passed", v.Passed).DataSet("total", v.Total).
			Textf("%d of %d checks passed%s.", v.Passed, v.Total, map[bool]string{true: ", " + units.Plural(int64(failed), "failure"), false: ""}[failed > 0]),
		app.If(len(notes) > 0, func() app.UI { return app.Ul().Class("notes").Body(notes...) }),
		app.If(c.none != nil, func() app.UI { return c.renderNone() }),
		app.If(len(c.IFiles) > 0, func() app.UI {
			items := make([]app.UI, len(c.IFiles))
			for i, f := range c.IFiles {
				items[i] = app.Li().DataSet("file-check", i).Text(f)
			}
			return app.Div().Class("file-checks").Body(
				app.H3().Text("Measured files"),
				app.P().Class("legend").Text("What each file holds: a measurement, not derived here, so no closed form checks it."),
				app.Ul().Body(items...),
			)
		}),
		app.If(len(closed) > 0, func() app.UI {
			return app.Div().Body(
				app.H3().Textf("Closed forms (%d)", len(closed)),
				app.P().Class("legend").Text("Each derives a number from the parameters alone, then compares it with the simulation."),
				app.Div().Class("check-list").Body(closed...),
			)
		}),
		app.H3().Textf("Invariants (%d)", len(inv)),
		app.P().Class("legend").Text("Properties every run must have, whatever its parameters."),
		app.Div().Class("check-list").Body(inv...),
	)
}

func (c *checksList) renderCheck(ch *view.Check) app.UI {
	open := c.open[ch.ID]
	cls := "check pass"
	mark := "✓"
	if !ch.Pass {
		cls, mark = "check fail", "✗"
	}
	if ch.ID == c.selected {
		cls += " selected"
	}
	id := ch.ID
	toggle, scope := ui.On("toggle-check/"+id, func(ctx app.Context, e app.Event) {
		c.open[id] = ctx.JSSrc().Get("open").Bool()
	})
	d := app.Details().ID("check-"+ch.ID).Class(cls).DataSet("pass", ch.Pass).On("toggle", toggle, scope)
	if open {
		d = d.Open(true) // only when true: see renderField
	}
	// Few nodes per check: the list is long and every update rewrites it.
	summary := app.Summary().Body(
		app.Span().Class("mark").Attr("role", "img").Aria("label", map[bool]string{true: "passed", false: "failed"}[ch.Pass]).Text(mark),
		app.Text(ch.Line),
		app.Code().Class("id").Text(ch.ID),
	)
	if !open {
		// The details are rendered when opened: most readers open few.
		return d.Body(summary)
	}
	want, got := "closed form", "simulated"
	if ch.Invariant {
		want, got = "expected", "observed"
	}
	rows := []app.UI{}
	add := func(k, v string) {
		if v != "" {
			rows = append(rows, app.Dt().Text(k), app.Dd().Text(v))
		}
	}
	add("formula", ch.Formula)
	add("constants", ch.Substituted)
	add(want, ch.Want)
	add(got, ch.Got)
	add("tolerance", ch.Tolerance)
	add("verdict", map[bool]string{true: "pass", false: "FAIL"}[ch.Pass])
	return d.Body(summary, app.Dl().Body(rows...))
}

func (c *checksList) renderNone() app.UI {
	np := c.none
	items := make([]app.UI, 0, len(np.Invariants))
	for _, inv := range np.Invariants {
		mark := "✓"
		if !inv.Pass {
			mark = "✗"
		}
		items = append(items, app.Li().Body(
			app.Span().Class("mark").Text(mark+" "),
			app.A().Href("#check-"+inv.ID).DataSet("proof-of", inv.ID).Text(inv.Summary),
			app.Code().Class("id").Text(" "+inv.ID),
		))
	}
	return app.Div().ID("proof-none").Class("proof-none").DataSet("for", np.Cell.ID).Attr("tabindex", "-1").OnClick(proofClick("proof/none")).Body(
		app.H3().Textf("%s: %s", np.Cell.ID, np.Cell.Text),
		app.P().Textf("No closed form covers this number for these parameters, so it is simulation only. %s", np.Why),
		app.If(len(items) > 0, func() app.UI {
			return app.Div().Body(
				app.P().Text("The invariants this recording was checked against:"),
				app.Ul().Body(items...),
			)
		}),
		app.If(len(items) == 0, func() app.UI {
			return app.P().Text("No invariant bears on this recording alone; see the full list below.")
		}),
	)
}

// firstPart keeps a value's readable part: "195.1 ms (195,100,000 ns)" → "195.1 ms".
func firstPart(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		return s[:i]
	}
	return s
}
