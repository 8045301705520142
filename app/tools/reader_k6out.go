package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"omission/app/measure"
)

// FormatK6CSV is k6 run --out csv: a row per metric sample.
const FormatK6CSV measure.Format = "k6-csv"

var k6CSVReader = measure.Reader{
	Format: FormatK6CSV, Title: "k6 --out csv output",
	When:  measure.First, // its header is its first line: no need to look further
	Marks: []measure.Mark{{Prefix: "metric_name,timestamp,metric_value"}},
	Read:  parseK6CSV,
}

// parseK6CSV reads k6's CSV output (internal/output/csv/output.go: a
// header, then metric_name, timestamp, metric_value and the tags a row;
// k6out.go cites the rest): every http_req_duration row is a request, its
// value the duration in ms and its timestamp the reply (Tracer.Done). The
// three come first in every row (MakeHeader), unquoted (names, times and
// numbers): the tags after them are not read. The timestamp is in any of
// timeFormat's layouts: seconds, ms, µs or ns since the epoch (told apart
// by their digits: 10, 13, 16 or 19 for a date between 2001 and 2286) or
// RFC 3339. Whole seconds (k6's default) are too coarse to place a stall:
// such a file gives its durations only, and bounds the run's length to
// the whole seconds the fit tries (k6Shape.durations).
func parseK6CSV(name string, ls []measure.Line) (*measure.File, error) {
	perr := func(line, col int, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatK6CSV, Line: line, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	var ats, lat []int64
	unit := int64(0) // the finest timestamp unit seen, ns; 0: none yet
	for k, l := range ls {
		if !strings.HasPrefix(l.Text, "http_req_duration,") {
			continue
		}
		fs := strings.SplitN(l.Text, ",", 4)
		if len(fs) < 4 {
			if k == len(ls)-1 {
				break // the last row, cut: the file is incomplete (k6CSVIncomplete)
			}
			return nil, perr(l.N, len(l.Text)+1, "expected metric_name,timestamp,metric_value and the tags, found %d columns", len(fs))
		}
		at, u, err := k6Time(fs[1])
		if err != nil {
			return nil, perr(l.N, len(fs[0])+2, "timestamp %q: %v", fs[1], err)
		}
		ns, err := k6SampleNs(fs[2])
		if err != nil {
			return nil, perr(l.N, len(fs[0])+len(fs[1])+3, "expected a duration in ms ≥ 0, found %q", fs[2])
		}
		if unit == 0 || u < unit {
			unit = u
		}
		ats, lat = append(ats, at), append(lat, ns)
	}
	if len(lat) == 0 {
		return nil, perr(len(ls), 0, "expected http_req_duration rows (a k6 HTTP test's), found none")
	}
	fromFirstSend(ats, lat)
	seconds := unit >= 1e9 && k6ReadsTimes
	if seconds || !k6ReadsTimes {
		ats = nil
	}
	d := measure.SamplesDist("http_req_duration", ats, lat)
	d.Precision = "ms to 6 decimals (the ns); every request's duration"
	if seconds {
		d.Notes = append(d.Notes, "The timestamps are whole seconds (timeFormat unix, k6's default), too coarse to place a stall: only the durations are read. --out csv=fileName=k6.csv,timeFormat=rfc3339_nano writes them to the ns.")
	}
	return &measure.File{Name: name, Format: FormatK6CSV, Dists: []measure.Dist{d}}, nil
}

// FormatK6JSON is k6 run --out json: a JSON object a line, a metric's
// announcement or one of its samples.
const FormatK6JSON measure.Format = "k6-json"

var k6JSONReader = measure.Reader{
	Format: FormatK6JSON, Title: "k6 --out json output",
	When:  measure.First, // a metric's announcement is its first line
	Marks: []measure.Mark{{Prefix: `{"type":"Metric","data":{"name":"`}},
	// Its lines are JSON objects, the file is not one: read as lines.
	AfterJSON: `"type":"Point","data":{"time":"`,
	Read:      parseK6JSON,
}

// k6JSONPoint is the start of an http_req_duration sample's line
// (wrapper.go 9-18: metric, type, then data).
const k6JSONPoint = `{"metric":"http_req_duration","type":"Point","data":`

// parseK6JSON reads k6's JSON output (internal/output/json: k6JSON in
// json.go cites it): every http_req_duration sample is a request, its
// value the duration in ms and its time the reply (Tracer.Done), to the
// ns (time.Time's JSON). The other lines are not read; a cut last line
// is the file's being incomplete (k6JSONIncomplete), not an error.
func parseK6JSON(name string, ls []measure.Line) (*measure.File, error) {
	var ats, lat []int64
	for k, l := range ls {
		if !strings.HasPrefix(l.Text, k6JSONPoint) {
			continue
		}
		var p struct {
			Data struct {
				Time  string      `json:"time"`
				Value json.Number `json:"value"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(l.Text), &p); err != nil {
			if k == len(ls)-1 {
				break // the last line, cut
			}
			return nil, &measure.ParseError{Name: name, Format: FormatK6JSON, Line: l.N, Col: 1, Msg: "an http_req_duration sample that is not JSON: " + err.Error()}
		}
		at, _, err := k6Time(p.Data.Time)
		if err != nil {
			return nil, &measure.ParseError{Name: name, Format: FormatK6JSON, Line: l.N, Col: strings.Index(l.Text, `"time"`) + 1, Msg: fmt.Sprintf("time %q: %v", p.Data.Time, err)}
		}
		ns, err := k6SampleNs(p.Data.Value.String())
		if err != nil {
			return nil, &measure.ParseError{Name: name, Format: FormatK6JSON, Line: l.N, Col: strings.Index(l.Text, `"value"`) + 1, Msg: fmt.Sprintf("expected a duration in ms ≥ 0, found %q", p.Data.Value)}
		}
		ats, lat = append(ats, at), append(lat, ns)
	}
	if len(lat) == 0 {
		return nil, &measure.ParseError{Name: name, Format: FormatK6JSON, Line: len(ls), Msg: "expected http_req_duration samples (a k6 HTTP test's), found none"}
	}
	fromFirstSend(ats, lat)
	if !k6ReadsTimes {
		ats = nil
	}
	d := measure.SamplesDist("http_req_duration", ats, lat)
	d.Precision = "ms to the ns; every request's duration"
	return &measure.File{Name: name, Format: FormatK6JSON, Dists: []measure.Dist{d}}, nil
}

// fromFirstSend counts the replies' times ats from the first request's
// send (a reply's time less its latency): the run's start, which k6's
// per-request files do not state (k6 sends the first request at it).
func fromFirstSend(ats, lat []int64) {
	from := ats[0] - lat[0]
	for i := range ats {
		from = min(from, ats[i]-lat[i])
	}
	for i := range ats {
		ats[i] -= from
	}
}

// k6SampleNs reads a sample's value, a duration in ms (metrics/units.go), to
// the ns; an error when it is not a number ≥ 0.
func k6SampleNs(s string) (int64, error) {
	v, err := measure.ParseDecimal(s)
	ns := int64(-1)
	if err == nil {
		ns, err = v.Ns(1e6)
	}
	if err == nil && ns < 0 {
		err = fmt.Errorf("negative")
	}
	return ns, err
}

// k6JSONStated reads what k6's JSON output states of its run, as
// k6CSVStated does the CSV's: the requests, the dropped iterations, the
// VUs (vus_max's largest value) and the duration.
func k6JSONStated(data []byte, d *measure.Dist) (requests, duration int64, conns int, dropped int64, from string) {
	if d == nil {
		return 0, 0, 0, 0, ""
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		switch {
		case bytes.HasPrefix(l, []byte(`{"metric":"dropped_iterations","type":"Point"`)):
			dropped++
		case bytes.HasPrefix(l, []byte(`{"metric":"vus_max","type":"Point"`)):
			var p struct {
				Data struct {
					Value float64 `json:"value"`
				} `json:"data"`
			}
			if json.Unmarshal(l, &p) == nil && p.Data.Value > 0 && p.Data.Value <= 1e6 {
				conns = max(conns, int(p.Data.Value))
			}
		}
	}
	duration, from = k6RunLength(d, conns)
	return d.Count, duration, conns, dropped, from
}

// k6RunLength is the run's length a k6 per-request file gives: each VU's
// last reply came at or after the run's end (else it would have sent
// again), and every send before it, so the end is at most the VUs-th
// latest reply. 0 when the file holds no times.
func k6RunLength(d *measure.Dist, conns int) (int64, string) {
	n := len(d.At)
	if n == 0 {
		return 0, ""
	}
	at := slices.Sorted(slices.Values(d.At))
	return at[max(n-max(conns, 1), 0)], "the " + ordinal(max(conns, 1)) + " latest reply's time from the first request's send (a VU's last reply is at or after the run's end)"
}

// k6CSVFields splits a CSV line as encoding/csv reads it (a field in
// double quotes may hold commas and doubled quotes); bad is the 1-based
// column of a quote left open (0: none).
func k6CSVFields(s string) (fs []string, bad int) {
	for i := 0; ; {
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '"')
				if k < 0 {
					return fs, i + 1
				}
				b.WriteString(s[j : j+k])
				j += k + 1
				if j < len(s) && s[j] == '"' {
					b.WriteByte('"')
					j++
					continue
				}
				break
			}
			fs = append(fs, b.String())
			i = j
		} else {
			k := strings.IndexByte(s[i:], ',')
			if k < 0 {
				return append(fs, s[i:]), 0
			}
			fs = append(fs, s[i:i+k])
			i += k
		}
		if i >= len(s) {
			return fs, 0
		}
		i++ // the comma
		if i == len(s) {
			return append(fs, ""), 0
		}
	}
}

// k6CSVStated reads what k6's CSV states of its run: the requests (its
// http_req_duration rows, d), the dropped iterations (dropped_iterations
// rows), the VUs (vus_max's largest value) and, when it holds times
// finer than a second, the duration: from the first request's send to the
// latest reply of each VU.
func k6CSVStated(data []byte, d *measure.Dist) (requests, duration int64, conns int, dropped int64, from string) {
	if d == nil {
		return 0, 0, 0, 0, ""
	}
	requests = d.Count
	for _, l := range bytes.Split(data, []byte("\n")) {
		switch {
		case bytes.HasPrefix(l, []byte("dropped_iterations,")):
			dropped++
		case bytes.HasPrefix(l, []byte("vus_max,")):
			if fs, _ := k6CSVFields(string(l)); len(fs) > 2 {
				if v, err := measure.ParseDecimal(fs[2]); err == nil {
					conns = max(conns, int(v.Float()))
				}
			}
		}
	}
	duration, from = k6RunLength(d, conns)
	return requests, duration, conns, dropped, from
}

// ordinal is n as "1st", "2nd", "3rd", "4th" ….
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}
