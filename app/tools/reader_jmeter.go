package tools

import "omission/app/measure"

// FormatJTL is JMeter's results file (-l results.jtl) in CSV, its default.
// Its reader (parseJTL) is in reader_jmeter_read.go: the page's app.wasm,
// built with the minimal tag, leaves it out (reader_jmeter_minimal.go).
const FormatJTL measure.Format = "jmeter-jtl"

var jtlReader = measure.Reader{
	Format: FormatJTL, Title: "JMeter results file (JTL, CSV)",
	When: measure.InTurn,
	// The header names timeStamp (its columns in any order); a JTL
	// without its header (2.13's default) starts with a sample, its
	// dataType and success side by side.
	Marks: []measure.Mark{{Contains: "timeStamp,"}, {Contains: ",timeStamp"}, {Prefix: "timeStamp\t"},
		{Contains: ",text,true"}, {Contains: ",text,false"}, {Contains: ",bin,true"}, {Contains: ",bin,false"}},
	Read: parseJTL,
}
