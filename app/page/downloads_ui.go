package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/ui"
	"omission/app/worker"
	"omission/sim"
)

// downloadsPanel offers the run's recordings as files HdrHistogram's own
// tools read: an .hgrm percentile distribution per recording, an .hlog
// interval log and a CSV of every recording. The worker writes them from
// the result it keeps (the same bytes as `app export`); nothing is sent
// anywhere.
type downloadsPanel struct {
	app.Compo

	IReady   bool    // a result of the page's query is on show
	ISaved   string  // what became of the last download asked for
	IRefused refusal // nothing runs for the page's query: no file to write
}

// Render lays the panel out.
func (d *downloadsPanel) Render() app.UI {
	hgrm := make([]app.UI, 0, len(sim.Kinds()))
	for _, k := range sim.Kinds() {
		hgrm = append(hgrm, d.button(worker.Export{Format: "hgrm", Recording: k.String()}, k.String()))
	}
	return app.Section().ID("downloads").Class("downloads").Aria("labelledby", "downloads-title").Body(
		app.H2().ID("downloads-title").Text("Take the recordings with you"),
		app.P().Class("legend").Text("The files HdrHistogram's tools read, written in this browser from the run on show: the same bytes as the export command prints for this address."),
		app.If(!d.IReady, func() app.UI {
			return app.P().Class(emptyClass(d.IRefused)...).DataSet("empty", "downloads").Text(d.empty())
		}),
		app.Div().Class("download-row").Body(
			app.Span().Class("download-what").Text("Percentile distribution (.hgrm), one recording:"),
			app.Div().Class("download-buttons").Body(hgrm...),
		),
		app.Div().Class("download-row").Body(
			app.Span().Class("download-what").Text("Every recording:"),
			app.Div().Class("download-buttons").Body(
				d.button(worker.Export{Format: "hlog"}, "interval log (.hlog)"),
				d.button(worker.Export{Format: "csv"}, "samples (.csv)"),
			),
		),
		app.P().Class("status").Attr("role", "status").Text(d.ISaved),
	)
}

// button asks the page for the file e.
func (d *downloadsPanel) button(e worker.Export, label string) app.UI {
	scope := "export/" + e.Format + "/" + e.Recording
	return app.Button().Type("button").DataSet("export", e.Format+"/"+e.Recording).Disabled(!d.IReady).
		OnClick(ui.On(scope, func(ctx app.Context, _ app.Event) { ctx.NewActionWithValue(actionExport, e) })).
		Text(label)
}

// empty says why the buttons are disabled: the run was refused, or it is
// not computed yet.
func (d *downloadsPanel) empty() string {
	if d.IRefused.On {
		return d.IRefused.sentence("there is no file to write")
	}
	return "Not computed yet: the files are written from the run on show, once it is simulated."
}
