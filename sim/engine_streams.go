package sim

import "math"

// arrivals is the arrival process of a Config. The shared schedule (next)
// is the same for the closed and open clients: both draw it from the
// "arrivals" stream. The paced client restarts the process at each of its
// sends (after), drawing from its own "paced" stream.
type arrivals struct {
	kind    Arrivals
	D       int64
	due     dueIter    // constant: today's exact schedule
	slot    int64      // constant: 1/rate rounded, the paced client's slot
	e       variateBuf // the shared schedule's exponential variates
	meanGap float64    // poisson: 1/rate in ns
	r0      float64    // ramp: the rate at 0, per ns
	slope   float64    // ramp: the change of the rate per ns, per ns
	base    float64    // burst: the rate outside the windows, per ns
	bursts  []burstNs
	last    int64 // the previous arrival of the shared schedule
	done    bool
}

type burstNs struct {
	from, to int64
	rate     float64 // per ns
}

func perNs(r Rate) float64 { return float64(r) / 1e12 }

func newArrivals(cfg Config, g xoshiro) arrivals {
	a := arrivals{kind: cfg.Arrivals, D: cfg.Duration, e: newVariateBuf(g, nil), slot: cfg.PacedSlot()}
	switch cfg.Arrivals {
	case ArrivalsConstant:
		a.due = newDueIter(cfg.Rate)
	case ArrivalsPoisson:
		a.meanGap = 1e12 / float64(cfg.Rate)
	case ArrivalsRamp:
		a.r0 = perNs(cfg.Rate)
		a.slope = (perNs(cfg.RateTo) - perNs(cfg.Rate)) / float64(cfg.Duration)
	case ArrivalsBurst:
		a.base = perNs(cfg.Rate)
		for _, b := range cfg.BurstWindows() {
			a.bursts = append(a.bursts, burstNs{b.From, b.To, perNs(b.Rate)})
		}
	}
	return a
}

// next returns the next arrival of the shared schedule, and false once the
// schedule has no more arrivals before the duration.
func (a *arrivals) next() (int64, bool) {
	if a.done {
		return 0, false
	}
	if a.kind == ArrivalsConstant {
		t := int64(a.due.q)
		if t >= a.D {
			a.done = true
			return 0, false
		}
		a.due.next()
		return t, true
	}
	t := a.after(a.last, &a.e)
	if t < 0 {
		a.done = true
		return 0, false
	}
	a.last = t
	return t, true
}

// after returns the first arrival after t0 of the process started afresh at
// t0, drawing from es: t0 + 1/rate for constant arrivals (which may be past
// the duration: the caller checks), else the instant at which the integral of
// the rate from t0 reaches an exponential variate E, rounded to a
// nanosecond, or −1 when that is at or past the duration.
func (a *arrivals) after(t0 int64, es *variateBuf) int64 {
	if a.kind == ArrivalsConstant {
		return t0 + a.slot
	}
	E := es.next()
	left := float64(a.D - t0)
	var gap float64
	switch a.kind {
	case ArrivalsPoisson:
		gap = E * a.meanGap
	case ArrivalsRamp:
		// r·Δ + slope·Δ²/2 = E, r the rate at t0: the smaller root, in the
		// form that does not cancel.
		r := a.r0 + float64(a.slope*float64(t0))
		disc := float64(r*r) + float64(2*a.slope*E)
		if disc < 0 {
			return -1 // the rate reaches zero first
		}
		den := r + math.Sqrt(disc)
		if !(den > 0) {
			return -1
		}
		gap = 2 * E / den
	case ArrivalsBurst:
		t := float64(t0)
		D := float64(a.D)
		for {
			rate, end := a.base, D
			for _, b := range a.bursts {
				if float64(b.to) <= t {
					continue
				}
				if float64(b.from) <= t {
					rate, end = b.rate, float64(b.to)
				} else {
					end = float64(b.from)
				}
				break
			}
			end = math.Min(end, D)
			if rate > 0 {
				if m := float64(rate * (end - t)); m >= E {
					gap = t + E/rate - float64(t0)
					break
				} else {
					E -= m
				}
			}
			t = end
			if t >= D {
				return -1
			}
		}
	}
	if !(gap < left) {
		return -1
	}
	t := t0 + int64(gap+0.5)
	if t >= a.D {
		return -1
	}
	return t
}

// The 95th percentile of the standard normal: Φ⁻¹(0.95).
const z95 = 1.6448536269514722

// serviceGen draws service times, rounded to whole nanoseconds and at most
// MaxTime. A fixed service draws nothing.
type serviceGen struct {
	kind      ServiceDist
	fixed     int64
	mean      float64 // exponential
	mu, sigma float64 // lognormal: of ln(service in ns)
	lo, span  float64 // uniform
	g         variateBuf
}

func newServiceGen(cfg Config, g xoshiro) serviceGen {
	s := serviceGen{kind: cfg.Dist, fixed: cfg.Service}
	switch cfg.Dist {
	case ServiceExponential:
		s.g = newVariateBuf(g, nil)
		s.mean = float64(cfg.Service)
	case ServiceLognormal:
		s.g = newVariateBuf(g, (*xoshiro).normal)
		s.mu = detLn(float64(cfg.Service))
		s.sigma = (detLn(float64(cfg.ServiceP95)) - s.mu) / z95
	case ServiceUniform:
		s.g = newVariateBuf(g, (*xoshiro).uniform)
		s.lo = float64(cfg.Service)
		s.span = float64(cfg.ServiceMax - cfg.Service)
	}
	return s
}

func (s *serviceGen) next() int64 {
	var x float64
	switch s.kind {
	case ServiceExponential:
		x = s.mean * s.g.next()
	case ServiceLognormal:
		x = detExp(s.mu + float64(s.sigma*s.g.next()))
	case ServiceUniform:
		x = s.lo + float64(s.span*s.g.next())
	default:
		return s.fixed
	}
	return roundNs(x)
}

// roundNs rounds x ≥ 0 to the nearest nanosecond, halves up, within [0, MaxTime].
func roundNs(x float64) int64 {
	if !(x < float64(MaxTime)) {
		return MaxTime
	}
	if x <= 0 {
		return 0
	}
	return int64(x + 0.5)
}

// LognormalMean is the mean of the lognormal service of cfg in ns:
// median·exp(σ²/2).
func LognormalMean(cfg Config) float64 {
	g := newServiceGen(cfg, xoshiro{})
	return float64(cfg.Service) * detExp(float64(g.sigma*g.sigma)/2)
}

// MeanService is the mean service time of cfg's distribution in ns.
func (c Config) MeanService() float64 {
	switch c.Dist {
	case ServiceLognormal:
		return LognormalMean(c)
	case ServiceUniform:
		return (float64(c.Service) + float64(c.ServiceMax)) / 2
	}
	return float64(c.Service)
}
