package page

import (
	"fmt"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/tools"
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"
	"omission/app/worker"

	"omission/sim"
)

// toolsPanel is "What your tool would print": for each load generator the
// URL names, its printed output for this very run, its headline figures
// beside the open loop's (what every user of the server saw), planned
// against sent and dropped, and its mechanics with the source they follow.
type toolsPanel struct {
	app.Compo

	ISelected []string        // tools= of the URL
	IOutputs  []*tools.Output // what the worker ran (in ISelected's order)
	IVariants []tools.Variant
	IErr      string
	IOpen     *view.View // the run's result: its open loop is the reference
	IRefused  refusal    // nothing runs for the page's query: no tool is played
}

// Render lays the panel out.
func (t *toolsPanel) Render() app.UI {
	selected := map[string]bool{}
	for _, n := range t.ISelected {
		selected[n] = true
	}
	boxes := make([]app.UI, 0, len(tools.Names()))
	for _, n := range tools.Names() {
		name := n
		plain, _, _, _ := tools.Describe(name)
		cb := app.Input().Type("checkbox").ID("tool-"+name).DataSet("tool", name).
			OnChange(ui.On("tool/"+name, func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionTool, name) }))
		if selected[name] || app.IsClient {
			cb = cb.Checked(selected[name])
		}
		boxes = append(boxes, app.Label().Class("tool-choice").Title("%s", plain).Body(cb, app.Text(" "+name)))
	}
	body := []app.UI{
		app.H2().ID("tools-title").Text("What your load generator would have printed"),
		app.P().Class("legend").Text("Each tool is played against this very server, with its own way of sending, timing and summarising, as its source code does. Tick one to see its output, what it does in words, and under \"The rule\" the formula its source follows."),
		// One Tab stop for the list, the arrows between its tools (the
		// roving groups of web/page.js): the animation is not 27 stops on.
		app.FieldSet().Class("tool-choices").Body(app.Legend().Text("Tools (the arrow keys move between them)"), app.Div().DataSet("roving", "tools").Body(boxes...)),
	}
	if t.IErr != "" {
		body = append(body, app.P().Class("error").Attr("role", "alert").Text(t.IErr))
	}
	var open *view.Cell
	if t.IOpen != nil {
		open = t.IOpen.CellByID("open.p99")
	}
	if why := t.empty(); why != "" {
		body = append(body, app.P().Class(emptyClass(t.IRefused)...).DataSet("empty", "tools").Attr("role", "status").Text(why))
	}
	for _, o := range t.IOutputs {
		body = append(body, toolCard(o, open))
	}
	if len(t.IVariants) > 0 {
		body = append(body, variantsTable(t.IVariants))
	}
	return app.Section().ID("tools").Class("tools").Aria("labelledby", "tools-title").Body(body...)
}

// empty says why tools are ticked and no output is shown: the run was
// refused, or it is not computed yet ("" otherwise).
func (t *toolsPanel) empty() string {
	switch {
	case len(t.ISelected) == 0 || len(t.IOutputs) > 0 || t.IErr != "":
		return ""
	case t.IRefused.On:
		return t.IRefused.sentence("no tool was played")
	}
	return "Not computed yet: each tool ticked is played against the run once it is simulated."
}

// toolCard is one tool's output and how it compares: what the tool does
// in sentences, its rule in formulas behind a toggle.
func toolCard(o *tools.Output, open *view.Cell) app.UI {
	facts := []app.UI{
		app.Dt().Text("p99 it reports"), reported(o, o.P99Ns, "tools."+o.Name+".p99"),
	}
	if open != nil {
		facts = append(facts, app.Dt().Text("the open loop's p99"), app.Dd().Text(open.Text))
	}
	facts = append(facts,
		app.Dt().Text("planned"), app.Dd().DataSet("metric", "tools."+o.Name+".planned").DataSet("value", o.Planned).Text(units.Count(o.Planned)),
		app.Dt().Text("sent"), app.Dd().DataSet("metric", "tools."+o.Name+".sent").DataSet("value", o.Sent).Text(units.Count(o.Sent)),
		app.Dt().Text("recorded"), app.Dd().Text(units.Count(o.Recorded)),
	)
	if o.Dropped > 0 {
		facts = append(facts, app.Dt().Text("dropped"), app.Dd().DataSet("metric", "tools."+o.Name+".dropped").DataSet("value", o.Dropped).Text(units.Count(o.Dropped)))
	}
	return app.Article().Class("tool-card").DataSet("tool", o.Name).Body(
		app.H3().Text(o.Name),
		app.P().Class("mechanics").Body(app.Text(o.Plain+" "), app.A().Href(o.Source).Rel("noopener").Target("_blank").Text("Source")),
		app.Details().Class("tool-rule").Body(
			app.Summary().Text("The rule"),
			app.P().Class("rule").Text(o.Mechanics),
		),
		app.P().Class("command").Body(app.Code().Text(o.Command)),
		app.Dl().Class("tool-facts").Body(facts...),
		app.If(o.Zero != nil && o.Recorded > 0 && o.P99Ns == 0, func() app.UI {
			return app.P().Class("zero-why").Text("Why " + zeroText(o) + ": " + o.Zero.Why + ".")
		}),
		app.Pre().Class("tool-output").TabIndex(0).Aria("label", o.Name+"'s output").Text(o.Text),
		app.If(len(o.Notes) > 0, func() app.UI {
			notes := make([]app.UI, len(o.Notes))
			for i, n := range o.Notes {
				notes[i] = app.Li().Text(n)
			}
			return app.Ul().Class("tool-notes").Aria("label", "about "+o.Name+"'s output").Body(notes...)
		}),
	)
}

// reported is a latency a tool reports: as it prints it when its rounding
// made it 0 (the card then says why), else as a duration.
func reported(o *tools.Output, ns int64, metric string) app.UI {
	dd := app.Dd().DataSet("metric", metric).DataSet("ns", ns)
	if ns == 0 && o.Zero != nil && o.Recorded > 0 {
		return dd.Class("zero").Body(app.Code().Text(o.Zero.Printed), app.Text(" "+o.Zero.Unit+", as "+o.Name+" prints it"))
	}
	return dd.Text(units.Duration(ns))
}

// toolBrands are the load generators the tools panel plays, each once
// (wrk and wrk2 are two; k6's executors one): "wrk, wrk2, k6, …".
func toolBrands() []string {
	var out []string
	for _, n := range tools.Names() {
		if i := strings.IndexByte(n, '-'); i > 0 {
			n = n[:i]
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// toolsPointer is the words of the first screen's pointer to the tools
// panel, made once: how many tools, not their names (the panel names them,
// and the import panel lists them: fileKinds).
var toolsPointer = fmt.Sprintf("What %d real load tools would have printed ↓", len(toolBrands()))

// renderToolsPointer is the first screen's pointer to the tools panel,
// far down the page.
func renderToolsPointer() app.UI {
	return app.A().ID("to-tools").Href("#tools").DataSet("jump", "1").Text(toolsPointer)
}

// variantsTable shows what the correction does with each interval.
func variantsTable(vs []tools.Variant) app.UI {
	rows := make([]app.UI, 0, len(vs))
	for _, v := range vs {
		rows = append(rows, app.Tr().DataSet("variant", v.Name).Body(
			app.Th().Scope("row").Title("%s", v.What).Text(v.Name),
			app.Td().Text(v.Recording),
			app.Td().Text(units.Duration(v.E)),
			app.Td().Text(units.Duration(v.BeforeP90)+" → "+units.Duration(v.P90)),
			app.Td().Text(units.Duration(v.BeforeP99)+" → "+units.Duration(v.P99)),
			app.Td().Text(units.Duration(v.BeforeP999)+" → "+units.Duration(v.P999)),
		))
	}
	return app.Div().Class("table-wrap").Body(app.Table().Class("variants").Body(
		app.Caption().Text("Correcting afterwards: HdrHistogram's correction with the interval configured, measured as a mean or a median, and applied again to data already timed from the intended send"),
		app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("variant"), app.Th().Scope("col").Text("recording"), app.Th().Scope("col").Text("E"),
			app.Th().Scope("col").Text("p90"), app.Th().Scope("col").Text("p99"), app.Th().Scope("col").Text("p99.9"))),
		app.TBody().Body(rows...),
	))
}

// comparePanel sets and shows the comparison (vs=).
type comparePanel struct {
	app.Compo

	IVs    string // vs= of the URL
	ICanon string // its canonical query, when it runs
	IErr   string
	IView  *view.View // the comparison's run, once it came
}

// Render lays the panel out.
func (c *comparePanel) Render() app.UI {
	body := []app.UI{app.H2().ID("compare-title").Text("Two models side by side")}
	if c.IVs == "" {
		body = append(body,
			app.P().Class("legend").Text("Keep the current parameters as a second model, then change them: the table gains the second model's columns and the charts draw it dashed."),
			app.Button().Type("button").ID("compare-with").OnClick(ui.On("compare/on", func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionCompare, true) })).
				Text("Compare with the current parameters"),
		)
	} else {
		label := sim.QueryWords(c.ICanon)
		if c.ICanon == "" {
			label = c.IVs
		}
		body = append(body, app.P().Body(app.Text("Comparing with: "), app.Code().DataSet("vs", c.ICanon).Text(label), app.Text(" ")),
			app.Button().Type("button").ID("compare-off").OnClick(ui.On("compare/off", func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionCompare, false) })).
				Text("Stop comparing"))
	}
	if c.IErr != "" {
		body = append(body, app.P().Class("error").Attr("role", "alert").Text(c.IErr))
	}
	return app.Section().ID("compare").Class("compare").Aria("labelledby", "compare-title").Body(body...)
}

// importPanel takes the reader's measurement files: a file input, a drop
// onto the page, or pasted text. It lists the files kept, each drawn in a
// look of its own (charts.MeasuredLook), each with a button that removes
// it.
type importPanel struct {
	app.Compo

	IFiles   []listedFile
	IFits    map[string]app.Value // the fits asked (fit.go)
	IReading string
	INotice  string // what became of the files last read or removed
	IQuery   string // the run's canonical query, for the experiment's command

	err   string // observed: stateImportErr
	paste string // the pasted text
}

// OnMount runs on the UI goroutine: the panel follows its message.
func (i *importPanel) OnMount(ctx app.Context) { ctx.ObserveState(stateImportErr, &i.err) }

// Render lays the panel out.
func (i *importPanel) Render() app.UI {
	return app.Section().ID("measured").Class("measured").Aria("labelledby", "measured-title").Body(
		app.H2().ID("measured-title").Text("Your measurement beside the model"),
		app.P().Class("legend").Textf("Drop a file onto the page, choose one, or paste its text: %s. It is read in this browser and never sent anywhere, nor put in the address. The page keeps %d files, each drawn in a colour and a dash of its own; one more replaces the oldest, and says so.", fileKinds, worker.MaxFiles),
		app.Div().Class("import-row").Body(
			app.Label().For("import-file").Text("Measurement file"),
			app.Input().Type("file").ID("import-file").DataSet("import", "1").
				OnChange(ui.On("import/file", func(ctx app.Context, e app.Event) {
					readFile(ctx, ctx.JSSrc().Get("files").Index(0))
					ctx.JSSrc().Set("value", "") // the same file again is a change too
				})),
		),
		app.Details().Class("paste").Body(
			app.Summary().Text("Paste a measurement instead"),
			app.Label().For("import-paste").Text("Its text"),
			app.Textarea().ID("import-paste").Rows(6).Attr("spellcheck", "false").
				OnInput(ui.On("import/paste-text", func(ctx app.Context, e app.Event) { i.paste = ctx.JSSrc().Get("value").String() })),
			app.Button().Type("button").ID("import-paste-read").OnClick(ui.On("import/paste", func(ctx app.Context, e app.Event) {
				ctx.NewActionWithValue(actionImport, worker.File{Name: "pasted", Data: i.paste})
			})).Text("Read it"),
		),
		app.If(i.err != "", func() app.UI { return app.P().Class("error").Attr("role", "alert").Text(i.err) }),
		app.If(i.IReading != "", func() app.UI { return app.P().Class("status").Textf("Reading %s…", i.IReading) }),
		app.P().Class("status", "files-notice").Attr("role", "status").Text(i.INotice),
		app.Ul().Class("files").Aria("label", "Files read").Body(i.fileItems()...),
		app.P().Class("legend").Body(
			app.Text("To measure a real server against this model on your own machine, run "),
			app.Code().Text("go run ./app experiment -out DIR "+shellQuote(i.IQuery)),
			app.Text(" and drop the files it writes here."),
		),
	)
}

// fileItems lists the files kept: each distribution's swatch and a
// button that removes the file.
func (i *importPanel) fileItems() []app.UI {
	items := make([]app.UI, 0, len(i.IFiles))
	for _, f := range i.IFiles {
		name := f.Name
		body := []app.UI{}
		for _, l := range f.Looks {
			body = append(body, app.Img().Class("swatch").Src(l.Src).Width(28).Height(10).Alt(l.What).Title("%s", l.What).DataSet("look", l.N))
		}
		line := app.Text(f.Format)
		if f.Err != "" {
			line = app.Span().Class("error").Text(f.Err)
		}
		body = append(body, app.Text(" "), app.Strong().Text(f.Name), app.Text(": "), line, app.Text(" "),
			app.Button().Type("button").Class("forget").OnClick(ui.On("forget/"+name, func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionForget, name) })).
				Text("Remove "+f.Name))
		if f.Err == "" || f.FitReads {
			body = append(body, checkLine(f.Check))
			body = append(body, fitControls(i.IFits, name)...)
		}
		items = append(items, app.Li().DataSet("file", f.Name).Body(body...))
	}
	return items
}

// checkLine says, beside a file read, whether it is whole (fileCheck):
// while fit.wasm checks it, that its numbers wait for the word; when it is
// cut, what it lacks, as an alert.
func checkLine(c fileCheck) app.UI {
	switch c.State {
	case "checking":
		return app.P().Class("status", "file-check").DataSet("check", c.State).Text("Checking that the file is whole…")
	case "incomplete":
		return app.P().Class("error", "file-check").DataSet("check", c.State).Attr("role", "alert").
			Text("This file is incomplete: it lacks " + strings.Join(c.Lacks, "; and ") + ". Its numbers are of part of a run, not of the whole test; give the whole file.")
	case "unknown":
		return app.P().Class("status", "file-check").DataSet("check", c.State).Text("Not checked for being whole: " + c.Why + ".")
	}
	return app.P().Class("file-check").DataSet("check", c.State).Hidden(true)
}
