package tools

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The tests below hold ld to math/big's Float at precision 64 rounding to
// nearest even (what ld replaced): every operation on random and edge-case
// operands must give the same value bit for bit, and fixed the same text
// as Text('f', p). The square root is also held to an exact criterion,
// because big.Float's Sqrt does not promise the correctly rounded result
// that the x87's fsqrt gives.

// newBig is a big.Float with ld's precision and rounding.
func newBig() *big.Float { return new(big.Float).SetPrec(64).SetMode(big.ToNearestEven) }

// toBig is x exactly, for a finite or infinite x.
func toBig(x ld) *big.Float {
	f := newBig()
	switch {
	case x.kind == ldInf:
		return f.SetInf(x.neg)
	case x.m != 0:
		f.SetMantExp(f.SetUint64(x.m), x.e)
	}
	if x.neg {
		f.Neg(f)
	}
	return f
}

// checkForm reports what is wrong with x's representation, or "".
func checkForm(x ld) string {
	switch {
	case x.kind > ldNaN:
		return "bad kind"
	case x.kind != ldFinite && (x.m != 0 || x.e != 0):
		return "a non-finite value with a significand"
	case x.kind == ldFinite && x.m == 0 && x.e != 0:
		return "a zero with an exponent"
	case x.m != 0 && x.m>>63 == 0:
		return "significand not normalized"
	}
	return ""
}

// same reports whether got is exactly want: the same number and, for a
// zero, the same sign.
func same(got ld, want *big.Float) bool {
	if checkForm(got) != "" || got.kind == ldNaN {
		return false
	}
	g := toBig(got)
	return g.IsInf() == want.IsInf() && g.Cmp(want) == 0 && g.Signbit() == want.Signbit()
}

func show(x ld) string {
	switch x.kind {
	case ldInf, ldNaN:
		return x.fixed(0)
	}
	return fmt.Sprintf("%s (m %#x e %d neg %v)", toBig(x).Text('p', 0), x.m, x.e, x.neg)
}

// mk is ±m·2^e normalized (m ≠ 0), or ±0.
func mk(neg bool, m uint64, e int) ld { return ldRound(neg, 0, m, e, false) }

// gen makes operands: every kind of significand (random, sparse, all ones,
// small integers, doubles), exponents near 0 and over a wide range, both
// signs and zeros.
type gen struct{ r *rand.Rand }

func newGen(seed uint64) gen { return gen{rand.New(rand.NewPCG(seed, 0x1d))} }

func (g gen) sig() uint64 {
	r := g.r
	switch r.IntN(8) {
	case 0, 1, 2:
		return r.Uint64() | 1<<63
	case 3: // a few bits set: exact results and ties
		m := uint64(1) << 63
		for range r.IntN(4) {
			m |= 1 << r.IntN(64)
		}
		return m
	case 4: // near a power of two, above or below
		if r.IntN(2) == 0 {
			return 1<<63 + uint64(r.IntN(1000))
		}
		return math.MaxUint64 - uint64(r.IntN(1000))
	case 5: // a small integer
		return uint64(r.IntN(100000) + 1)
	case 6: // a double's 53 bits
		return (r.Uint64() | 1<<63) &^ (1<<11 - 1)
	}
	return r.Uint64() >> r.IntN(64)
}

func (g gen) exp() int {
	r := g.r
	switch r.IntN(4) {
	case 0:
		return r.IntN(2400) - 1250 // beyond the doubles' range both ways
	case 1:
		return r.IntN(40) - 80 // about 1
	}
	return r.IntN(200) - 150
}

func (g gen) ld() ld {
	r := g.r
	switch r.IntN(20) {
	case 0:
		return ld{neg: r.IntN(2) == 0}
	case 1: // an integer up to 2^63 in magnitude
		return ldInt((r.Int64() >> r.IntN(63)) * int64(1-2*r.IntN(2)))
	case 2: // a double from random bits
		for {
			if f := math.Float64frombits(r.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return ldF(f)
			}
		}
	}
	return mk(r.IntN(2) == 0, g.sig(), g.exp())
}

// pair makes operands that are often related: equal or nearly equal (for
// cancellation), exactly half an ulp or about half an ulp apart (for ties),
// shifted by up to 130 bits, or exact multiples.
func (g gen) pair() (ld, ld) {
	r := g.r
	a := g.ld()
	if a.m == 0 || r.IntN(3) == 0 {
		return a, g.ld()
	}
	neg := r.IntN(2) == 0
	switch r.IntN(6) {
	case 0: // nearly a: cancellation
		m := a.m + uint64(r.IntN(5)) - 2
		if m < 1<<63 {
			m = a.m
		}
		return a, mk(neg, m>>r.IntN(2), a.e+r.IntN(3)-1)
	case 1: // half an ulp of a, or of the binade below: a tie
		return a, mk(neg, 1, a.e-1-r.IntN(2))
	case 2: // about half an ulp
		return a, mk(neg, 1<<63+uint64(r.IntN(3))-1, a.e-64-r.IntN(2))
	case 3: // shifted by up to 130 bits
		return a, mk(neg, g.sig(), a.e-r.IntN(131))
	case 4: // a and a's exact multiple by a small integer
		k := uint64(r.IntN(1000) + 1)
		return mk(neg, (a.m>>32)*k, a.e), mk(false, a.m>>32, a.e)
	}
	return a, a
}

var ops = []struct {
	name string
	ld   func(a, b ld) ld
	big  func(z, a, b *big.Float) *big.Float
}{
	{"add", ld.add, (*big.Float).Add},
	{"sub", ld.sub, (*big.Float).Sub},
	{"mul", ld.mul, (*big.Float).Mul},
	{"quo", ld.quo, (*big.Float).Quo},
}

// nRandom is the number of random operands per property: fewer under the
// race detector, which slows this arithmetic twentyfold and finds nothing
// in it (ld shares no memory).
var nRandom = 200000 / raceDivisor

func TestLDOps(t *testing.T) {
	for i, op := range ops {
		g := newGen(uint64(i + 1))
		fails := 0
		for range nRandom {
			a, b := g.pair()
			if g.r.IntN(2) == 0 {
				a, b = b, a
			}
			if op.name == "quo" && a.isZero() && b.isZero() {
				continue // big.Float panics on 0/0: TestLDSpecial
			}
			got, want := op.ld(a, b), op.big(newBig(), toBig(a), toBig(b))
			if !same(got, want) {
				t.Errorf("%s(%s, %s) = %s, want %s", op.name, show(a), show(b), show(got), want.Text('p', 0))
				if fails++; fails > 10 {
					t.FailNow()
				}
			}
		}
	}
}

// TestLDChain runs random chains of operations, the way wrk's sums of
// squares pile up rounding, in ld and in big.Float side by side.
func TestLDChain(t *testing.T) {
	g := newGen(99)
	steps := 0
	for range 2000 {
		x := ldInt(g.r.Int64N(1e9))
		y := toBig(x)
		for range 50 {
			b := ldInt(g.r.Int64N(2e6) - 1e6)
			if g.r.IntN(3) == 0 {
				b = g.ld()
			}
			op := ops[g.r.IntN(len(ops))]
			if op.name == "quo" && b.isZero() {
				continue
			}
			if g.r.IntN(10) == 0 { // the root of |x|
				x.neg = false
				x, y = x.sqrt(), newBig().Sqrt(y.Abs(y))
			}
			x, y = op.ld(x, b), op.big(newBig(), y, toBig(b))
			if !same(x, y) {
				t.Fatalf("chain: %s, want %s", show(x), y.Text('p', 0))
			}
			steps++
			if x.m == 0 || x.e > 200 || x.e < -300 {
				break
			}
		}
	}
	t.Logf("%d steps", steps)
}

// roundedRoot reports whether y is sqrt(x) correctly rounded to 64 bits:
// x lies strictly between the squares of the midpoints to y's neighbours
// (no ties: the square of a midpoint has more bits than x), computed
// exactly with 512 bits.
func roundedRoot(x, y ld) bool {
	if x.isZero() {
		return y.isZero() && y.neg == x.neg
	}
	if y.neg || y.m == 0 {
		return false
	}
	hi := new(big.Float).SetPrec(512)
	hi.SetMantExp(hi.SetUint64(y.m), y.e)
	ulp := new(big.Float).SetPrec(512).SetMantExp(big.NewFloat(0.5), y.e)
	lo := new(big.Float).SetPrec(512).Sub(hi, ulp)
	if y.m == 1<<63 {
		lo.Add(lo, new(big.Float).SetPrec(512).SetMantExp(big.NewFloat(0.5), y.e-1))
	}
	hi.Add(hi, ulp)
	xb := new(big.Float).SetPrec(512).Set(toBig(x))
	return lo.Mul(lo, lo).Cmp(xb) < 0 && xb.Cmp(hi.Mul(hi, hi)) < 0
}

func TestLDSqrt(t *testing.T) {
	g := newGen(7)
	var xs []ld
	for range nRandom {
		x := g.ld()
		x.neg = false
		xs = append(xs, x)
	}
	for range 20000 { // exact squares, and squares rounded
		n := ldInt(g.r.Int64N(1 << 32))
		xs = append(xs, n.mul(n), mk(false, g.sig(), g.exp()).mul(mk(false, g.sig(), 0)))
	}
	// Roots just below or above a midpoint between two long doubles:
	// sqrt((2^63 + j)·2^(2k+1)) and sqrt((2^64 − j)·2^2k) for odd j.
	for j := uint64(1); j < 4000; j++ {
		for _, k := range []int{-40, 0, 31} {
			xs = append(xs, mk(false, 1<<63+j, 2*k+1), mk(false, -j, 2*k), mk(false, 1<<63+j, 2*k), mk(false, -j, 2*k+1))
		}
	}
	xs = append(xs, ld{}, ld{neg: true}, ldInt(1), ldInt(2), ldInt(4), mk(false, math.MaxUint64, 0), ldInt(math.MaxInt64))
	fails := 0
	for _, x := range xs {
		got := x.sqrt()
		want := newBig().Sqrt(toBig(x))
		if !same(got, want) || !roundedRoot(x, got) {
			t.Errorf("sqrt(%s) = %s, want %s (correctly rounded: %v)", show(x), show(got), want.Text('p', 0), roundedRoot(x, got))
			if fails++; fails > 10 {
				t.FailNow()
			}
		}
	}
	t.Logf("%d square roots", len(xs))
}

func TestLDConvert(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ints := []int64{0, 1, -1, 2, 3, 1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1<<53 + 1, -(1<<63 - 1)}
	uints := []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 + 1, 1<<64 - 2}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 0.85 * 1000, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1.fffffffffffffp-1023, math.Inf(1), math.Inf(-1)}
	for range nRandom {
		ints = append(ints, (r.Int64()>>r.IntN(64))*int64(1-2*r.IntN(2)))
		uints = append(uints, r.Uint64()>>r.IntN(64))
		if f := math.Float64frombits(r.Uint64()); !math.IsNaN(f) {
			floats = append(floats, f)
		}
	}
	for _, n := range ints {
		if got := ldInt(n); !same(got, newBig().SetInt64(n)) {
			t.Fatalf("ldInt(%d) = %s", n, show(got))
		}
	}
	for _, u := range uints {
		if got := ldUint(u); !same(got, newBig().SetUint64(u)) {
			t.Fatalf("ldUint(%d) = %s", u, show(got))
		}
	}
	for _, f := range floats {
		if got := ldF(f); !same(got, newBig().SetFloat64(f)) {
			t.Fatalf("ldF(%v) = %s", f, show(got))
		}
	}
}

// TestLDFloat rounds to double across the doubles' whole range, their
// subnormals and beyond both ends.
func TestLDFloat(t *testing.T) {
	g := newGen(11)
	xs := []ld{ld{}, {neg: true}, mk(false, 1, -1075), mk(false, 3, -1076), mk(false, 1<<63+1, -1075-63), mk(false, 1<<63, -1075-63),
		mk(false, math.MaxUint64, 1024-64), mk(false, math.MaxUint64&^(1<<10-1), 1024-64), mk(true, math.MaxUint64, -1022-64)}
	for range nRandom {
		x := g.ld()
		if g.r.IntN(3) == 0 { // about the subnormals and the top
			x.e = []int{-1138, -1100, -1074, -1022}[g.r.IntN(4)] - 64 + g.r.IntN(80)
			if g.r.IntN(4) == 0 {
				x.e = 1024 - 64 - g.r.IntN(3)
			}
			if x.m == 0 {
				x.m = g.sig() | 1<<63
			}
		}
		xs = append(xs, x)
	}
	for _, x := range xs {
		got := x.float()
		want, _ := toBig(x).Float64()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("float(%s) = %v, want %v", show(x), got, want)
		}
	}
}

func TestLDCmp(t *testing.T) {
	g := newGen(13)
	for range nRandom {
		a, b := g.pair()
		if g.r.IntN(10) == 0 {
			b = a
			b.neg = !b.neg
		}
		if got, want := a.cmp(b), toBig(a).Cmp(toBig(b)); got != want {
			t.Fatalf("cmp(%s, %s) = %d, want %d", show(a), show(b), got, want)
		}
	}
}

// fixedCases are the values fixed must print: every operand kind, values
// of a few units (what wrk prints), decimal ties (odd multiples of
// 2^−(p+1) are exactly halfway at p decimals), tiny and huge ones.
func fixedCases() []ld {
	g := newGen(17)
	xs := []ld{ld{}, {neg: true}, ldF(0.005), ldF(0.015), ldF(0.125), ldF(-0.125), ldF(2.5), ldF(-0.5), ldF(1e-300),
		ldF(math.MaxFloat64), mk(false, 1, -1200), mk(true, math.MaxUint64, 1100), ldInt(math.MaxInt64), ldInt(math.MinInt64)}
	for range nRandom / 4 {
		xs = append(xs, g.ld())
		x := mk(g.r.IntN(2) == 0, g.sig(), 0)
		x.e = g.r.IntN(30) - 63 - 10 // between 2^−11 and 2^20
		xs = append(xs, x)
		p := g.r.IntN(7)
		n := (g.r.Int64N(1e6) << (p + 1)) | 1 // odd
		xs = append(xs, mk(n&2 == 0, uint64(n), -(p+1)))
		// wrk's own: counts over times, thousands.
		xs = append(xs, ldInt(g.r.Int64N(1e7)).quo(ldF(float64(g.r.Int64N(3e7)+1)/1e6)), ldInt(g.r.Int64N(1e9)).quo(ldInt(1000)))
	}
	return xs
}

func TestLDFixed(t *testing.T) {
	xs := fixedCases()
	for _, x := range xs {
		for p := range 7 {
			if got, want := x.fixed(p), toBig(x).Text('f', p); got != want {
				t.Fatalf("fixed(%s, %d) = %s, want %s", show(x), p, got, want)
			}
		}
	}
	t.Logf("%d values × 7 precisions", len(xs))
}

// TestLDSpecial: what big.Float refuses or prints otherwise. x/0 is ±∞,
// printed as glibc prints it; 0/0 and the other invalid operations are the
// x87's negative NaN, -nan; none of them panics.
func TestLDSpecial(t *testing.T) {
	one, zero, inf := ldInt(1), ldInt(0), ldInt(1).quo(ldInt(0))
	for _, c := range []struct {
		x    ld
		want string
	}{
		{inf, "inf"},
		{ldInt(-3).quo(zero), "-inf"},
		{one.quo(ld{neg: true}), "-inf"},
		{zero.quo(zero), "-nan"},
		{ld{}.quo(ld{}), "-nan"},
		{inf.sub(inf), "-nan"},
		{inf.mul(zero), "-nan"},
		{inf.quo(inf), "-nan"},
		{ldInt(-4).sqrt(), "-nan"},
		{ldF(math.NaN()), "nan"},
		{ldF(math.NaN()).add(one), "nan"},
		{one.sub(ldF(math.Copysign(math.NaN(), -1))), "-nan"},
		{inf.add(one), "inf"},
		{inf.mul(ldInt(-2)), "-inf"},
		{inf.sqrt(), "inf"},
		{one.quo(inf), "0.00"},
		{ldInt(-1).quo(inf), "-0.00"},
		{ld{}.sqrt(), "0.00"},
		{ld{neg: true}.sqrt(), "-0.00"},
	} {
		if got := c.x.fixed(2); got != c.want {
			t.Errorf("%s: want %s", got, c.want)
		}
	}
	if f := inf.float(); !math.IsInf(f, 1) {
		t.Errorf("float(inf) = %v", f)
	}
	if f := zero.quo(zero).float(); !math.IsNaN(f) {
		t.Errorf("float(0/0) = %v", f)
	}
	if inf.cmp(ldF(math.MaxFloat64)) != 1 || ldInt(-1).quo(zero).cmp(ldInt(-1)) != -1 || inf.cmp(inf) != 0 {
		t.Error("∞ out of order")
	}
	// The zero value is +0 in every operation (printText passes ld{}).
	var z ld
	if z.cmp(zero) != 0 || z.fixed(2) != "0.00" || z.float() != 0 || !same(z.add(ldInt(5)), newBig().SetInt64(5)) ||
		!same(ldInt(5).sub(z), newBig().SetInt64(5)) || !same(z.mul(ldInt(5)), newBig()) || !same(z.quo(ldInt(5)), newBig()) {
		t.Error("ld{} is not 0")
	}
}

// bigFormatUnits is formatUnits in big.Float, as it was before ld.
func bigFormatUnits(n *big.Float, m cUnits, p int) string {
	amt, unit := n, m.base
	scale := newBig().SetFloat64(float64(m.scale) * 0.85)
	for i := 0; i+1 < len(m.units) && amt.Cmp(scale) >= 0; i++ {
		amt = newBig().Quo(amt, newBig().SetInt64(m.scale))
		unit = m.units[i]
	}
	return amt.Text('f', p) + unit
}

// TestLDFormat: wrk's unit formatting of integers and of fractions near
// its thresholds, against the same arithmetic in big.Float.
func TestLDFormat(t *testing.T) {
	g := newGen(19)
	var xs []ld
	for _, v := range []int64{0, 849, 850, 999999, 1000000, 849999, 850000, 59999999, 60000000, 1 << 40} {
		xs = append(xs, ldInt(v))
	}
	for range nRandom / 4 {
		xs = append(xs, ldInt(g.r.Int64N(1<<(10+g.r.IntN(40)))), ldInt(g.r.Int64N(1e9)).quo(ldInt(g.r.Int64N(1e4)+1)))
	}
	n := 0
	for _, x := range xs {
		for _, u := range []cUnits{timeUnitsUs, timeUnitsS, binaryUnits, metricUnits} {
			for _, p := range []int{0, 2} {
				n++
				if got, want := formatUnits(x, u, p), bigFormatUnits(toBig(x), u, p); got != want {
					t.Fatalf("formatUnits(%s, %s, %d) = %s, want %s", show(x), u.base, p, got, want)
				}
			}
		}
	}
	t.Logf("%d formatted", n)
}

// TestLDStats: wrk's mean, deviation and share within it (stats_mean,
// stats_stdev, stats_within_stdev) on random arrays, against the same
// formulas in big.Float.
func TestLDStats(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	for range 3000 {
		var vals []int64
		top := int64(1) << (1 + r.IntN(30))
		for range 1 + r.IntN(300) {
			vals = append(vals, r.Int64N(top))
		}
		a := sparseCArray(vals, math.MaxInt64)
		mean := a.mean()
		var sum uint64
		for i, v := range a.vals {
			sum += uint64(v) * uint64(a.counts[i])
		}
		bmean := newBig().Quo(newBig().SetUint64(sum), newBig().SetInt64(a.count))
		if !same(mean, bmean) {
			t.Fatalf("mean %s, want %s", show(mean), bmean.Text('p', 0))
		}
		if a.count < 2 {
			continue
		}
		stdev := a.stdev(mean)
		bsum := newBig()
		for i, v := range a.vals {
			d := newBig().Sub(newBig().SetInt64(v), bmean)
			d.Mul(d, d)
			bsum.Add(bsum, d.Mul(d, newBig().SetInt64(a.counts[i])))
		}
		bstdev := newBig().Sqrt(bsum.Quo(bsum, newBig().SetInt64(a.count-1)))
		if !same(stdev, bstdev) {
			t.Fatalf("stdev %s, want %s", show(stdev), bstdev.Text('p', 0))
		}
		w, _ := a.within(mean, stdev, 1)
		upper, lower := newBig().Add(bmean, bstdev), newBig().Sub(bmean, bstdev)
		var in int64
		for i, v := range a.vals {
			if x := newBig().SetInt64(v); x.Cmp(lower) >= 0 && x.Cmp(upper) <= 0 {
				in += a.counts[i]
			}
		}
		bw := newBig().Quo(newBig().SetInt64(in), newBig().SetInt64(a.count))
		if bw.Mul(bw, newBig().SetInt64(100)); w.fixed(2) != bw.Text('f', 2) || !same(w, bw) {
			t.Fatalf("within %s, want %s", show(w), bw.Text('p', 0))
		}
	}
}

// bigToFixed is the math/big reading of toFixed that jsToFixed replaced:
// x exactly, times 10^digits, rounded to nearest with ties up.
func bigToFixed(x float64, digits int) string {
	s := new(big.Float).SetPrec(0).SetFloat64(x)
	scale := new(big.Float).SetPrec(200).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
	s = new(big.Float).SetPrec(200).Mul(s, scale)
	n, _ := s.Int(nil)
	if frac := new(big.Float).SetPrec(200).Sub(s, new(big.Float).SetInt(n)); frac.Cmp(big.NewFloat(0.5)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	str := n.String()
	if digits == 0 {
		return str
	}
	for len(str) <= digits {
		str = "0" + str
	}
	return str[:len(str)-digits] + "." + str[len(str)-digits:]
}

// TestJSToFixed holds jsToFixed to bigToFixed on exact ties (k/2^j),
// carries through nines, and random values over twenty decades.
func TestJSToFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	xs := []float64{0, 0.5, 0.0078125, 2.5, 9.9995, 99.5, 999.9999995, 1e15 + 0.5, 0.125, 1.005}
	for range nRandom / 10 {
		switch r.IntN(3) {
		case 0: // a tie at some digit
			xs = append(xs, float64(r.IntN(1<<20))/float64(uint64(1)<<r.IntN(20)))
		case 1: // nines
			xs = append(xs, math.Pow(10, float64(r.IntN(6)))-math.Pow(10, -float64(r.IntN(9))))
		default:
			xs = append(xs, r.Float64()*math.Pow(10, float64(r.IntN(20)-10)))
		}
	}
	for _, x := range xs {
		for _, d := range []int{0, 1, 2, 3, 6, 9, 20} {
			if got, want := jsToFixed(x, d), bigToFixed(x, d); got != want {
				t.Fatalf("jsToFixed(%v, %d) = %s, want %s", x, d, got, want)
			}
		}
	}
}
