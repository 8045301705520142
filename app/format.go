package main

import (
	"math"
	"strconv"
	"strings"
)

// Number formatting for the page. Every displayed number also carries its
// exact value (in a data attribute and on hover), so these functions only
// pick a unit and a precision that read well.

// fmtLatency writes a latency in nanoseconds with a unit chosen for reading
// (ns, µs, ms, s) and four significant digits at most.
func fmtLatency(ns float64) string {
	if ns == 0 {
		return "0"
	}
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return "—"
	}
	a := math.Abs(ns)
	unit, size := "ns", 1.0
	switch {
	case a >= 1e9:
		unit, size = "s", 1e9
	case a >= 1e6:
		unit, size = "ms", 1e6
	case a >= 1e3:
		unit, size = "µs", 1e3
	}
	return trimDecimals(ns/size) + " " + unit
}

// trimDecimals keeps about four significant digits and drops trailing zeros.
func trimDecimals(x float64) string {
	a := math.Abs(x)
	prec := 3
	switch {
	case a >= 100:
		prec = 1
	case a >= 10:
		prec = 2
	}
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// fmtExactNs writes the exact value in nanoseconds with thousands separators,
// for hover text: "195,100,000 ns", "149,963.759 ns".
func fmtExactNs(ns float64) string {
	return fmtExact(ns) + " ns"
}

// fmtExact writes a value exactly (up to three decimals) with thousands
// separators.
func fmtExact(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := strconv.FormatFloat(v, 'f', 3, 64)
	whole, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	out := groupThousands(whole)
	if frac != "" {
		out += "." + frac
	}
	return out
}

// fmtCount writes a count with thousands separators: "100,000".
func fmtCount(n int64) string { return groupThousands(strconv.FormatInt(n, 10)) }

func groupThousands(digits string) string {
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

// fmtShare writes a fraction as a percentage: 0.3982 → "39.82%".
func fmtShare(x float64) string {
	if x == 0 {
		return "0%"
	}
	p := 100 * x
	var s string
	switch {
	case p >= 10:
		s = strconv.FormatFloat(p, 'f', 2, 64)
	case p >= 0.01:
		s = strconv.FormatFloat(p, 'f', 3, 64)
	default:
		s = strconv.FormatFloat(p, 'g', 3, 64)
	}
	if strings.Contains(s, ".") && !strings.ContainsAny(s, "e") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "%"
}

// fmtRatio writes a ratio as a multiplier: 1951 → "1951×", 1 → "1×". A ratio
// with a zero denominator has no meaning and is written as a dash.
func fmtRatio(num, den float64) (text string, ok bool) {
	if den == 0 {
		if num == 0 {
			return "1×", true
		}
		return "—", false
	}
	r := num / den
	var s string
	switch {
	case r >= 100:
		s = strconv.FormatFloat(r, 'f', 0, 64)
	case r >= 10:
		s = strconv.FormatFloat(r, 'f', 1, 64)
	default:
		s = strconv.FormatFloat(r, 'f', 2, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "×", true
}

// rawFloat writes a float exactly for a data attribute.
func rawFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
