package fit

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"omission/sim"
)

// A spectrum without times and without its rate (the .hgrm of the open,
// corrected or paced-corrected recording) shows K·J late samples: K stalls
// of J, 2K stalls of about J/2 at about half the rate, and so on. The file
// fixes the service and the stall, not the stall count, the rate, the run's
// length (the count over the rate) or where the stalls fall. The ranges the
// fit gives for those, and for the open loop's p99, come from sampling
// them, not from the search's path: sampleStalls.

// Sampling's bounds: each stall count's rate is sampled within [bandLo,
// bandHi] times the rate its estimate takes (the staircase's step, blurred
// by the spectrum's rows, puts it up to 15 % off) at up to bandCoarse
// rates; when none explains the file, up to bandMetrics of the numbers
// furthest off are bisected bandBisect times where they change sign; an
// edge is looked for in up to bandSteps steps out, each followed past the
// last rate in by a scan bandGap steps bandFineStep apart (in the rate's
// logarithm); at most bandMiddle stall counts between the fewest and the
// most that explain the file are sampled besides those two.
const (
	bandLo, bandHi = 0.80, 1.12
	bandCoarse     = 9
	bandMetrics    = 2
	bandBisect     = 7
	bandFineStep   = 0.0025
	bandSteps      = 8
	bandGap        = 8
	bandMiddle     = 3
)

// sample is one model the sampling ran: its stall count, query, score and
// residuals.
type sample struct {
	k     int64
	cfg   sim.Config
	score float64
	rs    []Residual
}

// band is what the sampling found of one stall count: the best rate it
// found and, where it looked for them, the rates just past the last that
// keep (explain the file) on either side (0: not looked for, or none
// found within the bounds: the band runs on).
type band struct {
	k       int64
	center  sample
	lo, hi  sim.Rate // the first rate out below and above (0: unknown)
	loIn    sim.Rate // the last rate in below and above
	hiIn    sim.Rate
	edgesOK [2]bool // lo, hi looked for and found
}

// stallSamples is the sampling's answer: the bands of the stall counts
// that keep, the best sample of all (it may fit better than the search's
// model), and the open loop's p99 over every sample kept.
type stallSamples struct {
	bands []band
	best  *sample
	open  []int64
}

// sampler runs the models for sampleStalls.
type sampler struct {
	in   *input
	src  source
	eval evalFunc
	fit  sim.Config
	// keep says whether a sample's score and residuals fit the file as
	// well as the verdict asks (explains), or, for a file no model
	// explains, within half again of the fit's score.
	keep func(float64, []Residual) bool
	best *sample
	// enough: the open loop's p99 counts only for runs of minOpenRequests
	// or more (unless the fitted model's own has fewer).
	enough func(sim.Config) bool
	open   []int64
}

// place is the model of k stalls at rate r: the run's length the file's
// count gives at that rate (less the samples a correction added, more the
// slots a paced loop skipped), the stalls placed as the estimate places
// them (in proportion to the run), or, by how, spread over the whole run
// from its start (1) or packed one after another from it (2); the
// service and the stall the fit's.
func (s *sampler) place(k int64, r sim.Rate, how int) (sim.Config, bool) {
	c := estimate(s.in, s.src, r, k).cfg
	c.Service, c.Stall = s.fit.Service, s.fit.Stall
	if c.Service > 0 && float64(r)*float64(c.Service) >= 1e12 {
		return c, false // past the server's capacity
	}
	T := sim.NewSchedule(r).Interval(1)
	switch {
	case how == 1 && k > 1:
		c.First, c.Every = 0, (c.Duration-c.Stall)/(k-1)/T*T
	case how == 2 && k > 1:
		c.First, c.Every = 0, (c.Stall/T+2)*T
	case how != 0:
		return c, false
	}
	if c.Every > 0 && c.Every <= c.Stall {
		return c, false
	}
	return c, true
}

// run scores c, keeps the best sample, and reports whether c keeps.
func (s *sampler) run(k int64, c sim.Config) (sample, bool) {
	sc, rs := s.eval(c)
	x := sample{k: k, cfg: c, score: sc, rs: rs}
	if rs == nil {
		return x, false
	}
	if s.best == nil || sc < s.best.score {
		b := x
		s.best = &b
	}
	return x, s.keep(sc, rs)
}

// at runs k stalls at rate r placed each way in turn and returns the first
// placement that keeps.
func (s *sampler) at(k int64, r sim.Rate) (sample, bool) {
	var first sample
	for how := 0; how < 3; how++ {
		c, ok := s.place(k, r, how)
		if !ok {
			continue
		}
		x, keeps := s.run(k, c)
		if keeps {
			return x, true
		}
		if how == 0 {
			first = x
		}
	}
	return first, false
}

// widen widens the open loop's p99 range with a kept sample's.
func (s *sampler) widen(x sample) {
	if s.enough(x.cfg) {
		s.open = widenOpen(s.open, x.cfg)
	}
}

// search looks for the rates at which k stalls keep. A spectrum's
// percentile that sits at the tail's edge (its p90 when a tenth of the
// samples are late) runs from far below the file's to far above it within
// a few tenths of a per cent of the rate, or jumps between the service
// and the staircase, so the rates that explain the file lie in one narrow
// band or in islands a few tenths of a per cent wide, and a descent on
// the score misses them. So: rates on a coarse grid across [bandLo,
// bandHi] times r0, from r0 outwards, until one keeps (the stalls placed
// as the estimate places them); when none does, the numbers furthest off
// at the best of them, each bisected where it changes sign between two
// grid rates next to each other. Then, when edges says so, each edge of
// what keeps (edges[0] the lower, edges[1] the upper): steps out that
// double from bandFineStep while the rate keeps (its first rate out tried
// with the stalls placed three ways), and past the last that keeps a scan
// bandFineStep apart, bandGap steps long, that goes on from any rate in it
// that keeps; the first rate out past the last in is the edge. It reports
// whether any rate keeps.
func (s *sampler) search(k int64, r0 sim.Rate, edges [2]bool) (band, bool) {
	rate := func(x float64) sim.Rate { return sim.Rate(math.Round(float64(r0) * math.Exp(x))) }
	var best sample
	bx, found := 0.0, false
	type point struct {
		x float64
		y sample
	}
	var grid []point
	try := func(x float64) bool {
		c, ok := s.place(k, rate(x), 0)
		if !ok {
			return false
		}
		y, keeps := s.run(k, c)
		if y.rs == nil {
			return false
		}
		grid = append(grid, point{x, y})
		if keeps && (!found || y.score < best.score) || !found && (best.rs == nil || y.score < best.score) {
			best, bx = y, x
		}
		found = found || keeps
		return keeps
	}
	// The coarse grid from r0 outwards, both ways in turn, until a rate
	// keeps (the edges are then looked for from it).
	a, b := math.Log(bandLo), math.Log(bandHi)
	h := (b - a) / float64(bandCoarse-1)
	for i := 0; i < bandCoarse && !found; i++ {
		x := float64((i+1)/2) * h
		if i%2 == 1 {
			x = -x
		}
		if x >= a-1e-9 && x <= b+1e-9 {
			try(x)
		}
	}
	if !found && best.rs != nil && len(grid) > 1 {
		// None keeps: the headline numbers furthest off at the best rate
		// (up to bandMetrics of them), each where it changes sign between
		// two grid rates next to each other, nearest the best first, are
		// bisected (a percentile at the tail's edge runs from far below
		// to far above the file's within a few tenths of a per cent).
		slices.SortFunc(grid, func(p, q point) int { return cmp.Compare(p.x, q.x) })
		var worst []int
		for i, r := range best.rs {
			if r.Headline && math.Abs(r.Diff) > Tolerance {
				worst = append(worst, i)
			}
		}
		slices.SortFunc(worst, func(i, j int) int { return cmp.Compare(math.Abs(best.rs[j].Diff), math.Abs(best.rs[i].Diff)) })
		sign := func(y sample, m int) float64 {
			if m < len(y.rs) {
				return math.Copysign(1, y.rs[m].Diff)
			}
			return 0
		}
		for n, m := range worst {
			if n == bandMetrics || found {
				break
			}
			var pairs [][2]float64
			for i := 0; i+1 < len(grid); i++ {
				if sign(grid[i].y, m)*sign(grid[i+1].y, m) < 0 {
					pairs = append(pairs, [2]float64{grid[i].x, grid[i+1].x})
				}
			}
			slices.SortFunc(pairs, func(p, q [2]float64) int {
				return cmp.Compare(math.Abs(p[0]+p[1]-2*bx), math.Abs(q[0]+q[1]-2*bx))
			})
			for _, pr := range pairs[:min(len(pairs), 2)] {
				lo, hi := pr[0], pr[1]
				slo := 0.0
				for _, g := range grid {
					if g.x == lo {
						slo = sign(g.y, m)
					}
				}
				for j := 0; j < bandBisect && !found; j++ {
					mid := (lo + hi) / 2
					c, ok := s.place(k, rate(mid), 0)
					if !ok {
						break
					}
					try(mid)
					y := grid[len(grid)-1].y
					if y.cfg.Rate != c.Rate {
						break
					}
					if sign(y, m) == slo {
						lo = mid
					} else {
						hi = mid
					}
				}
				if found {
					break
				}
			}
		}
	}
	if !found {
		return band{}, false
	}
	bd := band{k: k, center: best, loIn: best.cfg.Rate, hiIn: best.cfg.Rate}
	s.widen(best)
	for side, dir := range []float64{-1, 1} {
		if !edges[side] {
			continue
		}
		in, last := bx, best
		step := bandFineStep
		edge := false // found: a scan past the last in found none
		for n := 0; n < bandSteps; n++ {
			// Out in doubling steps while the rate keeps.
			if y, ok := s.at(k, rate(in+dir*step)); ok {
				in, last = in+dir*step, y
				step *= 2
				continue
			}
			// Past the last that keeps: a fine scan, on from any that does
			// (the first rate out was tried with the stalls placed three
			// ways: the scan places them as the estimate does).
			again := false
			for j := 2; j <= bandGap; j++ {
				c, ok := s.place(k, rate(in+dir*float64(j)*bandFineStep), 0)
				if !ok {
					continue
				}
				if y, keeps := s.run(k, c); keeps {
					in, last, again = in+dir*float64(j)*bandFineStep, y, true
					break
				}
			}
			if !again {
				edge = true
				break
			}
			step = bandFineStep
		}
		s.widen(last)
		out := rate(in + dir*bandFineStep)
		if side == 0 {
			bd.loIn = rate(in)
			if edge {
				bd.lo, bd.edgesOK[0] = out, true
			}
		} else {
			bd.hiIn = rate(in)
			if edge {
				bd.hi, bd.edgesOK[1] = out, true
			}
		}
	}
	return bd, true
}

// sampleStalls samples the stall counts ks (ascending), each at the rates
// its estimate's rate r0s[i] leads the search to, and keeps every sample
// that keep accepts. The fewest stalls that keep are found by trying the
// counts upwards from the fewest, the most by trying them downwards from
// the most, each with both edges of its band; up to bandMiddle counts
// between them are sampled at their best rate only (the rate range is
// the outer counts', and the open loop's p99 changes little with the
// count: the file fixes its tail). fit is the search's model (its service
// and stall are the file's); no bands when no count keeps.
func sampleStalls(in *input, src source, fit sim.Config, ks []int64, r0s []sim.Rate, eval evalFunc,
	keep func(float64, []Residual) bool, enough func(sim.Config) bool) *stallSamples {
	s := &sampler{in: in, src: src, eval: eval, fit: fit, keep: keep, enough: enough}
	var bands []band
	iLo := -1
	for i := range ks {
		if bd, ok := s.search(ks[i], r0s[i], [2]bool{true, true}); ok {
			bands, iLo = append(bands, bd), i
			break
		}
	}
	if iLo < 0 {
		return &stallSamples{best: s.best}
	}
	iHi := iLo
	for i := len(ks) - 1; i > iLo; i-- {
		if bd, ok := s.search(ks[i], r0s[i], [2]bool{true, true}); ok {
			bands, iHi = append(bands, bd), i
			break
		}
	}
	if n := iHi - iLo - 1; n > 0 {
		stride := max((n+bandMiddle-1)/bandMiddle, 1)
		for i := iLo + stride; i < iHi; i += stride {
			if bd, ok := s.search(ks[i], r0s[i], [2]bool{}); ok {
				bands = append(bands, bd)
			}
		}
	}
	return &stallSamples{bands: bands, best: s.best, open: s.open}
}

// rateFollowsK reports whether the stall counts' estimates take rates more
// than 1 % apart: the rate is the staircase's for each count, not the
// file's (an open loop's .hlog gives its rate by its replies per interval).
func rateFollowsK(kTried []guess) bool {
	lo, hi := kTried[0].cfg.Rate, kTried[0].cfg.Rate
	for _, gk := range kTried {
		lo, hi = min(lo, gk.cfg.Rate), max(hi, gk.cfg.Rate)
	}
	return float64(hi-lo) > 0.01*float64(hi)
}

// sampleSpectrum samples the stall counts and rates of a spectrum without
// times or rate (sampleStalls) after the search: the best sample replaces
// the search's model when it fits better, and when the counts that
// explain the file (or, for a file none explains, fit within half again
// of the best score) take rates more than 1 % apart, the rate, the run's
// length, the period and the first stall are free over them and the open
// loop's p99 is the range over every sample kept (nil when the rate is
// not free).
func sampleSpectrum(in *input, src source, g guess, kTried []guess, cfg sim.Config, score float64, rs []Residual, eval evalFunc, unit int64) (guess, sim.Config, float64, []Residual, []int64) {
	fitExplains, fitScore := explains(rs, unit), score
	keep := func(sc float64, r []Residual) bool {
		return explains(r, unit) || !fitExplains && sc <= 1.5*fitScore+1e-9
	}
	fitN := sim.NewSchedule(cfg.Rate).Count(cfg.Duration)
	enough := func(c sim.Config) bool {
		return sim.NewSchedule(c.Rate).Count(c.Duration) >= minOpenRequests || fitN < minOpenRequests
	}
	ks := make([]int64, len(kTried))
	r0s := make([]sim.Rate, len(kTried))
	for i, gk := range kTried {
		ks[i], r0s[i] = gk.k, gk.cfg.Rate
	}
	ss := sampleStalls(in, src, cfg, ks, r0s, eval, keep, enough)
	if ss.best != nil && ss.best.score < score {
		cfg, score, rs = ss.best.cfg, ss.best.score, ss.best.rs
		for _, gk := range kTried {
			if gk.k == ss.best.k {
				g = gk // its placement's free ranges and its count
			}
		}
	}
	if len(ss.bands) == 0 {
		return g, cfg, score, rs, nil
	}
	lo, hi := cfg.Rate, cfg.Rate
	loOpen, hiOpen := false, false
	kLo, kHi := ss.bands[0].k, ss.bands[0].k
	durAt := func(k int64, r sim.Rate) int64 { return estimate(in, src, r, k).cfg.Duration }
	var everyHi, firstHi int64
	durLo := cfg.Duration
	for _, bd := range ss.bands {
		kLo, kHi = min(kLo, bd.k), max(kHi, bd.k)
		bLo, bHi := bd.loIn, bd.hiIn
		if bd.edgesOK[0] {
			bLo = bd.lo
		} else if bd.loIn != bd.center.cfg.Rate {
			loOpen = true // the band runs past the steps
		}
		if bd.edgesOK[1] {
			bHi = bd.hi
		} else if bd.hiIn != bd.center.cfg.Rate {
			hiOpen = true
		}
		lo, hi = min(lo, bLo), max(hi, bHi)
		d := durAt(bd.k, bLo)
		durLo = min(durLo, durAt(bd.k, bHi))
		firstHi = max(firstHi, d)
		if bd.k > 1 {
			everyHi = max(everyHi, d/(bd.k-1))
		}
	}
	if float64(hi-lo) <= 0.01*float64(cfg.Rate) {
		return g, cfg, score, rs, nil
	}
	why := fmt.Sprintf("the spectrum's rows do not tell K stalls of J late samples from other stall counts at other rates: %d to %d stalls explain the file, each at its own rates (sampled: each count's rates on a grid about its estimate's, and the fewest's and the most's scanned out to the last rate that explains the file)", kLo, kHi)
	if !fitExplains {
		why = fmt.Sprintf("the spectrum's rows do not tell K stalls of J late samples from other stall counts at other rates: %d to %d stalls fit the file within half again of the best score, each at its own rates (sampled: each count's rates on a grid about its estimate's, and the fewest's and the most's scanned out to the last rate that explains the file)", kLo, kHi)
	}
	g.free = slices.DeleteFunc(slices.Clone(g.free), func(f Free) bool {
		return f.Param == "rate" || f.Param == "every" || f.Param == "first" || f.Param == "duration"
	})
	rLo, rHi := lo.String(), hi.String()
	if loOpen {
		rLo = ""
	}
	if hiOpen {
		rHi = ""
	}
	g.setFree("rate", cfg.Rate.String(), rLo, rHi, why)
	g.searched = slices.DeleteFunc(slices.Clone(g.searched), func(p string) bool { return p == "rate" })
	place := fmt.Sprintf("the file holds no times, and %d to %d stalls fit it, each at its own rate and run length: any period and first stall that place that many in the run", kLo, kHi)
	if kLo == 1 || everyHi <= cfg.Stall {
		g.setFree("every", sim.FormatDuration(cfg.Every), "", "", place)
	} else {
		g.setFree("every", sim.FormatDuration(cfg.Every), sim.FormatDuration(cfg.Stall), sim.FormatDuration(everyHi), place)
	}
	g.setFree("first", sim.FormatDuration(cfg.First), "0s", sim.FormatDuration(firstHi), place)
	if g.countN > 0 {
		dLo, dHi := sim.FormatDuration(durLo), sim.FormatDuration(firstHi)
		if hiOpen {
			dLo = ""
		}
		if loOpen {
			dHi = ""
		}
		g.setFree("duration", sim.FormatDuration(cfg.Duration), dLo, dHi, "the count over the rate, which the file leaves free with the stall count")
	}
	var open []int64
	if len(ss.open) == 2 {
		open = widenOpen(ss.open, cfg)
	}
	return g, cfg, score, rs, open
}
