package article

import (
	"fmt"
	"strings"

	"omission/app/units"
	"omission/sim"
)

// NumRef names a number of the article: the canonical query it comes from
// and a metric.
type NumRef struct{ Query, Metric string }

// NumValue is a computed number: the value and how it is shown. A text
// slot (form.why) has only Text.
type NumValue struct {
	Value  float64
	IsNs   bool // a latency in ns (data-ns); else a count or ratio (data-value)
	IsText bool // words, not a number (no data attribute)
	Text   string
}

// articleNumber computes one of the article's numbers from a result. Every
// value is the simulator's (or its closed forms'), read and written for
// people; the note's estimate (note.*) is the note's own arithmetic.
func articleNumber(res *sim.Result, metric string) (NumValue, error) {
	cfg := res.Config
	lat := func(ns int64) NumValue {
		return NumValue{Value: float64(ns), IsNs: true, Text: units.Duration(float64(ns))}
	}
	cnt := func(v int64) NumValue { return NumValue{Value: float64(v), Text: units.Count(v)} }
	group, name, _ := strings.Cut(metric, ".")
	switch group {
	case "config":
		switch name {
		case "service":
			return lat(cfg.Service), nil
		case "stall":
			return lat(cfg.Stall), nil
		case "every":
			return lat(cfg.Every), nil
		case "first":
			return lat(cfg.First), nil
		case "duration":
			return lat(cfg.Duration), nil
		case "above":
			return lat(cfg.Above), nil
		case "interval":
			return lat(res.Recordings[sim.Corrected].Interval), nil
		case "slot":
			return lat(res.Slot), nil
		case "rate":
			return NumValue{Value: float64(cfg.Rate) / 1000, Text: units.Thousands(cfg.Rate.String())}, nil
		case "conns":
			return NumValue{Value: float64(cfg.Conns), Text: units.Plural(int64(cfg.Conns), "connection")}, nil
		}
	case "form":
		if name == "why" {
			if _, why := sim.Regime(cfg); len(why) > 0 {
				return NumValue{IsText: true, Text: strings.Join(why, "; ")}, nil
			}
			return NumValue{IsText: true, Text: "every number has a closed form"}, nil
		}
		cf := sim.DeriveClosedForms(cfg)
		if cf == nil {
			return NumValue{}, fmt.Errorf("%s: no closed form for %q", metric, res.Query)
		}
		switch name {
		case "J":
			return cnt(cf.J), nil
		case "d":
			return lat(cf.D), nil
		case "k":
			return cnt(cf.Added), nil
		}
	case "ratio":
		o, c := res.Recordings[sim.Open], res.Recordings[sim.Closed]
		for i, p := range sim.Percentiles {
			if p.Name == name && c.P[i] > 0 {
				r := float64(o.P[i]) / float64(c.P[i])
				text, _ := units.Ratio(float64(o.P[i]), float64(c.P[i]))
				return NumValue{Value: r, Text: text}, nil
			}
		}
	case "stalls":
		if name == "slots" {
			return cnt(slotsInStalls(res)), nil
		}
	case "note":
		if v, ok := noteEstimate(res, name); ok {
			return NumValue{Value: v, IsNs: true, Text: units.Duration(v)}, nil
		}
	}
	for _, c := range res.Clients {
		if c.Client.String() != group {
			continue
		}
		switch name {
		case "planned":
			return cnt(c.Planned), nil
		case "sent":
			return cnt(c.Sent), nil
		case "never_sent":
			return cnt(c.Planned - c.Sent), nil
		case "stalls":
			return cnt(c.StallsMet), nil
		}
	}
	if rec := res.Recording(group); rec != nil {
		switch name {
		case "count":
			return cnt(rec.Count), nil
		case "mean":
			return NumValue{Value: rec.Mean, IsNs: true, Text: units.Duration(rec.Mean)}, nil
		case "max":
			return lat(rec.Max), nil
		case "above":
			return cnt(rec.Above), nil
		case "share":
			return NumValue{Value: rec.Share(), Text: units.Share(rec.Share())}, nil
		}
		for i, p := range sim.Percentiles {
			if p.Name == name {
				return lat(rec.P[i]), nil
			}
		}
	}
	return NumValue{}, fmt.Errorf("unknown article metric %q", metric)
}

// slotsInStalls counts the slots of the schedule that fall due inside a
// stall, within the run: the requests a client that sends nothing while
// the server is stopped leaves out. The stalls and the schedule are sim's;
// this only adds up.
func slotsInStalls(res *sim.Result) int64 {
	d := res.Config.Duration
	first, last := res.StallsIn(0, d)
	sched := res.Schedule()
	var n int64
	for k := first; k < last; k++ {
		s, e := res.StallSpan(k)
		n += sched.Count(min(e, d)) - sched.Count(s)
	}
	return n
}

// noteEstimate is the note's back-of-the-envelope estimate of the open
// loop's p50 … p99.99 and mean (seed 004), for a run with one stall: only
// the requests due during the stall are slow, each waiting out the rest of its stall and then its
// own service time; every other request takes the service time. The
// request due k slots into a stall waits L − k·T + S. The counts are sim's
// (the planned requests, the slots inside the stalls); the rank rule is
// the run's.
func noteEstimate(res *sim.Result, name string) (float64, bool) {
	cfg := res.Config
	n, slow := res.Planned, slotsInStalls(res)
	L, T, S := float64(cfg.Stall), float64(res.Slot), float64(cfg.Service)
	if first, last := res.StallsIn(0, cfg.Duration); last-first != 1 || n <= 0 || slow > n {
		return 0, false
	}
	if name == "mean" {
		// Σ_{k<slow} (L − k·T) over n requests, plus the service time.
		s := float64(slow)
		return S + (s*L-T*s*(s-1)/2)/float64(n), true
	}
	for _, p := range sim.Percentiles {
		if p.Name != name {
			continue
		}
		// The value at rank r from the bottom is the (n − r + 1)-th slowest.
		j := n - sim.RankOf(p.PPM, n, cfg.Rank) + 1
		if j > slow {
			return S, true
		}
		return L - float64(j-1)*T + S, true
	}
	return 0, false
}
