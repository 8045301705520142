package measure

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"omission/sim"
)

// MaxFileSize is the largest file Parse reads: 16 MiB. A caller with a file
// larger than this refuses it before reading it (Parse checks the length of
// what it is given first).
const MaxFileSize = 16 << 20

// Format names a file layout Parse recognises: this package's own
// (HdrHistogram's .hgrm layouts and .hlog) or a Reader's.
type Format string

const (
	FormatHgrmJava Format = "hgrm-java" // Java HdrHistogram's outputPercentileDistribution
	FormatHgrmC    Format = "hgrm-c"    // HdrHistogram_c's hdr_percentiles_print (CLASSIC)
	FormatHgrmGo   Format = "hgrm-go"   // hdrhistogram-go's PercentilesPrint
	FormatHlog     Format = "hlog"      // HdrHistogram interval log (V2 compressed histograms)
)

// Formats returns every recognised format: this package's, then the
// registered readers' in the order they were registered (a new slice each
// call).
func Formats() []Format {
	out := slices.Clone(hdrFormats[:])
	for _, r := range readers {
		out = append(out, r.Format)
	}
	return out
}

// hdrFormats are this package's own formats.
var hdrFormats = [...]Format{FormatHgrmJava, FormatHgrmC, FormatHgrmGo, FormatHlog}

// HdrHistogram reports whether f is one of this package's own formats
// (HdrHistogram's), not a Reader's.
func (f Format) HdrHistogram() bool { return slices.Contains(hdrFormats[:], f) }

// Title describes the format in words.
func (f Format) Title() string {
	switch f {
	case FormatHgrmJava:
		return "HdrHistogram percentile distribution (.hgrm, Java layout)"
	case FormatHgrmC:
		return "HdrHistogram percentile distribution (.hgrm, C layout)"
	case FormatHgrmGo:
		return "HdrHistogram percentile distribution (.hgrm, Go layout)"
	case FormatHlog:
		return "HdrHistogram interval log (.hlog)"
	}
	if r := readerOf(f); r != nil {
		return r.Title
	}
	return string(f)
}

// How says where a percentile's value comes from.
type How string

const (
	// Stated: the file prints this percentile (to its precision).
	Stated How = "stated"
	// FromHistogram: computed by hdrhistogram-go from the full histogram
	// the file holds (rank round(p·n), the highest value of its bucket).
	FromHistogram How = "histogram"
	// FromSpectrum: the first percentile row whose total count reaches the
	// rank; the value lies above the previous row's (LowNs) and at most at
	// this one.
	FromSpectrum How = "spectrum"
	// Interpolated: the file prints it, and the tool interpolated it
	// linearly between the two samples around its rank.
	Interpolated How = "interpolated"
	// Estimated: the file prints it, and the tool estimated it from a
	// sketch rather than its samples (a t-digest).
	Estimated How = "estimated"
	// FromSamples: computed from every sample the file holds (a tool's
	// per-request output: k6's CSV, JMeter's JTL), by the rule its reader
	// names.
	FromSamples How = "samples"
	// Missing: the file does not determine it.
	Missing How = "missing"
)

// Percentile is one of the report's percentiles as a file gives it.
type Percentile struct {
	Name  string // "p50", "p90", "p99", "p99_9", "p99_99"
	PPM   int64  // 500000 for p50
	Ns    int64
	How   How
	LowNs int64 // FromSpectrum: the value is in (LowNs, Ns]
}

// Point is one (percentile, value) pair of a file's own spectrum.
type Point struct {
	Percentile float64 // 0-100
	Ns         int64
	Count      int64 // samples at or below it; -1 when the file does not say
}

// Dist is one measured distribution read from a file.
type Dist struct {
	Label   string // an .hlog tag, "hgrm", or what a tool's file calls it
	Count   int64  // -1: the file does not say
	HasMean bool
	MeanNs  float64
	MinNs   int64 // the smallest sample; -1: the file does not say
	MaxNs   int64 // -1: the file does not say
	P       [5]Percentile
	// Points is the file's own spectrum (percentile rows, or the tool's
	// printed percentiles), ascending.
	Points []Point
	// Precision says what the file carries: "3 significant digits",
	// "ms, 3 decimals", ...
	Precision string
	// Hist is the full distribution when the file holds one (an .hlog; an
	// .hgrm spectrum, rebuilt with each row's new counts at its value); its
	// values times UnitNs are nanoseconds.
	Hist   *hdrhistogram.Histogram
	UnitNs int64
	Notes  []string
	// Intervals are an .hlog tag's intervals in file order (nil for other
	// formats): when each was taken and the values it holds.
	Intervals []Interval
	// At and Lat are, for a file that holds every request (a tool's
	// per-request output: SamplesDist, a JMeter JTL), each request's reply time in ns
	// from the first request's send and its latency in ns, in file order;
	// nil for other formats.
	At, Lat []int64

	spectrum bool               // Hist was rebuilt from percentile rows
	bars     []hdrhistogram.Bar // an .hlog's counts, value order (nonzero only)
}

// Interval is one interval of an .hlog tag: its start (seconds, from the
// log's base time) and length, its sample count and its nonzero counts in
// value order (each value the highest equivalent of its bucket, in ns; a
// tag keeps at most 2¹⁷ of them, the intervals past that their counts
// only).
type Interval struct {
	StartS, LengthS float64
	Count           int64
	Values          []ValueCount
}

// Sample is one request a file lists: when it was sent, in ns from any
// origin the file keeps (a JTL's epoch), and its latency in ns.
type Sample struct {
	StartNs, LatencyNs int64
}

// ValueCount is a count of samples at a value (ns).
type ValueCount struct {
	Ns, Count int64
}

// File is what Parse read.
type File struct {
	Name   string
	Format Format
	Dists  []Dist
	Notes  []string
	// Incomplete says, each in words, what the file lacks of its format's
	// whole layout: a printout cut before its summary or inside its
	// percentile table, an interval log with intervals missing. Empty
	// when the file is whole, or when nothing in it shows that it is not
	// (a log cut between two intervals reads as a shorter run's). The
	// numbers such a file holds are of part of a run: report -fit refuses
	// it and says why.
	Incomplete []string
}

// ParseError is where and why reading stopped.
type ParseError struct {
	Name   string
	Format Format // "" while the format is not known yet
	Line   int    // 1-based; 0 for the file as a whole
	Col    int    // 1-based byte column; 0 when the whole line is meant
	Msg    string // what was expected and what was found
	// LeftOut: the page's build leaves this format's reader out, for its
	// size; fit.wasm, which the page asks of the file, reads it.
	LeftOut bool
}

func (e *ParseError) Error() string {
	where := e.Name
	if where == "" {
		where = "input"
	}
	if e.Line > 0 {
		where += fmt.Sprintf(":%d", e.Line)
		if e.Col > 0 {
			where += fmt.Sprintf(":%d", e.Col)
		}
	}
	if e.Format != "" {
		return fmt.Sprintf("%s: %s: %s", where, e.Format.Title(), e.Msg)
	}
	return where + ": " + e.Msg
}

// Parse detects the format of data, says which, and reads the distributions
// it holds. It refuses data over MaxFileSize before looking at it. Errors are
// *ParseError values naming the line and column where reading stopped.
func Parse(name string, data []byte) (*File, error) {
	if len(data) > MaxFileSize {
		return nil, &ParseError{Name: name, Msg: fmt.Sprintf("the file has %d bytes; the limit is %d (16 MiB)", len(data), MaxFileSize)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{Name: name, Line: 1, Msg: "the file is empty; expected " + expected}
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); t[0] == '{' {
		text := false // a printout after JSON log lines
		for _, r := range readers {
			text = text || r.AfterJSON != "" && bytes.Contains(data, []byte(r.AfterJSON))
		}
		if !text {
			return parseJSON(name, data)
		}
	}
	ls := SplitLines(data)
	f, err := detectText(name, ls)
	if err != nil {
		return nil, err
	}
	f.Incomplete = append(f.Incomplete, incomplete(f, ls)...)
	return f, nil
}

// Finish fills the percentiles a distribution does not state (P entries
// with no How) from its histogram or spectrum and validates what it holds:
// at the rank ceil(p·n) (Java HdrHistogram's) when rankCeil, else round(p·n)
// (HdrHistogram C and Go's). A Reader calls it on each distribution it
// returns.
func (d *Dist) Finish(rankCeil bool) {
	for i, p := range sim.Percentiles() {
		d.P[i].Name, d.P[i].PPM = p.Name, p.PPM
	}
	for i := range d.P {
		pc := &d.P[i]
		if pc.How != "" {
			continue
		}
		pc.How = Missing
		switch {
		case d.Hist != nil && d.Hist.TotalCount() > 0 && d.spectrum:
			// A spectrum's rows bound the value: take the first row that
			// reaches the rank.
			n := d.Hist.TotalCount()
			r := rankOf(pc.PPM, n, rankCeil)
			prev := int64(0)
			for _, pt := range d.Points {
				if pt.Count >= r {
					pc.Ns, pc.LowNs, pc.How = pt.Ns, prev, FromSpectrum
					break
				}
				prev = pt.Ns
			}
		case d.bars != nil && d.Count > 0:
			// hdrhistogram-go's ValueAtPercentile over the bars: rank
			// round(p·n) within [1, n], the highest value of its bucket.
			r := rankOf(pc.PPM, d.Count, false)
			var cum int64
			for _, b := range d.bars {
				cum += b.Count
				if cum >= r {
					pc.Ns = b.To * d.UnitNs
					break
				}
			}
			pc.How = FromHistogram
		case d.Hist != nil && d.Hist.TotalCount() > 0:
			pc.Ns = d.Hist.ValueAtQuantile(float64(pc.PPM)/1e4) * d.UnitNs
			pc.How = FromHistogram
		}
	}
}

// rankOf is the 1-based rank of ppm among n: round(p·n) at least 1 (the
// HdrHistogram C and Go rule) or ceil(p·n) (Java's), from sim.RankOf.
func rankOf(ppm, n int64, ceil bool) int64 {
	if ceil {
		return sim.RankOf(ppm, n, sim.RankCeil)
	}
	return sim.RankOf(ppm, n, sim.RankRound)
}

// CheckRead says how a reader broke what every reader of a file promises
// (nil: it kept it), for the tests and fuzzers that hold each reader to
// it: an error is a *ParseError with a position; a file holds a
// distribution, each with a count of at least -1, its named percentiles
// and ascending points, and a summary.
func CheckRead(file *File, err error) error {
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 0 || pe.Col < 0 || pe.Msg == "" {
			return fmt.Errorf("error %v (%T) is not a positioned ParseError", err, err)
		}
		return nil
	}
	if len(file.Dists) == 0 {
		return errors.New("no distribution and no error")
	}
	for _, d := range file.Dists {
		if d.Count < -1 {
			return fmt.Errorf("count %d", d.Count)
		}
		for i, p := range d.P {
			if p.Name != sim.Percentiles()[i].Name || p.How == "" || p.Ns < 0 {
				return fmt.Errorf("percentile %d: %+v", i, p)
			}
		}
		for i := 1; i < len(d.Points); i++ {
			if d.Points[i].Percentile < d.Points[i-1].Percentile {
				return fmt.Errorf("points out of order: %+v", d.Points)
			}
		}
	}
	for i := range file.Dists {
		file.Summary(i)
	}
	return nil
}

// SamplesDist is the distribution of every request a file holds: at, each
// request's reply time (ns from the first request's send), and lat, its
// latency (ns), in file order. Its count, mean, extremes and percentiles
// (FromSamples) are the samples' own.
func SamplesDist(label string, at, lat []int64) Dist {
	d := Dist{Label: label, Count: int64(len(lat)), MinNs: -1, MaxNs: -1, UnitNs: 1, At: at, Lat: lat}
	s := slices.Clone(lat)
	sim.SortInt64s(s) // app.wasm's one int64 sort
	if len(s) > 0 {
		var sum float64
		for _, v := range s {
			sum += float64(v)
		}
		d.HasMean, d.MeanNs, d.MinNs, d.MaxNs = true, sum/float64(len(s)), s[0], s[len(s)-1]
		for i, p := range sim.Percentiles() {
			d.P[i] = Percentile{Ns: s[sim.RankOf(p.PPM, d.Count, sim.RankRound)-1], How: FromSamples}
		}
	}
	d.Precision = "every sample"
	d.Finish(false)
	return d
}
