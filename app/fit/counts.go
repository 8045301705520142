package fit

import (
	"fmt"
	"math"
	"slices"

	"omission/sim"
)

// A tool's printout without times shows how slow its slowest replies were,
// not how many stalls made them: a closed loop's count and mean move with
// the stall count and the service together (requests·service + stalls·stall
// = duration), and the percentiles above the body only where the stalls'
// samples reach them. The search settles on one count; countSpan asks each
// other count whether it explains the file as well, so that the ranges the
// fit states hold every count that does (a real bombardier printout of five
// stalls came back as "it shows 19 stalls", every in [108 ms, 277.8 ms]).

// countFit is one stall count's best run: its guess (the service its
// requests give, its free first and period) with the stall searched.
type countFit struct {
	g     guess
	cfg   sim.Config
	score float64
	rs    []Residual
}

// countSpan runs each stall count from 1 to kMax outwards from the fitted
// one (g.k), each with the service its requests give (estimate) at the
// fitted stall and, when that does not explain the file, with the stall
// searched within −20 % to +5 % of it (golden): a real wrk printout of
// five 100 ms stalls, whose slowest reply took 106 ms (the client's own
// delay on top), is explained by five stalls of 102 ms, not by the four of
// 106 ms the search had taken. It goes on in each direction until
// kPatience counts in a row do not explain the file, or a count misses by
// more than the one before it (its worst number further off: the counts
// beyond miss further still), and returns those that do, by count
// ascending (none when the fitted run does not and none other does).
func countSpan(in *input, src source, g guess, cfg sim.Config, rs []Residual, eval evalFunc, unit int64, rate sim.Rate, kMax int64) []countFit {
	if cfg.Stall <= 0 || kMax < 2 || g.k < 1 {
		return nil
	}
	at := func(k int64) (countFit, bool) {
		if k == g.k {
			return countFit{g, cfg, 0, rs}, explains(rs, unit)
		}
		gk := estimate(in, src, rate, k)
		c := gk.cfg
		c.Stall, c.Rate = cfg.Stall, cfg.Rate
		gk.fix(&c)
		if c.Every > 0 && c.Every <= c.Stall {
			return countFit{}, false // the stalls do not fit in the run
		}
		s, rr := eval(c)
		// The service its requests give: a closed loop's count falls as
		// the service grows (the estimate may take it from the body's
		// percentiles, which a client's own time moves, not the stalls).
		for i := 0; i < 4 && rr != nil; i++ {
			r := byMetric(rr, "count")
			if r == nil || r.Measured <= 0 || math.Abs(r.Diff) < 0.002 {
				break
			}
			c2 := c
			c2.Service = int64(math.Round(float64(c.Service) * r.Fitted / r.Measured))
			s2, rr2 := eval(c2)
			if rr2 == nil || s2 >= s && explains(rr, unit) {
				break
			}
			c, s, rr = c2, s2, rr2
		}
		if !explains(rr, unit) {
			lo := cfg.Stall - cfg.Stall/5
			hi := min(cfg.Stall+cfg.Stall/20, max(c.Every-1, cfg.Stall))
			if c.Every == 0 {
				hi = cfg.Stall + cfg.Stall/20
			}
			c, s, rr = golden(c, "stall", lo, hi, eval)
		}
		return countFit{gk, c, s, rr}, rr != nil && explains(rr, unit)
	}
	var out []countFit
	for _, dir := range []int64{-1, 1} {
		miss, last := 0, math.Inf(1)
		for k := g.k; k >= 1 && k <= kMax && miss < kPatience; k += dir {
			if dir == 1 && k == g.k {
				continue // asked going down
			}
			f, ok := at(k)
			if ok {
				out = append(out, f)
				miss, last = 0, math.Inf(1)
				continue
			}
			w := math.Inf(1)
			if f.rs != nil {
				w = worstMiss(f.rs, unit)
			}
			if w >= last {
				break // further off than the count before: so are those beyond
			}
			miss, last = miss+1, w
		}
	}
	slices.SortFunc(out, func(a, b countFit) int { return int(a.g.k - b.g.k) })
	return out
}

// spanCounts states what the counts that explain a printout (countSpan's,
// two or more) leave free: the period and the first stall (any that place
// that many stalls in the run), and the stall and the service where their
// values differ by more than 1 %.
func spanCounts(g *guess, cfg sim.Config, fs []countFit, tool string) {
	kLo, kHi := fs[0].g.k, fs[len(fs)-1].g.k
	sLo, sHi := cfg.Stall, cfg.Stall
	vLo, vHi := cfg.Service, cfg.Service
	for _, f := range fs {
		sLo, sHi = min(sLo, f.cfg.Stall), max(sHi, f.cfg.Stall)
		vLo, vHi = min(vLo, f.cfg.Service), max(vHi, f.cfg.Service)
	}
	how := fmt.Sprintf("%s's printout holds no times, and %d to %d stalls explain it within %g %% (each count run with the service its requests give and its stall searched)", tool, kLo, kHi, Tolerance*100)
	if kLo == kHi {
		how = fmt.Sprintf("%s's printout holds no times, and %d stalls explain it within %g %%, no other count (each run with the service its requests give and its stall searched)", tool, kLo, Tolerance*100)
	}
	drop := func(p string) {
		g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == p })
	}
	drop("every")
	if kLo == 1 {
		g.setFree("every", sim.FormatDuration(cfg.Every), "", "", how+": one stall may explain it, and then any period")
	} else {
		lo, hi := span(sLo, cfg.Duration/(kLo-1))
		g.setFree("every", sim.FormatDuration(cfg.Every), lo, hi, how+": any period that places that many stalls in the run (longer than the stall, at most duration/(stalls − 1))")
	}
	drop("first")
	_, fhi := span(0, max(cfg.Duration-(kLo-1)*sLo, 0))
	g.setFree("first", sim.FormatDuration(cfg.First), "0s", fhi, how)
	// Each count's stall and service is found to the 1 % a single value
	// claims: the range's ends are widened by as much.
	widen := func(lo, hi int64) (string, string) {
		return sim.FormatDuration(lo - lo/100), sim.FormatDuration(hi + hi/100)
	}
	if float64(sHi-sLo) > 0.01*float64(cfg.Stall) {
		drop("stall")
		lo, hi := widen(sLo, sHi)
		g.setFree("stall", sim.FormatDuration(cfg.Stall), lo, hi, how+": each count's stall, within 1 %")
	}
	if float64(vHi-vLo) > 0.01*float64(cfg.Service) {
		drop("service")
		lo, hi := widen(vLo, vHi)
		g.setFree("service", sim.FormatDuration(cfg.Service), lo, hi, how+": each count's service, within 1 %")
	}
}

// byMetric returns the first residual of metric m in rs, or nil.
func byMetric(rs []Residual, m string) *Residual {
	for i := range rs {
		if rs[i].Metric == m {
			return &rs[i]
		}
	}
	return nil
}
