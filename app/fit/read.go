package fit

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/app/tools"
	"omission/app/units"
	"omission/sim"
)

// FormatCSV is the project's per-sample CSV (measure.CSVSamplesHeader),
// which measure.Parse does not read: this package reads it.
const FormatCSV measure.Format = "csv"

// input is what a file holds, read once.
type input struct {
	name   string
	format measure.Format
	obs    []obs // one per distribution, labelled
	// What the file states of its run (tools.StatedIn); zero for the
	// HdrHistogram formats and the CSV, which state none of it.
	tools.Stated
}

// read parses data: the CSV here, every other format with measure.Parse.
func read(name string, data []byte) (*input, error) {
	in := &input{name: name}
	in.Slow, in.SlowHi = -1, -1
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(t, []byte(measure.CSVSamplesHeader)) {
		if len(data) > measure.MaxFileSize {
			return nil, &measure.ParseError{Name: name, Msg: fmt.Sprintf("the file has %d bytes; the limit is %d (16 MiB)", len(data), measure.MaxFileSize)}
		}
		in.format = FormatCSV
		o, err := readCSV(name, t)
		if err != nil {
			return nil, err
		}
		in.obs = o
		return in, nil
	}
	f, err := measure.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if len(f.Incomplete) > 0 {
		// Part of a run: its numbers are not the run's, and the fit would
		// build what the test hid on them.
		return nil, &IncompleteError{Name: name, Format: f.Format, Lacks: f.Incomplete}
	}
	in.format = f.Format
	in.obs = append(in.obs, fileObs(f)...)
	if f.Format == measure.FormatHlog {
		// The model counts time from the run's start: an .hlog's intervals
		// from the log's first (a log with a BaseTime, as a real run
		// writes, counts them from the epoch).
		from := math.Inf(1)
		for i := range in.obs {
			for _, iv := range in.obs[i].intervals {
				from = math.Min(from, iv.StartS)
			}
		}
		if from > 0 && !math.IsInf(from, 1) {
			for i := range in.obs {
				ivs := slices.Clone(in.obs[i].intervals)
				for k := range ivs {
					ivs[k].StartS -= from
				}
				in.obs[i].intervals = ivs
			}
		}
	}
	if !f.Format.HdrHistogram() {
		var d *measure.Dist
		if len(f.Dists) > 0 {
			d = &f.Dists[0]
		}
		st, ok := tools.StatedIn(f.Format, data, d)
		if !ok {
			return nil, fmt.Errorf("%s: %s: the fit reads the tools' files that it can regenerate (%s), .hgrm, .hlog and the project's CSV; this format cannot be regenerated and compared", name, f.Format.Title(), strings.Join(tools.Names(), ", "))
		}
		in.Stated = st
		if st.Unmodelled != "" {
			return nil, &UnmodelledError{Name: name, Format: f.Format, Why: st.Unmodelled}
		}
		if in.Dropped > 0 && len(in.obs) > 0 {
			in.obs[0].dropped = in.Dropped
		}
		if in.Requests <= 0 && len(in.obs) > 0 && in.obs[0].count < 0 {
			for _, t := range tools.Writing(f.Format) {
				if why := t.NoCount(); why != "" {
					return nil, &NoCountError{Name: name, Format: f.Format, Why: why}
				}
			}
		}
	}
	return in, nil
}

// Lacks says what data lacks of its format's whole layout, each part in
// words (IncompleteError's Lacks; nil when the file is whole, or when
// nothing in it shows that it is not), without fitting it: the page asks
// it of each file the reader gives, whose numbers it shows at once (its
// own reading, in app.wasm, leaves these checks out). err is why the file
// could not be read at all.
func Lacks(name string, data []byte) ([]string, error) {
	if len(data) > measure.MaxFileSize {
		return nil, &measure.ParseError{Name: name, Msg: fmt.Sprintf("the file has %d bytes; the limit is %d (16 MiB)", len(data), measure.MaxFileSize)}
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(t, []byte(measure.CSVSamplesHeader)) {
		_, err := readCSV(name, t)
		var inc *IncompleteError
		if errors.As(err, &inc) {
			return inc.Lacks, nil
		}
		return nil, err
	}
	f, err := measure.Parse(name, data)
	if err != nil {
		return nil, err
	}
	return f.Incomplete, nil
}

// IncompleteError is a file the fit refuses because it is incomplete: a
// printout cut before its end, an interval log with intervals missing, a
// CSV with rows missing. Lacks says what, each part in words.
type IncompleteError struct {
	Name   string
	Format measure.Format
	Lacks  []string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%s: the file is incomplete (%s): it lacks %s. Its numbers are of part of a run, and the fit does not say what a test hid from part of it: give the whole file",
		e.Name, e.Format.Title(), strings.Join(e.Lacks, "; and "))
}

// NoFitError is a file the fit refuses because the only tool that can
// have written it is one whose reading it does not yet regenerate (Why:
// tools.Tool.NoFit).
type NoFitError struct {
	Name, Tool string
	Format     measure.Format
	Why        string
}

func (e *NoFitError) Error() string {
	return fmt.Sprintf("%s: %s, written by %s: %s", e.Name, e.Format.Title(), e.Tool, e.Why)
}

// UnmodelledError is a file the fit refuses because it shows that its run
// did what the model does not run (Why: tools.Stated.Unmodelled).
type UnmodelledError struct {
	Name   string
	Format measure.Format
	Why    string
}

func (e *UnmodelledError) Error() string {
	return fmt.Sprintf("%s: %s: %s. The fit does not say what a test hid from a run it cannot replay", e.Name, e.Format.Title(), e.Why)
}

// NoCountError is a file the fit refuses because it prints no exact count
// of its requests, which a closed loop's service time is found from (Why:
// what the tool prints instead, and what to give).
type NoCountError struct {
	Name   string
	Format measure.Format
	Why    string
}

func (e *NoCountError) Error() string {
	return fmt.Sprintf("%s: %s: the file holds no exact count of its requests: %s", e.Name, e.Format.Title(), e.Why)
}

// readCSV reads recording,time_ns,latency_ns,synthetic rows into one
// observation per recording, in the order they first appear.
func readCSV(name string, data []byte) ([]obs, error) {
	type acc struct {
		at, lat []int64 // the recorded (not synthetic) samples
		all     []int64 // every sample, synthetic ones too
	}
	var order []string
	accs := map[string]*acc{}
	ln := 0
	for len(data) > 0 {
		ln++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		if ln == 1 || len(l) == 0 {
			continue
		}
		parts := strings.Split(string(l), ",")
		if len(parts) != 4 {
			return nil, &measure.ParseError{Name: name, Format: FormatCSV, Line: ln, Msg: fmt.Sprintf("expected 4 columns (%s), found %d", measure.CSVSamplesHeader, len(parts))}
		}
		at, err1 := strconv.ParseInt(parts[1], 10, 64)
		v, err2 := strconv.ParseInt(parts[2], 10, 64)
		if err1 != nil || err2 != nil || at < 0 || v < 0 || (parts[3] != "0" && parts[3] != "1") {
			return nil, &measure.ParseError{Name: name, Format: FormatCSV, Line: ln, Msg: "expected <recording>,<time_ns ≥ 0>,<latency_ns ≥ 0>,<0 or 1>, found " + strconv.Quote(string(l))}
		}
		a := accs[parts[0]]
		if a == nil {
			if len(order) == measure.MaxTags {
				return nil, &measure.ParseError{Name: name, Format: FormatCSV, Line: ln, Msg: fmt.Sprintf("more than %d recordings", measure.MaxTags)}
			}
			a = &acc{}
			accs[parts[0]] = a
			order = append(order, parts[0])
		}
		a.all = append(a.all, v)
		if parts[3] == "0" {
			a.at, a.lat = append(a.at, at), append(a.lat, v)
		}
	}
	if len(order) == 0 {
		return nil, &measure.ParseError{Name: name, Format: FormatCSV, Line: ln, Msg: "expected sample rows after the header, found none"}
	}
	var out []obs
	for _, n := range order {
		a := accs[n]
		out = append(out, fromSamples(n, a.at, a.lat, a.all))
	}
	if lacks := csvGaps(out); len(lacks) > 0 {
		return nil, &IncompleteError{Name: name, Format: FormatCSV, Lacks: lacks}
	}
	return out, nil
}

// csvGaps says which rows a CSV of the model's recordings lacks, as far
// as the rows themselves show it: the recordings of one schedule record
// each request once (closed, open and the corrected recording's measured
// samples the same count; paced and its correction's the same), and the
// open recording's due times (reply − latency) step by 1/rate, so a step
// of more than one and a half of the usual marks rows missing between.
// A file cut within its first recording reads as a shorter run's.
func csvGaps(os []obs) []string {
	by := map[string]*obs{}
	for i := range os {
		by[os[i].label] = &os[i]
	}
	var out []string
	same := func(a, b string) {
		x, y := by[a], by[b]
		if x == nil || y == nil || len(x.lat) == len(y.lat) {
			return
		}
		short, long := x, y
		if len(y.lat) < len(x.lat) {
			short, long = y, x
		}
		out = append(out, fmt.Sprintf("rows of the %s recording: it holds %s measured samples where the %s recording, of the same schedule, holds %s",
			short.label, units.Count(int64(len(short.lat))), long.label, units.Count(int64(len(long.lat)))))
	}
	same("closed", "open")
	same("closed", "corrected")
	same("paced", "paced_corrected")
	if o := by["open"]; o != nil && len(o.at) > 2 {
		due := make([]int64, len(o.at))
		for i := range o.at {
			due[i] = o.at[i] - o.lat[i]
		}
		slices.Sort(due)
		steps := make([]int64, len(due)-1)
		for i := range steps {
			steps[i] = due[i+1] - due[i]
		}
		sorted := slices.Clone(steps)
		slices.Sort(sorted)
		T := sorted[len(sorted)/2]
		for i, d := range steps {
			if T > 0 && 2*d > 3*T {
				out = append(out, fmt.Sprintf("the open recording's rows due from %s to %s (its due times step by %s elsewhere)",
					units.Duration(float64(due[i])), units.Duration(float64(due[i+1])), units.Duration(float64(T))))
				if len(out) > 4 {
					break
				}
			}
		}
	}
	return out
}

// fromSamples summarises exact samples: at and lat are the recorded ones
// (their reply times), all every sample including a correction's.
func fromSamples(label string, at, lat, all []int64) obs {
	o := obs{label: label, exact: true}
	s := slices.Clone(all)
	slices.Sort(s)
	o.count = int64(len(s))
	o.min, o.max = -1, -1
	o.mean = -1
	if len(s) > 0 {
		var sum float64
		for _, v := range s {
			sum += float64(v)
		}
		o.mean, o.min, o.max = sum/float64(len(s)), s[0], s[len(s)-1]
		for i, p := range sim.Percentiles() {
			o.p[i] = s[sim.RankOf(p.PPM, o.count, sim.RankRound)-1]
			o.pExact[i] = true
		}
	} else {
		o.p = [5]int64{-1, -1, -1, -1, -1}
	}
	o.vc = countValues(s)
	o.at, o.lat = at, lat
	return o
}

// countValues turns sorted values into value counts.
func countValues(s []int64) []measure.ValueCount {
	var out []measure.ValueCount
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		out = append(out, measure.ValueCount{Ns: s[i], Count: int64(j - i)})
		i = j
	}
	return out
}
