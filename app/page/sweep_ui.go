package page

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/charts"
	"omission/app/ui"
	"omission/app/units"
	"omission/sim/sweep"
)

// sweepPanel is the landscape beside the charts: off until asked (a
// button that writes sweep= with a spec for the query), then the sweep's
// controls, its progress with Cancel, and the landscape of the points that
// came, each point a link that shows its numbers on hover or focus and
// opens its run.
type sweepPanel struct {
	app.Compo

	ISpec string // the URL's sweep= ("" off)
	IErr  string // why the spec cannot run
	// IMetricErr says why metric= is not taken (the landscape draws p99).
	IMetricErr string
	IMetric    string
	IDefault   string // the spec the landscape starts from for this query
	IRefused   refusal

	ISeq int64 // the page's run: the points shown are its sweep's

	shown sweepShown // observed: stateSweep, the points as they arrive
}

// OnMount runs on the UI goroutine: the panel follows the sweep's points.
func (s *sweepPanel) OnMount(ctx app.Context) { ctx.ObserveState(stateSweep, &s.shown) }

// OnPreRender is OnMount where go-app runs natively.
func (s *sweepPanel) OnPreRender(ctx app.Context) { ctx.ObserveState(stateSweep, &s.shown) }

// current is what the panel shows of the sweep: the points of the page's
// run and spec, else none yet.
func (s *sweepPanel) current() sweepShown {
	if s.shown.seq != s.ISeq || s.shown.spec != s.ISpec {
		return sweepShown{}
	}
	return s.shown
}

// actionSweepField asks the page for a spec of another field (Value: its
// name): a range around the query's value of it.
const actionSweepField = "omission/page/sweep-field"

// Render lays the panel out.
func (s *sweepPanel) Render() app.UI {
	body := []app.UI{app.H2().ID("sweep-title").Text("When does it get bad? The landscape")}
	if s.ISpec == "" {
		body = append(body,
			app.P().Class("legend").Text("Run this query again with one field moved over a range, a run per point, and draw how each recording's p99 (or another number) moves with it: where the closed loop stops describing the server, and how fast."),
			sweepButton("sweep-on", "Draw the landscape", actionSweep, s.IDefault),
		)
		return s.section(body)
	}
	body = append(body, s.renderControls())
	if s.IMetricErr != "" {
		body = append(body, sweepAlert("metric-error", address.KeyMetric, s.IMetricErr))
	}
	if s.IErr != "" {
		body = append(body, sweepAlert("sweep-error", address.KeySweep, s.IErr))
		return s.section(body)
	}
	if s.IRefused.On {
		body = append(body, app.P().Class("muted", "refused").Text(s.IRefused.sentence("no point of the sweep was run")))
		return s.section(body)
	}
	cur := s.current()
	body = append(body, renderSweepStatus(cur))
	if cur.chart != nil {
		body = append(body, renderLandscape(cur, s.IMetric))
	}
	return s.section(body)
}

func (s *sweepPanel) section(body []app.UI) app.UI {
	cur := s.current()
	sec := app.Section().ID("sweep").Class("sweep").Aria("labelledby", "sweep-title").DataSet("points", len(cur.points))
	if cur.done {
		sec = sec.DataSet("done", "1").DataSet("ms", units.Raw(cur.ms))
	}
	return sec.Body(body...)
}

// renderControls are the sweep's field, range, points and metric.
func (s *sweepPanel) renderControls() app.UI {
	parts := splitSweep(s.ISpec)
	set := func(f func(p *sweepParts, v string)) func(ctx app.Context, e app.Event) {
		return func(ctx app.Context, e app.Event) {
			p := parts
			f(&p, strings.TrimSpace(ctx.JSSrc().Get("value").String()))
			ctx.NewActionWithValue(actionSweep, p.spec())
		}
	}
	text := func(id, label, hint, value, scope string, f func(p *sweepParts, v string)) app.UI {
		return app.Div().Class("sweep-field").Body(
			app.Label().For(id).Text(label),
			app.Input().Type("text").ID(id).Class("text").Attr("autocomplete", "off").Attr("spellcheck", "false").
				Value(value).Aria("describedby", id+"-hint").Aria("invalid", s.IErr != "").
				OnChange(ui.On(scope+"/"+s.ISpec, set(f))), // the scope holds the spec the edit starts from (ui.On)
			app.Span().ID(id+"-hint").Class("hint").Text(hint),
		)
	}
	return app.Div().Class("sweep-controls").Attr("role", "group").Aria("label", "The sweep").Body(
		sweepSelect("sweep-field", "Field", actionSweepField, sweep.Fields(), parts.Field),
		text("sweep-from", "From", "the first point, in the field's own syntax", parts.From, "sweep/from", func(p *sweepParts, v string) { p.From = v }),
		text("sweep-to", "To", "the last point at most", parts.To, "sweep/to", func(p *sweepParts, v string) { p.To = v }),
		text("sweep-form", "Points", "a count (50), a step with its unit (25ms) or a factor (x2)", parts.Form, "sweep/form", func(p *sweepParts, v string) { p.Form = v }),
		sweepSelect("sweep-metric", "Metric", actionSweepMetric, charts.LandscapeMetrics(), s.IMetric),
		app.P().Class("legend").Body(app.Text("sweep="), app.Code().DataSet("sweep", s.ISpec).Text(s.ISpec),
			app.Text(fmt.Sprintf(" · at most %d points, which together, and each, keep to the page's budget for one run; a point past it is refused alone and drawn as a cross.", sweep.MaxPoints))),
		sweepButton("sweep-off", "Close the landscape", actionSweep, ""),
	)
}

// renderSweepStatus says how far the sweep is, with Cancel while it runs.
func renderSweepStatus(s sweepShown) app.UI {
	n, refused := len(s.points), 0
	for _, p := range s.points {
		if p.Refused != "" {
			refused++
		}
	}
	var msg app.UI
	switch {
	case s.err != "":
		msg = sweepAlert("sweep-run-error", address.KeySweep, s.err)
	case s.done:
		words := fmt.Sprintf("%s of the sweep, each an exact run of its own query", units.Plural(int64(n), "point"))
		if refused > 0 {
			words += fmt.Sprintf(" (%d refused: the crosses; the table says why)", refused)
		}
		msg = app.P().Class("sweep-status").Text(words + ".")
	case s.cancelled:
		msg = app.P().Class("sweep-status", "cancelled").Body(
			app.Text(fmt.Sprintf("Stopped after %d of %d points. ", n, s.total)),
			sweepButton("sweep-rerun", "Run the rest", actionSweepCancel, false))
	default:
		total := s.total
		if total == 0 {
			total = 1
		}
		pct := 100 * n / total
		msg = app.Div().Class("sweep-status", "running").Body(
			app.Label().For("sweep-progress").Text(fmt.Sprintf("Running the sweep: %d of %d points… ", n, s.total)),
			app.Progress().ID("sweep-progress").Max(100).Value(pct).Aria("valuetext", fmt.Sprintf("%d of %d points", n, s.total)).Text(fmt.Sprintf("%d%%", pct)),
			sweepButton("sweep-cancel", "Cancel", actionSweepCancel, true))
	}
	return app.Div().Class("status-line").Aria("live", "polite").Body(msg)
}

// renderLandscape is the landscape with a link over each point: its
// numbers show on hover and focus, and it opens the point's run.
func renderLandscape(s sweepShown, metric string) app.UI {
	ch := s.chart
	spots := make([]app.UI, 0, len(ch.Spots))
	for _, sp := range ch.Spots {
		if sp.Index >= len(s.points) || sp.Index >= len(ch.Table.Rows) {
			continue
		}
		pt := s.points[sp.Index]
		words := spotWords(ch.Table, sp.Index, metricWords(metric))
		side, frac := "", sp.X/float64(ch.Width) // the tip stays over the chart
		switch {
		case frac < 0.3:
			side = "start"
		case frac > 0.7:
			side = "end"
		}
		spots = append(spots, app.A().Class("marker", "spot").Href(ui.VisualiserLink(pt.Query)).
			DataSet("point", sp.Index).DataSet("query", pt.Query).DataSet("side", side).
			Aria("label", words+" Opens this run.").
			DataSet("left", fmt.Sprintf("%.3f", 100*sp.X/float64(ch.Width))).
			DataSet("top", fmt.Sprintf("%.3f", 100*sp.Y/float64(ch.Height))).
			Body(app.Span().Class("tip").Aria("hidden", "true").Text(words)))
	}
	return app.Figure().Class("figure").DataSet("chart", ch.Kind.String()).Body(
		app.H3().Text(ch.Title),
		app.Div().Class("chart-svg").Body(append([]app.UI{
			app.Img().Src(s.src).Alt(ch.Title + ". " + ch.Caption).Width(ch.Width).Height(ch.Height),
		}, spots...)...),
		app.FigCaption().Body(
			app.Span().Text(ch.Caption), app.Text(" "),
			app.A().Href(s.src).Attr("download", "omission-landscape.svg").Text("Download SVG"),
		),
		ui.ChartTable(ch.Table, ch.Title),
	)
}

// spotWords says a point's numbers from its row of the landscape's table:
// the field's value, then each recording's metric, or why it was refused.
func spotWords(t charts.Table, i int, metric string) string {
	row := t.Rows[i]
	last := len(row) - 1
	if row[last] != "" {
		return fmt.Sprintf("%s %s: refused, %s.", t.Header[0], row[0], strings.TrimSuffix(row[last], "."))
	}
	var parts []string
	for j := 1; j < last; j++ {
		if row[j] == "—" {
			continue
		}
		parts = append(parts, t.Header[j]+" "+row[j])
	}
	return fmt.Sprintf("%s %s, %s: %s.", t.Header[0], row[0], metric, strings.Join(parts, ", "))
}

// metricWords names a landscape metric for people.
func metricWords(m string) string {
	switch m {
	case "max", "mean":
		return m
	case "above_share":
		return "share above the threshold"
	case "never_sent":
		return "requests never sent (paced)"
	}
	return strings.ReplaceAll(m, "_", ".")
}

// sweepButton is a button of the panel that sends the page action with
// value.
func sweepButton(id, label, action string, value any) app.UI {
	return app.Button().Type("button").ID(id).
		// The scope holds the value: go-app keeps a handler whose scope
		// is unchanged (ui.On).
		OnClick(ui.On(id+"/"+fmt.Sprint(value), func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(action, value) })).Text(label)
}

// sweepSelect is a labelled choice of the panel that sends the page action
// with the value chosen (a metric is named for people).
func sweepSelect(id, label, action string, values []string, chosen string) app.UI {
	opts := make([]app.UI, len(values))
	for i, v := range values {
		text := v
		if action == actionSweepMetric {
			text = metricWords(v)
		}
		opts[i] = app.Option().Value(v).Text(text).Selected(v == chosen)
	}
	return app.Div().Class("sweep-field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).Attr("value", chosen).
			OnChange(ui.On(id, func(ctx app.Context, e app.Event) {
				ctx.NewActionWithValue(action, ctx.JSSrc().Get("value").String())
			})).Body(opts...))
}

// sweepAlert is one of the panel's messages, naming its key (data-error).
func sweepAlert(id, key, text string) app.UI {
	return app.P().ID(id).Class("error").DataSet("error", key).Attr("role", "alert").Text(text)
}
