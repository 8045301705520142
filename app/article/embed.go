package article

import (
	"slices"
	"strings"

	"omission/app/address"
	"omission/app/anim"
	"omission/app/compute"
	"omission/app/ui"
	"omission/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// Embed is /embed?figure=…&…query: one figure and nothing else, sized to
// its frame, for an iframe in someone else's article. It has a title and a
// heading of its own (the heading visually hidden), and web/page.js tells
// the framing page its height.
type Embed struct {
	app.Compo

	ICache *compute.Cache // where its runs are made and kept (set by the route)

	kind  charts.Kind
	anim  bool   // the figure is the animation
	query string // what the figure runs: canonical, with the page keys
	link  string // the visualiser's address of it: the query as given
	err   string // nothing is drawn, and this says why
	notes []note // what the embed did not take as given: the invalid fields first
	clean string // the query the URL keeps (dropped: it differs)
	drop  bool
	read1 bool // OnNav has read the address: what is drawn is the URL's figure
}

// note is one line of the embed's message: an invalid field's (field set)
// or a key dropped from the URL.
type note struct{ field, text string }

// OnNav runs on the UI goroutine when the embed is opened: the URL says
// which figure and which parameters.
func (e *Embed) OnNav(ctx app.Context) {
	defer ui.Recover(ctx, "embed")
	ui.OwnURL(ctx)
	e.load(ctx, ctx.Page().URL().RawQuery)
	e.read1 = true
	ctx.Page().SetTitle("%s · Omission", e.title())
}

func (e *Embed) load(ctx app.Context, raw string) {
	if e.read(raw); e.drop {
		// As on the visualiser: what the embed does not take leaves the
		// URL at once, and the notes say what it was.
		ui.ReplaceQuery(ctx, e.clean)
	}
	if e.anim && e.err == "" {
		// The animation follows the published result; its own keys (anim,
		// anim_t) stay in the query it reads from the URL.
		publishResult(ctx, e.ICache, e.query)
	}
}

// read sets the embed's figure and query from its address, under the
// visualiser's rule: an unknown key, or a key given more than once, is
// dropped from the URL with a note (address.DroppedNotice); a field whose value
// is invalid runs with the preset's value, and the note says why; a run
// over a limit is refused (err), and so is a figure it does not know.
func (e *Embed) read(raw string) {
	e.kind, e.anim, e.query, e.link, e.err, e.notes = charts.Spectrum, false, "", "", "", nil
	addr := address.ParseAddress(raw)
	var dropped []note // after the invalid fields, as on the visualiser
	if err := addr.Err(); err != nil {
		fe := &sim.FieldError{Field: "query", Allowed: "cannot be decoded: " + err.Error()}
		dropped = append(dropped, note{text: fe.Error() + "; that part was removed from the address."})
	}
	strays := addr.Strays(embedKnows, append(sim.Fields(), address.KeyFigure)...)
	addr = addr.Without(address.Fields(strays)...)
	e.clean, e.drop = addr.String(), len(strays) > 0 || addr.Err() != nil
	base, ok := sim.PresetConfig(addr.Get("preset"))
	if !ok {
		base = sim.Default()
	}
	for _, fe := range strays {
		keeper, kept := "The figure keeps the preset's value", presetValue(base, fe.Field)
		if fe.Field == address.KeyFigure {
			keeper, kept = "The embed shows its first figure", figures()[0]
		}
		dropped = append(dropped, note{text: address.DroppedNotice(fe, keeper, kept)})
	}
	defer func() { e.notes = append(e.notes, dropped...) }()
	name := addr.Get(address.KeyFigure)
	if name == "" {
		name = charts.Spectrum.String()
	}
	if k, ok := charts.ParseKind(name); ok {
		e.kind = k
	} else if e.anim = name == animationFigure; !e.anim {
		e.err = figureError(name)
		return
	}
	given := addr.Without(address.KeyFigure)
	e.link = given.String()
	e.query = e.runs(given)
}

// runs reads the embed's query as the visualiser does and returns what
// the figure runs: the canonical query, an invalid field at the preset's
// value (with its note), and the page keys as given. A limit refuses it.
func (e *Embed) runs(given address.Address) string {
	cfg, err := sim.ParseQuery(given.String(), address.PageKeys()...)
	es, _ := err.(sim.Errors)
	if err != nil && es == nil {
		es = sim.Errors{{Field: "query", Allowed: err.Error()}}
	}
	var refused []string
	for _, fe := range es {
		switch fe.Reason {
		case sim.ReasonLimit:
			refused = append(refused, fe.Error())
		default:
			kept := presetValue(cfg, fe.Field)
			if kept != "" {
				kept = " (the figure runs with the preset's value, " + kept + ", until it is fixed)"
			}
			e.notes = append(e.notes, note{field: fe.Field, text: fe.Error() + kept})
		}
	}
	if len(refused) > 0 {
		e.err = "This figure is not drawn: " + strings.Join(refused, "; ")
	}
	q := address.ParseAddress(cfg.Query())
	for _, k := range address.PageKeys() {
		if given.Has(k) {
			q = q.With(k, given.Get(k))
		}
	}
	return q.String()
}

// embedKnows tells the keys an embed takes: the simulator's fields and the
// pages' keys.
func embedKnows(k string) bool {
	_, field := sim.LookupField(k)
	return field || slices.Contains(address.PageKeys(), k)
}

// presetValue is a field's value in cfg as the query writes it ("" for a
// key that is no field).
func presetValue(cfg sim.Config, field string) string {
	if i := slices.Index(sim.Fields(), field); i >= 0 {
		return cfg.Values()[i]
	}
	return ""
}

// animationFigure is the one figure that is not a chart.
const animationFigure = "animation"

// figures are the embed's allowed figure= values: every chart of the
// table of charts, in page order (the charts of one run, then the
// landscape of a sweep, which needs sweep=), then the animation.
func figures() []string {
	var out []string
	for _, k := range append(charts.Kinds(), charts.SweepKinds()...) {
		out = append(out, k.String())
	}
	return append(out, animationFigure)
}

// figureError is the embed's message for a figure it does not know, in
// the form of the visualiser's for an invalid field (sim.FieldError):
// `figure: "pie" is not allowed: allowed spectrum, distribution,
// latency-time, queue-depth, landscape or animation`.
func figureError(name string) string {
	fs := figures()
	fe := &sim.FieldError{Field: address.KeyFigure, Value: name,
		Allowed: "allowed " + strings.Join(fs[:len(fs)-1], ", ") + " or " + fs[len(fs)-1]}
	return fe.Error()
}

// title names the embed's figure.
func (e *Embed) title() string {
	switch {
	case e.err != "":
		return "Embedded figure"
	case e.anim:
		return "Watch a stall: the queues of three load generators"
	}
	return e.kind.Title()
}

// Render builds the figure alone. data-live tells the prerendered page
// from the one the browser renders (web/page.js reports it with the height):
// it is set once the address is read, not on the first render in the
// browser, which is the prerendered page's figure (the spectrum) whatever
// the URL asks, so that a framing page is never told that figure's height
// as the embed's own.
func (e *Embed) Render() app.UI {
	cls := "embed"
	var fig app.UI
	switch {
	case e.err != "":
		fig = app.P().Class("error").Text(e.err)
	case e.anim:
		cls = "embed embed-anim"
		fig = app.Div().Body(&anim.Panel{ICompact: true}, app.P().Class("embed-credit").Body(
			app.A().Href(ui.VisualiserLink(e.link)).Target("_blank").Rel("noopener").Text("Omission: open in the visualiser")))
	default:
		fig = &chartFigure{IKind: e.kind, IQuery: e.query, ILink: e.link, IBare: true, ICache: e.ICache}
	}
	return app.Main().Class(cls).DataSet("live", app.IsClient && e.read1).Body(
		app.H1().Class("visually-hidden").Text("Omission: "+e.title()), e.renderNotes(), fig)
}

// renderNotes lists what the embed did not take as given: each invalid
// field's message (as the visualiser words it) and each key it dropped.
func (e *Embed) renderNotes() app.UI {
	if len(e.notes) == 0 {
		return app.Text("")
	}
	items := make([]app.UI, len(e.notes))
	for i, n := range e.notes {
		li := app.Li().Text(n.text)
		if n.field != "" {
			li = li.Class("error").DataSet("error", n.field)
		}
		items[i] = li
	}
	return app.Ul().Class("notices").DataSet("notices", len(items)).Body(items...)
}
