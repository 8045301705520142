package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"

	"omission/sim"
)

// numberLink is a number that opens its proof: the check that derives it in
// closed form, or the note that it has none and the invariants it was
// checked against. It carries no handler of its own: the section holding it
// handles clicks for all its numbers (proofClick), which keeps an update of
// the table from re-binding a hundred handlers.
func numberLink(c view.Cell) app.HTMLA {
	href, cls := "#check-"+c.Proof, "num"
	switch {
	case c.Proof == "":
		href, cls = "#proof-none", cls+" sim-only"
	case !c.Pass:
		cls += " fail"
	}
	return app.A().Href(href).Class(cls).DataSet("proof-of", c.ID).Text(c.Text)
}

// proofClick is the click handler of a section holding proof links: a click
// on one (or Enter on it) shows that number's proof, through ui.StateProof.
func proofClick(scope string) (app.EventHandler, app.EventOption) {
	return ui.On(scope, func(ctx app.Context, e app.Event) {
		link := e.Get("target").Call("closest", "a[data-proof-of]")
		if !link.Truthy() {
			return
		}
		// Keep go-app's router (a window click listener) out of it: the URL
		// holds the parameters, not the proof on show.
		e.PreventDefault()
		e.StopImmediatePropagation()
		ctx.SetState(ui.StateProof, link.Get("dataset").Get("proofOf").String())
	})
}

// proofTitle is the hover text of a number.
func proofTitle(c view.Cell) string {
	switch {
	case c.Proof == "":
		return c.Title + " · simulation only: no closed form for these parameters"
	case !c.Pass:
		return c.Title + " · its check FAILED: click for the details"
	}
	return c.Title + " · click for its proof"
}

// headline is the story on one screen: closed-loop p99 against open-loop p99
// for the same server, their ratio, and what the paced client never sent.
type headline struct {
	app.Compo

	IView    *view.View // the result on screen (nil: none yet)
	IStale   bool       // the numbers do not match the parameters (yet)
	IRefused refusal    // nothing runs for the page's query (then IView is nil)
	IShow    string     // the folds the URL keeps open (address.KeyShow)
	IPreset  string     // the case the controls start from (its button is pressed)
}

// Render reads the formatted result: the three cards on the first screen;
// the case, the run's line, its story, the paced client's card and the
// checks under "Why do they differ?".
func (h *headline) Render() app.UI {
	cls := "headline"
	if h.IStale {
		cls += " stale"
	}
	v := h.IView
	// The live region is always there, so that a screen reader hears each
	// new result's story once (polite: after what it is saying).
	live := app.P().ID("headline-live").Class("visually-hidden").Aria("live", "polite").Aria("atomic", "true")
	if v == nil && h.IRefused.On {
		return app.Section().Class(cls, "refused").Aria("label", "Headline").Body(
			append([]app.UI{live.Text("")}, h.IRefused.render("server")...)...,
		)
	}
	if v == nil {
		return app.Section().Class(cls).Aria("label", "Headline").Body(
			live.Text(""),
			app.P().Class("server").Text("The simulator runs in this page once it has loaded."),
		)
	}
	hl := &v.Headline
	stat := func(key string, label app.UI, value app.UI, sub string) app.UI {
		return app.Div().Class("stat", key).Body(
			app.Div().Class("label").Body(label),
			app.Div().Class("value").Body(value),
			app.If(sub != "", func() app.UI { return app.Div().Class("sub").Text(sub) }),
		)
	}
	cell := func(c view.Cell) app.UI {
		return app.Span().DataSet("headline", c.ID).DataSet(c.Attr, c.Exact).Title("%s", proofTitle(c)).Body(numberLink(c))
	}
	said := ""
	if !h.IStale {
		said = hl.Spoken
	}
	label, from := presetWord(h.IPreset)
	return app.Section().Class(cls).Aria("label", "Headline").OnClick(proofClick("proof/headline")).Body(
		live.Text(said),
		app.Div().Class("stats").Body(
			stat("closed", app.Text("Closed-loop p99"), cell(hl.ClosedP99), hl.ClosedSub),
			stat("open", app.Text("Open-loop p99"), cell(hl.OpenP99), hl.OpenSub),
			stat("ratio", app.Text(view.LabelRatio), app.Span().DataSet("headline", "ratio.p99").Text(hl.Ratio), hl.RatioSub),
		),
		// What ran and why, what the third client never sent and the
		// checks: one click down.
		fold(foldWhy, shows(h.IShow, foldWhy), "why",
			app.Summary().Text("Why do they differ?"),
			app.If(from != "", func() app.UI {
				return app.P().Class("preset-now").DataSet("preset-now", h.IPreset).Body(
					app.Strong().Text(label+": "), app.Text(from))
			}),
			app.P().Class("server").Text(hl.Server),
			app.P().Class("explain").DataSet("claim", hl.Story.Claim).Text(hl.Story.Text),
			renderHow(),
			app.Div().Class("stats").Body(
				stat("paced", app.Span().Body(term("never-sent", "never sent"), app.Text(" by the "), term("paced", "paced client")), cell(hl.NeverSent), hl.PacedSub),
			),
			app.P().Class("summary-line").Body(
				app.A().Href("#checks").Class("checks-link").
					OnClick(ui.On("to-checks", func(ctx app.Context, e app.Event) {
						e.PreventDefault()
						e.StopImmediatePropagation()
						ctx.ScrollTo("checks")
					})).
					Textf("%d of %d checks passed", v.Passed, v.Total),
				app.Text(" · "),
				app.Span().ID("cost").Class("cost").DataSet("ms", units.Raw(v.Cost.Ms)).
					DataSet("requests", v.Cost.Requests).DataSet("samples", v.Cost.Samples).
					Text(v.Cost.Text),
			),
		),
	)
}

// resultsTable shows every recording's metrics, one column per recording
// and the open/closed ratio. Each cell carries data-metric and data-ns or
// data-value with the exact number.
type resultsTable struct {
	app.Compo

	IView    *view.View   // the result on screen (nil: none yet)
	IStale   bool         // the numbers do not match the parameters (yet)
	IExtra   []view.Extra // columns beside the recordings: tools, measured files, the comparison
	IRefused refusal      // nothing runs for the page's query (then IView is nil)
}

// Render reads the formatted result.
func (t *resultsTable) Render() app.UI {
	v := t.IView
	cls := "results"
	if t.IStale {
		cls += " stale"
	}
	if v == nil && t.IRefused.On {
		return app.Section().ID("results").Class(cls, "refused").Body(
			append([]app.UI{app.H2().Text("Results")}, t.IRefused.render("empty")...)...,
		)
	}
	if v == nil {
		return app.Section().ID("results").Class(cls).Body(
			app.H2().Text("Results"),
			app.P().Class("empty").Text("No result yet."),
		)
	}
	head := []app.UI{app.Th().Scope("col").Text("metric")}
	for _, c := range v.Columns {
		head = append(head, app.Th().Scope("col").Class("rec-"+c.Recording).DataSet("recording", c.Recording).Body(
			app.Span().Class("rec-name").Body(term(c.Recording, c.Label)),
		))
	}
	head = append(head, app.Th().Scope("col").Class("ratio").Title("%s", "open loop ÷ closed loop").Text("open ÷ closed"))
	for _, x := range t.IExtra {
		head = append(head, app.Th().Scope("col").Class("extra", "extra-"+x.Class).Title("%s", x.Detail).DataSet("extra", x.Key).Text(x.Label))
	}
	rows := make([]app.UI, 0, len(v.Rows))
	for _, r := range v.Rows {
		cells := make([]app.UI, 0, len(r.Cells)+2)
		cells = append(cells, app.Th().Scope("row").Title("%s", r.Help).Text(r.Label))
		for _, c := range r.Cells {
			cells = append(cells, app.Td().DataSet("metric", c.ID).DataSet(c.Attr, c.Exact).Title("%s", proofTitle(c)).Body(numberLink(c)))
		}
		if r.Ratio.Metric != "" {
			cells = append(cells, app.Td().Class("ratio").DataSet("ratio", r.Ratio.Metric).DataSet("value", r.Ratio.Exact).Title("%s", r.Ratio.Why).Text(r.Ratio.Text))
		} else {
			cells = append(cells, app.Td().Class("ratio"))
		}
		for _, x := range t.IExtra {
			c, ok := x.Cells[r.Metric]
			if !ok {
				cells = append(cells, app.Td().Class("extra", "extra-"+x.Class).Text("—"))
				continue
			}
			cells = append(cells, app.Td().Class("extra", "extra-"+x.Class).DataSet("metric", c.ID).DataSet(c.Attr, c.Exact).Title("%s", c.Title).Text(c.Text))
		}
		rows = append(rows, app.Tr().DataSet("row", r.Metric).Body(cells...))
	}
	return app.Section().ID("results").Class(cls).Aria("labelledby", "results-title").Body(
		app.H2().ID("results-title").Text("Every recording"),
		app.P().ID("results-legend").Class("legend").Text("Each number opens its proof; a dotted underline marks a number with no closed form (simulation only). Tab reaches the table once; the arrow keys move in it."),
		// The table scrolls in its own box (a cue says so on a narrow
		// screen); its numbers are one stop of the Tab key, moved through
		// with the arrows (data-roving, web/page.js).
		app.Div().Class("table-wrap").Body(
			app.Table().DataSet("roving", "numbers").Aria("describedby", "results-legend").OnClick(proofClick("proof/table")).Body(
				app.Caption().Textf("Latency as each recording sees it (query: %s)", sim.QueryWords(v.Query)),
				app.THead().Body(app.Tr().Body(head...)),
				app.TBody().Body(rows...),
			),
		),
		app.P().Class("scroll-cue").Aria("hidden", "true").Text("Scroll the table sideways for every recording →"),
	)
}
