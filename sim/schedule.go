package sim

import "math/bits"

// Schedule is the one request schedule: request i is due at i·10⁹/rate
// seconds, as whole nanoseconds rounded to nearest (halves up), computed
// exactly in integers so that no error accumulates over a run.
type Schedule struct {
	rate Rate // milli-requests per second
}

// NewSchedule returns the schedule of a rate.
func NewSchedule(r Rate) Schedule { return Schedule{r} }

const nsPerMilliRate = 1e12 // ns per second × 1000: due(i) = i·1e12/rate

// roundDiv returns round(a·b/c) with halves up, exactly, for c > 0.
func roundDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	lo, carry := bits.Add64(lo, c/2, 0)
	hi += carry
	if hi >= c {
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// Due returns the due time of request i.
func (s Schedule) Due(i int64) int64 {
	return int64(roundDiv(uint64(i), nsPerMilliRate, uint64(s.rate)))
}

// Interval returns k/rate seconds in nanoseconds, rounded to nearest.
func (s Schedule) Interval(k int64) int64 { return s.Due(k) }

// Exact reports whether 1/rate is a whole number of nanoseconds, so that
// due(i) = i·T exactly.
func (s Schedule) Exact() bool { return nsPerMilliRate%int64(s.rate) == 0 }

// Count returns the number of requests due before d: the least n with
// due(n) >= d.
func (s Schedule) Count(d int64) int64 {
	if d <= 0 {
		return 0
	}
	// due(n) = floor((n·1e12 + r/2)/r) >= d  <=>  n·1e12 + r/2 >= d·r
	r := uint64(s.rate)
	hi, lo := bits.Mul64(uint64(d), r)
	lo, b := bits.Sub64(lo, r/2, 0)
	hi -= b
	// n >= ceil((hi:lo)/1e12)
	lo, c := bits.Add64(lo, nsPerMilliRate-1, 0)
	hi += c
	if hi >= nsPerMilliRate {
		return 1 << 62
	}
	q, _ := bits.Div64(hi, lo, nsPerMilliRate)
	return int64(q)
}

// dueIter yields due(0), due(1), … with additions only.
type dueIter struct {
	q, r  uint64 // due = q; r: remainder of (i·2e12 + rate) mod 2·rate
	dq    uint64 // 2e12 div 2rate
	dr    uint64 // 2e12 mod 2rate
	twoR  uint64
	index int64
}

func newDueIter(rate Rate) dueIter {
	twoR := 2 * uint64(rate)
	// due(i) = floor((2·i·1e12 + rate) / (2·rate))
	return dueIter{q: uint64(rate) / twoR, r: uint64(rate) % twoR, dq: 2 * nsPerMilliRate / twoR, dr: 2 * nsPerMilliRate % twoR, twoR: twoR}
}

// next advances to the following request's due time.
func (d *dueIter) next() {
	d.q += d.dq
	d.r += d.dr
	if d.r >= d.twoR {
		d.r -= d.twoR
		d.q++
	}
	d.index++
}
