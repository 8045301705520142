package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatK6 is k6 --summary-export JSON.
const FormatK6 measure.Format = "k6"

var k6Reader = measure.Reader{
	Format: FormatK6, Title: "k6 --summary-export JSON",
	Keys:     []measure.Keys{{A: "metrics", B: "root_group"}, {A: "metrics", Holds: `"http_req_duration`}},
	ReadJSON: parseK6,
}

// k6's summary export (grafana/k6 87883075c, internal/js/summary-wrapper.js
// oldJSONSummary: metrics.<name> is the metric's values) holds for a trend
// such as http_req_duration the columns of summaryTrendStats (default avg,
// min, med, max, p(90), p(95); "count" and any "p(N)" on request) as
// milliseconds (metrics/sample.go GetResolversForTrendColumns). Percentiles
// are TrendSink.P (metrics/sink.go): linear interpolation between the sorted
// samples at p·(n-1).
func parseK6(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	metrics, ok := object(top["metrics"])
	if !ok {
		l, c := keyPos(data, "metrics")
		return nil, &measure.ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: "expected \"metrics\" to be an object"}
	}
	var names []string
	for k := range metrics {
		if k == "http_req_duration" || strings.HasPrefix(k, "http_req_duration{") {
			names = append(names, k)
		}
	}
	sort.Strings(names) // "http_req_duration" first, then its sub-metrics
	if len(names) == 0 {
		l, c := keyPos(data, "metrics")
		return nil, &measure.ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: "expected metrics.http_req_duration (a k6 HTTP test's summary), found none"}
	}
	var reqs *measure.Decimal
	if hr, ok := object(metrics["http_reqs"]); ok {
		reqs, _ = jsonNumber(hr, "count")
	}
	f := &measure.File{Name: name, Format: FormatK6}
	for _, mname := range names {
		m, ok := object(metrics[mname])
		if !ok {
			l, c := keyPos(data, mname)
			return nil, &measure.ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: fmt.Sprintf("expected metrics.%s to be an object", mname)}
		}
		d, err := k6Dist(mname, m, reqs)
		if err != nil {
			l, c := keyPos(data, mname)
			return nil, &measure.ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: fmt.Sprintf("metrics.%s: %v", mname, err)}
		}
		f.Dists = append(f.Dists, d)
	}
	return f, nil
}

// k6Dist is the distribution of the trend metrics.<mname>, m: its avg, min
// and max, its count (for http_req_duration, when the trend has none,
// metrics.http_reqs.count, reqs) and its percentiles.
func k6Dist(mname string, m map[string]json.RawMessage, reqs *measure.Decimal) (measure.Dist, error) {
	d := measure.Dist{Label: mname, Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	if v, ok, err := k6Ms(m, "avg"); err != nil {
		return measure.Dist{}, err
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := k6Ms(m, "max"); err != nil {
		return measure.Dist{}, err
	} else if ok {
		d.MaxNs = v
	}
	if v, ok, err := k6Ms(m, "min"); err != nil {
		return measure.Dist{}, err
	} else if ok {
		d.MinNs = v
	}
	if c, err := jsonNumber(m, "count"); err != nil {
		return measure.Dist{}, err
	} else if c != nil {
		d.Count, _ = c.Ns(1)
	} else if reqs != nil && mname == "http_req_duration" {
		d.Count, _ = reqs.Ns(1)
		d.Notes = append(d.Notes, "The count is metrics.http_reqs.count (the trend's own count is not exported unless summaryTrendStats asks for it).")
	}
	pts, err := k6Points(m)
	if err != nil {
		return measure.Dist{}, err
	}
	d.Points = pts
	statePoints(&d, measure.Interpolated)
	d.Precision = "ms as float64 (to the ns); k6 interpolates percentiles linearly between samples at p·(n−1)"
	d.Finish(false)
	return d, nil
}

// k6Points reads a trend's percentile columns, "med" and any "p(N)", in
// ascending order.
func k6Points(m map[string]json.RawMessage) ([]measure.Point, error) {
	var pts []measure.Point
	for key := range m {
		var pct float64
		switch {
		case key == "med":
			pct = 50
		case strings.HasPrefix(key, "p(") && strings.HasSuffix(key, ")"):
			p, err := strconv.ParseFloat(key[2:len(key)-1], 64)
			if err != nil || p < 0 || p > 100 {
				continue
			}
			pct = p
		default:
			continue
		}
		v, ok, err := k6Ms(m, key)
		if err != nil {
			return nil, err
		}
		if ok {
			pts = append(pts, measure.Point{Percentile: pct, Ns: v, Count: -1})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Percentile < pts[j].Percentile })
	return pts, nil
}

// k6Ms reads the column key of a trend, milliseconds, as ns; false when it
// is absent or null.
func k6Ms(m map[string]json.RawMessage, key string) (int64, bool, error) {
	v, err := jsonNumber(m, key)
	if err != nil || v == nil {
		return 0, false, err
	}
	ns, err := v.Ns(1e6)
	return ns, err == nil, err
}

// k6Stated reads what k6's --summary-export JSON states of its run:
// metrics.http_reqs.{count, rate} (rate = count over the run's seconds,
// whence the duration), metrics.vus_max.value (the VUs the scenario
// allowed: the connections) and metrics.dropped_iterations.count (the
// iterations a constant-arrival-rate scenario found no free VU for).
func k6Stated(data []byte) (requests, duration int64, conns int, dropped int64) {
	var m struct {
		Metrics struct {
			Reqs struct {
				Count int64   `json:"count"`
				Rate  float64 `json:"rate"`
			} `json:"http_reqs"`
			VUsMax struct {
				Value float64 `json:"value"`
			} `json:"vus_max"`
			Dropped struct {
				Count int64 `json:"count"`
			} `json:"dropped_iterations"`
		} `json:"metrics"`
	}
	if json.Unmarshal(data, &m) != nil {
		return 0, 0, 0, 0
	}
	r := m.Metrics.Reqs
	if r.Count > 0 && r.Rate > 0 && float64(r.Count)/r.Rate < 1e6 {
		requests, duration = r.Count, int64(math.Round(float64(r.Count)/r.Rate*1e9))
	}
	if v := m.Metrics.VUsMax.Value; v >= 1 && v <= 1e5 {
		conns = int(v)
	}
	return requests, duration, conns, max(m.Metrics.Dropped.Count, 0)
}
