package article

import (
	"fmt"
	"math"
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
// people; the note's estimate (note.*) is the note's own arithmetic. A
// metric is a group and a name: the run's configuration (config.*), its
// closed forms (form.*), ratios (ratio.*), the stalls' slots, the note's
// estimate, then a client's or a recording's own numbers.
func articleNumber(res *sim.Result, metric string) (NumValue, error) {
	group, name, _ := strings.Cut(metric, ".")
	var (
		v   NumValue
		ok  bool
		err error
	)
	switch group {
	case "config":
		v, ok = configNumber(res, name)
	case "form":
		v, ok, err = formNumber(res, metric, name)
	case "ratio":
		v, ok = ratioNumber(res, name)
	case "stalls":
		if name == "slots" {
			return countValue(slotsInStalls(res)), nil
		}
	case "note":
		if v, ok := noteEstimate(res, name); ok {
			return NumValue{Value: v, IsNs: true, Text: units.Duration(v)}, nil
		}
	}
	if ok || err != nil {
		return v, err
	}
	if v, ok := clientNumber(res, group, name); ok {
		return v, nil
	}
	if v, ok := recordingNumber(res, group, name); ok {
		return v, nil
	}
	return NumValue{}, fmt.Errorf("unknown article metric %q", metric)
}

// latencyValue shows a latency of ns nanoseconds.
func latencyValue(ns int64) NumValue {
	return NumValue{Value: float64(ns), IsNs: true, Text: units.Duration(float64(ns))}
}

// countValue shows a count.
func countValue(v int64) NumValue { return NumValue{Value: float64(v), Text: units.Count(v)} }

// configNumber returns the run's configured value of a name (config.*),
// and whether it has one.
func configNumber(res *sim.Result, name string) (NumValue, bool) {
	cfg := res.Config
	switch name {
	case "service":
		return latencyValue(cfg.Service), true
	case "stall":
		return latencyValue(cfg.Stall), true
	case "every":
		return latencyValue(cfg.Every), true
	case "first":
		return latencyValue(cfg.First), true
	case "duration":
		return latencyValue(cfg.Duration), true
	case "above":
		return latencyValue(cfg.Above), true
	case "interval":
		return latencyValue(res.Recordings[sim.Corrected].Interval), true
	case "slot":
		return latencyValue(res.Slot), true
	case "rate":
		return NumValue{Value: float64(cfg.Rate) / 1000, Text: units.Thousands(cfg.Rate.String())}, true
	case "conns":
		return NumValue{Value: float64(cfg.Conns), Text: units.Plural(int64(cfg.Conns), "connection")}, true
	}
	return NumValue{}, false
}

// formNumber returns a value of the run's closed forms (form.*) and
// whether it has one; form.why says in words why the run has none, or that
// it has them. For any other name, a run without closed forms is an error.
func formNumber(res *sim.Result, metric, name string) (NumValue, bool, error) {
	cfg := res.Config
	if name == "why" {
		if _, why := sim.Regime(cfg); len(why) > 0 {
			return NumValue{IsText: true, Text: strings.Join(why, "; ")}, true, nil
		}
		return NumValue{IsText: true, Text: "every number has a closed form"}, true, nil
	}
	if name == "bend" {
		// The longest stall whose backlog one worker clears before the
		// next stall: it drains at 1/service − rate once the stall ends,
		// so s + s·rate·service/(1 − rate·service) ≤ every, that is
		// s ≤ every·(1 − rate·service) (TestLandscapeBend holds it).
		rho := float64(cfg.Rate) / 1000 * float64(cfg.Service) / 1e9
		if cfg.EventDriven() || cfg.Workers != 1 || cfg.Every == 0 {
			return NumValue{}, false, fmt.Errorf("%s: one worker and stalls on a period, not %q", metric, res.Query)
		}
		return latencyValue(int64(math.Round(float64(cfg.Every) * max(1-rho, 0)))), true, nil
	}
	cf := sim.DeriveClosedForms(cfg)
	if cf == nil {
		return NumValue{}, false, fmt.Errorf("%s: no closed form for %q", metric, res.Query)
	}
	switch name {
	case "J":
		return countValue(cf.J), true, nil
	case "d":
		return latencyValue(cf.D), true, nil
	case "k":
		return countValue(cf.Added), true, nil
	}
	return NumValue{}, false, nil
}

// ratioNumber returns the open loop's percentile of a name over the closed
// loop's (ratio.*), and whether there is one: a percentile of that name,
// the closed loop's not 0.
func ratioNumber(res *sim.Result, name string) (NumValue, bool) {
	o, c := res.Recordings[sim.Open], res.Recordings[sim.Closed]
	for i, p := range sim.Percentiles() {
		if p.Name == name && c.P[i] > 0 {
			r := float64(o.P[i]) / float64(c.P[i])
			text, _ := units.Ratio(float64(o.P[i]), float64(c.P[i]))
			return NumValue{Value: r, Text: text}, true
		}
	}
	return NumValue{}, false
}

// clientNumber returns a count of the client named group (its planned,
// sent and never-sent requests, the stalls it met), and whether it has one.
func clientNumber(res *sim.Result, group, name string) (NumValue, bool) {
	for _, c := range res.Clients {
		if c.Client.String() != group {
			continue
		}
		switch name {
		case "planned":
			return countValue(c.Planned), true
		case "sent":
			return countValue(c.Sent), true
		case "never_sent":
			return countValue(c.Planned - c.Sent), true
		case "stalls":
			return countValue(c.StallsMet), true
		}
	}
	return NumValue{}, false
}

// recordingNumber returns a number of the recording named group (its
// count, mean, max, samples above the threshold and their share, or a
// percentile), and whether it has one.
func recordingNumber(res *sim.Result, group, name string) (NumValue, bool) {
	rec := res.Recording(group)
	if rec == nil {
		return NumValue{}, false
	}
	switch name {
	case "count":
		return countValue(rec.Count), true
	case "mean":
		return NumValue{Value: rec.Mean, IsNs: true, Text: units.Duration(rec.Mean)}, true
	case "max":
		return latencyValue(rec.Max), true
	case "above":
		return countValue(rec.Above), true
	case "share":
		return NumValue{Value: rec.Share(), Text: units.Share(rec.Share())}, true
	}
	for i, p := range sim.Percentiles() {
		if p.Name == name {
			return latencyValue(rec.P[i]), true
		}
	}
	return NumValue{}, false
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
	for _, p := range sim.Percentiles() {
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
