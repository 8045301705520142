package tools

import (
	"fmt"

	"omission/sim"
	"omission/sim/profile"
)

// Variant is one way of applying HdrHistogram's expected-interval
// correction after the fact (the questions of HdrHistogram#134 and
// wrk#326), with what it does to the tail.
type Variant struct {
	Name      string // configured, mean, median, double
	What      string // one line
	Recording string // the recording it corrects
	E         int64  // the expected interval, ns
	Count     int64  // samples after the correction
	// P90, P99, P999 after the correction, and Before* the same recording's
	// uncorrected values (by the query's rank rule).
	P90, P99, P999                   int64
	BeforeP90, BeforeP99, BeforeP999 int64
}

// Variants corrects the run's recordings four ways: the closed loop's with
// E from the configured interval, from its measured mean send interval and
// from its median one, and the open loop's (already measured from intended
// times) corrected again with E = 1/rate. It needs exact recordings.
func Variants(res *sim.Result) ([]Variant, error) {
	cfg := res.Config
	closed, open := res.Recordings[sim.Closed].Dist, res.Recordings[sim.Open].Dist
	if closed.Sorted() == nil || open.Sorted() == nil {
		return nil, fmt.Errorf("correction variants need exact recordings (at most %d samples)", sim.ExactSamples)
	}
	send := res.Clients[sim.ClosedClient].Send
	conns := int64(cfg.Conns)
	var meanE, medianE int64
	if len(send) > 1 {
		// Sends come in time order; a connection's interval is conns gaps.
		meanE = conns * (send[len(send)-1] - send[0]) / int64(len(send)-1)
		gaps := make([]int64, len(send)-1)
		for i := range gaps {
			gaps[i] = send[i+1] - send[i]
		}
		sim.SortInt64s(gaps)
		medianE = conns * gaps[len(gaps)/2]
	}
	var out []Variant
	add := func(name, what, rec string, d *sim.Dist, e int64) error {
		v := Variant{Name: name, What: what, Recording: rec, E: e}
		v.BeforeP90, v.BeforeP99, v.BeforeP999 = d.Percentile(900000, cfg.Rank), d.Percentile(990000, cfg.Rank), d.Percentile(999000, cfg.Rank)
		if e <= 0 {
			v.P90, v.P99, v.P999, v.Count = v.BeforeP90, v.BeforeP99, v.BeforeP999, d.Count()
			out = append(out, v)
			return nil
		}
		c, err := profile.CorrectDist(d, e, profile.HdrCorrection)
		if err != nil {
			return err
		}
		v.Count = c.Count()
		v.P90, v.P99, v.P999 = c.Percentile(900000, cfg.Rank), c.Percentile(990000, cfg.Rank), c.Percentile(999000, cfg.Rank)
		out = append(out, v)
		return nil
	}
	for _, a := range []struct {
		name, what, rec string
		d               *sim.Dist
		e               int64
	}{
		{"configured", "E from the configured interval (conns/rate, or interval=)", "closed", closed, cfg.ExpectedInterval()},
		{"mean", "E from the measured mean interval between a connection's sends", "closed", closed, meanE},
		{"median", "E from the median interval between a connection's sends", "closed", closed, medianE},
		{"double", "the open loop, already measured from intended times, corrected again with E = 1/rate", "open", open, cfg.PacedSlot()},
	} {
		if err := add(a.name, a.what, a.rec, a.d, a.e); err != nil {
			return nil, err
		}
	}
	return out, nil
}
