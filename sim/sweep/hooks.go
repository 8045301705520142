package sweep

import (
	"omission/sim"
	"omission/sim/internal/hook"
)

// What sim lends the sweep (sim/internal/hook), typed once.
var (
	setField = hook.SetField.(func(c *sim.Config, name, text string) *sim.FieldError)
	runPoint = hook.RunPoint.(func(sim.Config) (*sim.Result, error))
)
