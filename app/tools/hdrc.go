package tools

import (
	"fmt"
	"math"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// cHdr is the C HdrHistogram that wrk2 bundles (src/hdr_histogram.c at
// https://github.com/giltene/wrk2/blob/44a94c1/src/hdr_histogram.c), read
// through hdrhistogram-go, whose layout for (1, 24 h in µs, 3 digits) is the
// same: 2048 sub-buckets, unit magnitude 0. Its iteration (Distribution)
// walks the counts exactly as hdr_iter_next does (stops once the running
// count reaches the total); the rules below are the C file's.
type cHdr struct {
	bars    []hdrhistogram.Bar
	total   int64
	buckets int32
}

// wrk2MaxLatency is MAX_LATENCY (src/wrk.c 9–10): one day in microseconds.
const wrk2MaxLatency = int64(24 * 60 * 60 * 1000000)

func newCHdr(us []int64) (*cHdr, error) {
	h := hdrhistogram.New(1, wrk2MaxLatency, 3)
	for _, v := range us {
		if err := h.RecordValue(v); err != nil {
			return nil, fmt.Errorf("wrk2 records %d µs: %v", v, err)
		}
	}
	return &cHdr{bars: h.Distribution(), total: h.TotalCount(), buckets: cBucketCount(wrk2MaxLatency)}, nil
}

// cBucketCount is hdr_init's buckets_needed for lowest 1 and 3 digits.
func cBucketCount(highest int64) int32 {
	smallest, n := int64(2048), int32(1)
	for smallest < highest {
		if smallest > math.MaxInt64/2 {
			return n + 1
		}
		smallest <<= 1
		n++
	}
	return n
}

func median(b hdrhistogram.Bar) int64 { return b.From + (b.To-b.From+1)>>1 }

// valueAtPercentile is hdr_value_at_percentile (lines 335–358).
func (h *cHdr) valueAtPercentile(p float64) int64 {
	req := math.Min(p, 100.0)
	at := int64(req/100*float64(h.total) + 0.5)
	at = max(at, 1)
	var total int64
	for _, b := range h.bars {
		total += b.Count
		if total >= at {
			return b.To
		}
	}
	return 0
}

// mean is hdr_mean (lines 360–376): median equivalent values, in double.
func (h *cHdr) mean() float64 {
	var total int64
	for _, b := range h.bars {
		if b.Count != 0 {
			total += b.Count * median(b)
		}
	}
	return float64(total) * 1.0 / float64(h.total)
}

// stddev is hdr_stddev (lines 378–396).
func (h *cHdr) stddev() float64 {
	mean := h.mean()
	dev := 0.0
	for _, b := range h.bars {
		if b.Count != 0 {
			d := float64(median(b))*1.0 - mean
			dev += (d * d) * float64(b.Count)
		}
	}
	return math.Sqrt(dev / float64(h.total))
}

// max is hdr_max (lines 301–314): the lowest equivalent of the last value.
func (h *cHdr) max() int64 {
	var m int64
	for _, b := range h.bars {
		if b.Count != 0 {
			m = b.From
		}
	}
	return m
}

// within is wrk2's stats_within_stdev on a histogram (src/stats.c 83–112).
func (h *cHdr) within(mean, stdev ld) (float64, bool) {
	if h.total == 0 {
		return 0, true
	}
	upperV := int64(mean.add(stdev).float())
	lowerV := int64(mean.sub(stdev).float())
	var lowerC, upperC, cum int64
	found := false
	for _, b := range h.bars {
		cum += b.Count
		if lowerV > b.From {
			lowerC = cum
		}
		if upperV < b.To {
			upperC, found = cum, true
			break
		}
	}
	if !found {
		upperC = h.total
	}
	return 100.0 * float64(upperC-lowerC) / float64(h.total), true
}

// cFloat prints a double as glibc's printf "%<w>.<p>f" does, inf and nan
// included (0/0 on x86-64 is the negative default NaN).
func cFloat(x float64, w, p int) string {
	switch {
	case math.IsInf(x, 1):
		return padLeft("inf", w)
	case math.IsNaN(x):
		return padLeft("-nan", w)
	}
	return fmt.Sprintf("%*.*f", w, p, x)
}

// percentilesPrint is hdr_percentiles_print(h, stream, ticks, scale,
// CLASSIC) with hdr_percentile_iter_next (lines 506–556, 558–649).
func (h *cHdr) percentilesPrint(b *strings.Builder, ticks int32, scale float64) {
	fmt.Fprintf(b, "%12s %12s %12s %12s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)")
	idx, countTo, countAt := -1, int64(0), int64(0)
	next := func() bool {
		if countTo >= h.total || idx+1 >= len(h.bars) {
			return false
		}
		idx++
		countAt = h.bars[idx].Count
		countTo += countAt
		return true
	}
	highest := func() int64 {
		if idx < 0 {
			return 0
		}
		return h.bars[idx].To
	}
	line := func(percentile float64) {
		pc := percentile / 100.0
		fmt.Fprintf(b, "%12.3f %12f %12d %s\n", float64(highest())/scale, pc, countTo, cFloat(1.0/(1.0-pc), 12, 2))
	}
	seenLast := false
	pTo, percentile := 0.0, 0.0
	for {
		if countTo >= h.total {
			if seenLast {
				break
			}
			seenLast = true
			line(100.0)
			continue
		}
		if idx == -1 && !next() {
			break
		}
		for {
			cur := 100.0 * float64(countTo) / float64(h.total)
			if countAt != 0 && pTo <= cur {
				percentile = pTo
				halfDistance := int64(math.Pow(2, float64(int64(math.Log(100/(100.0-pTo))/math.Log(2))+1)))
				reportingTicks := int64(ticks) * halfDistance
				pTo += 100.0 / float64(reportingTicks)
				break
			}
			if !next() {
				break
			}
		}
		line(percentile)
	}
	fmt.Fprintf(b, "#[Mean    = %s, StdDeviation   = %s]\n", cFloat(h.mean()/scale, 12, 3), cFloat(h.stddev()/scale, 12, 3))
	fmt.Fprintf(b, "#[Max     = %12.3f, Total count    = %12d]\n", float64(h.max())/scale, h.total)
	fmt.Fprintf(b, "#[Buckets = %12d, SubBuckets     = %12d]\n", h.buckets, 2048)
}
