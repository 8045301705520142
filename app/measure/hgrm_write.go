package measure

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TicksPerHalfDistance is the .hgrm's resolution: 5 percentile rows in each
// half of the distance to 100 %, as HdrHistogram's default.
const TicksPerHalfDistance = 5

// MsPerNs is the unit scaling of an exported .hgrm: values recorded in ns
// are printed in milliseconds (outputValueUnitScalingRatio = 1e6).
const MsPerNs = 1e6

// WriteHgrm writes h as Java HdrHistogram's outputPercentileDistribution
// prints it with 5 ticks per half distance and values in milliseconds
// (HdrHistogram/HdrHistogram de84b0a,
// src/main/java/org/HdrHistogram/AbstractHistogram.java 1769-1833: the
// "%12s %14s %10s %14s" header, "%12.{sig}f %2.12f %10d %14.2f" rows, the
// last row without its 1/(1-Percentile) column, and the #[Mean …],
// #[Max …], #[Buckets …] footer). The rows are the levels of Java's
// PercentileIterator (src/main/java/org/HdrHistogram/PercentileIterator.java)
// over h's counts, and numbers are rounded as java.util.Formatter rounds
// them. The mean and standard deviation are the histogram's (each count at
// the middle of its bucket), as Java computes them.
func WriteHgrm(w io.Writer, h *hdrhistogram.Histogram) error {
	bw := bufio.NewWriter(w)
	sig := int(h.SignificantFigures())
	fmt.Fprintf(bw, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)")
	bars := h.Distribution()
	total := h.TotalCount()
	for _, r := range percentileRows(bars, total, TicksPerHalfDistance) {
		v := javaFixed(float64(r.value)/MsPerNs, sig)
		p := javaFixed(r.level/100, 12)
		if r.level != 100 {
			fmt.Fprintf(bw, "%12s %2s %10d %14s\n", v, p, r.count, javaFixed(1/(1-r.level/100), 2))
		} else {
			fmt.Fprintf(bw, "%12s %2s %10d\n", v, p, r.count)
		}
	}
	mean, sd := javaMeanStd(bars, total)
	var mx int64
	if total > 0 {
		mx = h.Max() // Java getMaxValue: the highest value equivalent to the max
	}
	fmt.Fprintf(bw, "#[Mean    = %12s, StdDeviation   = %12s]\n", javaFixed(mean/MsPerNs, sig), javaFixed(sd/MsPerNs, sig))
	fmt.Fprintf(bw, "#[Max     = %12s, Total count    = %12d]\n", javaFixed(float64(mx)/MsPerNs, sig), total)
	g, _ := newGeom(h.LowestTrackableValue(), h.HighestTrackableValue(), sig)
	fmt.Fprintf(bw, "#[Buckets = %12d, SubBuckets     = %12d]\n", g.bucketCount, g.subBucketCount)
	return bw.Flush()
}

type pctRow struct {
	value int64   // the highest value equivalent to the row's bucket
	level float64 // percentile level, 0-100
	count int64   // total count up to and including the bucket
}

// percentileRows walks the counts as Java's PercentileIterator does: the
// level starts at 0 and a row is emitted at the first bucket whose
// cumulative share reaches it; after each row the level moves by
// 100/(ticks·2^(floor(log2(100/(100-level)))+1)); once every count is
// passed, one last row at 100 %. Arithmetic follows Java's (long casts
// saturate, long products wrap).
func percentileRows(bars []hdrhistogram.Bar, total int64, ticks int64) []pctRow {
	if total <= 0 {
		return nil
	}
	var out []pctRow
	level := 0.0
	var cum int64
	for _, b := range bars {
		cum += b.Count
		for b.Count != 0 && 100*float64(cum)/float64(total) >= level {
			out = append(out, pctRow{b.To, level, cum})
			if cum >= total {
				return append(out, pctRow{b.To, 100, cum})
			}
			half := javaLong(math.Pow(2, float64(javaLong(math.Log(100/(100-level))/math.Log(2))+1)))
			level += 100 / float64(ticks*half)
		}
	}
	return out
}

// javaLong is Java's (long) cast of a double: NaN is 0, values beyond the
// range saturate.
func javaLong(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 9223372036854775807:
		return math.MaxInt64
	case x <= -9223372036854775808:
		return math.MinInt64
	}
	return int64(x)
}

// javaMeanStd is Java's getMean and getStdDeviation: each bucket's count at
// its median equivalent value (lowest + half the bucket's width).
func javaMeanStd(bars []hdrhistogram.Bar, total int64) (mean, sd float64) {
	if total == 0 {
		return 0, 0
	}
	med := func(b hdrhistogram.Bar) int64 { return b.From + (b.To-b.From+1)>>1 }
	var sum float64
	for _, b := range bars {
		if b.Count != 0 {
			sum += float64(med(b)) * float64(b.Count)
		}
	}
	mean = sum / float64(total)
	var dev float64
	for _, b := range bars {
		if b.Count != 0 {
			d := float64(med(b))*1.0 - mean
			dev += d * d * float64(b.Count)
		}
	}
	return mean, math.Sqrt(dev / float64(total))
}

// javaFixed formats x with prec decimals as java.util.Formatter's %.{prec}f
// does: the shortest decimal that identifies the double (Double.toString's
// digits), rounded half up (Formatter's documentation of the 'f'
// conversion). Infinities print as "Infinity", NaN as "NaN".
func javaFixed(x float64, prec int) string {
	switch {
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x != x:
		return "NaN"
	}
	neg := math.Signbit(x) && x != 0
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64) // d.ddddde±xx
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	// The value is 0.digits × 10^(exp+1); point is the position of the
	// decimal point within digits.
	point := exp + 1
	// Pad so that digits reaches prec places after the point.
	if point < 0 {
		digits = strings.Repeat("0", -point) + digits
		point = 0
	}
	for len(digits) < point+prec+1 {
		digits += "0"
	}
	keep := point + prec
	b := []byte(digits[:keep])
	if digits[keep] >= '5' { // half up on the shortest digits
		i := len(b) - 1
		for ; i >= 0; i-- {
			if b[i] == '9' {
				b[i] = '0'
				continue
			}
			b[i]++
			break
		}
		if i < 0 {
			b = append([]byte{'1'}, b...)
			point++
		}
	}
	intPart := string(b[:point])
	if intPart == "" {
		intPart = "0"
	}
	out := intPart
	if prec > 0 {
		out += "." + string(b[point:])
	}
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}
