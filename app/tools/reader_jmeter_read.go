//go:build !minimal

package tools

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// The reader of JMeter's JTL (jtlReader, reader_jmeter.go), left out of
// the page's app.wasm: about 26 kB raw, 4.5 kB after gzip, where app.wasm
// had 2 kB of room (app/browser TestWasmSize). The command (report
// -measured, report -fit) and fit.wasm read a JTL.

// jtlField is one field of a JTL line: its text, unquoted, and its 1-based
// byte column.
type jtlField struct {
	text string
	col  int
}

// jtlSplit cuts a line at delim, as CSVSaveService's StringQuoter wrote
// it: a field holding the delimiter, a quote or a line break is quoted,
// its quotes doubled. A quoted field that runs past the line's end
// (a line break inside it) ends there.
func jtlSplit(line string, delim byte) []jtlField {
	var out []jtlField
	i := 0
	for {
		f := jtlField{col: i + 1}
		if i < len(line) && line[i] == '"' {
			var b strings.Builder
			i++
			for i < len(line) {
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(line[i])
				i++
			}
			f.text = b.String()
			for i < len(line) && line[i] != delim {
				i++
			}
		} else {
			j := strings.IndexByte(line[i:], delim)
			if j < 0 {
				j = len(line) - i
			}
			f.text = line[i : i+j]
			i += j
		}
		out = append(out, f)
		if i >= len(line) {
			return out
		}
		i++ // the delimiter
	}
}

// jtlLayout is a JTL's header: its delimiter and the column of each name.
type jtlLayout struct {
	delim byte
	names []string
	col   map[string]int
	line  int // the header's line number
	// headerless: the file starts with a sample (JMeter 2.13 writes no
	// header by default): its columns are the default ones of the
	// version whose count they have.
	headerless bool
}

// The default columns of JMeter 2.13 (SampleSaveConfiguration.java 333
// at v2_13: no header line by default) and of 5.x (jmeter.go).
var (
	jtlNames213 = strings.Split("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,bytes,grpThreads,allThreads,Latency", ",")
	jtlNames5   = strings.Split(jtlHeader5, ",")
)

// jtlHeader reads the first line that is not empty as the header; a
// line that starts with a number is a sample of a file without one.
func jtlHeader(ls []measure.Line) (jtlLayout, int, bool) {
	for i, l := range ls {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		h := jtlLayout{delim: ',', col: map[string]int{}, line: l.N}
		if strings.HasPrefix(t, "timeStamp\t") {
			h.delim = '\t'
		}
		fs := jtlSplit(t, h.delim)
		for _, f := range fs {
			h.names = append(h.names, f.text)
		}
		if isDigits(fs[0].text) {
			h.headerless = true
			switch len(fs) {
			case len(jtlNames213):
				h.names = jtlNames213
			case len(jtlNames5):
				h.names = jtlNames5
			}
		}
		for k, n := range h.names {
			if _, dup := h.col[n]; !dup {
				h.col[n] = k
			}
		}
		return h, i, true
	}
	return jtlLayout{}, 0, false
}

// jtlCut says whether line i of ls, the last that is not empty, is cut
// short of the header's columns: a file cut as it was written.
func jtlCut(ls []measure.Line, i int, h jtlLayout, n int) bool {
	if n >= len(h.names) {
		return false
	}
	for _, l := range ls[i+1:] {
		if strings.TrimSpace(l.Text) != "" {
			return false
		}
	}
	return true
}

// parseJTL reads a JTL in CSV (CSVSaveService, jmeter.go): the header
// names the columns, so any of JMeter 2.13's to 5.x's layouts is read by
// name, timeStamp (ms since the epoch) and elapsed (ms) at least. Every
// row is a sample: its start and its elapsed time are kept one by one
// (measure.Dist's At and Lat). A last line cut short of the header's columns
// is left out and named by the check that the file is whole
// (jtlIncomplete); any other line that is not a sample is an error at
// its column.
func parseJTL(name string, ls []measure.Line) (*measure.File, error) {
	samples, threads, failed, err := readJTL(name, ls)
	if err != nil {
		return nil, err
	}
	d := measure.Dist{Label: "elapsed", Count: int64(len(samples)), MinNs: -1, MaxNs: -1, UnitNs: 1, Precision: "whole ms"}
	if jtlEndStamps(samples, threads) {
		// Each thread's samples overlap if the timeStamp is the start:
		// it is the end (sampleresult.timestamp.start=false).
		for i := range samples {
			samples[i].start -= samples[i].lat
		}
		d.Notes = append(d.Notes, "Its timeStamps are the samples' ends (sampleresult.timestamp.start=false): each thread's samples would overlap were they the starts.")
	} else {
		d.Notes = append(d.Notes, "Its timeStamps are read as the samples' starts (sampleresult.timestamp.start=true, as JMeter's jmeter.properties sets it).")
	}
	// Every sample, as the fit reads a per-request file (measure.Dist's
	// At and Lat): its reply from the first start, and its elapsed time.
	t0 := samples[0].start
	for _, s := range samples {
		t0 = min(t0, s.start)
	}
	d.At, d.Lat = make([]int64, len(samples)), make([]int64, len(samples))
	var sum float64
	for i, s := range samples {
		d.At[i], d.Lat[i] = s.start-t0+s.lat, s.lat
		sum += float64(s.lat)
	}
	lat := slices.Clone(d.Lat)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	d.HasMean, d.MeanNs = true, sum/float64(len(lat))
	d.MinNs, d.MaxNs = lat[0], lat[len(lat)-1]
	for i, p := range sim.Percentiles() {
		d.P[i] = measure.Percentile{Ns: jmeterPct(lat, float64(p.PPM)/1e6), How: measure.FromSamples}
	}
	if failed > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%d of its samples failed (success false); their elapsed times are counted with the others.", failed))
	}
	d.Notes = append(d.Notes, "JMeter's Aggregate report's percentile p is the first elapsed time whose running count reaches round(p·n): the percentiles here follow it.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatJTL, Dists: []measure.Dist{d}}, nil
}

// jtlSample is a sample as a JTL line gives it: its start (timeStamp,
// ms since the epoch, in ns) and its elapsed time (ns).
type jtlSample struct{ start, lat int64 }

// readJTL reads a JTL's samples as written (timeStamp as the start), the
// thread of each ("" without the threadName column) and how many failed.
func readJTL(name string, ls []measure.Line) (samples []jtlSample, threads []string, failed int, err error) {
	perr := func(line, col int, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatJTL, Line: line, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	h, hi, ok := jtlHeader(ls)
	if !ok {
		return nil, nil, 0, perr(1, 0, "expected a header line (timeStamp,elapsed,…), found none")
	}
	cTS, okTS := h.col["timeStamp"]
	cEl, okEl := h.col["elapsed"]
	if h.headerless && !okTS {
		return nil, nil, 0, perr(h.line, 1, "a JTL without its header line: expected the %d columns of JMeter 2.13's defaults or the %d of 5.x's, found %d (save it with its header: jmeter.save.saveservice.print_field_names=true)", len(jtlNames213), len(jtlNames5), len(h.names))
	}
	if !okTS || !okEl {
		return nil, nil, 0, perr(h.line, 1, "expected the columns timeStamp and elapsed in the header, found %q", measure.TrimTo(ls[hi].Text, 60))
	}
	cTh, okTh := h.col["threadName"]
	cOK, okOK := h.col["success"]
	from := hi + 1
	if h.headerless {
		from = hi
	}
	for i := from; i < len(ls); i++ {
		l := ls[i]
		text := strings.TrimSuffix(l.Text, "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		fs := jtlSplit(text, h.delim)
		if len(fs) != len(h.names) {
			if jtlCut(ls, i, h, len(fs)) {
				break
			}
			col := len(text) + 1
			if len(fs) > len(h.names) {
				col = fs[len(h.names)].col
			}
			return nil, nil, 0, perr(l.N, col, "expected %d columns, as the header names, found %d", len(h.names), len(fs))
		}
		ts, el := fs[cTS], fs[cEl]
		start, err := strconv.ParseInt(ts.text, 10, 64)
		if err != nil || start < 0 || !isDigits(ts.text) {
			return nil, nil, 0, perr(l.N, ts.col, "expected the timeStamp in ms since the epoch (jmeter.save.saveservice.timestamp_format=ms, the default), found %q", measure.TrimTo(ts.text, 40))
		}
		v, err := strconv.ParseInt(el.text, 10, 64)
		if err != nil || v < 0 || v > 1e12 || !isDigits(el.text) {
			return nil, nil, 0, perr(l.N, el.col, "expected the elapsed time in whole ms, found %q", measure.TrimTo(el.text, 40))
		}
		if start > 1e15 {
			return nil, nil, 0, perr(l.N, ts.col, "the timeStamp %s ms is past the year 33000", ts.text)
		}
		samples = append(samples, jtlSample{start: start * 1e6, lat: v * 1e6})
		th := ""
		if okTh {
			th = fs[cTh].text
		}
		threads = append(threads, th)
		if okOK && fs[cOK].text == "false" {
			failed++
		}
	}
	if len(samples) == 0 {
		return nil, nil, 0, perr(h.line, 0, "expected sample lines after the header, found none")
	}
	return samples, threads, failed, nil
}

// jtlSamples reads a JTL's samples and their threads for what the file
// states of its run (nil when it is not read): the starts as the reader
// took them, from the first, when d is its distribution.
func jtlSamples(data []byte, d *measure.Dist) ([]jtlSample, []string) {
	samples, threads, _, err := readJTL("", measure.SplitLines(data))
	if err != nil {
		return nil, nil
	}
	if d != nil && len(d.At) == len(samples) {
		for i := range samples {
			samples[i] = jtlSample{start: d.At[i] - d.Lat[i], lat: d.Lat[i]}
		}
	}
	return samples, threads
}

// jtlStated reads what a JTL states of its run: its samples, its threads
// (the distinct threadName values) and the thread group's duration, in
// whole seconds: each thread stops after the first sample that ends at or
// after it (JMeterThread.stopSchedulerIfNeeded), so it is the first whole
// second after every thread's next-to-last sample ended, counted from the
// first sample's start.
func jtlStated(samples []jtlSample, threads []string) (requests, duration int64, conns int, from string) {
	if len(samples) == 0 {
		return 0, 0, 0, ""
	}
	t0 := samples[0].start
	for _, s := range samples {
		t0 = min(t0, s.start)
	}
	type ends struct{ last, prev int64 }
	by := map[string]*ends{}
	for i, s := range samples {
		e := by[threads[i]]
		if e == nil {
			e = &ends{last: -1, prev: -1}
			by[threads[i]] = e
		}
		end := s.start + s.lat - t0
		if end >= e.last {
			e.prev, e.last = e.last, end
		} else if end > e.prev {
			e.prev = end
		}
	}
	var prev int64 = -1
	for _, e := range by {
		prev = max(prev, e.prev)
	}
	duration = max((prev/1e6+1+999)/1000, 1) * 1e9 // the first whole second past it (ms stamps)
	if threads[0] != "" {
		conns = len(by)
	}
	return int64(len(samples)), duration, conns,
		"the thread group's whole seconds: the first after every thread's next-to-last sample ended"
}

// jtlRampUp says, in words, when a JTL's threads did not start at once
// (a thread group's ramp-up: ThreadGroup.start delays thread k of N by
// k·R/N of a ramp-up of R whole seconds). The model starts every
// connection at once. Without a ramp-up JMeter starts every thread
// before the first sample (the real runs kept here: within 3 ms of each
// other); with one of 1 s, 2 threads started 196 ms apart and 10 over
// 461 ms, the first thread's own start-up eating into the delay. A spread
// of the threads' first samples within 1 % of the samples' span is taken
// as at once (it moves the requests the model counts by about half that);
// a wider one is reported. "" when the JTL names no threads.
func jtlRampUp(samples []jtlSample, threads []string) string {
	first := map[string]int64{}
	t0, t1 := int64(math.MaxInt64), int64(math.MinInt64)
	for i, s := range samples {
		if threads[i] == "" {
			return ""
		}
		if f, ok := first[threads[i]]; !ok || s.start < f {
			first[threads[i]] = s.start
		}
		t0, t1 = min(t0, s.start), max(t1, s.start+s.lat)
	}
	if len(first) < 2 {
		return ""
	}
	hi := int64(math.MinInt64)
	for _, f := range first {
		hi = max(hi, f)
	}
	if spread := hi - t0; spread*100 <= t1-t0 {
		return ""
	}
	return fmt.Sprintf("its %d threads' first samples started over %s of its %s (a thread group's ramp-up or start-up delay, which starts them one by one), and the model starts every thread at once: it cannot replay that start, whose samples fewer threads sent. Fit a run whose thread group ramps up in 0 s, or whose ramp-up is within 1 %% of its length",
		len(first), units.Duration(float64(hi-t0)), units.Duration(float64(t1-t0)))
}

// jtlPaced reads from a JTL's times whether its threads were paced (a
// Constant Throughput Timer) and at what rate. A thread of a closed
// group starts its next sample as its last ends: at its millisecond
// stamps the next start is the last one's start plus its elapsed time,
// JMeter's own time between them 0 ms (or 1 ms, in a real run's 5 to 7 %
// of samples). A paced thread waits for its next target, its starts a
// whole period apart: the same gap between most of them, with an idle
// time of a ms or more after most samples (a period of P ms over an
// elapsed time under it). Paced when the median idle time is 1 ms or more
// and half the gaps or more are the median gap; the rate is then the
// threads over that gap (the timer's period, a late sample's
// re-anchoring aside).
func jtlPaced(samples []jtlSample, threads []string) (paced bool, rate sim.Rate, period int64) {
	if len(samples) < 3 || threads[0] == "" {
		return false, 0, 0
	}
	by := map[string][]jtlSample{}
	for i, sm := range samples {
		by[threads[i]] = append(by[threads[i]], sm)
	}
	var idle, gaps []int64
	for _, ss := range by {
		slices.SortFunc(ss, func(a, b jtlSample) int { return cmp.Compare(a.start, b.start) })
		for i := 1; i < len(ss); i++ {
			gaps = append(gaps, ss[i].start-ss[i-1].start)
			idle = append(idle, ss[i].start-(ss[i-1].start+ss[i-1].lat))
		}
	}
	if len(idle) == 0 {
		return false, 0, 0
	}
	slices.Sort(idle)
	slices.Sort(gaps)
	period = gaps[len(gaps)/2]
	if idle[len(idle)/2] < 1e6 || period <= 0 {
		return false, 0, 0
	}
	same := 0
	for _, g := range gaps {
		if g == period {
			same++
		}
	}
	if 2*same < len(gaps) {
		return false, 0, 0
	}
	return true, MeasuredRate(float64(len(by)) * 1e9 / float64(period)), period
}

// jtlPacedEnd is when a paced thread group's run ended, from its first
// sample's start: after every thread's last start, and no later than the
// earliest of those plus the timer's period (that thread's next target,
// which no sample took). The plan's whole seconds, duration, when they
// lie there; else, when JMeter's own start-up before its first sample
// cut the run short of them, the latest end the samples allow.
func jtlPacedEnd(samples []jtlSample, threads []string, period, duration int64) (end int64, cut bool) {
	t0 := samples[0].start
	for _, s := range samples {
		t0 = min(t0, s.start)
	}
	last := map[string]int64{}
	for i, s := range samples {
		last[threads[i]] = max(last[threads[i]], s.start-t0)
	}
	lo, hi := int64(0), int64(math.MaxInt64)
	for _, l := range last {
		lo, hi = max(lo, l), min(hi, l+period)
	}
	if duration > lo && duration <= hi {
		return duration, false
	}
	return hi, true
}

// jtlEndStamps says whether the timeStamps are the samples' ends: read as
// starts, some thread's sample would start before its last one ended,
// and read as ends, none would (a thread's samples follow each other).
func jtlEndStamps(ss []jtlSample, threads []string) bool {
	type run struct{ startEnd, endEnd int64 } // the last sample's end, each way
	last := map[string]*run{}
	overlapStart, overlapEnd := false, false
	for i, s := range ss {
		if threads[i] == "" {
			return false
		}
		r := last[threads[i]]
		if r != nil {
			overlapStart = overlapStart || s.start < r.startEnd
			overlapEnd = overlapEnd || s.start-s.lat < r.endEnd
		} else {
			r = &run{}
			last[threads[i]] = r
		}
		r.startEnd, r.endEnd = s.start+s.lat, s.start
	}
	return overlapStart && !overlapEnd
}

// jmeterPct is StatCalculator.getPercentPoint over sorted values.
func jmeterPct(sorted []int64, p float64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if p >= 1 {
		return sorted[n-1]
	}
	k := int(math.Floor(float64(n)*p + 0.5)) // Math.round
	return sorted[min(max(k, 1), n)-1]
}
