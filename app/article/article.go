package article

import (
	"net/url"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/anim"
	"omission/app/charts"
	"omission/app/compute"
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"
)

// Article is the explainer at /article. Its numbers are computed by the
// simulator when it loads, carried in the same data-metric / data-ns /
// data-value attributes as the visualiser's table, with the query each came
// from in data-query; a test (article_test.go) fails if a digit appears in
// its literal text. The reader may change the numbers marked adjustable:
// that section's numbers, claims and figures follow, and the values go in
// the URL.
type Article struct {
	app.Compo

	ICache *compute.Cache // where its runs are made and kept (set by the route)

	raw   string        // the URL query st was computed for
	st    *articleState // what every section shows
	nums  map[NumRef]NumValue
	err   string
	want  *wanted // the latest value an adjustable was asked to take
	queue bool    // its run waits for a task of its own

	urlSeq    int
	published string // the query whose result the animation figure follows

	// taken: what is shown is the generated HTML's, taken over (OnInit);
	// kept: the state the static generator writes into the HTML for it.
	taken bool
	kept  string
}

// wanted is a value asked for an adjustable of section sec.
type wanted struct {
	sec int
	adj *adjustable
	v   int64
}

// adjustEvent is the event web/page.js sends when the reader steps or drags
// an adjustable number: detail {key: "closed.stall", steps: n, from: ""}
// (from: the value the drag began at, as data-ns or data-value wrote it; ""
// for a key, which steps from the value shown).
const adjustEvent = "omission-adjust"

const urlDelay = 300 * time.Millisecond

// OnMount runs on the UI goroutine: the article owns its URL (the
// animation's keys and the reader's values) and computes what it shows.
func (a *Article) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "article")
	ui.OwnURL(ctx)
	a.load(ctx)
}

// OnNav runs on the UI goroutine when the article is navigated to (after
// OnMount on the first load).
func (a *Article) OnNav(ctx app.Context) {
	defer ui.Recover(ctx, "article")
	ctx.Page().SetTitle("%s · Omission", theArticle().title)
	a.load(ctx)
}

// load computes the article for the URL's query, unless it is shown
// already.
func (a *Article) load(ctx app.Context) {
	raw := ""
	if u := ctx.Page().URL(); u != nil {
		raw = u.RawQuery
	}
	if a.st != nil && raw == a.raw {
		// Taken over: the animation has its result yet to get, a run of
		// its query, in a task of its own after the first paint rather
		// than in the mount's.
		a.publishLater(ctx)
		return
	}
	a.raw, a.taken = raw, false
	a.st = theArticle().compute(a.ICache, raw)
	if a.st.dropped {
		// What the article does not take leaves the URL at once, as on the
		// visualiser; the notices say what it was.
		ui.ReplaceQuery(ctx, a.st.clean)
		a.raw = a.st.clean
	}
	a.gather()
	a.publish(ctx)
}

// gather collects the sections' numbers and first error for Render.
func (a *Article) gather() {
	nums, err := a.st.numbers()
	a.nums, a.err = nums, ""
	if err != nil {
		a.err = err.Error()
	}
}

// publish hands the animation figure the result of its section's query,
// as ui.StateResult (on the visualiser, the page publishes it).
func (a *Article) publish(ctx app.Context) {
	for i, sec := range theArticle().sections {
		for _, b := range sec.blocks {
			if b.figure == nil || b.figure.kind != animationFigure {
				continue
			}
			q := a.st.views[i].queries[b.figure.name]
			if q == a.published && a.published != "" {
				return
			}
			a.published = q
			publishResult(ctx, a.ICache, q)
			return
		}
	}
}

// publishLater publishes in a task of its own once the browser has
// painted (ui.AfterPaint), in a browser, and at once where not.
func (a *Article) publishLater(ctx app.Context) {
	if !app.IsClient {
		a.publish(ctx)
		return
	}
	ui.AfterPaint(ctx, func(ctx app.Context) {
		defer ui.Recover(ctx, "article")
		a.publish(ctx)
		ctx.PreventUpdate() // the animation follows the state; the article shows the same
	})
}

// publishResult runs a query and publishes it as ui.StateResult, which the
// animation panel follows.
func publishResult(ctx app.Context, c *compute.Cache, q string) {
	res, err := c.Run(q, address.PageKeys()...)
	if err != nil {
		return
	}
	v := view.Build(compute.NextSeq(), res, 0)
	ctx.Defer(func(ctx app.Context) { ctx.SetState(ui.StateResult, v) })
}

// set gives an adjustable of section i the value v: the section is
// computed again, and the URL follows after urlDelay.
func (a *Article) set(ctx app.Context, i int, adj *adjustable, v int64) {
	sec := theArticle().sections[i]
	vals := sec.with(adj, a.st.vals[sec.slug], v)
	a.setValues(ctx, i, vals)
}

// setValues makes vals the reader's values of section i.
func (a *Article) setValues(ctx app.Context, i int, vals Values) {
	sec := theArticle().sections[i]
	if len(vals) == 0 {
		delete(a.st.vals, sec.slug)
	} else {
		a.st.vals[sec.slug] = vals
	}
	a.st.views[i] = computeSection(a.ICache, sec, vals)
	a.gather()
	a.publish(ctx)
	a.writeURL(ctx, urlDelay)
}

// reset gives section i back its own values.
func (a *Article) reset(ctx app.Context, i int) {
	a.setValues(ctx, i, nil)
	a.writeURL(ctx, 0)
}

// writeURL puts the reader's values in the URL after delay, through the
// URL's owner (ui.OwnURL), replacing the entry; later calls supersede.
func (a *Article) writeURL(ctx app.Context, delay time.Duration) {
	a.urlSeq++
	seq := a.urlSeq
	write := func(ctx app.Context) {
		if seq != a.urlSeq {
			return
		}
		keys := url.Values{}
		for _, sec := range theArticle().sections {
			vals := a.st.vals[sec.slug]
			for _, adj := range sec.adjs {
				keys[adj.key()] = []string{vals[adj.field]} // "" removes it
			}
		}
		ctx.NewActionWithValue(ui.ActionKeys, keys)
		// The URL now holds these values: a later load of it needs no run.
		if u := ctx.Page().URL(); u != nil {
			a.raw = address.SetKeys(u.RawQuery, keys)
		}
	}
	ui.NowOrAfter(ctx, delay, "article URL", write)
}

// onAdjust takes a step or a drag of an adjustable number from web/page.js
// (adjustEvent). A drag's runs wait for a task of their own, so that a fast
// drag computes only the latest value asked for.
func (a *Article) onAdjust(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	d := e.Get("detail")
	if a.st == nil || !d.Truthy() {
		return
	}
	key, steps, from := d.Get("key").String(), d.Get("steps").Int(), d.Get("from").String()
	for i, sec := range theArticle().sections {
		for _, adj := range sec.adjs {
			if adj.key() != key {
				continue
			}
			vals := a.st.vals[sec.slug]
			base, drag := adj.fieldOf().fromData(from)
			if !drag {
				// A key steps from the value shown, at once: each press
				// is a step of its own.
				if v, moved := sec.step(adj, vals, steps); moved {
					a.set(ctx, i, adj, v)
				}
				return
			}
			v, _ := sec.step(adj, sec.with(adj, vals, base), steps)
			a.want = &wanted{i, adj, v}
			if !a.queue {
				a.queue = true
				ui.NextTask(ctx, func(ctx app.Context) {
					defer ui.Recover(ctx, "adjust")
					a.queue = false
					a.apply(ctx)
				})
			}
			return
		}
	}
}

// apply gives an adjustable the value last asked for, if it is new.
func (a *Article) apply(ctx app.Context) {
	w := a.want
	a.want = nil
	if w == nil {
		ctx.PreventUpdate()
		return
	}
	sec := theArticle().sections[w.sec]
	if cur, _ := sec.current(w.adj, a.st.vals[sec.slug]); cur == w.v {
		ctx.PreventUpdate()
		return
	}
	a.set(ctx, w.sec, w.adj, w.v)
}

// Render builds the article from what load and set computed.
func (a *Article) Render() app.UI {
	art := theArticle()
	body := []app.UI{
		app.H1().ID("article-title").Text(art.title),
		app.P().ID("adjust-help").Class("visually-hidden").Text("The arrow keys change it a step, Page Up and Page Down three steps, Home and End take it to its ends; the numbers, sentences and figures of its section follow."),
	}
	if a.err != "" {
		body = append(body, app.P().Class("error").Attr("role", "alert").Text(a.err))
	}
	if a.st != nil && len(a.st.notes) > 0 {
		notes := make([]app.UI, len(a.st.notes))
		for i, n := range a.st.notes {
			notes[i] = app.Li().Text(n)
		}
		body = append(body, app.Ul().Class("notices").DataSet("notices", len(notes)).Body(notes...))
	}
	for i, sec := range art.sections {
		body = append(body, a.renderSection(i, sec))
	}
	adjust, adjustScope := ui.On("adjust", a.onAdjust)
	// data-live: the numbers are the browser's, for this URL's values
	// (before it, web/page.js marks the prerendered ones as pending when
	// the URL holds values of the reader's); data-taken: taken over from
	// the HTML (takeover.go) rather than computed again.
	main := app.Main().ID("main").Class("article").DataSet("live", app.IsClient && a.st != nil)
	if a.taken {
		main = main.DataSet("taken", true)
	}
	if a.kept != "" {
		main = main.DataSet("prerender", a.kept)
	}
	return app.Div().Class("article-page").Body(
		app.A().Class("skip-link").Href("#article-title").DataSet("jump", "1").Text("Skip to the article"),
		app.Nav().Class("crumbs").Aria("label", "Site").Body(
			app.A().Href(ui.VisualiserLink("")).Text("← The visualiser")),
		main.On(adjustEvent, adjust, adjustScope).Body(app.Article().Body(body...)),
	)
}

// view returns section i's view, or nil before the first load.
func (a *Article) view(i int) *sectionView {
	if a.st == nil || i >= len(a.st.views) {
		return nil
	}
	return a.st.views[i]
}

// renderSection builds one section: its heading, what the reader changed,
// its paragraphs and figures.
func (a *Article) renderSection(i int, sec *section) app.UI {
	v := a.view(i)
	var body []app.UI
	if sec.heading != "" {
		h := app.H2().Text(sec.heading)
		if sec.slug != "" {
			h = h.ID(sec.slug)
		}
		body = append(body, h)
	}
	if len(sec.adjs) > 0 {
		body = append(body, a.renderTools(i, sec, v))
	}
	for j, b := range sec.blocks {
		if b.figure != nil {
			body = append(body, a.figure(*b.figure, v))
			continue
		}
		if b.printout != nil {
			body = append(body, printoutFigure(b.printout))
			continue
		}
		body = append(body, app.P().Body(a.segs(i, b.para, v)...))
		if i == 0 && j == 0 {
			body = append(body, app.P().Class("adjust-hint").Body(
				app.Text("The numbers in a dashed frame are yours to change: drag one sideways, or reach it with Tab and press the arrow keys. The numbers, sentences and figures of its section follow, and the address keeps what you changed, so you can share it."),
			))
		}
	}
	if sec.heading == "" {
		return app.Div().Class("lead").Body(body...)
	}
	s := app.Section().Class("part").Body(body...)
	if sec.slug != "" {
		s = s.Aria("labelledby", sec.slug).DataSet("section", sec.slug)
	}
	return s
}

// renderTools says what the reader changed in a section, with its reset.
func (a *Article) renderTools(i int, sec *section, v *sectionView) app.UI {
	said := ""
	if v != nil {
		for _, adj := range sec.adjs {
			if cur, set := sec.current(adj, v.vals); set {
				f := adj.fieldOf()
				own, _ := sec.current(adj, nil)
				if said != "" {
					said += "; "
				}
				said += f.label + " " + f.show(cur) + " (the article's: " + f.show(own) + ")"
			}
		}
	}
	p := app.P().Class("section-tools").DataSet("changed", said != "")
	if said == "" {
		return p.Text("")
	}
	return p.Body(
		app.Text("You changed "+said+". "),
		app.Button().Type("button").Class("reset").DataSet("reset", sec.slug).
			OnClick(ui.On("reset/"+sec.slug, func(ctx app.Context, e app.Event) { a.reset(ctx, i) })).
			Text("Reset this section"),
	)
}

// segs renders a paragraph's segments for section i.
func (a *Article) segs(i int, segs []seg, v *sectionView) []app.UI {
	parts := make([]app.UI, 0, len(segs))
	for _, g := range segs {
		switch {
		case g.num != nil && g.num.adj != nil:
			parts = append(parts, a.adjustable(i, g.num, v))
		case g.num != nil:
			parts = append(parts, a.number(g.num, v))
		case g.fixed != nil:
			parts = append(parts, fixedNumber(g.fixed))
		case g.claim != nil:
			parts = append(parts, a.claim(i, g.claim, v))
		case g.emph:
			parts = append(parts, app.Em().Text(g.text))
		default:
			parts = append(parts, app.Text(g.text))
		}
	}
	return parts
}

// claim renders a claim's sentence: the one that holds. The span stays in
// place whichever it is, so that the paragraph's other parts keep theirs.
func (a *Article) claim(i int, c *claim, v *sectionView) app.UI {
	s := app.Span().Class("claim").DataSet("claim", c.id)
	if v == nil {
		return s.Text("")
	}
	holds, known := v.verdicts[c]
	if !known {
		return s.Text("")
	}
	part := c.els
	if holds {
		part = c.then
	}
	return s.DataSet("holds", holds).Body(a.segs(i, part, v)...)
}

// ref returns the number a slot shows in a section, if computed.
func (a *Article) ref(s *slot, v *sectionView) (NumRef, NumValue, bool) {
	if v == nil {
		return NumRef{}, NumValue{}, false
	}
	r := NumRef{v.queries[s.name], s.metric}
	n, ok := v.nums[r]
	return r, n, ok
}

// number renders one computed number with its exact value in attributes.
func (a *Article) number(s *slot, v *sectionView) app.UI {
	r, n, ok := a.ref(s, v)
	if !ok {
		return app.Span().Class("num pending").Text("…")
	}
	if n.IsText {
		return app.Span().Class("reason").DataSet("reason", r.Metric).DataSet("query", r.Query).Text(n.Text)
	}
	span := app.Span().Class("num").DataSet("metric", r.Metric).DataSet("query", r.Query)
	if n.IsNs {
		span = span.DataSet("ns", units.Raw(n.Value)).Title("%s", units.ExactNs(n.Value))
	} else {
		span = span.DataSet("value", units.Raw(n.Value))
	}
	return span.Text(n.Text)
}

// adjustable renders a number the reader may change: a spin button with
// its value, range and unit, stepped with the arrow keys or dragged.
func (a *Article) adjustable(i int, s *slot, v *sectionView) app.UI {
	r, n, ok := a.ref(s, v)
	adj := s.adj
	if !ok {
		return app.Span().Class("num adjust pending").Text("…")
	}
	f := adj.fieldOf()
	sec := theArticle().sections[i]
	cur, set := sec.current(adj, v.vals)
	b := v.bounds[adj]
	// Its keys and drags are web/page.js's, which sends adjustEvent.
	span := app.Span().Class("num", "adjust").Attr("role", "spinbutton").TabIndex(0).
		Aria("label", f.label).Aria("valuenow", f.number(cur)).Aria("valuemin", f.number(b[0])).
		Aria("valuemax", f.number(b[1])).Aria("valuetext", f.spoken(cur)).Aria("describedby", "adjust-help").
		DataSet("adjust", adj.field).DataSet("key", adj.key()).DataSet("changed", set).
		DataSet("metric", r.Metric).DataSet("query", r.Query)
	if n.IsNs {
		span = span.DataSet("ns", units.Raw(n.Value)).Title("%s", f.label+": drag, or use the arrow keys ("+units.ExactNs(n.Value)+")")
	} else {
		span = span.DataSet("value", units.Raw(n.Value)).Title("%s", f.label+": drag, or use the arrow keys")
	}
	return span.Text(n.Text)
}

// figure is a figure bound to its section's query: a chart, or the
// animation (which follows the result publish gave it).
func (a *Article) figure(f figureRef, v *sectionView) app.UI {
	q := query(f.name).q
	if v != nil {
		q = v.queries[f.name]
	}
	if k, ok := charts.ParseKind(f.kind); ok {
		if f.sweep != "" {
			// The landscape: the section's query swept (its own values
			// included), a run per point.
			q = address.ParseAddress(q).With(address.KeySweep, f.sweep).String()
		}
		return &chartFigure{IKind: k, IQuery: q, ICache: a.ICache}
	}
	return app.Figure().Class("figure").DataSet("figure", f.kind).DataSet("query", q).Body(
		&anim.Panel{},
		app.FigCaption().Body(app.A().Href(ui.VisualiserLink(q)).Text("Open in the visualiser")),
	)
}
