package measure

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"omission/sim"
)

// Source is one recording to export: its whole-run histogram and, when the
// run kept them, its samples with the time each was recorded.
type Source struct {
	Name string // the recording's name, the .hlog tag: "closed", "open", ...
	// Hist holds every sample of the run, 3 significant digits; its total
	// count is Count.
	Hist  *hdrhistogram.Histogram
	Count int64
	// At[i] is when sample i was recorded (its reply, in ns from the run's
	// start) and Latency[i] its value; nil when the run kept no per-request
	// data. A corrected recording keeps its base samples here and Correct
	// says how each expands.
	At, Latency []int64
	// Correct is the expected interval E of a corrected recording: sample v
	// also stands for v-E, v-2E, ... while at least E. 0: none.
	Correct int64
}

// Set is what one export writes: the recordings of one run.
type Set struct {
	Sources []Source
	// StartUnixMs is the wall-clock start of a real run in ms since the
	// epoch; 0 for simulated time.
	StartUnixMs int64
	// Span is the run's length in ns: the last reply of any recording.
	Span int64
	// Query is the model's canonical query (empty for a real run).
	Query string
	// What describes the run in a comment line of the .hlog.
	What string
}

// Source returns the named source, or nil.
func (s *Set) Source(name string) *Source {
	for i := range s.Sources {
		if s.Sources[i].Name == name {
			return &s.Sources[i]
		}
	}
	return nil
}

// Names lists the sources' names in order.
func (s *Set) Names() []string {
	out := make([]string, len(s.Sources))
	for i := range s.Sources {
		out[i] = s.Sources[i].Name
	}
	return out
}

// Select returns a Set holding only the named sources (all when names is
// empty), or an error naming the unknown one and the choices.
func (s *Set) Select(names ...string) (*Set, error) {
	if len(names) == 0 {
		return s, nil
	}
	out := *s
	out.Sources = nil
	for _, n := range names {
		src := s.Source(n)
		if src == nil {
			return nil, fmt.Errorf("measure: no recording %q (one of %s)", n, strings.Join(s.Names(), ", "))
		}
		out.Sources = append(out.Sources, *src)
	}
	return &out, nil
}

// PerRequest reports whether every source kept its samples' times.
func (s *Set) PerRequest() bool {
	for i := range s.Sources {
		if s.Sources[i].At == nil {
			return false
		}
	}
	return len(s.Sources) > 0
}

// NewSource builds a source from samples: at[i] is when sample i was
// recorded and lat[i] its latency, both in ns; correct > 0 makes it a
// corrected recording with that expected interval.
func NewSource(name string, at, lat []int64, correct int64) (Source, error) {
	if len(at) != len(lat) {
		return Source{}, fmt.Errorf("measure: %s: %d times for %d latencies", name, len(at), len(lat))
	}
	var mx int64
	for i, v := range lat {
		if v < 0 {
			return Source{}, fmt.Errorf("measure: %s: sample %d is negative (%d ns)", name, i, v)
		}
		mx = max(mx, v)
	}
	h := newExportHist(mx)
	var n int64
	for _, v := range lat {
		c, err := recordCorrected(h, v, 1, correct)
		if err != nil {
			return Source{}, fmt.Errorf("measure: %s: %v", name, err)
		}
		n += c
	}
	return Source{Name: name, Hist: h, Count: n, At: at, Latency: lat, Correct: correct}, nil
}

// FromResult turns a simulation's recordings into a Set. An exact run on the
// fast path keeps every sample with its reply time (the .hlog then has one
// interval per second, the .csv one row per sample); a run beyond the exact
// bound or from the event engine keeps whole-run histograms only.
func FromResult(res *sim.Result) (*Set, error) { return FromResultOf(res) }

// FromResultOf is FromResult keeping only the named recordings (none named:
// every one), in the model's order; the span is still the whole run's.
func FromResultOf(res *sim.Result, names ...string) (*Set, error) {
	return fromResult(res, true, names...)
}

// HlogFileOf is FromResultOf's Set of the named recordings, in that order,
// written as an .hlog and read back (HlogFile), without the whole-run
// histograms an interval log does not need: the fit's forward run of an
// .hlog, once a candidate. The run must keep per-request samples.
func HlogFileOf(res *sim.Result, name string, names ...string) (*File, error) {
	set, err := fromResult(res, false, names...)
	if err != nil {
		return nil, err
	}
	if set, err = set.Select(names...); err != nil {
		return nil, err
	}
	return set.HlogFile(name)
}

// FromTraceOf is FromResultOf's Set of the named recordings, in that order,
// for a walked run's sim.Runner.TraceResult: its per-request times without
// the distributions a whole Result sorts, so there is no model count to
// hold the samples to (a candidate of the fit, app/fit). Without hist the
// sources carry no histogram (an .hlog or the CSV reads none).
func FromTraceOf(res *sim.Result, hist bool, names ...string) (*Set, error) {
	if res == nil || res.Engine != nil || res.Clients[sim.ClosedClient].Done == nil {
		return nil, errors.New("measure: a trace set needs a walked run's per-request times")
	}
	set, err := fromRecordings(res, hist, false, names...)
	if err != nil {
		return nil, err
	}
	return set.Select(names...)
}

// fromResult is FromResultOf; without hist, the sources of a per-request run
// keep their samples and counts but no histogram (HlogFile reads none).
func fromResult(res *sim.Result, hist bool, names ...string) (*Set, error) {
	return fromRecordings(res, hist, true, names...)
}

// fromRecordings is fromResult; with counted, each source's count is held
// to the model's recording.
func fromRecordings(res *sim.Result, hist, counted bool, names ...string) (*Set, error) {
	if res == nil {
		return nil, errors.New("measure: no result")
	}
	set := &Set{Query: res.Query}
	for _, c := range res.Clients {
		set.Span = max(set.Span, c.LastCompletion)
	}
	perRequest := res.Engine == nil && res.Clients[sim.ClosedClient].Done != nil
	if perRequest {
		set.What = "simulated run of the query " + quoteQuery(res.Query) + " (virtual time; every sample at its reply)"
	} else {
		set.What = "simulated run of the query " + quoteQuery(res.Query) + " (no per-request timings kept: one interval holds the whole run)"
	}
	sched := res.Schedule()
	for _, k := range sim.Kinds() {
		if len(names) > 0 && !slices.Contains(names, k.String()) {
			continue
		}
		rec := &res.Recordings[k]
		var src Source
		var err error
		if perRequest {
			src, err = samplesOf(res, k, sched, hist)
		} else if !hist {
			return nil, errors.New("measure: an .hlog of the run needs its per-request samples")
		} else {
			src, err = histogramOf(res, k)
		}
		if err != nil {
			return nil, err
		}
		if counted && src.Count != rec.Count {
			return nil, fmt.Errorf("measure: %s: exported %d samples, the model has %d", k, src.Count, rec.Count)
		}
		set.Sources = append(set.Sources, src)
	}
	return set, nil
}

func quoteQuery(q string) string {
	if q == "" {
		return "(bench preset)"
	}
	return q
}

// samplesOf returns recording k of an exact fast-path run, sample by sample.
func samplesOf(res *sim.Result, k sim.Kind, sched sim.Schedule, hist bool) (Source, error) {
	cr := &res.Clients[k.Client()]
	n := len(cr.Done)
	at := make([]int64, n)
	lat := make([]int64, n)
	for i := 0; i < n; i++ {
		at[i] = cr.Done[i]
		lat[i] = cr.Latency(i, sched)
	}
	var e int64
	if k == sim.Corrected || k == sim.PacedCorrected {
		e = res.Recordings[k].Interval
	}
	if !hist {
		return samplesOnly(k.String(), at, lat, e)
	}
	return NewSource(k.String(), at, lat, e)
}

// samplesOnly is NewSource without the histogram: the count is the samples
// and, corrected, those recordCorrected adds (v/e − 1 for each v > e).
func samplesOnly(name string, at, lat []int64, correct int64) (Source, error) {
	var n int64
	for i, v := range lat {
		if v < 0 {
			return Source{}, fmt.Errorf("measure: %s: sample %d is negative (%d ns)", name, i, v)
		}
		n++
		if correct > 0 && v > correct {
			n += max(v/correct-1, 0)
		}
	}
	return Source{Name: name, Count: n, At: at, Latency: lat, Correct: correct}, nil
}

// histogramOf returns recording k as a whole-run histogram.
func histogramOf(res *sim.Result, k sim.Kind) (Source, error) {
	rec := &res.Recordings[k]
	d := rec.Dist
	h := newExportHist(rec.Max)
	var n int64
	record := func(sorted []int64, e int64) error {
		for i := 0; i < len(sorted); {
			j := i
			for j < len(sorted) && sorted[j] == sorted[i] {
				j++
			}
			c, err := recordCorrected(h, sorted[i], int64(j-i), e)
			if err != nil {
				return err
			}
			n += c
			i = j
		}
		return nil
	}
	var err error
	switch {
	case d.Sorted() != nil:
		err = record(d.Sorted(), 0)
	case d.Runs() != nil && k != sim.Corrected && k != sim.PacedCorrected:
		// A long run's counted runs, a histogram bucket at a time.
		for _, r := range d.Runs() {
			c, err2 := recordRun(h, r, 0)
			if err2 != nil {
				err = err2
				break
			}
			n += c
		}
	case d.Histogram() != nil:
		for _, b := range d.Histogram().Distribution() {
			if b.Count == 0 {
				continue
			}
			if err = h.RecordValues(b.From, b.Count); err != nil {
				break
			}
			n += b.Count
		}
	case k == sim.Corrected || k == sim.PacedCorrected:
		// A counted correction: re-record its base samples with the same
		// expected interval, as HdrHistogram's correction would.
		base := &res.Recordings[sim.Closed]
		if k == sim.PacedCorrected {
			base = &res.Recordings[sim.Paced]
		}
		switch {
		case base.Dist.Sorted() != nil:
			err = record(base.Dist.Sorted(), rec.Interval)
		case base.Dist.Runs() != nil:
			for _, r := range base.Dist.Runs() {
				c, err2 := recordRun(h, r, rec.Interval)
				if err2 != nil {
					err = err2
					break
				}
				n += c
			}
		default:
			return Source{}, fmt.Errorf("measure: %s: the base recording keeps no samples", k)
		}
	default:
		return Source{}, fmt.Errorf("measure: %s: the distribution keeps neither samples nor a histogram", k)
	}
	if err != nil {
		return Source{}, fmt.Errorf("measure: %s: %v", k, err)
	}
	return Source{Name: k.String(), Hist: h, Count: n}, nil
}
