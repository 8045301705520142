package sim

import "math"

// This file holds the engine's random numbers. Everything here gives the
// same bits natively and in WebAssembly: the generators are integer
// arithmetic, and the real functions use only addition, subtraction,
// multiplication, division and square root (each correctly rounded by
// IEEE 754 on every platform), never the math package's Log or Exp, whose
// assembly versions differ between architectures. Powers of two are taken
// apart and put together on the bits of a float64, which is exact. Every product that feeds
// a sum is wrapped in an explicit float64 conversion, which the Go
// specification says forbids fusing it into a multiply-add.

// splitMix64 is Steele, Lea and Flood's SplitMix64 with Vigna's constants:
// the seeder of every xoshiro256** state here.
type splitMix64 struct{ x uint64 }

func (s *splitMix64) next() uint64 {
	s.x += 0x9e3779b97f4a7c15
	z := s.x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// xoshiro is Blackman and Vigna's xoshiro256** 1.0.
type xoshiro struct{ s0, s1, s2, s3 uint64 }

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// next returns the next 64 random bits.
func (g *xoshiro) next() uint64 {
	r := rotl(g.s1*5, 7) * 9
	t := g.s1 << 17
	g.s2 ^= g.s0
	g.s3 ^= g.s1
	g.s1 ^= g.s2
	g.s0 ^= g.s3
	g.s2 ^= t
	g.s3 = rotl(g.s3, 45)
	return r
}

// seedXoshiro returns the generator whose state is the first four outputs of
// SplitMix64 started at x.
func seedXoshiro(x uint64) xoshiro {
	sm := splitMix64{x}
	return xoshiro{sm.next(), sm.next(), sm.next(), sm.next()}
}

// fnv1a64 is the 64-bit FNV-1a hash of s.
func fnv1a64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// newStream returns the generator of one purpose ("arrivals", "service",
// "paced"): SplitMix64 starts at seed XOR FNV-1a-64(purpose), and its first
// four outputs are the xoshiro256** state. Two purposes never share a stream,
// and a purpose's stream depends on nothing but the seed and its name.
func newStream(seed uint64, purpose string) xoshiro {
	return seedXoshiro(seed ^ fnv1a64(purpose))
}

// uniform returns a value in [0, 1): the top 53 bits of an output times 2⁻⁵³.
func (g *xoshiro) uniform() float64 {
	return float64(g.next()>>11) * 0x1p-53
}

// expVariate returns −ln(1 − u) for u uniform: an exponential variate of
// mean 1. 1 − u is exact (u is a multiple of 2⁻⁵³), so the argument of ln is
// in (0, 1] and never 0.
func (g *xoshiro) expVariate() float64 {
	return -detLn(1 - g.uniform())
}

// variateBuf hands out one stream's variates in order, drawing them in
// batches: the logarithms of a batch run back to back, which the processor
// overlaps, instead of one at a time between the engine's branches. The
// values and their order are exactly the unbatched ones.
type variateBuf struct {
	g    xoshiro
	draw func(*xoshiro) float64
	buf  [64]float64
	i    int
}

func newVariateBuf(g xoshiro, draw func(*xoshiro) float64) variateBuf {
	return variateBuf{g: g, draw: draw, i: 64}
}

func (b *variateBuf) next() float64 {
	if b.i == len(b.buf) {
		b.fill()
	}
	v := b.buf[b.i]
	b.i++
	return v
}

func (b *variateBuf) fill() {
	if b.draw == nil { // the exponential, inlined
		for j := range b.buf {
			b.buf[j] = -detLn(1 - float64(b.g.next()>>11)*0x1p-53)
		}
	} else {
		for j := range b.buf {
			b.buf[j] = b.draw(&b.g)
		}
	}
	b.i = 0
}

// normal returns a standard normal variate by the polar form of the
// Box–Muller transform: u and v uniform in (−1, 1) until s = u² + v² is in
// (0, 1), then u·√(−2 ln s / s). The second variate of the pair is not kept.
func (g *xoshiro) normal() float64 {
	for {
		u := 2*g.uniform() - 1
		v := 2*g.uniform() - 1
		s := float64(u*u) + float64(v*v)
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*detLn(s)/s)
		}
	}
}

// Coefficients of the reduced logarithm and exponential (fdlibm's e_log.c
// and e_exp.c, Sun Microsystems, freely distributable).
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2e = 1.44269504088896338700e+00
	lg1   = 6.666666666666735130e-01
	lg2   = 3.999999999940941908e-01
	lg3   = 2.857142874366239149e-01
	lg4   = 2.222219843214978396e-01
	lg5   = 1.818357216161805012e-01
	lg6   = 1.531383769920937332e-01
	lg7   = 1.479819860511658591e-01
	ep1   = 1.66666666666666657415e-01
	ep2   = -2.77777777770155933842e-03
	ep3   = 6.61375632143793436117e-05
	ep4   = -1.65339022054652515390e-06
	ep5   = 4.13813679705723846039e-08
)

// pow2 holds 2^(2^i) for i = 9, 8, …, 0, and pow2neg their reciprocals, for
// scaling by powers of two with exact multiplications.
var (
	pow2e   = [...]int{512, 256, 128, 64, 32, 16, 8, 4, 2, 1}
	pow2    = [...]float64{0x1p512, 0x1p256, 0x1p128, 0x1p64, 0x1p32, 0x1p16, 0x1p8, 0x1p4, 0x1p2, 0x1p1}
	pow2neg = [...]float64{0x1p-512, 0x1p-256, 0x1p-128, 0x1p-64, 0x1p-32, 0x1p-16, 0x1p-8, 0x1p-4, 0x1p-2, 0x1p-1}
)

// detLn is the natural logarithm, within one unit in the last place. x is
// split as 2^k·m with m in [√½, √2) on its bits (musl's trick: offset the
// bits by those of √½, read k from the exponent field, rebuild m), which is
// exact; then ln m = f − f²/2 + s·(f²/2 + R(s²)) with f = m − 1 and
// s = f/(2 + f), R a minimax polynomial, in + − × ÷ only.
func detLn(x float64) float64 {
	b := math.Float64bits(x)
	k0 := 0
	if b-0x0010000000000000 >= 0x7fe0000000000000 { // not a positive normal number
		switch {
		case x != x || x < 0:
			return math.NaN()
		case x == 0:
			return math.Inf(-1)
		case x > math.MaxFloat64:
			return x
		}
		b, k0 = math.Float64bits(x*0x1p54), -54 // subnormal: scale it up, exactly
	}
	const sqrtHalf = 0x3fe6a09e667f3bcd // the bits of √½
	h := b + (0x3ff0000000000000 - sqrtHalf)
	k := int(h>>52) - 0x3ff + k0
	m := math.Float64frombits(h&(1<<52-1) + sqrtHalf)
	f := m - 1
	s := f / (2 + f)
	z := s * s
	w := z * z
	t1 := w * (lg2 + float64(w*(lg4+float64(w*lg6))))
	t2 := z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7))))))
	r := t2 + t1
	hfsq := 0.5 * f * f
	fk := float64(k)
	return float64(fk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(fk*ln2Lo))) - f)
}

// detExp is the exponential, within one unit in the last place: x = k·ln 2
// + r with |r| ≤ ln2/2, e^r from a rational approximation in + − × ÷ only,
// then scaled by 2^k, an exact multiplication.
func detExp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 709.782712893384:
		return math.Inf(1)
	case x < -708.39:
		return 0 // below the smallest normal float: far below a nanosecond here
	case -0x1p-54 < x && x < 0x1p-54:
		return 1 + x
	}
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := fk * ln2Lo
	r := hi - lo
	t := r * r
	c := r - float64(t*(ep1+float64(t*(ep2+float64(t*(ep3+float64(t*(ep4+float64(t*ep5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	if -1022 <= k && k <= 1023 {
		return y * math.Float64frombits(uint64(k+1023)<<52) // 2^k, exactly
	}
	return scale2(y, k)
}

// scale2 returns y·2^k by exact multiplications (|k| ≤ 1023 + 53).
func scale2(y float64, k int) float64 {
	if k > 0 {
		if k > 1023 { // keep the intermediate finite: y < 2
			y *= 0x1p1023
			k -= 1023
		}
		for i, e := range pow2e {
			if k >= e {
				y *= pow2[i]
				k -= e
			}
		}
	} else if k < 0 {
		k = -k
		if k > 1022 {
			y *= 0x1p-1022
			k -= 1022
		}
		for i, e := range pow2e {
			if k >= e {
				y *= pow2neg[i]
				k -= e
			}
		}
	}
	return y
}
