package sim

import (
	"fmt"
	"math"
	"math/bits"
)

// Integer arithmetic the model needs exactly: a division rounded up, and
// sums of latencies in 128 bits (a run's sum of up to millions of samples of
// up to a day each overflows 64).

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// u128 is an exact sum of latencies.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func addU128(a, b u128) u128 {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + c
	return a
}

func (s *u128) add(v uint64) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, v, 0)
	s.hi += c
}

func (s *u128) addMul(v, n uint64) { *s = addU128(*s, mul128(v, n)) }

// addProd adds x·y to s; when both fit in 32 bits (nearly always) without
// the 128-bit product, which WebAssembly computes in software.
func addProd(s *u128, x, y uint64) {
	if (x|y)>>32 != 0 {
		s.addMul(x, y)
		return
	}
	s.add(x * y)
}

// addScaled adds x·m (the product fits in 128 bits: sums are bounded).
func (s *u128) addScaled(x u128, m uint64) {
	p := mul128(x.lo, m)
	p.hi += x.hi * m
	*s = addU128(*s, p)
}

func (s u128) sub(o u128) u128 {
	lo, b := bits.Sub64(s.lo, o.lo, 0)
	return u128{s.hi - o.hi - b, lo}
}

func u128Less(a, b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

// div returns s/n as a float64, exact to the float's precision.
func (s u128) div(n int64) float64 {
	if n <= 0 {
		return 0
	}
	if s.hi >= uint64(n) {
		return s.Float() / float64(n)
	}
	q, r := bits.Div64(s.hi, s.lo, uint64(n))
	return float64(q) + float64(r)/float64(n)
}

// Float returns the sum as a float64.
func (s u128) Float() float64 { return float64(s.hi)*math.Exp2(64) + float64(s.lo) }

func u128Text(s u128) string {
	if s.hi == 0 {
		return fmt.Sprint(s.lo)
	}
	return fmt.Sprintf("%.6e", s.Float())
}

// sumTerms is Σ value × count over its terms, each a {value, count} pair, in
// 128 bits.
func sumTerms(terms ...[2]int64) u128 {
	var s u128
	for _, t := range terms {
		s.addMul(uint64(t[0]), uint64(t[1]))
	}
	return s
}

// triangle is e·k(k+1)/2 in 128 bits (e·k fits in 64: it is at most a
// latency).
func triangle(e, k int64) u128 {
	t := mul128(uint64(e*k), uint64(k+1)) // even: k(k+1) is
	return u128{t.hi >> 1, t.lo>>1 | t.hi<<63}
}

// seqSum is Σ_{j=1..k} (v − j·e) = k·v − e·k(k+1)/2, exactly in 128 bits
// (e·k ≤ v: no overflow).
func seqSum(v, e, k int64) u128 { return mul128(uint64(k), uint64(v)).sub(triangle(e, k)) }
