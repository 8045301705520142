//go:build !minimal

package tools

import (
	"reflect"

	"omission/sim"
	"omission/sim/profile"
)

// RateBlind reports whether the tool's run does not depend on the query's
// rate at all: its connections send back to back and its profile is the
// same at any rate (wrk, hey, bombardier; not ab -n, whose request count
// is the rate's). The fit runs such a tool once for every rate it asks
// about (TestRateBlind holds the printouts to it). The page's app.wasm,
// built with the minimal tag, runs no fit and leaves it out.
func (t *Tool) RateBlind() bool {
	a := sim.Default()
	b, c := a, a
	b.Rate = 7 * a.Rate / 3
	c.Rate = a.Rate / 100 // a timer that rounds to no delay at the default rate paces at this one (jmeter-ctt)
	pa := t.profile(a)
	return pa.Send == profile.BackToBack && pa.Conc == profile.Connections && reflect.DeepEqual(pa, t.profile(b)) && reflect.DeepEqual(pa, t.profile(c))
}
