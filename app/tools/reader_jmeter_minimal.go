//go:build minimal

package tools

import "omission/app/measure"

// parseJTL in the page's app.wasm: its reader is left out
// (reader_jmeter_read.go), and a JTL is refused with where it is read.
func parseJTL(name string, ls []measure.Line) (*measure.File, error) {
	return nil, &measure.ParseError{Name: name, Format: FormatJTL, Line: 1,
		Msg: "the page does not read a JMeter JTL (its reader is left out of the page's build, for its size): read and fit it with the command, omission report -measured FILE or report -fit FILE"}
}
