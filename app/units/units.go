package units

import (
	"bytes"
	"math"
	"sort"
	"strconv"
	"strings"
)

// TimeUnit returns the unit in which ns reads with one to three integer
// digits: ns, µs, ms, s up to 1000 s (axis labels of long runs stay
// comparable), then min up to 1000 min, h up to 1000 h, then days.
func TimeUnit(ns float64) (name string, size float64) {
	switch a := math.Abs(ns); {
	case a >= 1000*3600e9:
		return "d", 86400e9
	case a >= 1000*60e9:
		return "h", 3600e9
	case a >= 1000e9:
		return "min", 60e9
	case a >= 1e9:
		return "s", 1e9
	case a >= 1e6:
		return "ms", 1e6
	case a >= 1e3:
		return "µs", 1e3
	}
	return "ns", 1
}

// Duration writes a duration in nanoseconds with up to four significant
// digits in the unit TimeUnit picks: "100 µs", "195.1 ms", "1.25 s",
// "16.67 min", "0 s"; "—" when it is not a number.
func Duration[N ~int64 | ~float64](ns N) string { return DurationSig(float64(ns), 4) }

// DurationSig is Duration with sig significant digits (whole nanoseconds
// have none after the point).
func DurationSig(ns float64, sig int) string {
	var buf [24]byte
	return string(appendDurationSig(buf[:0], ns, sig))
}

// AppendDuration appends Duration(ns) to dst and returns it: for a caller
// that must not allocate, such as the animation's frames, which write their
// readouts into a buffer they keep.
func AppendDuration(dst []byte, ns float64) []byte { return appendDurationSig(dst, ns, 4) }

func appendDurationSig(dst []byte, ns float64, sig int) []byte {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return append(dst, "—"...)
	}
	if ns == 0 {
		return append(dst, "0 s"...)
	}
	name, size := TimeUnit(ns)
	x := ns / size
	digits := 1
	for a := math.Abs(x); a >= 10 && digits < sig; a /= 10 {
		digits++
	}
	dec := sig - digits
	if size == 1 {
		dec = 0
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', dec, 64)
	if bytes.IndexByte(dst[start:], '.') >= 0 {
		dst = bytes.TrimRight(bytes.TrimRight(dst, "0"), ".")
	}
	return append(append(dst, ' '), name...)
}

// trim drops trailing zeros after a decimal point, and the point.
func trim(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Decimals writes x with about four significant digits, trailing zeros
// dropped: "12.35", "195.1", "0.001".
func Decimals(x float64) string {
	prec := 3
	switch a := math.Abs(x); {
	case a >= 100:
		prec = 1
	case a >= 10:
		prec = 2
	}
	return trim(strconv.FormatFloat(x, 'f', prec, 64))
}

// Exact writes a value exactly (up to three decimals) with thousands
// separators: "195,100,000", "149,963.759".
func Exact(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	whole, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', 3, 64), ".")
	frac = strings.TrimRight(frac, "0")
	if frac != "" {
		return Thousands(whole) + "." + frac
	}
	return Thousands(whole)
}

// ExactNs writes a duration exactly in nanoseconds, for hover text:
// "195,100,000 ns".
func ExactNs(ns float64) string { return Exact(ns) + " ns" }

// Count writes a count with thousands separators: "100,000".
func Count(n int64) string { return Thousands(strconv.FormatInt(n, 10)) }

// Bytes writes a size in decimal units, three significant digits above
// 1000 bytes: "812 B", "3.67 kB", "14.9 MB".
func Bytes[N ~int | ~int64](n N) string {
	v := float64(n)
	if v < 1000 {
		return strconv.FormatInt(int64(n), 10) + " B"
	}
	for _, u := range []string{"kB", "MB", "GB"} {
		v /= 1000
		if v < 999.5 || u == "GB" {
			return strconv.FormatFloat(v, 'g', 3, 64) + " " + u
		}
	}
	return ""
}

// Thousands puts separators into a string of digits (with an optional
// sign): "-1234567" → "-1,234,567".
func Thousands(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Share writes a fraction as a percentage with three significant digits:
// "19.9%", "0.0201%", "100%", "0%".
func Share(f float64) string {
	if f == 0 {
		return "0%"
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "—"
	}
	v := f * 100
	dec := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	dec = min(max(dec, 0), 8)
	return trim(strconv.FormatFloat(v, 'f', dec, 64)) + "%"
}

// Ratio writes num/den as a multiplier: "1951×", "19.5×", "1×". A ratio
// with a zero denominator has no meaning and is written as a dash (ok is
// false), unless both are zero (1×).
func Ratio(num, den float64) (text string, ok bool) {
	if den == 0 {
		if num == 0 {
			return "1×", true
		}
		return "—", false
	}
	r := num / den
	prec := 2
	switch {
	case r >= 100:
		prec = 0
	case r >= 10:
		prec = 1
	}
	return trim(strconv.FormatFloat(r, 'f', prec, 64)) + "×", true
}

// Raw writes a value exactly, for a data attribute.
func Raw(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// NiceStep returns the 1, 2 or 5 × 10^k step nearest to span/n (Heckbert's
// nice numbers), so that span is cut into about n parts.
func NiceStep(span float64, n int) float64 {
	if !(span > 0) || n < 1 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / mag; {
	case f < 1.5:
		return mag
	case f < 3:
		return 2 * mag
	case f < 7:
		return 5 * mag
	}
	return 10 * mag
}

// Ladder lists the round numbers a value steps through in [lo, hi]: 1,
// 1.25, 1.6, 2, 2.5, 3.2, 4, 5, 6.25, 8 times a power of ten, each a whole
// number (each a divisor of 10⁹ times a power of ten, so that a rate on it
// keeps 1/rate a whole number of nanoseconds), times scale (1000 for a rate
// in milli-requests a second); every count from 1 to ones comes first. The
// article's adjustable numbers and the visualiser's number boxes step
// along it (Step).
func Ladder(lo, hi, scale, ones int64) []int64 {
	var out []int64
	add := func(v int64) { // in increasing order
		if v >= lo && v <= hi && (len(out) == 0 || v > out[len(out)-1]) {
			out = append(out, v)
		}
	}
	for v := int64(1); v <= ones; v++ {
		add(v * scale)
	}
	mant := [...]int64{100, 125, 160, 200, 250, 320, 400, 500, 625, 800}
	for p := int64(1); p <= 1e13; p *= 10 {
		for _, m := range mant {
			if v := m * p; v%100 == 0 && v/100 <= math.MaxInt64/scale {
				add(v / 100 * scale)
			}
		}
	}
	return out
}

// Step returns the value steps rungs from v on the ladder (up when steps >
// 0), or v when there is none that way; a v off the ladder (typed, or from
// a URL) steps to its neighbours first.
func Step(ladder []int64, v int64, steps int) int64 {
	if len(ladder) == 0 || steps == 0 {
		return v
	}
	i := sort.Search(len(ladder), func(i int) bool { return ladder[i] >= v })
	if steps > 0 && (i == len(ladder) || ladder[i] != v) {
		i-- // the first step up is ladder[i] itself
	}
	i = min(max(i+steps, 0), len(ladder)-1)
	if steps > 0 && ladder[i] < v || steps < 0 && ladder[i] > v {
		return v // beyond the ladder's end that way
	}
	return ladder[i]
}

// Plural writes a count and a noun: "1 worker", "3 workers", "1,000 stalls".
func Plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Count(n) + " " + word + "s"
}
