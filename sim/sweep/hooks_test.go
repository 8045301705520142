package sweep

import (
	"omission/sim"
	"omission/sim/internal/hook"
)

// What sim lends the sweep's tests (sim/internal/hook): whether a point
// takes the long path.
var pointTakesLong = hook.PointTakesLong.(func(sim.Config) bool)
