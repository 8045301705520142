package article

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/units"
)

// printoutFigure shows a real tool's printout as it was printed, every
// character a text node.
func printoutFigure(p *printoutRef) app.UI {
	return app.Figure().Class("figure", "printout").DataSet("printout", p.name).Body(
		app.Pre().Class("tool-output").TabIndex(0).Aria("label", p.file+", as the tool printed it").Text(p.text),
		app.FigCaption().Text(p.file+", as the tool printed it"),
	)
}

// fixedNumber shows a number read from a real file when the article was
// generated; its exact value and where it came from are in attributes.
func fixedNumber(f *fixedNum) app.UI {
	span := app.Span().Class("num", "fixed").DataSet("printout", f.printout).DataSet("fixed", f.metric)
	if f.ns {
		span = span.DataSet("ns", units.Raw(f.value)).Title("%s", units.ExactNs(f.value)+", read from "+f.printout)
	} else {
		span = span.DataSet("value", units.Raw(f.value)).Title("%s", "read from "+f.printout)
	}
	return span.Text(f.text)
}
