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

// SameRates is the span of rates around cfg's that give the tool the same
// run, when its run keeps the rate only to a coarser value (jmeter-ctt
// paces each thread at a whole number of milliseconds, so every rate
// whose period rounds to the same one sends the same requests): each end
// found to a millionth of the rate, within half and twice it. lo and hi
// are cfg.Rate itself for a tool that keeps the rate as given.
func (t *Tool) SameRates(cfg sim.Config) (lo, hi sim.Rate) {
	if t.rateKey == nil {
		return cfg.Rate, cfg.Rate
	}
	k := t.rateKey(cfg)
	same := func(r sim.Rate) bool {
		c := cfg
		c.Rate = r
		return t.rateKey(c) == k
	}
	end := func(far sim.Rate) sim.Rate {
		if same(far) {
			return far
		}
		in, out := cfg.Rate, far
		for out-in > cfg.Rate/1000000+1 || in-out > cfg.Rate/1000000+1 {
			if m := in + (out-in)/2; same(m) {
				in = m
			} else {
				out = m
			}
		}
		return in
	}
	return end(cfg.Rate / 2), end(2 * cfg.Rate)
}
