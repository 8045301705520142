package tools

import (
	"math"
	"math/bits"
	"strings"
)

// wrk and wrk2 summarise in C's long double, which on x86-64 (where Debian's
// wrk runs) is the x87 80-bit format: a 64-bit significand, each operation
// rounded to nearest even. ld emulates it, so the digits they print are the
// digits we print. Its finite results are those of math/big's Float at
// precision 64 rounding to nearest even, bit for bit (ld_test.go checks
// them), without the 40 KB that math/big adds to app.wasm after gzip.
//
// A finite ld is (−1)^neg · m · 2^e with the top bit of m set, or a zero
// of either sign when m is 0; the zero value ld{} is +0. The exponent is an
// int, not the x87's 15 bits: no value here comes near 2^±16383.
type ld struct {
	m    uint64
	e    int
	neg  bool
	kind ldKind
}

type ldKind uint8

const (
	ldFinite ldKind = iota // a number, zero when m is 0
	ldInf                  // ±∞, from x/0
	ldNaN                  // not a number, from 0/0
)

// ldIndefinite is the NaN that an invalid operation (0/0, ∞ − ∞, 0·∞,
// the root of a negative) makes on the x87: the "real indefinite", whose
// sign bit is set, so that glibc's printf writes it as -nan.
var ldIndefinite = ld{neg: true, kind: ldNaN}

// ldRound rounds (−1)^neg · (hi·2^64 + lo + δ) · 2^e to a 64-bit
// significand, halves to even, where δ is 0 when sticky is false and lies
// strictly between 0 and 1 when it is true (it stands for bits the caller
// shifted out, or for the remainder of a division). Zero hi and lo give a
// zero of that sign; no caller passes them with sticky.
func ldRound(neg bool, hi, lo uint64, e int, sticky bool) ld {
	if hi == 0 {
		if lo == 0 {
			return ld{neg: neg}
		}
		hi, lo, e = lo, 0, e-64
	}
	s := bits.LeadingZeros64(hi)
	hi, lo, e = hi<<s|lo>>(64-s), lo<<s, e-s
	const half = 1 << 63
	if lo > half || lo == half && (sticky || hi&1 != 0) {
		hi++
		if hi == 0 { // the significand rounded up to 2^64
			hi, e = half, e+1
		}
	}
	return ld{m: hi, e: e + 64, neg: neg}
}

func ldUint(u uint64) ld { return ldRound(false, 0, u, 0, false) }

func ldInt(n int64) ld {
	u := uint64(n)
	if n < 0 {
		u = -u // right for −2^63 too
	}
	x := ldUint(u)
	x.neg = n < 0
	return x
}

// ldF is a double widened to long double, which is exact.
func ldF(x float64) ld {
	b := math.Float64bits(x)
	neg := b>>63 != 0
	exp, frac := int(b>>52&0x7ff), b&(1<<52-1)
	switch {
	case exp == 0x7ff && frac == 0:
		return ld{neg: neg, kind: ldInf}
	case exp == 0x7ff:
		return ld{neg: neg, kind: ldNaN}
	case exp == 0: // zero or subnormal: frac · 2^−1074
		exp = 1
	default:
		frac |= 1 << 52
	}
	return ldRound(neg, 0, frac, exp-1075, false)
}

// nanOperand returns the first operand that is a NaN (the x87 passes a NaN
// operand on as the result), and whether there is one.
func nanOperand(a, b ld) (ld, bool) {
	if a.kind == ldNaN {
		return a, true
	}
	return b, b.kind == ldNaN
}

func (a ld) isZero() bool { return a.kind == ldFinite && a.m == 0 }

// cmpAbs compares |a| with |b|, neither of them a zero or a NaN: −1, 0 or
// +1 as |a| < |b|, |a| = |b| or |a| > |b|. With normalized significands
// the exponent decides first; ∞ is above every finite value.
func (a ld) cmpAbs(b ld) int {
	switch {
	case a.kind != b.kind:
		return int(a.kind) - int(b.kind)
	case a.e != b.e:
		return sign(a.e > b.e)
	case a.m != b.m:
		return sign(a.m > b.m)
	}
	return 0
}

// sign is +1 for true, −1 for false.
func sign(gt bool) int {
	if gt {
		return 1
	}
	return -1
}

// cmp is −1, 0 or +1 as a < b, a = b or a > b; −0 equals +0. C finds a
// NaN unordered, which an int cannot say; cmp calls it equal to every value,
// and no caller compares one (only Requests/sec can be a NaN, and it is
// printed, not compared).
func (a ld) cmp(b ld) int {
	switch {
	case a.kind == ldNaN || b.kind == ldNaN || a.isZero() && b.isZero():
		return 0
	case a.isZero():
		return sign(b.neg)
	case b.isZero() || a.neg != b.neg:
		return sign(!a.neg)
	case a.neg:
		return -a.cmpAbs(b)
	}
	return a.cmpAbs(b)
}

// add aligns b's significand on a's, the larger in magnitude, in 128 bits
// with a sticky bit for what falls off below, then rounds once.
func (a ld) add(b ld) ld {
	if r, ok := nanOperand(a, b); ok {
		return r
	}
	switch {
	case a.kind == ldInf && b.kind == ldInf && a.neg != b.neg:
		return ldIndefinite
	case a.kind == ldInf:
		return a
	case b.kind == ldInf:
		return b
	case a.isZero() && b.isZero():
		return ld{neg: a.neg && b.neg} // +0 unless both are −0
	case b.isZero():
		return a
	case a.isZero():
		return b
	}
	if a.cmpAbs(b) < 0 {
		a, b = b, a
	}
	// b's significand shifted right by d into (bh, bl), plus a sticky bit.
	var bh, bl uint64
	sticky := false
	switch d := a.e - b.e; {
	case d < 64:
		bh, bl = b.m>>d, b.m<<(64-d)
	case d < 128:
		bl, sticky = b.m>>(d-64), b.m<<(128-d) != 0
	default:
		sticky = true
	}
	hi, lo, e := a.m, bl, a.e-64
	if a.neg == b.neg {
		var carry uint64
		hi, carry = bits.Add64(hi, bh, 0)
		if carry != 0 {
			// Only when d < 64, where lo's lowest bit, shifted out, is 0.
			hi, lo, e = hi>>1|1<<63, lo>>1|hi<<63, e+1
		}
	} else {
		// a − (b + δ) = (a − b − 1) + (1 − δ): with a sticky bit, borrow
		// one more and keep it.
		var borrow uint64
		if sticky {
			borrow = 1
		}
		lo, borrow = bits.Sub64(0, bl, borrow)
		hi, _ = bits.Sub64(hi, bh, borrow)
		if hi == 0 && lo == 0 {
			return ld{} // x − x is +0
		}
	}
	return ldRound(a.neg, hi, lo, e, sticky)
}

func (a ld) sub(b ld) ld {
	if b.kind != ldNaN {
		b.neg = !b.neg
	}
	return a.add(b)
}

// mul rounds the 128-bit product of the significands.
func (a ld) mul(b ld) ld {
	if r, ok := nanOperand(a, b); ok {
		return r
	}
	neg := a.neg != b.neg
	switch {
	case a.kind == ldInf && b.isZero() || a.isZero() && b.kind == ldInf:
		return ldIndefinite
	case a.kind == ldInf || b.kind == ldInf:
		return ld{neg: neg, kind: ldInf}
	case a.isZero() || b.isZero():
		return ld{neg: neg}
	}
	hi, lo := bits.Mul64(a.m, b.m)
	return ldRound(neg, hi, lo, a.e+b.e, false)
}

// quo divides a's significand, shifted left 128 bits (127 when it is not
// below b's, so that the first quotient word fits), by b's: a 128-bit
// quotient whose top bit is set, and the remainder as the sticky bit.
func (a ld) quo(b ld) ld {
	if r, ok := nanOperand(a, b); ok {
		return r
	}
	neg := a.neg != b.neg
	switch {
	case a.kind == ldInf && b.kind == ldInf || a.isZero() && b.isZero():
		return ldIndefinite
	case a.kind == ldInf || b.isZero():
		return ld{neg: neg, kind: ldInf}
	case a.isZero() || b.kind == ldInf:
		return ld{neg: neg}
	}
	hi, lo, e := a.m, uint64(0), a.e-b.e-128
	if a.m >= b.m {
		hi, lo, e = a.m>>1, a.m<<63, e+1
	}
	q1, r := bits.Div64(hi, lo, b.m)
	q0, r := bits.Div64(r, 0, b.m)
	return ldRound(neg, q1, q0, e, r != 0)
}

// sqrt writes a as n·2^e with n = m·2^64 or m·2^63, a 128-bit integer whose
// top or next bit is set, and e even; the integer root r of n has 64 bits
// and sqrt(a) = sqrt(n)·2^(e/2). sqrt(n) exceeds r + ½ iff
// n > r² + r + ¼, that is iff n − r² > r, and never equals it.
func (a ld) sqrt() ld {
	switch {
	case a.kind == ldNaN:
		return a
	case a.neg && !a.isZero():
		return ldIndefinite
	case a.kind == ldInf || a.isZero():
		return a // +∞, ±0
	}
	hi, lo, e := a.m, uint64(0), a.e-64
	if e&1 != 0 {
		hi, lo, e = a.m>>1, a.m<<63, e+1
	}
	var r uint64 // the largest r with r² ≤ n, one bit at a time
	for bit := uint64(1) << 63; bit != 0; bit >>= 1 {
		c := r | bit
		if ch, cl := bits.Mul64(c, c); ch < hi || ch == hi && cl <= lo {
			r = c
		}
	}
	rh, rl := bits.Mul64(r, r)
	dl, borrow := bits.Sub64(lo, rl, 0)
	dh, _ := bits.Sub64(hi, rh, borrow)
	if dh != 0 || dl > r {
		r++ // no carry: n ≤ (2^64 − 1)·2^64, so for r = 2^64 − 1 n − r² ≤ r
	}
	return ld{m: r, e: e / 2}
}

// float is the nearest double, halves to even (C's conversion of a long
// double to double): 53 bits of the significand, fewer below 2^−1022, none
// below 2^−1075.
func (a ld) float() float64 {
	var f float64
	switch {
	case a.kind == ldNaN:
		f = math.NaN()
	case a.kind == ldInf:
		f = math.Inf(1)
	case a.m != 0:
		drop := max(11, -1074-a.e) // the bits that a double has no room for
		if drop > 64 {
			break // below 2^−1075: 0
		}
		q, rest, half := a.m>>drop, a.m&(1<<drop-1), uint64(1)<<(drop-1)
		if rest > half || rest == half && q&1 != 0 {
			q++
		}
		f = math.Ldexp(float64(q), a.e+drop) // exact, or ±∞ beyond the range
	}
	if a.neg {
		f = -f
	}
	return f
}

// fixed is printf's "%.<p>Lf": the exact binary value rounded to p
// decimals, halves to even (glibc), with glibc's inf, -inf, nan and -nan.
// It computes m·10^p·2^e rounded to an integer in a limbs value and writes
// that with a point p digits from the right.
func (a ld) fixed(p int) string {
	var out []byte
	if a.neg {
		out = append(out, '-')
	}
	switch a.kind {
	case ldInf:
		return string(append(out, "inf"...))
	case ldNaN:
		return string(append(out, "nan"...))
	}
	n := limbs{uint32(a.m), uint32(a.m >> 32)}
	for range p {
		n = n.mulAdd(10, 0)
	}
	if a.e >= 0 {
		n = n.shl(a.e)
	} else {
		s := -a.e
		q := n.shr(s)
		if n.bit(s-1) && (n.anyBelow(s-1) || len(q) > 0 && q[0]&1 != 0) {
			q = q.mulAdd(1, 1)
		}
		n = q
	}
	var digits []byte // least significant first
	for len(n) > 0 {
		var r uint32
		n, r = n.divmod(1e9)
		for range 9 {
			digits = append(digits, byte('0'+r%10))
			r /= 10
		}
	}
	for len(digits) > p+1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	for len(digits) < p+1 {
		digits = append(digits, '0')
	}
	for i := len(digits) - 1; i >= 0; i-- {
		if i == p-1 {
			out = append(out, '.')
		}
		out = append(out, digits[i])
	}
	return string(out)
}

// limbs is a natural number in base 2^32, least significant limb first,
// for fixed's exact decimal conversion; the top limb may be zero.
type limbs []uint32

// mulAdd is x·k + c.
func (x limbs) mulAdd(k, c uint32) limbs {
	for i := range x {
		t := uint64(x[i])*uint64(k) + uint64(c)
		x[i], c = uint32(t), uint32(t>>32)
	}
	if c != 0 {
		x = append(x, c)
	}
	return x
}

// divmod is x/k (with its zero top limbs cut) and x mod k; it overwrites x.
func (x limbs) divmod(k uint32) (limbs, uint32) {
	var r uint64
	for i := len(x) - 1; i >= 0; i-- {
		t := r<<32 | uint64(x[i])
		x[i], r = uint32(t/uint64(k)), t%uint64(k)
	}
	for len(x) > 0 && x[len(x)-1] == 0 {
		x = x[:len(x)-1]
	}
	return x, uint32(r)
}

// shl is x·2^s.
func (x limbs) shl(s int) limbs {
	w, b := s/32, uint(s%32)
	y := make(limbs, len(x)+w+1)
	for i, v := range x {
		y[i+w] |= v << b
		y[i+w+1] = v >> (32 - b)
	}
	return y
}

// shr is ⌊x/2^s⌋.
func (x limbs) shr(s int) limbs {
	w, b := s/32, uint(s%32)
	if w >= len(x) {
		return nil
	}
	y := make(limbs, len(x)-w)
	for i := range y {
		y[i] = x[i+w] >> b
		if i+w+1 < len(x) {
			y[i] |= x[i+w+1] << (32 - b)
		}
	}
	return y
}

// bit is bit i of x.
func (x limbs) bit(i int) bool {
	w := i / 32
	return w < len(x) && x[w]>>(i%32)&1 != 0
}

// anyBelow reports whether any of x's bits below bit i is set.
func (x limbs) anyBelow(i int) bool {
	w := i / 32
	for j := 0; j < w && j < len(x); j++ {
		if x[j] != 0 {
			return true
		}
	}
	return w < len(x) && x[w]&(1<<(i%32)-1) != 0
}

// cUnits is wrk's units table (src/units.c 11–39).
type cUnits struct {
	scale int64
	base  string
	units []string
}

var (
	timeUnitsUs = cUnits{1000, "us", []string{"ms", "s"}}
	timeUnitsS  = cUnits{60, "s", []string{"m", "h"}}
	binaryUnits = cUnits{1024, "", []string{"K", "M", "G", "T", "P"}}
	metricUnits = cUnits{1000, "", []string{"k", "M", "G", "T", "P"}}
)

// formatUnits is wrk's format_units (src/units.c 41–56): divide while the
// amount is at least 0.85 of the scale and a further unit exists.
func formatUnits(n ld, m cUnits, p int) string {
	amt := n
	unit := m.base
	scale := ldF(float64(m.scale) * 0.85) // int * double: a double
	for i := 0; i+1 < len(m.units) && amt.cmp(scale) >= 0; i++ {
		amt = amt.quo(ldInt(m.scale))
		unit = m.units[i]
	}
	return amt.fixed(p) + unit
}

func formatTimeUs(n ld) string {
	u := timeUnitsUs
	if n.cmp(ldInt(1000000)) >= 0 {
		n = n.quo(ldInt(1000000))
		u = timeUnitsS
	}
	return formatUnits(n, u, 2)
}

func formatTimeS(n ld) string  { return formatUnits(n, timeUnitsS, 0) }
func formatMetric(n ld) string { return formatUnits(n, metricUnits, 2) }
func formatBinary(n ld) string { return formatUnits(n, binaryUnits, 2) }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// printUnits is wrk's print_units (src/wrk.c 550–561): the text right
// aligned in width less the padding, cut to that width, then the padding
// of two spaces less one for each of the last two characters that is a
// letter.
func printUnits(b *strings.Builder, n ld, f func(ld) string, width int) {
	msg := f(n)
	pad := 2
	if len(msg) > 0 && isAlpha(msg[len(msg)-1]) {
		pad--
	}
	if len(msg) > 1 && isAlpha(msg[len(msg)-2]) {
		pad--
	}
	width -= pad
	if len(msg) > width {
		msg = msg[:width]
	}
	b.WriteString(strings.Repeat(" ", width-len(msg)) + msg + "  "[:pad])
}

// padLeft right-aligns s in w columns (printf "%*s").
func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}
