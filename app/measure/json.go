package measure

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"omission/sim"
)

// parseJSON recognises k6's --summary-export, vegeta's report -type json and
// oha's --json by their keys.
func parseJSON(name string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, jsonError(name, "", data, err)
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		l, c := lineCol(data, int(off)+len(data[off:])-len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return nil, &ParseError{Name: name, Line: l, Col: c, Msg: "expected the end of the file after the JSON object"}
	}
	switch {
	case top["metrics"] != nil && top["root_group"] != nil || top["metrics"] != nil && bytes.Contains(top["metrics"], []byte(`"http_req_duration`)):
		return parseK6(name, data, top)
	case top["latencies"] != nil && top["requests"] != nil:
		return parseVegeta(name, data, top)
	case top["latencyPercentiles"] != nil && top["summary"] != nil:
		return parseOha(name, data, top)
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return nil, &ParseError{Name: name, Line: 1, Col: 1, Msg: fmt.Sprintf("expected JSON from k6 --summary-export (keys metrics, root_group), vegeta report -type json (latencies, requests) or oha --json (summary, latencyPercentiles); found keys %s", trimTo(strings.Join(keys, ", "), 80))}
}

// jsonError turns a decoding error into a ParseError at its line.
func jsonError(name string, f Format, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := 0
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1 // the offending byte
		msg = "expected valid JSON: " + se.Error()
	case errors.As(err, &te):
		off = int(te.Offset)
		msg = fmt.Sprintf("expected %s at %s, found a JSON %s", te.Type, te.Field, te.Value)
	}
	l, c := lineCol(data, off)
	return &ParseError{Name: name, Format: f, Line: l, Col: c, Msg: msg}
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	l := 1 + bytes.Count(data[:off], []byte("\n"))
	c := off - bytes.LastIndexByte(data[:off], '\n')
	return l, c
}

// keyPos returns the line and column of the first occurrence of a JSON key.
func keyPos(data []byte, key string) (int, int) {
	i := bytes.Index(data, []byte(strconv.Quote(key)))
	if i < 0 {
		return 1, 1
	}
	return lineCol(data, i)
}

// jsonNumber reads a number field of obj as a decimal (nil: absent or
// null); negative and non-finite values are errors.
func jsonNumber(obj map[string]json.RawMessage, key string) (*decimal, error) {
	raw, ok := obj[key]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, fmt.Errorf("expected a number for %q, found %s", key, trimTo(string(raw), 30))
	}
	s := n.String()
	if strings.ContainsAny(s, "eE") {
		// Exponent form: go through float64 with 17 significant digits.
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) {
			return nil, fmt.Errorf("expected a non-negative number for %q, found %s", key, s)
		}
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	d, err := parseDecimal(s)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", key, err)
	}
	return &d, nil
}

func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	return m, true
}

// k6's summary export (grafana/k6 87883075c, internal/js/summary-wrapper.js
// oldJSONSummary: metrics.<name> is the metric's values) holds for a trend
// such as http_req_duration the columns of summaryTrendStats (default avg,
// min, med, max, p(90), p(95); "count" and any "p(N)" on request) as
// milliseconds (metrics/sample.go GetResolversForTrendColumns). Percentiles
// are TrendSink.P (metrics/sink.go): linear interpolation between the sorted
// samples at p·(n-1).
func parseK6(name string, data []byte, top map[string]json.RawMessage) (*File, error) {
	metrics, ok := object(top["metrics"])
	if !ok {
		l, c := keyPos(data, "metrics")
		return nil, &ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: "expected \"metrics\" to be an object"}
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
		return nil, &ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: "expected metrics.http_req_duration (a k6 HTTP test's summary), found none"}
	}
	var reqs *decimal
	if hr, ok := object(metrics["http_reqs"]); ok {
		reqs, _ = jsonNumber(hr, "count")
	}
	f := &File{Name: name, Format: FormatK6}
	for _, mname := range names {
		m, ok := object(metrics[mname])
		if !ok {
			l, c := keyPos(data, mname)
			return nil, &ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: fmt.Sprintf("expected metrics.%s to be an object", mname)}
		}
		d, err := k6Dist(mname, m, reqs)
		if err != nil {
			l, c := keyPos(data, mname)
			return nil, &ParseError{Name: name, Format: FormatK6, Line: l, Col: c, Msg: fmt.Sprintf("metrics.%s: %v", mname, err)}
		}
		f.Dists = append(f.Dists, d)
	}
	return f, nil
}

// k6Dist is the distribution of the trend metrics.<mname>, m: its avg, min
// and max, its count (for http_req_duration, when the trend has none,
// metrics.http_reqs.count, reqs) and its percentiles.
func k6Dist(mname string, m map[string]json.RawMessage, reqs *decimal) (Dist, error) {
	d := Dist{Label: mname, Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	if v, ok, err := k6Ms(m, "avg"); err != nil {
		return Dist{}, err
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := k6Ms(m, "max"); err != nil {
		return Dist{}, err
	} else if ok {
		d.MaxNs = v
	}
	if v, ok, err := k6Ms(m, "min"); err != nil {
		return Dist{}, err
	} else if ok {
		d.MinNs = v
	}
	if c, err := jsonNumber(m, "count"); err != nil {
		return Dist{}, err
	} else if c != nil {
		d.Count, _ = c.ns(1)
	} else if reqs != nil && mname == "http_req_duration" {
		d.Count, _ = reqs.ns(1)
		d.Notes = append(d.Notes, "The count is metrics.http_reqs.count (the trend's own count is not exported unless summaryTrendStats asks for it).")
	}
	pts, err := k6Points(m)
	if err != nil {
		return Dist{}, err
	}
	d.Points = pts
	statePoints(&d, Interpolated)
	d.Precision = "ms as float64 (to the ns); k6 interpolates percentiles linearly between samples at p·(n−1)"
	d.finish(false)
	return d, nil
}

// k6Points reads a trend's percentile columns, "med" and any "p(N)", in
// ascending order.
func k6Points(m map[string]json.RawMessage) ([]Point, error) {
	var pts []Point
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
			pts = append(pts, Point{Percentile: pct, Ns: v, Count: -1})
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
	ns, err := v.ns(1e6)
	return ns, err == nil, err
}

// statePoints copies the points at the report's percentiles into P, saying
// how the tool got them.
func statePoints(d *Dist, how How) {
	for _, pt := range d.Points {
		for i, pn := range sim.Percentiles() {
			if math.Abs(float64(pn.PPM)/1e4-pt.Percentile) < 1e-9 {
				d.P[i] = Percentile{Ns: pt.Ns, How: how}
			}
		}
	}
}

// vegeta's JSON report (tsenart/vegeta cf58112, lib/metrics.go Metrics and
// LatencyMetrics, lib/reporters.go NewJSONReporter) holds
// latencies.{total, mean, 50th, 90th, 95th, 99th, max, min} as
// time.Duration, so integer nanoseconds, and requests (every result, errors
// included). Its percentiles are estimates of a t-digest with compression
// 100 (lib/metrics.go newTdigestEstimator).
func parseVegeta(name string, data []byte, top map[string]json.RawMessage) (*File, error) {
	lat, ok := object(top["latencies"])
	if !ok {
		l, c := keyPos(data, "latencies")
		return nil, &ParseError{Name: name, Format: FormatVegeta, Line: l, Col: c, Msg: "expected \"latencies\" to be an object"}
	}
	d := Dist{Label: "latencies", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	fail := func(key string, err error) error {
		l, c := keyPos(data, key)
		return &ParseError{Name: name, Format: FormatVegeta, Line: l, Col: c, Msg: err.Error()}
	}
	ns := func(key string) (int64, bool, error) {
		v, err := jsonNumber(lat, key)
		if err != nil || v == nil {
			return 0, false, err
		}
		n, err := v.ns(1)
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
		d.Count, _ = r.ns(1)
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
			d.Points = append(d.Points, Point{Percentile: k.pct, Ns: v, Count: -1})
		}
	}
	statePoints(&d, Estimated)
	d.Precision = "integer ns; percentiles estimated by a t-digest (compression 100)"
	d.Notes = append(d.Notes, "The count is vegeta's requests: every result, errors included.")
	d.finish(false)
	return &File{Name: name, Format: FormatVegeta, Dists: []Dist{d}}, nil
}

// oha's JSON (hatoo/oha b8cd846, src/printer.rs print_json 144-441) holds
// summary.{slowest, fastest, average} and latencyPercentiles.{p10 … p99.99}
// in seconds (Duration::as_secs_f64 of each successful request), and
// statusCodeDistribution, the successful responses by status. Percentiles
// are exact samples: the sorted successes' element at index floor(p·n)
// (src/result_data.rs percentile_iter 42-51); a missing one is null.
func parseOha(name string, data []byte, top map[string]json.RawMessage) (*File, error) {
	sum, ok1 := object(top["summary"])
	pcts, ok2 := object(top["latencyPercentiles"])
	if !ok1 || !ok2 {
		l, c := keyPos(data, "summary")
		return nil, &ParseError{Name: name, Format: FormatOha, Line: l, Col: c, Msg: "expected \"summary\" and \"latencyPercentiles\" to be objects"}
	}
	d := Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	sec := func(obj map[string]json.RawMessage, key string) (int64, bool, error) {
		v, err := jsonNumber(obj, key)
		if err != nil || v == nil {
			return 0, false, err
		}
		n, err := v.ns(1e9)
		return n, err == nil, err
	}
	fail := func(key string, err error) error {
		l, c := keyPos(data, key)
		return &ParseError{Name: name, Format: FormatOha, Line: l, Col: c, Msg: err.Error()}
	}
	if v, ok, err := sec(sum, "average"); err != nil {
		return nil, fail("average", err)
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := sec(sum, "slowest"); err != nil {
		return nil, fail("slowest", err)
	} else if ok {
		d.MaxNs = v
	}
	if v, ok, err := sec(sum, "fastest"); err != nil {
		return nil, fail("fastest", err)
	} else if ok {
		d.MinNs = v
	}
	if sc, ok := object(top["statusCodeDistribution"]); ok {
		var n int64
		for k := range sc {
			c, err := jsonNumber(sc, k)
			if err != nil {
				return nil, fail(k, err)
			}
			if c != nil {
				x, _ := c.ns(1)
				n += x
			}
		}
		d.Count = n
	}
	for key := range pcts {
		p, err := strconv.ParseFloat(strings.TrimPrefix(key, "p"), 64)
		if !strings.HasPrefix(key, "p") || err != nil || p < 0 || p > 100 {
			continue
		}
		v, ok, err := sec(pcts, key)
		if err != nil {
			return nil, fail(key, err)
		}
		if ok {
			d.Points = append(d.Points, Point{Percentile: p, Ns: v, Count: -1})
		}
	}
	sort.Slice(d.Points, func(i, j int) bool { return d.Points[i].Percentile < d.Points[j].Percentile })
	statePoints(&d, Stated)
	d.Precision = "seconds as float64 (to the ns); exact samples at index floor(p·n)"
	d.Notes = append(d.Notes, "The count is the successful responses (statusCodeDistribution); errors are not in the latencies.")
	d.finish(false)
	return &File{Name: name, Format: FormatOha, Dists: []Dist{d}}, nil
}
