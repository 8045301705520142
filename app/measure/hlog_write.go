package measure

import (
	"bufio"
	"fmt"
	"io"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// MaxIntervals bounds the intervals of an exported .hlog: a run longer than
// MaxIntervals seconds gets intervals of a whole number of seconds instead
// of one, and says so in a comment.
const MaxIntervals = 3600

// IntervalNs returns the .hlog interval of a run of span ns: one second, or
// the fewest whole seconds that keep the log within MaxIntervals.
func IntervalNs(span int64) int64 {
	const sec = int64(1e9)
	n := (span + 1 + sec - 1) / sec // seconds that cover [0, span]
	k := (n + MaxIntervals - 1) / MaxIntervals
	return max(k, 1) * sec
}

// WriteHlog writes the set as an HdrHistogram interval log with
// hdrhistogram-go's HistogramLogWriter (log format 1.3): the version,
// StartTime (and for a real run BaseTime) comments, the legend, then for
// each interval one line per recording tagged with its name, values in ns
// and the interval's maximum in ms. When the run kept per-request times the
// intervals are one second of run time each (see IntervalNs), every sample
// in the interval of its reply; otherwise one interval holds the whole run,
// as a comment says (and the sources' histograms take the line's tag and
// times).
func (s *Set) WriteHlog(w io.Writer) error {
	bw := bufio.NewWriter(w)
	lw := hdrhistogram.NewHistogramLogWriter(bw)
	if err := lw.OutputLogFormatVersion(); err != nil {
		return err
	}
	if s.What != "" {
		lw.OutputComment("[" + s.What + "]")
	}
	lw.OutputStartTime(s.StartUnixMs)
	if s.StartUnixMs != 0 {
		// Timestamps are seconds from the start; BaseTime says so.
		lw.OutputBaseTime(s.StartUnixMs)
		lw.SetBaseTime(s.StartUnixMs)
	} else {
		lw.OutputComment("[Simulated time: interval start times are seconds from the run's start at 0; StartTime is the epoch by convention]")
	}
	lw.OutputComment("[Values in nanoseconds; Interval_Max in milliseconds; 3 significant digits]")
	if s.PerRequest() {
		iv := IntervalNs(s.Span)
		if iv != 1e9 {
			lw.OutputComment(fmt.Sprintf("[The run spans %d s: intervals of %d s keep the log within %d intervals]", s.Span/1e9+1, iv/1e9, MaxIntervals))
		}
		lw.OutputLegend()
		if err := s.writeIntervals(lw, iv); err != nil {
			return err
		}
	} else {
		lw.OutputComment("[No per-request timings: one interval holds the whole run]")
		lw.OutputLegend()
		end := s.Span
		for i := range s.Sources {
			h := s.Sources[i].Hist
			h.SetTag(s.Sources[i].Name)
			h.SetStartTimeMs(s.StartUnixMs)
			h.SetEndTimeMs(s.StartUnixMs + (end+999999)/1e6)
			if err := lw.OutputIntervalHistogram(h); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// writeIntervals writes one line per interval and source, reusing one
// histogram per source.
func (s *Set) writeIntervals(lw *hdrhistogram.HistogramLogWriter, iv int64) error {
	n := s.Span/iv + 1
	type bucketed struct {
		start []int32 // start[j]..start[j+1]: samples of interval j
		order []int32 // sample indices ordered by interval
		hist  *hdrhistogram.Histogram
	}
	bs := make([]bucketed, len(s.Sources))
	for si := range s.Sources {
		src := &s.Sources[si]
		counts := make([]int32, n+1)
		for _, t := range src.At {
			counts[min(t/iv, n-1)+1]++
		}
		for j := int64(1); j <= n; j++ {
			counts[j] += counts[j-1]
		}
		start := append([]int32(nil), counts...)
		order := make([]int32, len(src.At))
		for i, t := range src.At {
			j := min(t/iv, n-1)
			order[counts[j]] = int32(i)
			counts[j]++
		}
		var mx int64
		for _, v := range src.Latency {
			mx = max(mx, v)
		}
		bs[si] = bucketed{start: start, order: order, hist: newExportHist(mx)}
	}
	for j := int64(0); j < n; j++ {
		for si := range s.Sources {
			src, b := &s.Sources[si], &bs[si]
			h := b.hist
			h.Reset()
			for _, i := range b.order[b.start[j]:b.start[j+1]] {
				if _, err := recordCorrected(h, src.Latency[i], 1, src.Correct); err != nil {
					return fmt.Errorf("measure: %s: %v", src.Name, err)
				}
			}
			h.SetTag(src.Name)
			h.SetStartTimeMs(s.StartUnixMs + j*iv/1e6)
			h.SetEndTimeMs(s.StartUnixMs + (j+1)*iv/1e6)
			if err := lw.OutputIntervalHistogram(h); err != nil {
				return err
			}
		}
	}
	return nil
}
