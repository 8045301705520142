package measure

import (
	"bufio"
	"io"
	"strconv"

	"omission/sim"
)

// MaxCSVRows bounds a per-sample CSV; a run with more samples (corrected
// ones included) is written as per-interval percentiles.
const MaxCSVRows = 4_000_000

// CSVSamplesHeader and CSVIntervalsHeader are the two CSV layouts' first
// lines.
const (
	CSVSamplesHeader   = "recording,time_ns,latency_ns,synthetic"
	CSVIntervalsHeader = "recording,from_ns,to_ns,count,p50_ns,p90_ns,p99_ns,p99_9_ns,p99_99_ns,max_ns"
)

// WriteCSV writes every sample as recording,time_ns,latency_ns,synthetic
// (time: when it was recorded, its reply; synthetic 1 for the samples a
// correction adds, at the time of the reply that adds them) when the run
// kept per-request data and the rows stay within MaxCSVRows; otherwise one
// row of percentiles per recording and .hlog interval (the whole run when
// there are no per-request times), values from the 3-digit histograms.
func (s *Set) WriteCSV(w io.Writer) error { return s.WriteCSVWithin(w, MaxCSVRows) }

// CSVSamples reports whether WriteCSVWithin(w, maxRows) writes every sample
// (else per-interval percentiles).
func (s *Set) CSVSamples(maxRows int64) bool { return s.PerRequest() && s.rows() <= maxRows }

// WriteCSVWithin is WriteCSV with maxRows in place of MaxCSVRows (the page
// keeps its files smaller).
func (s *Set) WriteCSVWithin(w io.Writer, maxRows int64) error {
	bw := bufio.NewWriter(w)
	if s.CSVSamples(maxRows) {
		bw.WriteString(CSVSamplesHeader + "\n")
		var buf []byte
		for si := range s.Sources {
			src := &s.Sources[si]
			for i, v := range src.Latency {
				t := src.At[i]
				buf = appendRow(buf[:0], src.Name, t, v, false)
				bw.Write(buf)
				if src.Correct > 0 && v > src.Correct {
					for m := v - src.Correct; m >= src.Correct; m -= src.Correct {
						buf = appendRow(buf[:0], src.Name, t, m, true)
						bw.Write(buf)
					}
				}
			}
		}
		return bw.Flush()
	}
	bw.WriteString(CSVIntervalsHeader + "\n")
	if s.PerRequest() {
		iv := IntervalNs(s.Span)
		n := s.Span/iv + 1
		for si := range s.Sources {
			src := &s.Sources[si]
			hs := make([]*intervalHist, n)
			for i, t := range src.At {
				j := min(t/iv, n-1)
				if hs[j] == nil {
					hs[j] = &intervalHist{}
				}
				hs[j].idx = append(hs[j].idx, int32(i))
			}
			h := newExportHist(src.Hist.Max())
			for j := int64(0); j < n; j++ {
				h.Reset()
				if hs[j] != nil {
					for _, i := range hs[j].idx {
						if _, err := recordCorrected(h, src.Latency[i], 1, src.Correct); err != nil {
							return err
						}
					}
				}
				writeIntervalRow(bw, src.Name, j*iv, (j+1)*iv, h)
			}
		}
		return bw.Flush()
	}
	for si := range s.Sources {
		writeIntervalRow(bw, s.Sources[si].Name, 0, s.Span, s.Sources[si].Hist)
	}
	return bw.Flush()
}

type intervalHist struct{ idx []int32 }

// rows counts the per-sample CSV's rows.
func (s *Set) rows() int64 {
	var n int64
	for i := range s.Sources {
		n += s.Sources[i].Count
	}
	return n
}

func appendRow(b []byte, name string, t, v int64, synthetic bool) []byte {
	b = append(b, name...)
	b = append(b, ',')
	b = strconv.AppendInt(b, t, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, v, 10)
	if synthetic {
		return append(b, ",1\n"...)
	}
	return append(b, ",0\n"...)
}

// CSVPercentiles returns the percentiles of a CSV's interval row, in
// percent: the report's (sim.Percentiles).
func CSVPercentiles() []float64 {
	out := make([]float64, 0, sim.NumPercentiles)
	for _, p := range sim.Percentiles() {
		out = append(out, p.Percent())
	}
	return out
}

func writeIntervalRow(bw *bufio.Writer, name string, from, to int64, h interface {
	TotalCount() int64
	ValueAtQuantile(float64) int64
	Max() int64
}) {
	b := []byte(name)
	for _, x := range []int64{from, to, h.TotalCount()} {
		b = append(b, ',')
		b = strconv.AppendInt(b, x, 10)
	}
	for _, p := range sim.Percentiles() {
		b = append(b, ',')
		if h.TotalCount() > 0 {
			b = strconv.AppendInt(b, h.ValueAtQuantile(p.Percent()), 10)
		}
	}
	b = append(b, ',')
	if h.TotalCount() > 0 {
		b = strconv.AppendInt(b, h.Max(), 10)
	}
	b = append(b, '\n')
	bw.Write(b)
}
