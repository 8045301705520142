package tools

import (
	"encoding/json"

	"omission/app/measure"
	"omission/sim"
)

// FormatVegeta is vegeta report -type json.
const FormatVegeta measure.Format = "vegeta"

var vegetaReader = measure.Reader{
	Format: FormatVegeta, Title: "vegeta report JSON",
	Keys:     []measure.Keys{{A: "latencies", B: "requests"}},
	ReadJSON: parseVegeta,
}

// vegeta's JSON report (tsenart/vegeta cf58112, lib/metrics.go Metrics and
// LatencyMetrics, lib/reporters.go NewJSONReporter) holds
// latencies.{total, mean, 50th, 90th, 95th, 99th, max, min} as
// time.Duration, so integer nanoseconds, and requests (every result, errors
// included). Its percentiles are estimates of a t-digest with compression
// 100 (lib/metrics.go newTdigestEstimator).
func parseVegeta(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	lat, ok := object(top["latencies"])
	if !ok {
		l, c := keyPos(data, "latencies")
		return nil, &measure.ParseError{Name: name, Format: FormatVegeta, Line: l, Col: c, Msg: "expected \"latencies\" to be an object"}
	}
	d := measure.Dist{Label: "latencies", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	fail := func(key string, err error) error {
		l, c := keyPos(data, key)
		return &measure.ParseError{Name: name, Format: FormatVegeta, Line: l, Col: c, Msg: err.Error()}
	}
	ns := func(key string) (int64, bool, error) {
		v, err := jsonNumber(lat, key)
		if err != nil || v == nil {
			return 0, false, err
		}
		n, err := v.Ns(1)
		return n, err == nil, err
	}
	if v, ok, err := ns("mean"); err != nil {
		return nil, fail("mean", err)
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := ns("max"); err != nil {
		return nil, fail("max", err)
	} else if ok {
		d.MaxNs = v
	}
	if v, ok, err := ns("min"); err != nil {
		return nil, fail("min", err)
	} else if ok {
		d.MinNs = v
	}
	if r, err := jsonNumber(top, "requests"); err != nil {
		return nil, fail("requests", err)
	} else if r != nil {
		d.Count, _ = r.Ns(1)
	}
	for _, k := range []struct {
		key string
		pct float64
	}{{"50th", 50}, {"90th", 90}, {"95th", 95}, {"99th", 99}} {
		v, ok, err := ns(k.key)
		if err != nil {
			return nil, fail(k.key, err)
		}
		if ok {
			d.Points = append(d.Points, measure.Point{Percentile: k.pct, Ns: v, Count: -1})
		}
	}
	statePoints(&d, measure.Estimated)
	d.Precision = "integer ns; percentiles estimated by a t-digest (compression 100)"
	d.Notes = append(d.Notes, "The count is vegeta's requests: every result, errors included.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatVegeta, Dists: []measure.Dist{d}}, nil
}

// vegetaStated reads what vegeta's JSON report states of its run (lib/
// metrics.go: requests, rate = requests / (latest − earliest), duration
// = latest − earliest): the rate it was asked for, from hit i leaving at
// i/rate, is rate·(requests − 1)/requests, taken to a whole number a
// second when within 0.2 % of one (a real attack's hits leave a little off
// schedule); the duration asked for is requests / that rate.
func vegetaStated(data []byte) (requests, duration int64, rate sim.Rate) {
	var m struct {
		Requests int64   `json:"requests"`
		Rate     float64 `json:"rate"`
	}
	if json.Unmarshal(data, &m) != nil || m.Requests < 2 || m.Rate <= 0 || m.Rate > 1e9 {
		return 0, 0, 0
	}
	rate = MeasuredRate(m.Rate * float64(m.Requests-1) / float64(m.Requests))
	return m.Requests, m.Requests * sim.NewSchedule(rate).Interval(1), rate
}
