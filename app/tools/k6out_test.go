package tools

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"omission/app/measure"
)

// TestK6CSVReadsBack: the CSV and the JSON output the k6 tools write read
// back as every request's reply time (from the first send) and duration,
// exactly, in reply order, and state its requests, VUs and dropped
// iterations.
func TestK6CSVReadsBack(t *testing.T) {
	cfg := mustConfig(t, "stall=100ms&every=1s&first=500ms&duration=3s&conns=3&rate=1000")
	for _, name := range []string{"k6-vus-csv", "k6-arrival-csv", "k6-vus-json", "k6-arrival-json"} {
		o, err := RunJSON(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		format, ext := FormatK6CSV, ".csv"
		if strings.HasSuffix(name, "-json") {
			format, ext = FormatK6JSON, ".json"
		}
		f, err := measure.Parse(name+ext, []byte(o.File))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Format != format || len(f.Incomplete) > 0 {
			t.Fatalf("%s: read as %s, incomplete %v", name, f.Format, f.Incomplete)
		}
		pr := o.Run
		from := slices.Min(pr.Send)
		var at, lat []int64
		for _, i := range pr.ReplyOrder() {
			at, lat = append(at, pr.Done[i]-from), append(lat, pr.Done[i]-pr.Send[i])
		}
		d := f.Dists[0]
		if !slices.Equal(d.At, at) || !slices.Equal(d.Lat, lat) {
			t.Errorf("%s: the times and durations do not read back (%d and %d of %d)", name, len(d.At), len(d.Lat), len(at))
		}
		if s := Samples(o); !slices.Equal(s.At, d.At) || !slices.Equal(s.Lat, d.Lat) || s.P != d.P {
			t.Errorf("%s: Samples is not what the file reads back as", name)
		}
		s, ok := StatedIn(f.Format, []byte(o.File), &d)
		if !ok || s.Requests != pr.Recorded || s.Conns != cfg.Conns || s.Dropped != o.Dropped || s.Duration != slices.Sorted(slices.Values(at))[len(at)-cfg.Conns] {
			t.Errorf("%s: states %+v; the run had %d requests, %d VUs, %d dropped, its replies %v", name, s, pr.Recorded, cfg.Conns, o.Dropped, at[len(at)-5:])
		}
		if strings.HasPrefix(name, "k6-arrival") && o.Dropped == 0 {
			t.Errorf("%s: the stall dropped no iteration", name)
		}
	}
}

// TestK6CSVTimeFormats: each of the CSV output's timeFormat layouts reads;
// whole seconds give the durations and no times.
func TestK6CSVTimeFormats(t *testing.T) {
	row := func(ts string) string {
		return k6CSVHeader + "\nhttp_reqs," + ts + ",1.000000,,,,true,,GET,u,HTTP/1.1,default,,200,,,u,,\nhttp_req_duration," + ts + ",2.500000,,,,true,,GET,u,HTTP/1.1,default,,200,,,u,,\n"
	}
	for _, c := range []struct {
		ts    string
		times bool
	}{
		{"1767225600", false}, {"1767225600123", true}, {"1767225600123456", true}, {"1767225600123456789", true},
		{"2026-01-01T00:00:00Z", false}, {"2026-01-01T00:00:00.5+01:00", true},
	} {
		f, err := measure.Parse("k6.csv", []byte(row(c.ts)))
		if err != nil {
			t.Errorf("%s: %v", c.ts, err)
			continue
		}
		d := f.Dists[0]
		if d.Count != 1 || d.MaxNs != 2_500_000 || (d.At != nil) != c.times {
			t.Errorf("%s: count %d max %d times %v", c.ts, d.Count, d.MaxNs, d.At)
		}
	}
}

// TestK6CSVBadAndCut: a malformed http_req_duration row (its time, its
// value, or a row short of them) is an error naming its line and column; a file cut within its last row, or between a request's two
// rows, reads as incomplete.
func TestK6CSVBadAndCut(t *testing.T) {
	cfg := mustConfig(t, "stall=100ms&every=1s&first=500ms&duration=2s&rate=200")
	o, err := RunJSON(cfg, "k6-vus-csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(o.File, "\n")
	// edit is the file with line n (1-based) changed by f.
	edit := func(n int, f func(l string) string) string {
		ls := slices.Clone(lines)
		ls[n-1] = f(ls[n-1])
		return strings.Join(ls, "")
	}
	dur := lines[2] // line 3, the first request's http_req_duration row
	valCol := strings.Index(dur, ",0.100000,") + 2
	timeCol := len("http_req_duration,") + 1
	for _, c := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"bad-value", edit(3, func(l string) string { return strings.Replace(l, ",0.100000,", ",0.1x,", 1) }), 3, valCol, "duration in ms"},
		{"bad-time", edit(3, func(l string) string { return strings.Replace(l, "T00:", " 00:", 1) }), 3, timeCol, "timestamp"},
		{"short-row", edit(3, func(l string) string { return l[:strings.Index(l, ",0.100000,")] + "\n" }), 3, len(lines[2][:strings.Index(lines[2], ",0.100000,")]) + 1, "expected metric_name,timestamp,metric_value"},
	} {
		_, err := measure.Parse(c.name+".csv", []byte(c.text))
		var pe *measure.ParseError
		if !errors.As(err, &pe) || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v; want line %d column %d, %q", c.name, err, c.line, c.col, c.msg)
		}
	}
	for _, c := range []struct{ name, text, lacks string }{
		{"cut-row", strings.Join(lines[:40], "") + lines[40][:30], "the rest of its last row, cut after 2 of its 19 columns"},
		{"cut-between", strings.Join(lines[:40], ""), "the http_req_duration rows of 1 request whose"},
	} {
		f, err := measure.Parse(c.name+".csv", []byte(c.text))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(f.Incomplete) != 1 || !strings.Contains(f.Incomplete[0], c.lacks) {
			t.Errorf("%s: incomplete %q; want %q", c.name, f.Incomplete, c.lacks)
		}
	}
}

// TestK6VUsGauge: the vus gauge of the k6 CSV files is what k6's
// scheduler samples each second. For constant-vus it is every VU (vus_max)
// until the duration ends; for constant-arrival-rate it is the VUs running
// an iteration at the tick, counted here from the file's own rows (a
// request sent at its reply's time less its duration, and not yet
// answered), and it moves: a stall over a tick holds many.
func TestK6VUsGauge(t *testing.T) {
	cfg := mustConfig(t, "stall=1500ms&every=4s&first=500ms&duration=6s&conns=400&rate=500&service=1ms")
	for _, name := range []string{"k6-vus-csv", "k6-arrival-csv"} {
		o, err := RunJSON(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		type span struct{ send, reply time.Time }
		var reqs []span
		gauge, max := map[time.Time]float64{}, map[time.Time]float64{}
		for _, line := range strings.Split(o.File, "\n")[1:] {
			f := strings.Split(line, ",")
			if len(f) < 3 {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, f[1])
			if err != nil {
				t.Fatalf("%s: %q: %v", name, line, err)
			}
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, line, err)
			}
			switch f[0] {
			case "http_req_duration":
				reqs = append(reqs, span{at.Add(-time.Duration(math.Round(v * 1e6))), at})
			case "vus":
				gauge[at] = v
			case "vus_max":
				max[at] = v
			}
		}
		if len(gauge) < 5 {
			t.Fatalf("%s: %d vus ticks, want one each second of the run", name, len(gauge))
		}
		moved := false
		for at, v := range gauge {
			if max[at] != 400 {
				t.Errorf("%s: vus_max at %v is %v, want the 400 VUs allowed", name, at, max[at])
			}
			if name == "k6-vus-csv" {
				if at.Before(time.Unix(6, 0)) && v != 400 {
					t.Errorf("%s: vus at %v is %v: constant-vus keeps its 400 VUs active until its duration ends", name, at, v)
				}
				continue
			}
			busy := 0
			for _, r := range reqs {
				if !r.send.After(at) && r.reply.After(at) {
					busy++
				}
			}
			if v != float64(busy) {
				t.Errorf("%s: vus at %v is %v, but %d requests were in flight then", name, at, v, busy)
			}
			moved = moved || v > 1 && v < 400
		}
		if name == "k6-arrival-csv" && !moved {
			t.Errorf("%s: its vus gauge never moved off 0, 1 or 400 (%v): a stall over a tick should hold many VUs", name, gauge)
		}
	}
}
