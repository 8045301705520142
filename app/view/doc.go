// Package view formats a sim.Result once for the page: the headline, the
// results table (every cell with its exact value and the check that proves
// it), the checks in words and the cost line. Components only read it, and
// so does the report command's text table (app/cli/report.go), which prints the
// same rows under the same labels with the numbers in a terminal's style.
//
// It may import sim, app/units and app/jsonread (its reader, decode.go)
// only: no go-app, so it is tested natively and its values can cross to a
// Web Worker as data.
package view
