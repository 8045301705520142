//go:build minimal

package tools

import "omission/app/measure"

// parseJTL in the page's app.wasm: its reader is left out
// (reader_jmeter_read.go), and a JTL is refused with where it is read.
func parseJTL(name string, ls []measure.Line) (*measure.File, error) {
	return nil, &measure.ParseError{Name: name, Format: FormatJTL, Line: 1, LeftOut: true,
		Msg: "the page does not draw a JMeter JTL beside the model (its reader is left out of the page's build, for its size); \"What did this test hide?\" reads and fits it, as go run ./app report -fit FILE does"}
}
