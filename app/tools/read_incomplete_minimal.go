//go:build minimal

package tools

import "omission/app/measure"

// The page's app.wasm checks no printout for being whole
// (read_incomplete.go): its readers have no Incomplete.
var wrkIncomplete, wrk2Incomplete, heyIncomplete, abIncomplete, fortioIncomplete, locustIncomplete func(*measure.File, []measure.Line) []string
