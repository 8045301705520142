// Package view formats a sim.Result once for the page: the headline, the
// results table (every cell with its exact value and the check that proves
// it), the checks in words and the cost line. Components only read it.
//
// It may import sim and app/units only: no go-app, so it is tested natively and
// its values can cross to a Web Worker as data.
package view
