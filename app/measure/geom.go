package measure

import (
	"math"
	"math/bits"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"omission/sim"
)

// geom is an HdrHistogram's bucket geometry, computed as Java's
// AbstractHistogram constructor and getBucketsNeededToCoverValue do
// (HdrHistogram/HdrHistogram src/main/java/org/HdrHistogram/AbstractHistogram.java,
// "init" and "getBucketsNeededToCoverValue"; hdrhistogram-go hdr.go
// newExactGeometry and getBucketsNeededToCoverValue are the same rules).
type geom struct {
	lowest, highest int64
	sig             int
	unitMagnitude   uint
	halfMagnitude   uint // subBucketHalfCountMagnitude
	subBucketCount  int64
	bucketCount     int64
	countsLen       int64
}

// newGeom returns the geometry of (lowest, highest, sig) or false when it is
// not representable in 64 bits.
func newGeom(lowest, highest int64, sig int) (geom, bool) {
	if sig < 0 || sig > 5 || highest < 1 {
		return geom{}, false
	}
	if lowest < 1 {
		lowest = 1
	}
	largest := 2 * math.Pow10(sig)
	subMag := int(math.Ceil(math.Log2(largest)))
	halfMag := subMag
	if halfMag < 1 {
		halfMag = 1
	}
	halfMag--
	unitMag := int(math.Floor(math.Log2(float64(lowest))))
	if unitMag < 0 {
		unitMag = 0
	}
	if unitMag+halfMag > 61 {
		return geom{}, false
	}
	g := geom{lowest: lowest, highest: highest, sig: sig, unitMagnitude: uint(unitMag), halfMagnitude: uint(halfMag)}
	g.subBucketCount = int64(1) << (uint(halfMag) + 1)
	smallestUntrackable := g.subBucketCount << g.unitMagnitude
	buckets := int64(1)
	for smallestUntrackable <= highest {
		if smallestUntrackable > math.MaxInt64/2 {
			buckets++
			break
		}
		smallestUntrackable <<= 1
		buckets++
	}
	g.bucketCount = buckets
	g.countsLen = (buckets + 1) * (g.subBucketCount / 2)
	return g, true
}

// valueAt returns the lowest value of counts index idx (Java's
// valueFromIndex(int index)).
func (g geom) valueAt(idx int64) int64 {
	half := g.subBucketCount / 2
	bucket := (idx >> g.halfMagnitude) - 1
	sub := (idx & (half - 1)) + half
	if bucket < 0 {
		sub -= half
		bucket = 0
	}
	return sub << (uint(bucket) + g.unitMagnitude)
}

// exportHighest is the highest value the exported histograms track unless a
// larger sample needs more: one hour in nanoseconds.
const exportHighest = int64(3600e9)

// exportSigf is the precision of every histogram this package writes.
const exportSigf = 3

// newExportHist returns the histogram every export records into: 1 ns to
// max(1 h, maxValue), 3 significant digits.
func newExportHist(maxValue int64) *hdrhistogram.Histogram {
	return hdrhistogram.New(1, max(exportHighest, maxValue), exportSigf)
}

// lowestEquivalent is the lowest value in the bucket holding v, for the
// export geometry (lowest 1, 3 significant digits: 2048 sub-buckets).
func lowestEquivalent(v int64) int64 {
	b := 64 - bits.LeadingZeros64(uint64(v|2047)) - 11
	return v >> b << b
}

// recordCorrected records n samples of v into h and, for each, the samples
// HdrHistogram's expected-interval correction adds: v-e, v-2e, ... while at
// least e (hdrhistogram-go hdr.go RecordCorrectedValue; Java
// AbstractHistogram.recordValueWithExpectedInterval). It steps through a
// whole bucket of the sequence at a time, so a long sequence costs one call
// per bucket. It returns the samples it recorded.
func recordCorrected(h *hdrhistogram.Histogram, v, n, e int64) (int64, error) {
	if err := h.RecordValues(v, n); err != nil {
		return 0, err
	}
	if e <= 0 || v <= e {
		return n, nil
	}
	k := v/e - 1 // v-e, ..., v-ke >= e
	if k <= 0 {
		return n, nil
	}
	total := n * (k + 1)
	x, left := v-e, k
	for left > 0 {
		lo := lowestEquivalent(x)
		c := (x-lo)/e + 1
		if c > left {
			c = left
		}
		if err := h.RecordValues(x, c*n); err != nil {
			return 0, err
		}
		x -= c * e
		left -= c
	}
	return total, nil
}

// indexOf returns the counts index of value v (Java's countsArrayIndex:
// getBucketIndex and getSubBucketIndex), or -1 beyond the geometry.
func (g geom) indexOf(v int64) int64 {
	if v < 0 {
		return -1
	}
	mask := (g.subBucketCount - 1) << g.unitMagnitude
	base := 64 - int(g.unitMagnitude) - int(g.halfMagnitude) - 1
	bucket := int64(base - bits.LeadingZeros64(uint64(v|mask)))
	sub := v >> (uint(bucket) + g.unitMagnitude)
	idx := (bucket+1)<<g.halfMagnitude + (sub - g.subBucketCount/2)
	if idx < 0 || idx >= g.countsLen {
		return -1
	}
	return idx
}

// bar returns the value range and count of index idx: its lowest value and
// highest equivalent value.
func (g geom) bar(idx, count int64) hdrhistogram.Bar {
	lo := g.valueAt(idx)
	bucket := (idx >> g.halfMagnitude) - 1
	if bucket < 0 {
		bucket = 0
	}
	size := int64(1) << (uint(bucket) + g.unitMagnitude)
	return hdrhistogram.Bar{From: lo, To: lo + size - 1, Count: count}
}

// recordRun records a counted run of samples (sim.CountedRun) into h, each with
// the samples the correction e adds (none when e is 0), and returns the
// samples it recorded. A run of equal values is one recordCorrected; an
// uncorrected run of distinct values steps through a whole bucket at a
// time, as recordCorrected does; a corrected one is recorded value by
// value (the deterministic model keeps few: a closed loop with fewer
// workers than connections).
func recordRun(h *hdrhistogram.Histogram, r sim.CountedRun, e int64) (int64, error) {
	if r.Step == 0 || r.N == 1 {
		return recordCorrected(h, r.First, r.N*r.Mult, e)
	}
	if e > 0 {
		var total int64
		for j := int64(0); j < r.N; j++ {
			c, err := recordCorrected(h, r.First+j*r.Step, r.Mult, e)
			if err != nil {
				return 0, err
			}
			total += c
		}
		return total, nil
	}
	x, left := r.First, r.N
	for left > 0 {
		lo := lowestEquivalent(x)
		width := int64(1) << (64 - bits.LeadingZeros64(uint64(x|2047)) - 11) // the bucket's, as lowestEquivalent's
		c := min((lo+width-1-x)/r.Step+1, left)                              // the run's values in it
		if err := h.RecordValues(x, c*r.Mult); err != nil {
			return 0, err
		}
		x += c * r.Step
		left -= c
	}
	return r.N * r.Mult, nil
}
