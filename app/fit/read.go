package fit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// Stated by a printout ("N requests in 10.00s", "1 threads and C
	// connections"); 0 when the file does not say.
	duration int64
	conns    int
	requests int64
	// durationFrom says how the duration was found when the file implies
	// it rather than states it ("" : stated).
	durationFrom string
	// rate is the rate a printout states it ran at (fortio's "Starting at Q
	// qps"); 0 when it states none. rateHint is one it implies, to be
	// searched from (oha's requests over its duration).
	rate, rateHint sim.Rate
	// skipsKnown: the printout says whether the tool skipped the calls a
	// stall made late rather than sending them late (skips; fortio's
	// "Catchup allowed: false" is fortio -nocatchup's).
	skipsKnown, skips bool
	// slow is the replies a printout's histogram holds in its buckets
	// above half its largest value (fortio's); -1 when it has none.
	// slowHi, when above slow, bounds them from above: a printout whose
	// percentiles only bracket them (locust's) gives slow…slowHi.
	slow, slowHi int64
	// dropped is the requests a k6 summary says it never sent
	// (dropped_iterations); 0 when it says none.
	dropped int64
}

// wrkStated reads what a wrk or wrk2 printout states of its run: "N
// requests in 10.00s, …" and "T threads and C connections" (by hand: the
// page's WebAssembly leaves package regexp out).
func wrkStated(data []byte) (requests, duration int64, conns int) {
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			n, err1 := strconv.ParseInt(f[0], 10, 64)
			d, err2 := time.ParseDuration(strings.TrimSuffix(f[3], ","))
			if err1 == nil && err2 == nil {
				requests, duration = n, int64(d)
			}
		case len(f) >= 5 && f[1] == "threads" && f[2] == "and" && f[4] == "connections":
			if c, err := strconv.Atoi(f[3]); err == nil {
				conns = c
			}
		}
	}
	return requests, duration, conns
}

// heyStated reads what a hey printout states of its run: "Total: D secs"
// and the responses of its status code distribution ("[200] N
// responses"); hey prints neither -c nor -q.
func heyStated(data []byte) (requests, duration int64) {
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "Total:" && f[2] == "secs":
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				duration = int64(math.Round(v * 1e9))
			}
		case len(f) == 3 && strings.HasPrefix(f[0], "[") && f[2] == "responses":
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				requests += n
			}
		}
	}
	return requests, duration
}

// abStated reads what ApacheBench states of its run: "Concurrency Level:
// C", "Time taken for tests: D seconds" and "Complete requests: N".
func abStated(data []byte) (requests, duration int64, conns int) {
	for _, l := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Concurrency Level":
			if c, err := strconv.Atoi(f[0]); err == nil {
				conns = c
			}
		case "Time taken for tests":
			if d, err := strconv.ParseFloat(f[0], 64); err == nil {
				duration = int64(math.Round(d * 1e9))
			}
		case "Complete requests":
			if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				requests = n
			}
		}
	}
	return requests, duration, conns
}

// fortioStated reads what a fortio load printout states of its run
// (the lines fortio's periodic/periodic.go and fhttp/httprunner.go print):
// "Starting at Q qps with C thread(s) [gomax G] for D : …", "Ended after
// E : N calls. qps=…", "Uniform: …, Catchup allowed: B", and the rows of
// the Function Time histogram ("> a <= b , mid , percent, count"), whose
// counts from the first bucket starting at or above half the largest
// reply on are the slow replies (-1: no such rows).
func fortioStated(data []byte) (requests, duration int64, conns int, rate sim.Rate, noCatchUp bool, slow int64) {
	slow = -1
	inFunc := false
	type row struct {
		from  float64
		count int64
	}
	var rows []row
	maxS := 0.0
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 10 && f[0] == "Starting" && f[1] == "at" && f[3] == "qps" && f[4] == "with" && f[6] == "thread(s)":
			if q, err := strconv.ParseFloat(f[2], 64); err == nil && q > 0 && q < 1e9 {
				rate = sim.Rate(math.Round(q * 1000))
			}
			if c, err := strconv.Atoi(f[5]); err == nil {
				conns = c
			}
			if i := slices.Index(f, "for"); i > 0 && i+1 < len(f) {
				if d, err := time.ParseDuration(f[i+1]); err == nil {
					duration = int64(d)
				}
			}
		case len(f) >= 5 && f[0] == "Ended" && f[1] == "after" && f[3] == ":" && f[5] == "calls.":
			if n, err := strconv.ParseInt(f[4], 10, 64); err == nil {
				requests = n
			}
		case strings.HasPrefix(l, "Uniform:") && strings.Contains(l, "Catchup allowed: false"):
			noCatchUp = true
		case strings.HasPrefix(l, "Aggregated Function Time :"):
			inFunc = true
			if i := slices.Index(f, "max"); i > 0 && i+1 < len(f) {
				maxS, _ = strconv.ParseFloat(f[i+1], 64)
			}
		case inFunc && len(f) == 9 && (f[0] == ">" || f[0] == ">=") && f[2] == "<=" && f[4] == "," && f[6] == ",":
			a, err1 := strconv.ParseFloat(f[1], 64)
			n, err2 := strconv.ParseInt(f[8], 10, 64)
			if err1 == nil && err2 == nil {
				rows = append(rows, row{a, n})
			}
		case inFunc && strings.HasPrefix(l, "# target"):
			inFunc = false
		}
	}
	if len(rows) > 0 && maxS > 0 {
		slow = 0
		for _, r := range rows {
			if 2*r.from >= maxS {
				slow += r.count
			}
		}
	}
	return requests, duration, conns, rate, noCatchUp, slow
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
	rate = measuredRate(m.Rate * float64(m.Requests-1) / float64(m.Requests))
	return m.Requests, m.Requests * sim.NewSchedule(rate).Interval(1), rate
}

// ohaStated reads what oha's JSON (src/printer.rs print_json) states of
// its run: summary.total (the duration), the responses of
// statusCodeDistribution and the connections errorDistribution's "aborted
// due to deadline" counts (every connection task is aborted at the
// deadline, src/client.rs), whence the rate as the responses over the
// duration (oha sends each tick it queued); and the responses in
// responseTimeHistogram's bins from half the slowest up (the slow replies;
// -1 when it has none).
func ohaStated(data []byte) (requests, duration int64, conns int, rate sim.Rate, slow int64) {
	var m struct {
		Summary struct {
			Total   float64 `json:"total"`
			Slowest float64 `json:"slowest"`
		} `json:"summary"`
		Hist   map[string]int64 `json:"responseTimeHistogram"`
		Codes  map[string]int64 `json:"statusCodeDistribution"`
		Errors map[string]int64 `json:"errorDistribution"`
	}
	slow = -1
	if json.Unmarshal(data, &m) != nil || m.Summary.Total <= 0 || m.Summary.Total > 1e6 {
		return 0, 0, 0, 0, -1
	}
	duration = int64(math.Round(m.Summary.Total * 1e9))
	for _, n := range m.Codes {
		requests += n
	}
	aborted := m.Errors["aborted due to deadline"]
	if aborted > 0 && aborted <= 1e5 {
		conns = int(aborted)
	}
	if requests > 0 {
		// The aborted are connection tasks, idle or not: not requests.
		rate = measuredRate(float64(requests) / m.Summary.Total)
	}
	if len(m.Hist) > 0 {
		slow = 0
		for k, n := range m.Hist {
			if v, err := strconv.ParseFloat(k, 64); err == nil && 2*v >= m.Summary.Slowest {
				slow += n
			}
		}
	}
	return requests, duration, conns, rate, slow
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

// locustStated reads what a locust summary states of its run. Its log
// lines, when kept with it (locust/main.py logs them to stderr): "Run time
// limit set to N seconds" and "All users spawned: {…} (U total users)".
// Its request table's Aggregated row: # reqs and req/s, total_rps = # reqs
// over the time from the start to the last request logged (stats.py
// 473–480), whence the run time when no log line states it, to the whole
// second (-t takes whole seconds, parse_timespan) when within 2 % of one.
// Its percentile table brackets the slow replies (those at half the Max
// column or more): a percentile p printed slow means at least n − int(n·p)
// of them (calculate_response_time_percentile, stats.py 161–179), one
// printed fast fewer than that.
func locustStated(data []byte, o *obs) (requests, duration int64, conns int, slowLo, slowHi int64, durationFrom string) {
	slowLo, slowHi = -1, -1
	var rps float64
	inPct := false
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if t == "Response time percentiles (approximated)" {
			inPct = true
		}
		f := strings.Fields(strings.ReplaceAll(t, "|", " "))
		switch {
		case strings.Contains(t, "Run time limit set to ") && strings.HasSuffix(t, " seconds"):
			g := strings.Fields(t[strings.Index(t, "Run time limit set to ")+len("Run time limit set to "):])
			if s, err := strconv.ParseInt(g[0], 10, 64); err == nil && s > 0 && s < 1e6 {
				duration = s * 1e9
			}
		case strings.Contains(t, "All users spawned:") && strings.HasSuffix(t, " total users)"):
			g := strings.Fields(t[strings.LastIndex(t, "(")+1:])
			if u, err := strconv.Atoi(g[0]); err == nil && u > 0 && u <= 1e5 {
				conns = u
			}
		case !inPct && len(f) >= 9 && f[0] == "Aggregated":
			n, err1 := strconv.ParseInt(f[1], 10, 64)
			r, err2 := strconv.ParseFloat(f[7], 64)
			if err1 == nil && err2 == nil && n > 0 && r > 0 {
				requests, rps = n, r
			}
		}
	}
	if duration == 0 && requests > 0 && rps > 0 {
		d := float64(requests) / rps
		if w := math.Round(d); w >= 1 && math.Abs(d-w) <= 0.02*d {
			d = w
		}
		if d < 1e6 {
			duration = int64(math.Round(d * 1e9))
			durationFrom = "# reqs over req/s (locust's rate is over the time to its last request), to the whole second (-t)"
		}
	}
	if n := o.count; n > 0 && o.max > 0 {
		slowLo, slowHi = 1, n // the Max column's reply is one
		for _, pt := range o.points {
			// p as Python holds PERCENTILES_TO_REPORT's literal (0.999):
			// the float nearest the printed percentage over 100.
			p, err := strconv.ParseFloat(strconv.FormatFloat(pt.Percentile/100, 'f', 6, 64), 64)
			if err != nil {
				continue
			}
			at := n - int64(float64(n)*p)
			if 2*pt.Ns >= o.max {
				slowLo = max(slowLo, at)
			} else {
				slowHi = min(slowHi, at-1)
			}
		}
		if slowHi < slowLo {
			slowLo, slowHi = -1, -1
		}
	}
	return requests, duration, conns, slowLo, slowHi, durationFrom
}

// measuredRate is a rate a run measured (requests a second), taken as the
// whole number a second a tool was asked for when within 0.2 % of one (a
// real run's requests leave a little off schedule).
func measuredRate(r float64) sim.Rate {
	if w := math.Round(r); w > 0 && math.Abs(r-w) <= 0.002*r {
		r = w
	}
	return sim.Rate(math.Round(r * 1000))
}

// read parses data: the CSV here, every other format with measure.Parse.
func read(name string, data []byte) (*input, error) {
	in := &input{name: name, slow: -1}
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
	switch f.Format {
	case tools.FormatWrk, tools.FormatWrk2, tools.FormatHey, tools.FormatAb, tools.FormatFortio, tools.FormatLocust, tools.FormatVegeta, tools.FormatOha, tools.FormatK6, measure.FormatHgrmJava, measure.FormatHgrmC, measure.FormatHgrmGo, measure.FormatHlog:
	default:
		return nil, fmt.Errorf("%s: %s: the fit reads wrk, wrk2, hey, ab, fortio and locust printouts, vegeta's, oha's and k6's JSON, .hgrm, .hlog and the project's CSV; this format cannot be regenerated and compared", name, f.Format.Title())
	}
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
	switch f.Format {
	case tools.FormatWrk, tools.FormatWrk2:
		in.requests, in.duration, in.conns = wrkStated(data)
	case tools.FormatHey:
		in.requests, in.duration = heyStated(data)
	case tools.FormatAb:
		in.requests, in.duration, in.conns = abStated(data)
	case tools.FormatVegeta:
		in.requests, in.duration, in.rate = vegetaStated(data)
	case tools.FormatOha:
		in.requests, in.duration, in.conns, in.rateHint, in.slow = ohaStated(data)
	case tools.FormatK6:
		in.requests, in.duration, in.conns, in.dropped = k6Stated(data)
	case tools.FormatLocust:
		in.requests, in.duration, in.conns, in.slow, in.slowHi, in.durationFrom = locustStated(data, &in.obs[0])
	case tools.FormatFortio:
		in.requests, in.duration, in.conns, in.rate, in.skips, in.slow = fortioStated(data)
		in.skipsKnown = true
	}
	return in, nil
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
