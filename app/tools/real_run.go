//go:build !minimal

package tools

// runs is, for each tool the experiment runs for real, how it runs it (each
// Real is declared in its tool's file, beside the tool). The page's
// app.wasm, built with the minimal tag, never runs a tool and leaves this
// table out (real_minimal.go), and with it every Real's code: 13 kB after
// gzip.
var runs = map[*Tool]*Real{
	&wrkTool:             &wrkReal,
	&wrk2Tool:            &wrk2Real,
	&vegetaTool:          &vegetaReal,
	&heyTool:             &heyReal,
	&heyQTool:            &heyQReal,
	&locustTool:          &locustReal,
	&fortioTool:          &fortioReal,
	&fortioNoCatchUpTool: &fortioNoCatchUpReal,
	&abTool:              &abReal,
	&bombardierTool:      &bombardierReal,
	&bombardierRateTool:  &bombardierRateReal,
	&autocannonRateTool:  &autocannonRateReal,
	&autocannonTool:      &autocannonReal,
	&artilleryTool:       &artilleryReal,
	&artilleryMaxTool:    &artilleryMaxReal,
	&jmeterTool:          &jmeterReal,
	&jmeterCTTTool:       &jmeterCTTReal,
}
