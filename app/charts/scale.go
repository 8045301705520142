package charts

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"omission/app/units"
)

// maxNines bounds the percentile axis: 1−p is kept above 10⁻¹⁵, where
// float64 still tells p from 1.
const maxNines = 15

// nines returns log10(1/(1−p)): 0 at p = 0, 1 at 90%, 2 at 99%, 3 at 99.9%.
// It is finite for every p (p ≥ 1 counts as maxNines).
func nines(p float64) float64 {
	q := 1 - p
	if q < 1e-15 {
		return maxNines
	}
	return -math.Log10(q)
}

// ninesToP is the inverse of nines.
func ninesToP(g float64) float64 { return 1 - math.Pow(10, -g) }

// PercentileScale is a plot.Normalizer for a percentile axis whose data are
// fractions p in [0, 1): it places p at log10(1/(1−p)), HdrHistogram's
// percentile-spectrum axis, so that 0, 90%, 99%, 99.9%, … are evenly spaced.
// It never panics: p = 1 and beyond sit at 15 nines.
type PercentileScale struct{}

var _ plot.Normalizer = PercentileScale{}

// Normalize returns the fraction of the axis at which x lies.
func (PercentileScale) Normalize(min, max, x float64) float64 {
	a, b := nines(min), nines(max)
	if b == a {
		return 0
	}
	return (nines(x) - a) / (b - a)
}

// PercentileTicks is the plot.Ticker of a PercentileScale axis: a labelled
// tick at each 0%, 90%, 99%, 99.9%, 99.99%, … in range, and minor ticks at
// 1/(1−p) = 2 and 5 × 10^k between them (50%, 80%, 95%, 98%, …). With Every > 1 only every Every-th
// decade is labelled (the others become minor ticks), for narrow axes.
type PercentileTicks struct{ Every int }

var _ plot.Ticker = PercentileTicks{}

// Ticks returns the ticks in [min, max].
func (t PercentileTicks) Ticks(min, max float64) []plot.Tick {
	every := max1(t.Every)
	lo, hi := nines(min), nines(max)
	const eps = 1e-9
	var ticks []plot.Tick
	for k := int(math.Ceil(lo - eps)); k >= 0 && float64(k) <= hi+eps && k <= maxNines; k++ {
		label := ""
		if k%every == 0 {
			label = PercentLabel(k)
		}
		ticks = append(ticks, plot.Tick{Value: ninesToP(float64(k)), Label: label})
		for _, m := range minors {
			g := float64(k) + math.Log10(float64(m))
			if g > lo+eps && g < hi-eps {
				ticks = append(ticks, plot.Tick{Value: ninesToP(g)})
			}
		}
	}
	return ticks
}

// PercentLabel labels the percentile with k nines: 0%, 90%, 99%, 99.9%, …
func PercentLabel(k int) string {
	switch {
	case k <= 0:
		return "0%"
	case k == 1:
		return "90%"
	case k == 2:
		return "99%"
	}
	return "99." + strings.Repeat("9", k-2) + "%"
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// decimals returns how many decimals step/size needs.
func decimals(step, size float64) int {
	d := 0
	for x := step / size; d < 9 && math.Abs(x-math.Round(x)) > 1e-9*math.Max(1, math.Abs(x)); x *= 10 {
		d++
	}
	return d
}

// linearTicks puts labelled ticks every nice step in [min, max] (about n of
// them) with a minor tick halfway, labelled by format.
func linearTicks(min, max float64, n int, format func(v, step float64) string) []plot.Tick {
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: format(min, 1)}}
	}
	return linearTicksStep(min, max, units.NiceStep(max-min, n), format)
}

// linearTicksStep puts labelled ticks every step in [min, max], with a
// minor tick halfway.
func linearTicksStep(min, max, step float64, format func(v, step float64) string) []plot.Tick {
	var ticks []plot.Tick
	start := math.Ceil(min/step-1e-9) * step
	for i := 0; ; i++ {
		v := start + float64(i)*step
		if v > max+step*1e-9 {
			break
		}
		if v == 0 {
			v = 0 // no "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: format(v, step)})
		if h := v + step/2; h < max {
			ticks = append(ticks, plot.Tick{Value: h})
		}
	}
	if first := start - step/2; first > min {
		ticks = append(ticks, plot.Tick{Value: first})
	}
	return ticks
}

// durationTicks labels an axis of nanoseconds: on a log axis one labelled
// tick per decade ("1 ms", "10 ms") and minor ones at 2 and 5; on a linear one
// nice steps, every label in the unit of the largest.
type durationTicks struct {
	log bool
	n   int // about this many labelled ticks on a linear axis
}

func (t durationTicks) Ticks(min, max float64) []plot.Tick {
	if t.log {
		return logTicks(min, max, func(v float64) string { return units.DurationSig(v, 3) })
	}
	name, size := units.TimeUnit(math.Max(math.Abs(min), math.Abs(max)))
	return linearTicks(min, max, max1(t.n), func(v, step float64) string {
		if v == 0 {
			return "0"
		}
		return strconv.FormatFloat(v/size, 'f', decimals(step, size), 64) + " " + name
	})
}

// minors are the multiples of a power of ten that get a minor tick on a
// log axis: two are enough to read by and cost fewer SVG paths than eight.
var minors = []int{2, 5}

// logTicks returns a labelled tick at each power of ten in [min, max] and
// minor ticks at 2 and 5 times it. min must be positive.
func logTicks(min, max float64, label func(float64) string) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	var ticks []plot.Tick
	for k := math.Floor(math.Log10(min)); k <= math.Ceil(math.Log10(max)); k++ {
		base := math.Pow(10, k)
		for _, m := range []int{1, 2, 5} {
			v := base * float64(m)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 {
				tk.Label = label(v)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// shareTicks labels an axis of fractions as percentages: log (100%, 10%,
// 1%, 0.1%, …) or linear (0%, 25%, …, 100%).
type shareTicks struct{ log bool }

func (t shareTicks) Ticks(min, max float64) []plot.Tick {
	if t.log {
		return logTicks(min, max, sharePercent)
	}
	span := max - min
	if max <= 1.05 && max >= 0.95 && min == 0 {
		span = 1 // a whole 0–100% axis: steps of 20%
	}
	return linearTicksStep(min, max, units.NiceStep(span, 5), func(v, step float64) string {
		return strconv.FormatFloat(v*100, 'f', decimals(step*100, 1), 64) + "%"
	})
}

// sharePercent writes a fraction as a percentage with the digits it needs:
// 1 → "100%", 0.001 → "0.1%", 2e-6 → "0.0002%".
func sharePercent(f float64) string {
	s := strconv.FormatFloat(f*100, 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// countTicks labels an axis of whole counts.
type countTicks struct{}

func (countTicks) Ticks(min, max float64) []plot.Tick {
	n := 4
	if max-min < 4 {
		n = int(math.Max(1, max-min))
	}
	ticks := linearTicks(min, max, n, func(v, step float64) string { return strconv.FormatFloat(v, 'f', 0, 64) })
	out := ticks[:0]
	for _, t := range ticks {
		if t.Value == math.Trunc(t.Value) { // no minor ticks at half a request
			out = append(out, t)
		}
	}
	return out
}
