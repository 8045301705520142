//go:build minimal

package tools

import (
	"omission/sim"
	"omission/sim/profile"
)

// The page's app.wasm shows the tools' printouts only: their JSON reports,
// which only the fit (fit.wasm, the command) reads, are not written there
// (json.go).

func vegetaJSON(vegetaMetrics) string { return "" }

func ohaJSON(*profile.Result, []float64, []float64, int64, float64, float64, float64, float64) string {
	return ""
}

func k6SummaryExport(sim.Config, *profile.Result, k6Trend, float64) string { return "" }

func bombardierJSON(sim.Config, uint64, int64, int64, int64, bombardierStats, bool, bombardierStats, bool) string {
	return ""
}

func autocannonJSON(sim.Config, *autocannonRun) string { return "" }

func jmeterJTL([]jmeterSample) string { return "" }

func k6CSV(sim.Config, *profile.Result) string { return "" }

func k6JSON(sim.Config, *profile.Result) string { return "" }

var k6CSVNotes []string

func artilleryJSON(*artilleryRun, artilleryReport) string { return "" }
