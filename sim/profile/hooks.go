package profile

import (
	"omission/sim"
	"omission/sim/internal/hook"
)

// What sim lends the profiles (sim/internal/hook), typed once.
var (
	server      = hook.Server.(func(cfg sim.Config) func(t int64) int64)
	dues        = hook.Dues.(func(rate sim.Rate) func() int64)
	exactDist   = hook.ExactDist.(func(samples []int64) *sim.Dist)
	correctDist = hook.CorrectDist.(func(d *sim.Dist, e int64, wrk bool) (*sim.Dist, error))
	radixSort   = hook.RadixSort
)
