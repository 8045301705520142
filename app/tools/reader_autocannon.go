package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatAutocannon is autocannon's printout (its tables, on stderr);
// FormatAutocannonJSON its -j result.
const (
	FormatAutocannon     measure.Format = "autocannon"
	FormatAutocannonJSON measure.Format = "autocannon-json"
)

var autocannonReader = measure.Reader{
	Format: FormatAutocannon, Title: "autocannon output",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "│ Stat    │ 2.5%"}, {Prefix: "Req/Bytes counts sampled "}},
	Read:  parseAutocannon,
}

var autocannonJSONReader = measure.Reader{
	Format: FormatAutocannonJSON, Title: "autocannon JSON (-j)",
	Keys:     []measure.Keys{{A: "latency", B: "sampleInt"}},
	ReadJSON: parseAutocannonJSON,
}

// autocannonPrecision is what its text and its JSON keep of a latency.
const autocannonPrecision = "whole ms (its HdrHistogram keeps whole ms); mean and stdev rounded up to 0.01 ms"

// autocannonCells splits a table row "│ a │ b │" into its trimmed cells
// (nil for a line that is not one).
func autocannonCells(t string) []string {
	if !strings.HasPrefix(t, "│") || !strings.HasSuffix(t, "│") {
		return nil
	}
	parts := strings.Split(strings.Trim(t, "│"), "│")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// autocannonMs reads a cell "12 ms" or "0.06 ms" as ns.
func autocannonMs(c string) (int64, error) {
	v, ok := strings.CutSuffix(c, " ms")
	if !ok {
		return 0, fmt.Errorf("expected a latency in ms, found %q", c)
	}
	d, err := measure.ParseDecimal(v)
	if err != nil {
		return 0, err
	}
	return d.Ns(1e6)
}

// parseAutocannon reads the Latency row of autocannon's first table
// (2.5%, 50%, 97.5%, 99%, Avg, Stdev, Max, in whole ms but the mean and
// stdev) and the count of its last lines: "N requests in Ds, B read"
// (lib/format.js: thousands rounded, "40k") and, with 2xx replies
// only, the latencies' count is not printed.
func parseAutocannon(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatAutocannon, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	sawLatency := false
	for _, l := range ls {
		c := autocannonCells(strings.TrimSpace(l.Text))
		if len(c) != 8 || c[0] != "Latency" {
			continue
		}
		var ns [7]int64
		for i := range ns {
			v, err := autocannonMs(c[i+1])
			if err != nil {
				return nil, perr(l, "the Latency row's column %d: %v", i+2, err)
			}
			ns[i] = v
		}
		for i, p := range []float64{2.5, 50, 97.5, 99} {
			d.Points = append(d.Points, measure.Point{Percentile: p, Ns: ns[i], Count: -1})
		}
		d.HasMean, d.MeanNs, d.MaxNs = true, float64(ns[4]), ns[6]
		sawLatency = true
	}
	if !sawLatency {
		return nil, &measure.ParseError{Name: name, Format: FormatAutocannon, Line: len(ls), Msg: "expected autocannon's \"│ Latency │ …\" row, found none"}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = autocannonPrecision
	d.Notes = append(d.Notes, "autocannon's p% is the first value whose running count reaches ⌈p·n⌉; its count is printed rounded to thousands, and only its 2xx replies have latencies.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatAutocannon, Dists: []measure.Dist{d}}, nil
}

// parseAutocannonJSON reads -j's latency object (ms: mean, stddev, min,
// max, p0_001 … p99_999, totalCount).
func parseAutocannonJSON(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	fail := func(key, msg string) error {
		l, c := keyPos(data, key)
		return &measure.ParseError{Name: name, Format: FormatAutocannonJSON, Line: l, Col: c, Msg: msg}
	}
	lat, ok := object(top["latency"])
	if !ok {
		return nil, fail("latency", "expected \"latency\" to be an object")
	}
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	ms := func(key string) (int64, bool, error) {
		v, err := jsonNumber(lat, key)
		if err != nil || v == nil {
			return 0, false, err
		}
		n, err := v.Ns(1e6)
		return n, err == nil, err
	}
	if v, ok, err := ms("mean"); err != nil {
		return nil, fail("mean", err.Error())
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := ms("max"); err != nil {
		return nil, fail("max", err.Error())
	} else if ok {
		d.MaxNs = v
	}
	if v, err := jsonNumber(lat, "totalCount"); err != nil {
		return nil, fail("totalCount", err.Error())
	} else if v != nil {
		d.Count, _ = v.Ns(1)
	}
	for _, p := range []float64{0.001, 0.01, 0.1, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999} {
		k := "p" + strings.ReplaceAll(strconv.FormatFloat(p, 'f', -1, 64), ".", "_")
		v, ok, err := ms(k)
		if err != nil {
			return nil, fail(k, err.Error())
		}
		if ok {
			d.Points = append(d.Points, measure.Point{Percentile: p, Ns: v, Count: -1})
		}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = autocannonPrecision
	d.Notes = append(d.Notes, "autocannon's p% is the first value whose running count reaches ⌈p·n⌉; only its 2xx replies have latencies.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatAutocannonJSON, Dists: []measure.Dist{d}}, nil
}

// autocannonStated reads what autocannon states of its run: "Running Ds
// test @ URL", "N connections" and, in -j's JSON, connections, duration,
// the 2xx replies and the samples (one a second: the run's seconds).
func autocannonStated(data []byte, d *measure.Dist) (requests, duration int64, conns int, corrected bool) {
	var m struct {
		Conns   int     `json:"connections"`
		Samples int64   `json:"samples"`
		OK      int64   `json:"2xx"`
		Dur     float64 `json:"duration"`
		Latency struct {
			TotalCount int64 `json:"totalCount"`
		} `json:"latency"`
	}
	if json.Unmarshal(data, &m) == nil {
		if m.Conns > 0 && m.Conns <= 1e5 {
			conns = m.Conns
		}
		if m.Samples > 0 && m.Samples < 1e6 {
			duration = m.Samples * 1e9 // a sample a second, the last at the run's end
		}
		// lib/run.js 243-244: -R records each 2xx latency with an expected
		// interval, which adds values to the histogram beside the replies.
		return max(m.OK, 0), duration, conns, m.Latency.TotalCount > m.OK
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 5 && f[0] == "Running" && f[2] == "test" && f[3] == "@":
			if s, err := strconv.ParseFloat(strings.TrimSuffix(f[1], "s"), 64); err == nil && s > 0 && s < 1e6 {
				duration = int64(math.Ceil(s)) * 1e9 // it stops at the first second tick at or after -d
			}
		case len(f) == 2 && f[1] == "connections":
			if c, err := strconv.Atoi(f[0]); err == nil && c > 0 && c <= 1e5 {
				conns = c
			}
		}
	}
	if d != nil && d.Count > 0 {
		requests = d.Count
	}
	return requests, duration, conns, false
}
