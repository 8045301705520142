package fit

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"omission/app/tools"
	"omission/app/units"
	"omission/sim"
)

// Param is one fitted parameter: its value as the query writes it and how
// the file gave it (stated, from which shape, searched, or free).
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	How   string `json:"how"`
}

// ToolP99 is what a tool would have printed at p99 for the fitted server.
type ToolP99 struct {
	Tool  string `json:"tool"`
	P99Ns int64  `json:"p99_ns"`
	Sent  int64  `json:"sent"`
	// Printed is how the tool prints a p99 its rounding made 0 ("0 ms (ab
	// prints whole milliseconds …)"); empty otherwise.
	Printed string `json:"printed,omitempty"`
	// Zero is the tool's own word on it (nil: its p99 is not a rounded 0).
	Zero *tools.Zero `json:"-"`
}

// Hidden is what the fitted query says the test never measured.
type Hidden struct {
	// RecordedP99Ns is the file's own p99 (-1: it prints none);
	// FittedP99Ns the fitted model's for the same source.
	RecordedP99Ns int64 `json:"recorded_p99_ns"`
	FittedP99Ns   int64 `json:"fitted_p99_ns"`
	// OpenP99Ns is the open loop's p99 on the same server at the fitted rate.
	OpenP99Ns int64 `json:"open_p99_ns"`
	// Planned and NeverSent: the schedule's requests and those the paced
	// closed loop (a closed loop on the schedule) never sent; for a tool's
	// file, the tool's own.
	Planned   int64     `json:"planned"`
	NeverSent int64     `json:"never_sent"`
	Tools     []ToolP99 `json:"tools"`
	Notes     []string  `json:"notes"`
	// OpenP99RangeNs is [lo, hi] of the open loop's p99 over the models
	// that fit as well, when the file leaves the stall count (hey's and
	// ab's rounding) or the stall's length (fortio's calls timed from
	// their send) free; empty otherwise.
	OpenP99RangeNs []int64 `json:"open_p99_range_ns,omitempty"`
	// OpenP99RangeWhy says over what the range runs, in words: "over the
	// stall counts and lengths the printout leaves free", "over every rate
	// that explains the file (…)".
	OpenP99RangeWhy string `json:"open_p99_range_why,omitempty"`
	// AtModelRate, when the file gives no rate, says that the requests
	// never sent and each tool's p99 are the model's at the rate it runs
	// at, which the file does not give ("" otherwise).
	AtModelRate string `json:"at_model_rate,omitempty"`
	// Assumes, when the file does not say how its tool ran and the fit
	// reads it one way only, is the condition what the file hid holds
	// under ("if hey ran without -q, …"; "" otherwise).
	Assumes string `json:"assumes,omitempty"`
}

// Result is a fit.
type Result struct {
	File   string     `json:"file"`
	Format string     `json:"format"`
	Source string     `json:"source"`
	Query  string     `json:"query"`
	Config sim.Config `json:"-"`
	Params []Param    `json:"params"`
	// Residuals: every number the file holds, measured beside fitted.
	Residuals []Residual `json:"residuals"`
	// Worst is the largest absolute relative difference of a headline
	// number; Explained says it is within 5 %.
	Worst     float64 `json:"worst"`
	Explained bool    `json:"explained"`
	// RoundingNs is the printout's unit when a residual is within it
	// (Residual.Rounded), else 0.
	RoundingNs int64  `json:"rounding_ns,omitempty"`
	Why        string `json:"why,omitempty"`
	// Ambiguous lists the parameters the file leaves free.
	Ambiguous []Free `json:"ambiguous"`
	// Offered, for a file no stall model explains, is the same stalls
	// with a spread of service times, when one fits it better (nil
	// otherwise).
	Offered     *Offer   `json:"offered,omitempty"`
	Hidden      Hidden   `json:"hidden"`
	Evaluations int      `json:"evaluations"`
	Notes       []string `json:"notes"`
	// pending: a fit with NoTools, until Tools runs the rest.
	pending *pendingTools
	// tool is the tool whose output the file is ("" for a recording).
	tool string
}

// maxStallsTried bounds the stall counts tried for a spectrum without
// times.
const maxStallsTried = 24

// Tolerance is the largest headline difference a fit explains the file
// within.
const Tolerance = 0.05

// Options pin parameters the file leaves free (a zero field is not pinned).
type Options struct {
	Rate sim.Rate
	// NoTools leaves out what each other tool would have printed (the
	// round-trip test's 400 fits need the rest only).
	NoTools bool
	// Abort, when set, is asked before each of the fit's runs of the
	// model, and the fit stops with ErrAborted when it says true (the
	// page's worker warms up with a fit it gives up for a reader's file).
	Abort func() bool
}

// ErrAborted is a fit that Options.Abort stopped.
var ErrAborted = errors.New("fit: aborted")

// aborted is the panic that unwinds an aborted fit to Fit.
type aborted struct{}

// Fit reads a measured file and fits the deterministic model to it.
func Fit(name string, data []byte, opt Options) (res *Result, err error) {
	if opt.Abort != nil {
		defer func() {
			if x := recover(); x != nil {
				if _, ok := x.(aborted); !ok {
					panic(x)
				}
				res, err = nil, ErrAborted
			}
		}()
	}
	in, err := read(name, data)
	if err != nil {
		return nil, err
	}
	if len(in.obs) == 0 {
		return nil, fmt.Errorf("%s: the file holds no distribution", name)
	}
	srcs, err := sources(in)
	if err != nil {
		return nil, err
	}
	var best *scored
	var all []*scored
	for _, src := range srcs {
		r, err := fitCandidate(in, src, opt)
		if err != nil {
			if len(srcs) == 1 {
				return nil, err
			}
			continue
		}
		all = append(all, r)
		if better(r, best) {
			best = r
		}
	}
	if best != nil && srcs[0].cap > 0 {
		srcs, all, best = capEdges(in, srcs, all, best, opt)
	}
	if best == nil {
		return nil, fmt.Errorf("%s: no recording of the model reproduces the file", name)
	}
	if best.Explained {
		// The others that explain the file too: the file leaves the
		// source free among them, and the hidden numbers are the best's.
		var others []string
		caps := false // other caps of the same tool explain it
		for _, r := range all {
			if r != best && r.Explained {
				if best.otherCap(r) {
					caps = true
					continue
				}
				others = append(others, r.Source+" ("+r.Query+")")
			}
		}
		if len(others) > 0 {
			best.Ambiguous = append(best.Ambiguous, Free{Param: "source", Value: best.Source,
				Why: fmt.Sprintf("%s explain%s the file within %g %% too, with other hidden numbers: the file does not say which made it, and the ranges hold theirs", strings.Join(others, " and "), map[bool]string{true: "s", false: ""}[len(others) == 1], Tolerance*100)})
		}
		if len(others) > 0 || caps {
			best.widenOver(all)
		}
	}
	if a := in.Assumes; a != nil {
		// The file does not say how the tool ran, and the fit reads it
		// one way only: said in the headline, and why with the rest the
		// file leaves free.
		best.Hidden.Assumes = a.If
		best.Ambiguous = append(best.Ambiguous, Free{Param: "assumed", Value: best.Source, Why: a.Why})
	}
	if srcs[0].cap > 0 {
		var caps []string
		for _, s := range srcs {
			caps = append(caps, fmt.Sprintf("%d (%d stalls or one either side)", s.cap, s.stalls))
		}
		best.Notes = append(best.Notes, fmt.Sprintf("The file counts the arrivals its cap of virtual users skipped, not the cap (maxVusers): the caps its skipped requests and percentiles allow were fitted, and beside each that explains it the next until one does not: %s; %d fits best.", strings.Join(caps, ", "), best.Config.Conns))
	} else if srcs[0].duration > 0 {
		var ds, fit []string
		for _, d := range in.Durations {
			ds = append(ds, sim.FormatDuration(d))
		}
		for _, r := range all {
			if r.Explained && !slices.Contains(fit, sim.FormatDuration(r.Config.Duration)) {
				fit = append(fit, sim.FormatDuration(r.Config.Duration))
			}
		}
		explained := "none explains it"
		if len(fit) > 0 {
			explained = strings.Join(fit, ", ") + " explain it"
		}
		best.Notes = append(best.Notes, fmt.Sprintf("The file's times are whole seconds, which do not fix the run's length: each whole second they allow was fitted (%s); %s, and %s fits best.", strings.Join(ds, ", "), explained, sim.FormatDuration(best.Config.Duration)))
	} else if unsaid := srcs[0].unsaid(); len(srcs) > 1 && unsaid != "" {
		best.Notes = append(best.Notes, unsaid+" were both fitted, and "+best.Source+" fits best.")
	} else if len(srcs) > 1 {
		best.Notes = append(best.Notes, "The file's name does not say which recording it holds: each was tried, and "+best.Source+" fits best.")
	}
	if err := best.hide(best.in, opt.NoTools); err != nil {
		return nil, err
	}
	return &best.Result, nil
}

type scored struct {
	Result
	score float64
	// in is the input as this fit read it (source.at); byDuration: it ran
	// one of the lengths the file allows but does not fix.
	in         *input
	byDuration bool
}

// fitCandidate fits one candidate source, reading the file as it does
// (source.at: at its run length, when the file does not fix one).
func fitCandidate(in *input, src source, opt Options) (*scored, error) {
	sin := src.at(in)
	r, err := fitSource(sin, src, opt)
	if err != nil {
		return nil, err
	}
	r.in, r.byDuration = sin, src.duration > 0
	return r, nil
}

// otherCap reports whether r fits the file as best's tool at another cap
// of virtual users (capped) or another run length (withDurations): the
// only candidates that share a source.
func (best *scored) otherCap(r *scored) bool {
	return r != best && best.tool != "" && r.Source == best.Source
}

// sharedWords are what the ranges over best's candidates of one source
// say of them: over, the candidates that explain the file; differ and
// also, a parameter they leave free or widen (widenFree).
func (best *scored) sharedWords() (over, differ, also string) {
	if best.byDuration {
		return "the run lengths that explain the file, whose whole-second times do not fix it",
			"the run lengths that explain the file differ in it, of the whole seconds fitted (the notes say which): its times are whole seconds, which do not fix the run's length",
			"; and over the run lengths that explain the file (its whole-second times do not fix it)"
	}
	return "the caps of virtual users that explain the file, which counts what its cap skipped but not the cap",
		"the caps of virtual users that explain the file differ in it, of those fitted (the notes say which): the file counts the arrivals its cap skipped, not the cap (maxVusers)",
		"; and over the caps of virtual users that explain the file (it counts what its cap skipped, not the cap)"
}

// better reports whether fit r beats best (nil: none yet): one that
// explains the file beats one that does not, whatever their scores (a
// score counts a number within the printout's rounding as missed, which
// the verdict excuses); then the lower score.
func better(r, best *scored) bool {
	if best == nil || r.Explained != best.Explained {
		return best == nil || r.Explained
	}
	return r.score < best.score-1e-12
}

// capEdges fits, for a file fitted at the caps of virtual users it
// allows (capped), the caps beside each that explains it, until the caps
// that explain it have an unexplained or impossible neighbour on each
// side (or maxCaps more were tried): the range stated is then not cut by
// which caps happened to be tried.
func capEdges(in *input, srcs []source, all []*scored, best *scored, opt Options) ([]source, []*scored, *scored) {
	bySrc := map[int]source{}
	done := map[int]bool{}
	for _, s := range srcs {
		bySrc[s.cap] = s
		done[s.cap] = true
	}
	for extra := 0; extra < maxCaps; {
		var next []source
		for _, r := range all {
			if !r.Explained {
				continue
			}
			c := r.Config.Conns
			base, ok := bySrc[c]
			if !ok {
				continue // not one of the caps' fits
			}
			for _, d := range []int{-1, 1} {
				if cc := c + d; cc >= 1 && cc <= sim.MaxConns && !done[cc] {
					done[cc] = true
					s := base
					s.cap = cc
					bySrc[cc] = s
					next = append(next, s)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		for _, s := range next {
			extra++
			srcs = append(srcs, s)
			r, err := fitCandidate(in, s, opt)
			if err != nil {
				continue
			}
			all = append(all, r)
			if better(r, best) {
				best = r
			}
		}
	}
	slices.SortStableFunc(srcs, func(a, b source) int { return cmp.Compare(a.cap, b.cap) })
	return srcs, all, best
}

// widenOver widens the best fit's ranges to hold every other source that
// explains the file: the file does not say which recording it holds, so
// a hidden number is known only over all of them. The open loop's p99
// becomes a range over each source's (its own range, or its model's), and
// the rate, the period and the first stall a range over each source's
// value or range, when they differ by more than 1 %.
func (best *scored) widenOver(all []*scored) {
	rg := best.Hidden.OpenP99RangeNs
	if len(rg) == 0 {
		rg = widenOpen(nil, best.Config)
	}
	for _, r := range all {
		if r == best || !r.Explained {
			continue
		}
		if o := r.Hidden.OpenP99RangeNs; len(o) == 2 {
			rg = widenOpen(widenOpen(rg, r.Config), best.Config)
			rg[0], rg[1] = min(rg[0], o[0]), max(rg[1], o[1])
		} else {
			rg = widenOpen(rg, r.Config)
		}
		ps := []string{"rate", "every", "first"}
		switch {
		case best.otherCap(r) && best.byDuration:
			ps = []string{"duration", "rate", "every", "first", "stall", "service"}
		case best.otherCap(r):
			ps = append(ps, "conns", "stall")
		}
		for _, p := range ps {
			best.widenFree(p, r)
		}
	}
	over := "the recordings that explain the file, which does not say which it holds"
	if slices.ContainsFunc(all, func(r *scored) bool { return r.Explained && best.otherCap(r) }) {
		over, _, _ = best.sharedWords()
	}
	if len(rg) == 2 && float64(rg[1]-rg[0]) > 0.01*float64(rg[1]) {
		if len(best.Hidden.OpenP99RangeNs) != 2 {
			best.Hidden.OpenP99RangeWhy = "over " + over
		} else if !strings.Contains(best.Hidden.OpenP99RangeWhy, over) {
			best.Hidden.OpenP99RangeWhy += ", and over " + over
		}
		best.Hidden.OpenP99RangeNs = rg
	}
}

// widenFree widens the range of parameter p (rate, every or first) to
// hold r's value and range; a parameter the best fit fixed becomes free
// when r's differs by more than 1 %.
func (best *scored) widenFree(p string, r *scored) {
	val := func(c sim.Config) int64 {
		switch p {
		case "rate":
			return int64(c.Rate)
		case "every":
			return c.Every
		case "conns":
			return int64(c.Conns)
		case "stall":
			return c.Stall
		case "duration":
			return c.Duration
		case "service":
			return c.Service
		}
		return c.First
	}
	parse := func(s string) (int64, bool) {
		if s == "" {
			return 0, false
		}
		switch p {
		case "rate":
			v, err := sim.ParseRate(s)
			return int64(v), err == nil
		case "conns":
			v, err := strconv.ParseInt(s, 10, 64)
			return v, err == nil
		}
		d, err := time.ParseDuration(s)
		return int64(d), err == nil
	}
	format := func(v int64) string {
		switch p {
		case "rate":
			return sim.Rate(v).String()
		case "conns":
			return strconv.FormatInt(v, 10)
		}
		return sim.FormatDuration(v)
	}
	differ := "the recordings that explain the file differ in it, and the file does not say which it holds"
	over := "; and over the recordings that explain the file, which does not say which it holds"
	if best.otherCap(r) {
		_, differ, over = best.sharedWords()
	}
	mine, theirs := freeParam(best.Ambiguous, p), freeParam(r.Ambiguous, p)
	b, o := val(best.Config), val(r.Config)
	lo, hi := min(b, o), max(b, o)
	loOpen, hiOpen := false, false // no bound on that side
	for _, f := range []*Free{mine, theirs} {
		if f == nil {
			continue
		}
		if f.Lo == "" && f.Hi == "" {
			return // free with no bound: nothing to widen
		}
		if v, ok := parse(f.Lo); ok {
			lo = min(lo, v)
		} else {
			loOpen = true
		}
		if v, ok := parse(f.Hi); ok {
			hi = max(hi, v)
		} else {
			hiOpen = true
		}
	}
	if mine == nil && float64(hi-lo) <= 0.01*float64(max(hi, 1)) {
		return
	}
	if mine == nil {
		best.Ambiguous = append(best.Ambiguous, Free{Param: p, Value: format(b)})
		mine = &best.Ambiguous[len(best.Ambiguous)-1]
		mine.Why = differ
	} else if !strings.Contains(mine.Why, "that explain the file") {
		mine.Why += over
	}
	for i := range best.Params {
		if best.Params[i].Name == p {
			best.Params[i].How = "free"
		}
	}
	mine.Lo, mine.Hi = format(lo), format(hi)
	if loOpen {
		mine.Lo = ""
	}
	if hiOpen {
		mine.Hi = ""
	}
	if p == "first" && loOpen {
		mine.Lo = format(0)
	}
}

// freeParam returns the free parameter p of fs, or nil.
func freeParam(fs []Free, p string) *Free {
	for i := range fs {
		if fs[i].Param == p {
			return &fs[i]
		}
	}
	return nil
}

// fitSource fits one candidate source: the estimate, then a bounded
// coordinate search over the parameters the file determines.
func fitSource(in *input, src source, opt Options) (*scored, error) {
	g := estimate(in, src, opt.Rate, 0)
	// An open loop's spectrum without times shows K·J late samples: K
	// stalls of J, or 2K of J/2 (a rate twice as high) look alike but
	// for the steps. Each K up to maxStallsTried is tried.
	var kTried []guess
	var kMax int64
	if (src.tool == "" || src.timing() != 0) && byKind(in, src, sim.Closed) == nil && !in.obs[0].exact && g.cfg.Stall > 0 {
		_, n := tail(&in.obs[0], g.cfg.Service)
		if src.is(tools.BackToBack) || src.is(tools.FromSend) || src.is(tools.FromDue) {
			// wrk's corrected tail holds more samples than stalls, and
			// fortio's rows and vegeta's percentiles say how many replies
			// (or none), not how many stalls.
			n = maxStallsTried
		}
		kMax = min(n, maxStallsTried)
		if src.is(tools.FromDue) {
			kMax = max(kMax, 2*g.k) // the mean's count may pass 24
		}
		if src.stalls > 0 {
			// A cap of virtual users the file does not state, tried with
			// the stall count its skipped requests imply (capped), and one
			// either side.
			for k := max(src.stalls-1, 1); k <= src.stalls+1; k++ {
				kTried = append(kTried, estimate(in, src, opt.Rate, k))
			}
			kMax = 0
		} else if src.is(tools.FromSend) && in.Slow > 0 {
			// fortio's rows count the slow replies: each stall gives each
			// connection at most one (its call out as the stall began; the
			// calls after it leave once the server answers again), and
			// every stall at least one. The counts tried are those.
			// A locust summary's percentiles bracket them, slow…slowHi,
			// and its users, started together, share their slots: a stall
			// holds one reply of each.
			c := int64(max(in.Conns, 1))
			kHi := in.Slow
			if src.pacedUsers() {
				kHi = max(in.SlowHi/c, (in.Slow+c-1)/c)
				if g.cfg.Stall > 0 {
					kHi = min(kHi, max((in.Duration-1)/g.cfg.Stall, 1)) // the stalls fit in the run
				}
			}
			for k := (in.Slow + c - 1) / c; k <= min(kHi, maxStallsTried); k++ {
				kTried = append(kTried, estimate(in, src, opt.Rate, k))
			}
			kMax = 0
		} else if src.tool == "" || src.unit().Ns > 0 || fullKScan {
			for k := int64(1); k <= kMax; k++ {
				kTried = append(kTried, estimate(in, src, opt.Rate, k))
			}
		}
	}
	eval, evals := evaluator(in, src, opt.Abort)
	cfg := g.cfg
	score, rs := eval(cfg)
	if len(kTried) == 0 && kMax > 0 {
		// A tool's printout: its score falls with the stall count to one
		// sharp least value and rises after it (TestStallCountDescent holds
		// this search to trying every count), so the counts are tried
		// outwards from the estimate's own, each way until
		// kPatience counts in a row do no better than a best below kGood.
		kTried = descendK(kMax, g.k, func(k int64) float64 {
			s, _ := eval(estimate(in, src, opt.Rate, k).cfg)
			return s
		}, func(k int64) guess { return estimate(in, src, opt.Rate, k) })
	}
	unit := src.unit()
	var kScores []float64
	var kExplain []bool
	rsExplains := explains(rs, unit.Ns)
	for i := range kTried {
		gk := &kTried[i]
		s, rr := eval(gk.cfg)
		if gk.svc[1] > 0 && !src.pacedUsers() {
			// A scheduled tool's whole-unit stamps leave the service free
			// within a unit, but a backlog drains at 1/service, so the
			// service moves the tail as much as the stall count does:
			// each count is tried at nine services across the range, its
			// stall kept to the slowest reply (L + S).
			for j := int64(0); j <= 8; j++ {
				c := gk.cfg
				c.Service = gk.svc[0] + (gk.svc[1]-gk.svc[0])*j/8
				c.Stall = max(gk.cfg.Stall+gk.cfg.Service-c.Service, 0)
				if s2, rr2 := eval(c); s2 < s {
					gk.cfg, s, rr = c, s2, rr2
				}
			}
		}
		ex := explains(rr, unit.Ns)
		kScores, kExplain = append(kScores, s), append(kExplain, ex)
		if src.pacedUsers() && rsExplains {
			// The fewest stalls that explain the summary: its counts tried
			// all fit its percentiles, and a count past them reaches the
			// same requests only at a rate its stalls leave no time for.
			continue
		}
		// A count whose run explains the file (the client's own numbers
		// not held) comes before one that scores lower on them: a real
		// autocannon file's 5 ms p99.99, its client's own time under four
		// or five stalls' ten replies, scores lowest at seven stalls,
		// which put it at the stall.
		if ex && !rsExplains || ex == rsExplains && s < score {
			g, cfg, score, rs, rsExplains = *gk, gk.cfg, s, rr, ex
		}
	}
	var openRange []int64
	svcLo, svcHi := int64(-1), int64(-1) // the service's free range, when the rounding leaves it free
	if len(kTried) > 1 && unit.Ns > 0 && src.is(tools.BackToBack) {
		// hey's 0.1 ms and ab's whole ms leave the stall count to the
		// printout's rounding: the counts whose runs print the same
		// numbers as the best (each with the service time its requests
		// and duration give) fit as well, and the service is free between
		// theirs, the stall count between them.
		// A run's last request or two in flight at its end move the count
		// by one or two, which no real run holds to: scores within three
		// requests' share of the count tie.
		tol := 1e-9
		if in.Requests > 0 {
			tol += 3 / float64(in.Requests)
		}
		var tied []guess
		for i, gk := range kTried {
			// When the best explains the file, the counts that explain it
			// (explains: the verdict's rule) fit as well; a count that
			// only scores as low does not (its score may come of the
			// client's own numbers, which the rule leaves out).
			if rsExplains && kExplain[i] || !rsExplains && kScores[i] <= score+tol {
				tied = append(tied, gk)
			}
		}
		if len(tied) > 1 {
			lo, hi := tied[0].cfg.Service, tied[0].cfg.Service
			for _, gk := range tied {
				lo, hi = min(lo, gk.cfg.Service), max(hi, gk.cfg.Service)
			}
			// Each count's service carries the rounding of the slowest
			// reply it is solved with: K·(half a printed unit)/requests.
			if in.Requests > 0 {
				lo -= tied[len(tied)-1].k * unit.Ns / 2 / in.Requests
				hi += tied[len(tied)-1].k * unit.Ns / 2 / in.Requests
			}
			if float64(hi-lo) > 0.01*float64(cfg.Service) {
				svcLo, svcHi = lo, hi
				g.setFree("service", sim.FormatDuration(cfg.Service), sim.FormatDuration(lo), sim.FormatDuration(hi),
					fmt.Sprintf("%s prints to %s: %d to %d stalls, each with the service time the printed requests and duration give (requests·service + stalls·stall = duration), print the same numbers", src.tool,
						unit.Words, tied[0].k, tied[len(tied)-1].k))
				g.searched = slices.DeleteFunc(slices.Clone(g.searched), func(p string) bool { return p == "service" })
				// The period then follows the stall count: any that places
				// that many stalls in the run.
				g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == "every" })
				hi := sim.FormatDuration(cfg.Duration)
				if k := tied[0].k; k > 1 {
					hi = sim.FormatDuration(cfg.Duration / (k - 1))
				}
				lo := sim.FormatDuration(cfg.Stall)
				if tied[0].k == 1 {
					lo, hi = "", "" // one stall: any period, none included
				}
				g.setFree("every", sim.FormatDuration(cfg.Every), lo, hi,
					fmt.Sprintf("the printout holds no times, and %d to %d stalls fit as well: any period that places that many stalls in the run", tied[0].k, tied[len(tied)-1].k))
				// The open loop's p99 at the fitted rate over those counts.
				for _, gk := range tied {
					c := gk.cfg
					c.Rate = cfg.Rate
					openRange = widenOpen(openRange, c)
				}
			}
		}
	}
	if math.IsInf(score, 1) {
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("%s: the first estimate %s is not a valid query: %v", in.name, cfg.Query(), err)
		}
		return nil, fmt.Errorf("%s: the model could not regenerate %s for %s", in.name, src, cfg.Query())
	}
	var stallLo, stallHi int64 = -1, -1
	if (src.is(tools.FromSend) || g.svc[1] > 0) && cfg.Stall > 0 && in.obs[0].max > 0 {
		// fortio times each call from its send, and the slowest reply is
		// the stall plus a service only when a call left as the stall
		// began (the model's stalls at due instants, one connection).
		// Otherwise the call it times left up to a connection's interval
		// (conns/rate, and one more for fortio's stretched schedule) after
		// the stall began, or waited behind the others' calls (≤ 2·conns
		// services): the stall lies within [max − 2·conns·service, max −
		// service + (conns+1)/rate], and searched there (golden section).
		// A connection that takes a bucket's tokens (bombardier --rate)
		// idles up to the bucket's fill interval, waiting for its tick.
		M, S := in.obs[0].max, cfg.Service
		gap := max(int64(cfg.Conns+1)*sim.NewSchedule(cfg.Rate).Interval(1), src.fill(cfg))
		stallLo = max(M-2*int64(cfg.Conns)*S, 1)
		stallHi = M - S + gap
		if g.svc[1] > 0 {
			// locust's Max column is the slowest reply to the ms below,
			// and the service is free within g.svc.
			stallLo = max(M-2*int64(cfg.Conns)*g.svc[1], 1)
			stallHi = M + unit.Ns - g.svc[0] + gap
		}
		starts := []int64{cfg.First}
		if in.obs[0].exact && src.pacedUsers() {
			// A paced thread group's JTL: the stall began up to a thread's
			// period before the first send it held (the threads send
			// together), which the estimate takes as its start; the
			// stall's length is searched at five starts across that.
			P := sim.NewSchedule(cfg.Rate).Interval(1) * int64(cfg.Conns)
			for j := int64(1); j <= 4; j++ {
				if f := cfg.First - P*j/4; f >= 0 {
					starts = append(starts, f)
				}
			}
		}
		base := cfg
		for _, f := range starts {
			b := base
			b.First = f
			if c, s, rr := golden(b, "stall", stallLo, stallHi, eval); s < score {
				cfg, score, rs = c, s, rr
			}
		}
	}
	// The search: each determined parameter in turn, up and down by a
	// relative step that halves each round; fixed rounds, so a fit costs at
	// most 1 + rounds·2·params runs.
	const rounds = 4
	stepOf := 4e-3
	for r := 0; r < rounds && score > 0; r++ {
		for _, p := range g.searched {
			for _, sgn := range []float64{-1, 1} {
				c := cfg
				if !nudge(&c, p, sgn*stepOf) {
					continue
				}
				g.fix(&c)
				if s, rr := eval(c); s < score {
					cfg, score, rs = c, s, rr
				}
			}
		}
		stepOf /= 2
	}
	// The simplest of equally good values: each searched parameter rounded
	// to 3 significant digits (a rate to a whole number a second) is kept
	// when it fits no worse.
	for _, p := range append([]string{"rate"}, g.searched...) {
		if p == "rate" && (g.how["rate"] == "stated" || g.rateImplied || opt.Rate > 0) {
			continue // the file's or the reader's: kept as given
		}
		c := cfg
		if !round3(&c, p) {
			continue
		}
		g.fix(&c)
		if s, rr := eval(c); s <= score {
			cfg, score, rs = c, s, rr
		}
	}
	// First and every within an .hlog's bounds: golden-section search on
	// each in turn (the intervals' counts move linearly with a stall's
	// place, so the score is unimodal in each).
	if g.ranges != nil {
		for _, p := range []string{"first", "every"} {
			if p == "every" && cfg.Every == 0 {
				continue
			}
			rg := g.ranges[p]
			c, s, rr := golden(cfg, p, rg[0], rg[1], eval)
			if s <= score {
				cfg, score, rs = c, s, rr
			}
		}
		// The golden section finds a best place, but equally good places
		// need not lie together (the intervals' counts move in steps), so
		// the fit claims no more than the intervals' bounds: a parameter
		// whose bounds are wider than 1 % is free within them.
		for _, p := range []string{"every", "first"} {
			if p == "every" && cfg.Every == 0 {
				continue
			}
			rg := g.ranges[p]
			ref := float64(get(cfg, p))
			if p == "first" {
				ref = max(ref, float64(cfg.Every))
			}
			if float64(rg[1]-rg[0]) > 0.01*ref {
				lo, hi := span(rg[0], rg[1])
				g.setFree(p, sim.FormatDuration(get(cfg, p)), lo, hi,
					g.why+"; the value is where the intervals' counts fit best, but the fit claims no more than these bounds")
			}
		}
	}
	if stallLo > 0 && math.Abs(worstOf(rs).Diff) > Tolerance {
		// Not yet explained: where the stalls fall between the sends
		// (which the printout does not show, but its mean and slowest
		// replies feel) is tried at eight phases across a connection's
		// interval, the stall searched again at each, for the fitted
		// stall count and each other count tried (a count's best phase
		// can beat the best count's).
		cT := int64(cfg.Conns) * sim.NewSchedule(cfg.Rate).Interval(1)
		bases := []sim.Config{cfg}
		guesses := []guess{g}
		if g.svc[1] > 0 {
			// locust: the service free within whole milliseconds moves the
			// body's percentiles when users queue (u tasks sent together),
			// so eight services across its range are tried first; and the
			// counts are tried from the fewest up, the first that explains
			// the summary kept.
			bases, guesses = nil, nil
			for j := int64(0); j < 8; j++ {
				c := cfg
				c.Service = g.svc[0] + (g.svc[1]-g.svc[0])*(2*j+1)/16
				if s, rr := eval(c); s < score {
					cfg, score, rs = c, s, rr
				}
			}
			if !src.pacedUsers() {
				// A scheduled tool's whole-unit stamps (Artillery's): the
				// service that fitted best is a base of its own, its
				// stall searched again at each phase below.
				bases, guesses = []sim.Config{cfg}, []guess{g}
			}
		}
		for _, gk := range kTried {
			if g.svc[1] > 0 || gk.cfg.Query() != g.cfg.Query() {
				c := gk.cfg
				c.Stall = cfg.Stall
				if g.svc[1] == 0 {
					// The service the printout states (fortio's min), the
					// same for every count; a locust count's is its own
					// (with its rate, under 1/rate).
					c.Service = cfg.Service
				}
				bases = append(bases, c)
				guesses = append(guesses, gk)
			}
		}
		best := 0
		for i, base := range bases {
			for j := int64(0); j < 8; j++ {
				c := base
				c.First += j * cT / 8
				if c2, s, rr := golden(c, "stall", stallLo, stallHi, eval); s < score {
					cfg, score, rs, best = c2, s, rr, i
				}
			}
			if g.svc[1] > 0 && explains(rs, unit.Ns) {
				break
			}
		}
		if g.svc[1] > 0 && len(guesses) > 0 {
			g = guesses[best] // its service's range and its free first and period
		}
	}
	if src.is(tools.FromDue) && cfg.Stall > 0 && math.Abs(worstOf(rs).Diff) > Tolerance {
		// Not yet explained: where the stalls fall moves the tail's knee
		// (vegeta's t-digest places a percentile there by the order the
		// replies came in; oha's index ⌊p·n⌋ counts the replies the run
		// holds), and the report holds no times. Eight places of the
		// first stall across its free range are tried.
		span := cfg.Duration - cfg.Stall
		if cfg.Every > 0 && cfg.First+cfg.Every < cfg.Duration {
			span = cfg.Every
		}
		bases := []sim.Config{cfg}
		if in.RateHint > 0 && in.RateHint != cfg.Rate && opt.Rate == 0 {
			// The search may have moved the rate to make up for a place
			// it had wrong: the rate the requests give is tried again.
			c := cfg
			c.Rate = in.RateHint
			bases = append(bases, c)
		}
		for _, base := range bases {
			for j := int64(0); j < 8; j++ {
				c := base
				c.First = snapT(c, j*span/8)
				if s, rr := eval(c); s < score {
					cfg, score, rs = c, s, rr
				}
			}
		}
	}
	var svcTied []int64 // a scheduled tool's whole-unit stamps: the services of the stall counts that explain the file
	if stallLo > 0 && len(kTried) > 1 {
		// The stall counts that explain the printout as well (within the
		// tolerance, at the fitted service and stall) leave the period
		// free between theirs: any period that places that many stalls.
		kLo, kHi := g.k, g.k
		rLo, rHi := cfg.Rate, cfg.Rate
		var tied []sim.Config
		how := fmt.Sprintf("explain it within %g %%", Tolerance*100)
		for _, gk := range kTried {
			c := gk.cfg
			if gk.svc[1] == 0 || src.pacedUsers() {
				c.Service, c.Stall = cfg.Service, cfg.Stall
			} // else a scheduled tool's whole-unit stamps: each count at the service and stall it fitted best
			// locust's counts tried are those its percentiles allow (a
			// printed percentile slow or fast bounds the slow replies,
			// one a user a stall); which slow reply takes which value
			// follows where each stall began after a send, which the
			// summary does not show and the model's even period cannot
			// place freely: each count it allows is kept.
			if _, rr := eval(c); src.pacedUsers() || explains(rr, unit.Ns) {
				if gk.svc[1] > 0 && !src.pacedUsers() {
					svcTied = append(svcTied, c.Service)
				}
				kLo, kHi = min(kLo, gk.k), max(kHi, gk.k)
				rLo, rHi = min(rLo, c.Rate), max(rHi, c.Rate)
				if src.pacedUsers() {
					// The rate the requests give for this count, over the
					// stall's range, to within a request a user a stall
					// (a user's slot cut short at each) and the users'
					// tasks at the run's ends: requests = rate·(duration −
					// K·stall) + K·users ± (K·users + users + 1).
					k, u := float64(gk.k), float64(c.Conns)
					n, D := float64(in.Requests), float64(c.Duration)
					e := k*u + u + 1
					if dLo, dHi := D-k*float64(stallLo), D-k*float64(stallHi); dHi > 0 {
						rLo = min(rLo, sim.Rate(math.Floor(1e12*(n-k*u-e)/dLo)))
						rHi = max(rHi, sim.Rate(math.Ceil(1e12*(n-k*u+e)/dHi)))
					}
				}
				tied = append(tied, c)
			}
		}
		if !src.pacedUsers() && len(tied) > 0 {
			// The open loop's p99 grows with the stall count and the
			// stall: over the fewest and the most stalls that explain the
			// file, each at both ends of the stall's range (the real
			// fortio printouts of five stalls, explained by five to ten,
			// had it at the fitted seven alone, above the truth:
			// TestRealPrintouts).
			for _, c := range []sim.Config{tied[0], tied[len(tied)-1]} {
				for _, L := range []int64{stallLo, stallHi} {
					c.Stall = L
					openRange = widenOpen(openRange, c)
				}
			}
		}
		if src.pacedUsers() {
			how = fmt.Sprintf("the percentile table allows %d to %d slow replies, one a user a stall", in.Slow, in.SlowHi)
		}
		if src.pacedUsers() && opt.Rate == 0 && float64(rHi-rLo) > 0.01*float64(cfg.Rate) {
			// Each count has its own rate (the requests less the slots
			// its stalls covered): the rate is free between theirs, and
			// so is the open loop's p99.
			g.setFree("rate", cfg.Rate.String(), rLo.String(), rHi.String(),
				fmt.Sprintf(src.tool+"'s summary prints the rate it reached, not the one it was paced at: %d to %d stalls, each with the rate the requests give (requests = rate·(duration − stalls·stall) + stalls·users), fit it: %s", kLo, kHi, how))
			g.searched = slices.DeleteFunc(slices.Clone(g.searched), func(p string) bool { return p == "rate" })
			for _, c := range tied {
				openRange = widenOpen(openRange, c)
			}
			if g.svc[1] > 0 && len(tied) > 0 {
				// And over the service's range at the fewest and the
				// most stalls (the p99 grows with each).
				for _, c := range []sim.Config{tied[0], tied[len(tied)-1]} {
					for _, S := range g.svc {
						c.Service = S
						openRange = widenOpen(openRange, c)
					}
				}
			}
		}
		if kLo < kHi {
			lo, hi := sim.FormatDuration(min(stallLo, cfg.Stall)), sim.FormatDuration(cfg.Duration/max(kLo-1, 1))
			if kLo == 1 {
				lo, hi = "", "" // one stall: any period, none included
			}
			g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == "every" })
			g.setFree("every", sim.FormatDuration(cfg.Every), lo, hi,
				fmt.Sprintf("the printout holds no times, and %d to %d stalls fit it (%s): any period that places that many stalls in the run", kLo, kHi, how))
			// And any first stall that leaves room for the fewest after it.
			g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == "first" })
			_, fhi := span(0, max(cfg.Duration-(kLo-1)*min(stallLo, cfg.Stall), 0))
			g.setFree("first", sim.FormatDuration(cfg.First), "0s", fhi,
				fmt.Sprintf("the printout holds no times, and %d to %d stalls fit it: any first stall that leaves room for the fewest after it", kLo, kHi))
		}
	}
	openWhy := "over the stall counts and lengths the file leaves free"
	var counts []countFit // the counts that explain a tool's printout (countSpan)
	if src.tool != "" && src.is(tools.BackToBack) && len(kTried) > 1 && stallLo < 0 && svcLo < 0 && !src.pacedUsers() && !in.obs[0].exact && cfg.Stall > 0 {
		// Beyond the counts tried, up to as many as fit in the run (each
		// longer than its stall), at most four times maxStallsTried.
		kPhys := min(max((cfg.Duration-1)/cfg.Stall, 1), 4*maxStallsTried)
		counts = countSpan(in, src, g, cfg, rs, eval, unit.Ns, opt.Rate, max(kMax, kPhys))
		if len(counts) > 0 && !explains(rs, unit.Ns) {
			// The fitted count does not explain the file and another
			// does: the best of those is the fit.
			b := counts[0]
			for _, f := range counts[1:] {
				if f.score < b.score {
					b = f
				}
			}
			g, cfg, score, rs = b.g, b.cfg, b.score, b.rs
			if len(counts) == 1 {
				spanCounts(&g, cfg, counts, src.tool) // its ranges at its stall
			}
		}
		if len(counts) > 1 {
			spanCounts(&g, cfg, counts, src.tool)
			for _, f := range []countFit{counts[0], counts[len(counts)-1]} {
				c := f.cfg
				c.Rate = cfg.Rate
				openRange = widenOpen(openRange, c)
			}
			openWhy = fmt.Sprintf("over the %d to %d stalls that explain the file (it holds no times)", counts[0].g.k, counts[len(counts)-1].g.k)
		}
	}
	if len(kTried) > 1 && src.tool == "" && opt.Rate == 0 && !g.rateUnknown && rateFollowsK(kTried) {
		// A spectrum without times, whose rate its staircase gives for
		// each stall count: the counts and rates are sampled, and every
		// model that explains the file widens the ranges (sampleStalls).
		var or []int64
		g, cfg, score, rs, or = sampleSpectrum(in, src, g, kTried, cfg, score, rs, eval, unit.Ns)
		if or != nil {
			openRange = or
			openWhy = "over the stall counts and rates that explain the file, each sampled (the file does not tell them apart)"
		}
	}
	var rateLo, rateHi sim.Rate
	var sl *slotSpan
	if g.rateUnknown && opt.Rate == 0 && cfg.Stall > 0 && src.tool == "" && len(src.kinds) == 1 && src.kinds[0] == sim.Paced {
		// A paced client's file without its rate: the stall is the
		// slowest reply less a service plus up to a slot (slotSpan).
		sl = newSlotSpan(&in.obs[0], cfg.Service)
	}
	if g.rateUnknown && opt.Rate == 0 && cfg.Stall > 0 {
		// The file shows no rate: the open loop's p99 over every rate
		// that explains it, not at the one the fit took.
		var rg []int64
		rateLo, rateHi, rg = rateSpan(cfg, &g, eval, unit.Ns, sl)
		if len(rg) == 2 && len(counts) > 1 {
			// And over the fewest and the most stalls that explain it.
			for _, f := range []countFit{counts[0], counts[len(counts)-1]} {
				fg := f.g
				c := f.cfg
				if lo, hi, r := rateSpan(c, &fg, eval, unit.Ns, nil); len(r) == 2 {
					rateLo, rateHi = min(rateLo, lo), max(rateHi, hi)
					rg = []int64{min(rg[0], r[0]), max(rg[1], r[1])}
				}
			}
		}
		if len(rg) == 2 && sl != nil {
			sl.free(&g, cfg)
		}
		if len(rg) == 2 {
			openRange, openWhy = rg, fmt.Sprintf("over every rate that fits the file as well as the model's, up to %s, and sends the open loop %d requests or more (a p99 of fewer is their largest): the file records none", perSecond(rateHi), minOpenRequests)
			if len(counts) > 1 {
				openWhy = fmt.Sprintf("over the %d to %d stalls that explain the file (it holds no times) and every rate that fits it as well, up to %s, that sends the open loop %d requests or more (a p99 of fewer is their largest): the file records none", counts[0].g.k, counts[len(counts)-1].g.k, perSecond(rateHi), minOpenRequests)
			}
			g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == "rate" || f.Param == "duration" })
			g.setFree("rate", cfg.Rate.String(), "", rateHi.String(),
				fmt.Sprintf("the file records no due times (reply − send only), so no rate: every rate up to %s %s (tried down to %s; a lower one spreads the same requests and stalls over a longer run). The model runs at %s; give the rate as rate=R",
					perSecond(rateHi), asWell(explains(rs, unit.Ns)), perSecond(rateLo), perSecond(cfg.Rate)))
			if g.countN > 0 {
				// The run's length is the count's over the rate: free with
				// it, and the stalls' places with the run.
				dLo := g.countN * sim.NewSchedule(rateHi).Interval(1)
				g.setFree("duration", sim.FormatDuration(cfg.Duration), sim.FormatDuration(dLo), "",
					"the count over the rate, which the file does not give: from the count at the highest rate on")
				for i := range g.free {
					switch f := &g.free[i]; f.Param {
					case "every", "first":
						f.Hi = ""
						f.Why += "; and the run's length with the rate, which the file does not give: no upper bound"
					}
				}
			}
		}
	}
	if opt.Rate > 0 && cfg.Stall > 0 && src.tool == "" && len(src.kinds) == 1 && src.kinds[0] == sim.Paced && !in.obs[0].exact {
		// A paced client's file at a rate given: the slot is known, and
		// the stall spans up to it (slotSpan.freeAtRate).
		if s := newSlotSpan(&in.obs[0], cfg.Service); s != nil {
			s.freeAtRate(&g, cfg)
		}
	}
	res := &scored{score: score}
	res.File, res.Format, res.Source, res.tool = in.name, string(in.format), src.String(), src.tool
	res.Config, res.Query = cfg, cfg.Query()
	res.Residuals = rs
	res.Evaluations = *evals
	if unit.Ns > 0 && src.is(tools.BackToBack) && in.obs[0].max > 0 {
		// The stall is the slowest reply less a service (conns of them
		// behind the others' on a closed loop's connections), both known
		// to the printout's rounding: free when that spans more than 1 %.
		slo, shi := cfg.Service, cfg.Service
		if svcLo >= 0 {
			slo, shi = svcLo, svcHi
		}
		M := in.obs[0].max
		if in.obs[0].exact {
			// A file that lists every request: the stalls' slow replies'
			// median when the slowest is a hiccup's (isHiccup).
			if m := slowMedian(&in.obs[0], cfg.Service+cfg.Stall/2); isHiccup(M, m) {
				M = m
			}
		}
		if c := int64(cfg.Conns); src.is(tools.BackToBack) && c > 1 {
			slo, shi = c*slo, c*shi // behind the others' requests, as estimate has it
		}
		why := fmt.Sprintf("the slowest reply less the service: %s prints it to %s", src.tool, unit.Words)
		if src.is(tools.BackToBack) && cfg.Conns > 1 {
			why = fmt.Sprintf("the slowest reply less %d services (its request waited behind the other %d connections' on the one worker): %s prints it to %s", cfg.Conns, cfg.Conns-1, src.tool, unit.Words)
		}
		half := unit.Ns / 2
		if unit.Stamped {
			half = unit.Ns // two truncated stamps: within a unit either way
			why += ", the difference of two stamps, each truncated to it"
		}
		lo, hi := max(M-half-shi, 0), M+half-slo
		lo, hi = min(lo, cfg.Stall), max(hi, cfg.Stall) // the search's own, past a hiccup's pull
		if float64(hi-lo) > 0.01*float64(cfg.Stall) {
			g.setFree("stall", sim.FormatDuration(cfg.Stall), sim.FormatDuration(lo), sim.FormatDuration(hi),
				why)
		}
	}
	if stallLo > 0 && float64(stallHi-stallLo) > 0.01*float64(cfg.Stall) && !in.obs[0].exact {
		g.setFree("stall", sim.FormatDuration(cfg.Stall), sim.FormatDuration(stallLo), sim.FormatDuration(stallHi),
			fmt.Sprintf("%s times each call from its send, and the printout holds no times: the slowest reply is the stall less the time from the stall's start to the send of the call it timed (up to a connection's interval, (conns+1)/rate), plus up to 2·conns services of queueing", src.tool))
		// The open loop's p99 over the stall's range (it grows with the
		// stall).
		for _, L := range []int64{stallLo, stallHi} {
			c := cfg
			c.Stall = L
			openRange = widenOpen(openRange, c)
		}
	}
	if g.svc[1] > 0 && float64(g.svc[1]-g.svc[0]) > 0.05*float64(cfg.Service) {
		// locust's whole milliseconds: the service is free within them,
		// and the open loop's p99 with it (a backlog drains at 1/service).
		svc := g.svc
		if !src.pacedUsers() {
			// A scheduled tool's whole-unit stamps: of the range the
			// stamps leave, the services with which the fitted model (its
			// stalls held) explains the file as well. A service near
			// 1/rate would keep a backlog for seconds after each stall: a
			// file explained only at small services does not leave it
			// free, nor the open loop's p99 it would give (a real
			// Artillery report's range reached 722 ms for a p99 of 95).
			// Each service is tried with its own best stall (the slowest
			// reply is the stall plus a service), at the fitted stall
			// count; and each other count that explains the file brings
			// the service it fitted best.
			svc = [2]int64{cfg.Service, cfg.Service}
			for _, S := range svcTied {
				svc = [2]int64{min(svc[0], S), max(svc[1], S)}
			}
			for j := int64(0); j <= 8; j++ {
				c := cfg
				c.Service = g.svc[0] + (g.svc[1]-g.svc[0])*j/8
				var rr []Residual
				if stallLo > 0 {
					c, _, rr = golden(c, "stall", stallLo, stallHi, eval)
				} else {
					_, rr = eval(c)
				}
				if explains(rr, unit.Ns) {
					svc = [2]int64{min(svc[0], c.Service), max(svc[1], c.Service)}
				}
			}
		}
		// The service is stated free over all the stamps leave it (which
		// services explain the file also depends on where the stalls fell,
		// which the file does not show); the open loop's p99 over those
		// that explain it.
		g.setFree("service", sim.FormatDuration(cfg.Service), sim.FormatDuration(g.svc[0]), sim.FormatDuration(g.svc[1]),
			src.unit().ServiceFree)
		if in.obs[0].exact {
			// A file of every request's time: no stall count left free,
			// so the range is the services'.
			openWhy = addWhy(openRange, openWhy, "over every service that explains the file")
		}
		for _, S := range svc {
			c := cfg
			c.Service = S
			openRange = widenOpen(widenOpen(openRange, cfg), c)
		}
	}
	if in.obs[0].exact && src.pacedUsers() && cfg.Stall > 0 {
		// A paced thread group's JTL (jmeter-ctt): its threads send
		// together, a period apart, and a stall that began anywhere between
		// the last send it spared and the first it held holds the same
		// sends. The fit compares the file's distribution, which a stall
		// moved by one send's gap leaves as it was, so neither its start
		// nor its end is fixed to the stamps' ms. Each
		// stall length is tried at first places across two gaps either way
		// of the best's, and at those that hold its start or its end, and
		// kept while one of them moves no number past the best's worst.
		w := max(worstMiss(rs, unit.Ns), 0.01)
		period := sim.NewSchedule(cfg.Rate).Interval(1) * int64(cfg.Conns) // a thread's, the threads sending together
		gap := period + unit.Ns
		firsts := map[int64][2]int64{cfg.Stall: {cfg.First, cfg.First}} // a kept stall's firsts, least and most
		ok := func(x int64) bool {
			fits := false
			var tries []int64
			for j := int64(0); j <= 4; j++ {
				tries = append(tries, cfg.First+(cfg.Stall-x)*j/4)
			}
			for k := int64(-8); k <= 8; k++ {
				tries = append(tries, cfg.First+gap*k/4)
			}
			for _, f := range tries {
				c := cfg
				c.Stall, c.First = x, f
				if c.First < 0 || c.Every > 0 && c.Every <= c.Stall {
					continue
				}
				if _, rr := eval(c); rr != nil && worstMiss(rr, unit.Ns) <= w {
					fits = true
					had, seen := firsts[x]
					if !seen {
						had = [2]int64{f, f}
					}
					firsts[x] = [2]int64{min(had[0], f), max(had[1], f)}
				}
			}
			return fits
		}
		sLo, sHi, _ := spanOf(cfg.Stall, max(cfg.Stall-gap, 1), cfg.Stall+gap, false, ok)
		// Whatever the search finds, the slowest reply M (the stalls'
		// median slow reply when M is a hiccup's) bounds the stall: a
		// stall held the reply sent first into it, sent at most a period
		// after it began, and answered a service or so after it ended,
		// behind at most the other threads' requests; M is within a unit
		// of that reply's time either way. The search holds (first, every)
		// to one lattice, and a file with several stalls can place each a
		// little apart: the range is the bound's wherever it is wider.
		M := in.obs[0].max
		if m := slowMedian(&in.obs[0], cfg.Service+cfg.Stall/2); isHiccup(M, m) {
			M = m
		}
		svcLo, svcHi := cfg.Service, cfg.Service
		if g.svc[1] > 0 {
			svcLo, svcHi = g.svc[0], g.svc[1]
		}
		bLo := max(M-unit.Ns-int64(cfg.Conns+1)*svcHi, 1)
		bHi := M + unit.Ns + period - svcLo
		lo, hi := min(sLo, bLo), max(sHi, bHi)
		end := cfg.First + cfg.Stall
		for _, x := range []int64{lo, hi} {
			if _, had := firsts[x]; !had {
				firsts[x] = [2]int64{max(end-x, 0), max(end-x, 0)} // its end held
			}
		}
		if float64(hi-lo) > 0.01*float64(cfg.Stall) {
			why := fmt.Sprintf("%s's threads send together, %s apart, so a stall that began anywhere between the last send it spared and the first it held, and ended with the slowest reply, holds the same sends: the slowest reply of a stall, %s (to the %s), bounds it from %s (less a unit and a service for it and each thread's) to %s (plus a unit and a period), and the model explains the file from %s to %s",
				src.tool, units.Duration(period), units.Duration(M), unit.Words, units.Duration(bLo), units.Duration(bHi), units.Duration(sLo), units.Duration(sHi))
			g.setFree("stall", sim.FormatDuration(cfg.Stall), sim.FormatDuration(lo), sim.FormatDuration(hi), why)
			fLo, fHi := cfg.First, cfg.First
			for _, f := range firsts {
				fLo, fHi = min(fLo, f[0]), max(fHi, f[1])
			}
			g.setFree("first", sim.FormatDuration(cfg.First), sim.FormatDuration(fLo), sim.FormatDuration(fHi),
				"where the stall began, with its length (above): between the last send it spared and the first it held")
			openWhy = addWhy(openRange, openWhy, "over every stall the file's times leave free")
			if len(openRange) == 0 {
				openRange = widenOpen(openRange, cfg)
			}
			for _, x := range []int64{lo, hi} {
				c := cfg
				c.Stall, c.First = x, firsts[x][0]
				if c.Every > 0 && c.Every <= c.Stall {
					continue
				}
				openRange = widenOpen(openRange, c)
			}
		}
	}
	if t := src.desc(); t != nil && opt.Rate == 0 && src.pacedUsers() {
		// A thread group's timer paces each thread at a whole number of
		// milliseconds: every rate whose period rounds to the same one
		// sends the same requests, and the file cannot tell them apart.
		if lo, hi := t.SameRates(cfg); float64(hi-lo) > 0.001*float64(cfg.Rate) {
			g.setFree("rate", cfg.Rate.String(), lo.String(), hi.String(),
				fmt.Sprintf("%s paces each thread at a whole number of milliseconds (%s): every rate from %s to %s gives that period and the same run", src.tool,
					units.Duration(sim.NewSchedule(cfg.Rate).Interval(1)*int64(cfg.Conns)), perSecond(lo), perSecond(hi)))
			openWhy = addWhy(openRange, openWhy, "over every rate that gives its threads' period")
			base := []sim.Config{cfg}
			if f := freeParam(g.free, "stall"); f != nil {
				if lo, hi, err := f.DurationSpan(); err == nil {
					for _, x := range []int64{lo, hi} {
						c := cfg
						c.Stall, c.First = x, cfg.First+cfg.Stall-x
						base = append(base, c)
					}
				}
			}
			if len(openRange) == 0 {
				openRange = widenOpen(openRange, cfg)
			}
			for _, b := range base {
				for _, r := range []sim.Rate{lo, hi} {
					b.Rate = r
					openRange = widenOpen(openRange, b)
				}
			}
		}
	}
	if w := worstMiss(rs, unit.Ns); w > 0.01 && w <= Tolerance && cfg.Stall > 0 {
		// Explained within the bound, not to the digit: the stall and the
		// service are stated over every value that explains the file as
		// well (the rest of the model held), and the open loop's p99 over
		// them (a real wrk2 printout's 101.9 ms stood for a 100 ms stall,
		// its open p99 2 % off as one value; bombardier --rate's
		// percentiles, which a bucket's ticks give a few values, were
		// explained by a service of 748 µs for 1.114 ms).
		spanned, had := false, len(openRange) == 2
		// No request took less than the service: the file's fastest
		// (its least value, to its printed unit) bounds it from above,
		// whatever the verdict leaves out as the client's own (fortio's
		// exact min of 111.9 µs let a service of 1.8 ms explain its
		// percentiles, and the open loop's p99 run to 805 ms).
		// A tool's printout only: an HdrHistogram file's values are its
		// buckets' lowest (0.1 % under), and a corrected recording holds
		// values below the service.
		svcHi := 2 * cfg.Service
		if m := minOf(&in.obs[0]); m >= 0 && src.tool != "" {
			svcHi = min(svcHi, max(m+unit.Ns, cfg.Service))
		}
		for _, p := range []struct {
			name       string
			far0, far1 int64
		}{{"stall", cfg.Stall - cfg.Stall/5, cfg.Stall + cfg.Stall/5}, {"service", cfg.Service / 2, svcHi}} {
			v := get(cfg, p.name)
			if v <= 0 || freeParam(g.free, p.name) != nil {
				continue
			}
			lo, hi, open := explainedSpan(cfg, p.name, p.far0, p.far1, p.name == "service", eval, unit.Ns)
			if float64(hi-lo) <= 0.01*float64(v) {
				continue
			}
			why := fmt.Sprintf("the model explains the file within %.1f %%, not exactly: every %s from %s to %s explains it within %g %% as well (the rest of the model held)",
				w*100, p.name, units.Duration(lo), units.Duration(hi), Tolerance*100)
			if open {
				why += "; the search went no further, and values beyond may explain it too"
			}
			g.setFree(p.name, sim.FormatDuration(v), sim.FormatDuration(lo), sim.FormatDuration(hi), why)
			if !spanned {
				openRange = widenOpen(openRange, cfg) // the fitted model's own, once
			}
			for _, x := range []int64{lo, hi} {
				c := cfg
				set(&c, p.name, x)
				openRange = widenOpen(openRange, c)
			}
			spanned = true
		}
		if spanned {
			why := fmt.Sprintf("every stall and service with which the model explains the file within %g %%", Tolerance*100)
			if had {
				openWhy += ", and over " + why
			} else {
				openWhy = "over " + why
			}
			res.Evaluations = *evals
		}
	}
	res.Ambiguous = g.free
	res.Hidden.OpenP99RangeNs = openRange
	if len(openRange) == 2 {
		res.Hidden.OpenP99RangeWhy = openWhy
	}
	if rateHi > 0 || freeParam(g.free, "rate") != nil {
		res.Hidden.AtModelRate = "at the model's " + perSecond(cfg.Rate) + ", a rate the file does not give"
		if f := freeParam(g.free, "rate"); f != nil && rateHi == 0 {
			lo, err1 := sim.ParseRate(f.Lo)
			hi, err2 := sim.ParseRate(f.Hi)
			if err1 == nil && err2 == nil {
				res.Hidden.AtModelRate = "at the model's " + perSecond(cfg.Rate) + ", one of the rates from " + perSecond(lo) + " to " + perSecond(hi) + " the file leaves"
			}
		}
	}
	if res.Ambiguous == nil {
		res.Ambiguous = []Free{}
	}
	for i := range res.Ambiguous {
		switch f := &res.Ambiguous[i]; f.Param {
		case "every":
			f.Value = sim.FormatDuration(cfg.Every)
		case "first":
			f.Value = sim.FormatDuration(cfg.First)
		}
		holdModel(&res.Ambiguous[i], cfg)
	}
	searched := map[string]bool{}
	for _, p := range g.searched {
		searched[p] = true
	}
	for _, p := range []struct {
		name, value string
	}{
		{"service", sim.FormatDuration(cfg.Service)},
		{"stall", sim.FormatDuration(cfg.Stall)},
		{"every", sim.FormatDuration(cfg.Every)},
		{"first", sim.FormatDuration(cfg.First)},
		{"rate", cfg.Rate.String()},
		{"duration", sim.FormatDuration(cfg.Duration)},
		{"conns", fmt.Sprint(cfg.Conns)},
	} {
		how := g.how[p.name]
		switch {
		case how == "" && searched[p.name]:
			how = "the closed forms' shape, then searched"
		case how == "":
			how = "the closed forms' shape"
		case how != "free" && searched[p.name]:
			how += ", then searched"
		}
		res.Params = append(res.Params, Param{p.name, p.value, how})
	}
	rounded := 0
	for i := range rs {
		r := &rs[i]
		if unit.Ns > 0 && r.latency() && math.Abs(r.Measured-r.Fitted) <= float64(unit.Ns) && r.Diff != 0 {
			// One printed unit apart: within the printout's rounding
			// (ab's 0 ms against 1 ms is −100 %), not a miss.
			r.Rounded = true
			rounded++
		}
	}
	res.Worst = worstMiss(rs, unit.Ns)
	if rounded > 0 {
		res.RoundingNs = unit.Ns
		res.Ambiguous = append(res.Ambiguous, Free{Param: "rounding", Value: sim.FormatDuration(unit.Ns),
			Why: fmt.Sprintf("%s prints to %s: %d printed numbers one unit or less from the model's are taken as within its rounding, whatever their difference in per cent", src.tool, unit.Words, rounded)})
	}
	res.Explained = res.Worst <= Tolerance
	if !res.Explained {
		w := worstOf(stallsOf(rs))
		res.Why = fmt.Sprintf("no stall model reproduces the file within %g %%: the fitted %s %s is %+.1f %% off", Tolerance*100, w.Dist, Words(w.Metric), w.Diff*100)
		var o *Offer
		if math.Abs(w.Diff) > 4*Tolerance {
			// Three more runs, for a miss a spread might mend (a fit off
			// by under 20 % is one of the stalls' shape more often; the
			// bench preset's .hgrm without its rate is 12 % off).
			o = offerSpread(cfg, &in.obs[0], eval)
		}
		switch {
		case o != nil && o.Worst < 0.9*res.Worst: // a tenth of the miss mended at least: not a tie in other digits
			res.Offered = o
			res.Why += fmt.Sprintf(". The same stalls with a spread of service times fit better: %s (worst number %+.1f %% off; the engine's %s service, its parameters from the file's percentiles, not searched)", o.Query, o.Diff*100, o.Dist)
		case math.Abs(w.Diff) > 4*Tolerance:
			res.Why += ". A tail that rises smoothly, not in a stall's steps, is a spread of service times: the engine's lognormal, exponential and uniform services were tried with the fitted stalls and fit no better"
		default:
			res.Why += ". A tail that rises smoothly, not in a stall's steps, is a spread of service times: try dist=lognormal, exponential or uniform (the fit tries them itself only for a miss over 20 %)"
		}
	}
	return res, nil
}

// Offer is a model with a spread of service times that fits a file no
// stall model explains better than the fitted one: its query, the
// distribution, and its worst headline difference.
type Offer struct {
	Query string  `json:"query"`
	Dist  string  `json:"dist"`
	Worst float64 `json:"worst"`
	Diff  float64 `json:"diff"` // the worst difference, signed
}

// offerSpread tries the engine's service distributions with the fitted
// stalls, rate and connections, each with its parameters from the file's
// percentiles (the median reply as the lognormal's median, its 95th a
// little past the p90, or twice the median; the exponential's median the
// file's; the uniform from the min to twice the median less the min), and
// returns the best, or nil when none runs. Three runs, not a search.
func offerSpread(fitted sim.Config, o *obs, eval evalFunc) *Offer {
	S := fitted.Service
	p50, p90 := o.p[0], o.p[1]
	if p50 <= 0 {
		return nil
	}
	if c := int64(fitted.Conns); c > 1 && p50/c >= o.min && o.min > 0 && p50 > 2*o.min {
		// A closed loop's median waits behind the other connections.
		p50 /= c
		p90 /= c
	}
	var cands []sim.Config
	add := func(f func(c *sim.Config)) {
		c := fitted
		c.Dist, c.Service, c.ServiceP95, c.ServiceMax = sim.ServiceFixed, S, 0, 0
		f(&c)
		if c.Validate() == nil {
			cands = append(cands, c)
		}
	}
	add(func(c *sim.Config) {
		c.Dist, c.Service, c.ServiceP95 = sim.ServiceLognormal, p50, 2*p50
		if p90 > p50 && p90 < fitted.Stall/2 {
			c.ServiceP95 = int64(float64(p90) * 1.2) // the p90 of the file, a little further out
		}
	})
	// The exponential's median is ln 2 of its mean; the uniform is tried
	// only as a spread, not the fixed service again.
	add(func(c *sim.Config) { c.Dist, c.Service = sim.ServiceExponential, p50*10/7 })
	if o.min > 0 && 2*p50-o.min > o.min+o.min/20 {
		add(func(c *sim.Config) { c.Dist, c.Service, c.ServiceMax = sim.ServiceUniform, o.min, 2*p50-o.min })
	}
	var best *Offer
	for _, c := range cands {
		_, rr := eval(c)
		if rr == nil {
			continue
		}
		w := worstOf(rr)
		if best == nil || math.Abs(w.Diff) < best.Worst {
			best = &Offer{Query: c.Query(), Dist: c.Dist.String(), Worst: math.Abs(w.Diff), Diff: w.Diff}
		}
	}
	return best
}

// evaluator returns the fit's scoring of a candidate query against the
// file (the regenerated file compared number by number: score and
// residuals; +Inf when it cannot be regenerated), each query run once,
// and the count of runs.
func evaluator(in *input, src source, abort func() bool) (evalFunc, *int) {
	evals := 0
	// Each candidate is run once: the search comes back to some (a step
	// down after one up, a rounding that changes nothing it has not tried).
	type cached struct {
		score float64
		rs    []Residual
	}
	seen := map[string]cached{}
	// A tool whose run does not depend on the rate (a closed loop's
	// connections, tools.Tool.RateBlind) is run once for all the rates
	// the fit asks about (rateSpan's 34).
	blind := src.desc() != nil && src.desc().RateBlind()
	run := func(cfg sim.Config) (float64, []Residual) {
		if abort != nil && abort() {
			panic(aborted{})
		}
		evals++
		os, err := forward(cfg, in, src)
		if err != nil {
			return math.Inf(1), nil
		}
		var rs []Residual
		total, matched := 0.0, 0
		for i := range in.obs {
			// The fitted distribution of the same label (a tool prints
			// what the model's profile prints: wrk2 without -U has no
			// uncorrected spectrum, and that one is left out).
			for j := range os {
				if os[j].label == in.obs[i].label {
					r, s := compare(&in.obs[i], &os[j])
					rs = append(rs, r...)
					total += s
					matched++
					break
				}
			}
		}
		if matched == 0 {
			return math.Inf(1), nil
		}
		for i := range rs {
			rs[i].Own = own(rs[i], cfg.Service, cfg.Stall)
		}
		overBody(rs)
		return total, rs
	}
	return func(cfg sim.Config) (float64, []Residual) {
		if cfg.Validate() != nil {
			return math.Inf(1), nil
		}
		key := cfg
		if blind {
			key.Rate = 1000 // one run answers for every rate
		}
		q := key.Query()
		if c, ok := seen[q]; ok {
			return c.score, c.rs
		}
		s, rs := run(cfg)
		seen[q] = cached{s, rs}
		return s, rs
	}, &evals
}

// perSecond writes a rate for people: "9,990/s", "27.59/s".
func perSecond(r sim.Rate) string {
	if r%1000 == 0 || r >= 100_000 {
		return units.Count(int64(math.Round(float64(r)/1000))) + "/s"
	}
	return units.Decimals(float64(r)/1000) + "/s"
}

// rateSpan answers for a file that shows no rate: it runs the fitted
// model at rates from 1/4096 to 32 times the one the fit took, in steps of
// √2 (the duration the count's, the stalls' places in proportion to it and
// the stalls at due instants), keeps those whose file explains the measured one (explains) or fits it
// as well as the fitted model's (a file not explained: wrk's printout does
// not change with the rate at all), and returns
// the lowest and highest such rate and the open loop's p99 over them; the
// highest is then narrowed by bisection against the next one up. Rates
// below the server's capacity only (rate·service < 1).
// sl, for a paced client's file, samples the stall's slot's far end at
// every other rate kept and at the highest (slotSpan), and widens the open
// loop's p99 with each that explains the file.
// minOpenRequests is the fewest requests an open loop's run holds for its
// p99 to count in a range over rates (rateSpan).
const minOpenRequests = 100

func rateSpan(cfg sim.Config, g *guess, eval evalFunc, unit int64, sl *slotSpan) (lo, hi sim.Rate, open []int64) {
	best, _ := eval(cfg)
	keeps := func(c sim.Config) bool {
		sc, rs := eval(c)
		return explains(rs, unit) || sc <= best*(1+1e-9)+1e-12
	}
	// at runs the model at rate r with the stalls placed three ways (in
	// proportion to the fitted places, spread over the whole run from its
	// start, packed one after the other from it) and reports the first
	// that explains the file: which places do depends on the rate.
	at := func(r sim.Rate) (sim.Config, bool) {
		c := cfg
		c.Rate = r
		g.fix(&c)
		if c.Service > 0 && float64(r)*float64(c.Service) >= 1e12 {
			return c, false
		}
		places := []sim.Config{c}
		if cfg.Duration > 0 && c.Duration != cfg.Duration {
			f := float64(c.Duration) / float64(cfg.Duration)
			// On the schedule's grid: a stall that begins between two
			// due instants holds its request for less than the stall.
			places[0].Every = snapT(c, int64(float64(cfg.Every)*f))
			places[0].First = snapT(c, int64(float64(cfg.First)*f))
			if k := g.k; k > 1 && cfg.Every > 0 {
				T := sim.NewSchedule(r).Interval(1)
				spread, packed := c, c
				spread.First, spread.Every = 0, (c.Duration-c.Stall)/(k-1)/T*T
				packed.First, packed.Every = 0, (c.Stall/T+2)*T
				places = append(places, spread, packed)
			}
		}
		for _, p := range places {
			if p.Every > 0 && p.Every <= p.Stall {
				continue
			}
			if keeps(p) {
				return p, true
			}
		}
		return c, false
	}
	// The open loop's p99 is widened only over rates at which its run holds
	// minOpenRequests or more (unless the model's own does not): a p99 of
	// fewer is its largest few, and at a rate low enough that none meets a
	// stall it would read as the service time, below the stall-hit tail
	// the file shows.
	enough := func(c sim.Config) bool {
		return sim.NewSchedule(c.Rate).Count(c.Duration) >= minOpenRequests ||
			sim.NewSchedule(cfg.Rate).Count(cfg.Duration) < minOpenRequests
	}
	widen := func(c sim.Config, far bool) {
		if enough(c) {
			open = widenOpen(open, c)
		}
		if sl == nil || !far {
			return
		}
		// A paced client's file: the same file with the stall at its
		// slot's far end, kept (and the open loop's p99 widened with it)
		// when it explains the file as well.
		if c1, ok := sl.farEnd(c); ok && keeps(c1) {
			sl.widen(c1)
			if enough(c1) {
				open = widenOpen(open, c1)
			}
		}
	}
	base := float64(cfg.Rate)
	var okRates []sim.Rate
	firstBad := sim.Rate(0)
	for j := -24; j <= 10; j++ {
		r := sim.Rate(math.Round(base * math.Pow(2, float64(j)/2)))
		if r < 1 {
			continue
		}
		if c, ok := at(r); ok {
			okRates = append(okRates, r)
			widen(c, j%2 == 0) // a paced stall's far end at every other rate
		} else if len(okRates) > 0 && firstBad == 0 {
			firstBad = r
		}
	}
	if len(okRates) == 0 {
		return 0, 0, nil
	}
	lo, hi = okRates[0], okRates[len(okRates)-1]
	if firstBad > hi {
		a, b := hi, firstBad
		var last *sim.Config
		for i := 0; i < 8 && b-a > max(a/1000, 1); i++ {
			m := (a + b) / 2
			if c, ok := at(m); ok {
				a, last = m, &c
				widen(c, false)
			} else {
				b = m
			}
		}
		hi = a
		if last != nil && sl != nil {
			// And at the highest rate kept.
			if c1, ok := sl.farEnd(*last); ok && keeps(c1) {
				sl.widen(c1)
				if enough(c1) {
					open = widenOpen(open, c1)
				}
			}
		}
	}
	return lo, hi, open
}

// asWell says how the values of a range fit the file: as well as the
// model's, which explains it or (not explained) does not.
func asWell(explained bool) string {
	if explained {
		return "explains it as well"
	}
	return "fits it as well as the model's, which does not explain it"
}

// widenOpen widens rg ([lo, hi] ns, empty at first) to hold the open
// loop's p99 of c's run (rg as it was when c is not a valid run).
func widenOpen(rg []int64, c sim.Config) []int64 {
	r, err := sim.Run(c)
	if err != nil {
		return rg
	}
	v := r.Recordings[sim.Open].P[2]
	if len(rg) == 0 {
		return []int64{v, v}
	}
	return []int64{min(rg[0], v), max(rg[1], v)}
}

// kPatience is how many stall counts in a row past the best descendK
// tries before it stops in that direction.
const kPatience = 3

// kGood is the score below which descendK trusts it is in the least
// value's basin: far from it, a printout's scores lie on plateaus (every
// count as wrong), and the descent goes on to the last count.
const kGood = 0.5

// fullKScan makes every printout try each stall count 1 to maxStallsTried
// (the test that holds descendK to it).
var fullKScan bool

// descendK tries stall counts outwards from k0 (within 1 to kMax) and
// returns the guesses of those it tried, by count ascending: the caller
// scores them in that order, as it would every count (they are cached).
func descendK(kMax, k0 int64, score func(int64) float64, guessOf func(int64) guess) []guess {
	k0 = min(max(k0, 1), kMax)
	tried := map[int64]bool{k0: true}
	best := score(k0)
	for _, dir := range []int64{-1, 1} {
		worse := 0
		for k := k0 + dir; k >= 1 && k <= kMax && (worse < kPatience || best > kGood); k += dir {
			tried[k] = true
			if s := score(k); s < best {
				best, worse = s, 0
			} else {
				worse++
			}
		}
	}
	var out []guess
	for k := int64(1); k <= kMax; k++ {
		if tried[k] {
			out = append(out, guessOf(k))
		}
	}
	return out
}

// holdModel widens a free duration's stated range to hold the fitted
// model's own value, where the search moved it past the range's ends after
// they were set: a real hey -q printout's service was stated within
// [584.5 µs, 1.101 ms], from the stall counts its rounding ties, while the
// search went on to 37 stalls and 290.7 µs.
func holdModel(f *Free, cfg sim.Config) {
	var v int64
	switch f.Param {
	case "service":
		v = cfg.Service
	case "stall":
		v = cfg.Stall
	case "every":
		v = cfg.Every
	case "first":
		v = cfg.First
	default:
		return
	}
	lo, hi, err := f.DurationSpan()
	if err != nil || f.Lo == "" && f.Hi == "" || v <= 0 && f.Param != "first" || v >= lo && v <= hi {
		return
	}
	if v < lo {
		f.Lo = sim.FormatDuration(v)
	} else {
		f.Hi = sim.FormatDuration(v)
	}
	f.Why += "; and the fitted model's own " + units.Duration(v) + ", which the search reached past that"
}

// explains reports whether residuals rs hold every printed number the
// stalls claim within the tolerance, a number one printed unit (unit ns,
// when above 0) or less from the model's within the printout's rounding,
// and the client's own numbers (Residual.Own), the percentiles within the
// tolerance in rank (Residual.Ranked) and a mean within it over the body
// (Residual.OverBody) not held, as Result.Worst has it:
// a range "fits as well" by the verdict's rule.
func explains(rs []Residual, unit int64) bool {
	return rs != nil && worstMiss(rs, unit) <= Tolerance
}

// worstMiss is the verdict's worst number (Result.Worst): the largest
// difference among the headline numbers the stalls claim (Residual.held),
// leaving out those one printed unit (unit ns, when above 0) or less from
// the model's.
func worstMiss(rs []Residual, unit int64) float64 {
	w := 0.0
	for _, r := range rs {
		if unit > 0 && r.latency() && math.Abs(r.Measured-r.Fitted) <= float64(unit) {
			continue
		}
		if r.Headline && r.held() {
			w = max(w, math.Abs(r.Diff))
		}
	}
	return w
}

// held reports whether the verdict holds r to the tolerance: not the
// client's own (Own), not a percentile within it in rank (Ranked), not a
// mean within it over the body (OverBody).
func (r Residual) held() bool { return !r.Own && !r.Ranked && !r.OverBody }

// explainedSpan bisects for the least and the most value of parameter p
// ("stall" or "service") from [far0, far1] with which the model, the rest
// of it held, still explains the file (explains): each end to a thousandth
// of cfg's value or better. An end that still explains the file is pushed
// out, twice as far from cfg's value each time, up to four times (but for
// a hard one: fixed, the service's upper end); open reports an end the
// search left there still explaining it.
func explainedSpan(cfg sim.Config, p string, far0, far1 int64, hard1 bool, eval evalFunc, unit int64) (lo, hi int64, open bool) {
	return spanOf(get(cfg, p), far0, far1, hard1, func(x int64) bool {
		c := cfg
		set(&c, p, x)
		if c.Every > 0 && c.Every <= c.Stall {
			return false
		}
		_, rs := eval(c)
		return explains(rs, unit)
	})
}

// addWhy is the open loop's range's reason once why widens it too: why
// alone when the range is still empty, else added to the reason it has.
func addWhy(rg []int64, had, why string) string {
	if len(rg) == 0 {
		return why
	}
	return had + ", and " + why
}

// spanOf bisects for the least and the most x from [far0, far1] around v
// for which ok holds, as explainedSpan does for a parameter.
func spanOf(v, far0, far1 int64, hard1 bool, ok func(x int64) bool) (lo, hi int64, open bool) {
	end := func(far int64, hard bool) int64 {
		for i := 0; ok(far); i++ {
			if hard {
				return far
			}
			next := v + 2*(far-v)
			if i == 4 || next <= 0 {
				open = true
				return far
			}
			far = next
		}
		in, out := v, far
		for d := out - in; d > v/1000 || -d > v/1000; d = out - in {
			if m := in + d/2; ok(m) {
				in = m
			} else {
				out = m
			}
		}
		return in
	}
	lo, hi = end(far0, false), end(far1, hard1)
	return lo, hi, open
}

// own reports whether a residual is a latency below the stalls
// (Residual.Own): one the model puts under OwnServices service times,
// where no stall reaches, and the file under OwnServices service times or
// a tenth of the stall, whichever is more: the client's own time, not the
// stalls'. A closed loop's real p99.9 of 2.6 ms under a 140 ms stall (a
// stall hits one request a connection there, the rest is the client's
// wake-ups) is the client's; 20 ms under that stall is not, nor are the
// counts, the maximum and the summed-up rows, which are the stalls'.
func own(r Residual, service, stall int64) bool {
	// A latency the file prints (obs.go's compare): the mean, the minimum or
	// one of sim.Percentiles(); not the count, and not the maximum, which
	// is a stall's when the run met one.
	if !r.Headline || r.Counts() || r.Metric == "max_ns" {
		return false
	}
	body := float64(OwnServices * max(service, 1))
	return r.Fitted < body && r.Measured < max(body, float64(stall)/OwnServices)
}

// overBody marks a mean more than the tolerance off whose excess over the
// median is not (Residual.OverBody), where the median is the client's own
// (Residual.Own): a mean is the body's plus what the stalls add, and the
// body's shift is the client's time per request, summed over every
// request (a real wrk2 run's 0.3 ms a request, p50 1.16 ms against the
// model's 0.85 ms, made its mean 5.4 % off; its excess over the median
// 2.8 %).
func overBody(rs []Residual) {
	for i := range rs {
		r := &rs[i]
		if r.Metric != "mean_ns" || r.Own || math.Abs(r.Diff) <= Tolerance {
			continue
		}
		for _, p := range rs {
			if p.Metric == "p50_ns" && p.Dist == r.Dist && p.Own {
				if em, ef := r.Measured-p.Measured, r.Fitted-p.Fitted; em > 0 && ef > 0 {
					r.BodyDiff = relDiff(em, ef)
					r.OverBody = math.Abs(r.BodyDiff) <= Tolerance
				}
			}
		}
	}
}

// stallsOf is rs less the client's own numbers (Residual.Own), the
// percentiles within the tolerance in rank (Residual.Ranked) and a mean
// within it over the body (Residual.OverBody).
func stallsOf(rs []Residual) []Residual {
	var out []Residual
	for _, r := range rs {
		if r.held() {
			out = append(out, r)
		}
	}
	return out
}

func worstOf(rs []Residual) Residual {
	var w Residual
	for _, r := range rs {
		if r.Headline && math.Abs(r.Diff) >= math.Abs(w.Diff) {
			w = r
		}
	}
	return w
}

// nudge moves parameter p by the relative step f (at least 1 ns or one
// thousandth of a request per second) and reports whether it changed.
func nudge(c *sim.Config, p string, f float64) bool {
	mv := func(v int64) int64 {
		d := int64(math.Round(float64(v) * f))
		if d == 0 {
			d = int64(math.Copysign(1, f))
		}
		return max(v+d, 0)
	}
	switch p {
	case "service":
		c.Service = mv(c.Service)
	case "stall":
		c.Stall = mv(c.Stall)
	case "every":
		if c.Every == 0 {
			return false
		}
		c.Every = mv(c.Every)
	case "first":
		c.First = mv(c.First)
	case "rate":
		c.Rate = sim.Rate(mv(int64(c.Rate)))
	default:
		return false
	}
	return true
}

// OpenP99Words writes the open loop's p99 for people: one duration where
// the file fixes it, "between X and Y" where it leaves it within a range
// wider than 1 %.
func (h *Hidden) OpenP99Words() string {
	if rg := h.OpenP99RangeNs; len(rg) == 2 && float64(rg[1]-rg[0]) > 0.01*float64(rg[1]) {
		return "between " + units.Duration(rg[0]) + " and " + units.Duration(rg[1])
	}
	return "= " + units.Duration(h.OpenP99Ns)
}

// hide runs the fitted query and says what the test did not measure.
func (r *Result) hide(in *input, noTools bool) error {
	cfg := r.Config
	res, err := sim.Run(cfg)
	if err != nil {
		return err
	}
	h := &r.Hidden
	h.RecordedP99Ns = in.obs[0].p[2]
	h.OpenP99Ns = res.Recordings[sim.Open].P[2]
	if r.Source == "the open recording" && h.RecordedP99Ns >= 0 && in.obs[0].pExact[2] {
		// The file is an open loop's: what it recorded is the answer.
		h.OpenP99Ns = h.RecordedP99Ns
		h.Notes = append(h.Notes, "The open loop's p99 is the file's own: the file is an open loop's recording.")
	}
	if rg := h.OpenP99RangeNs; len(rg) == 2 {
		h.Notes = append(h.Notes, fmt.Sprintf("The open loop's p99 runs from %s to %s %s: the file does not fix it, and the fitted model's %s is one of them.",
			units.Duration(rg[0]), units.Duration(rg[1]), h.OpenP99RangeWhy, units.Duration(h.OpenP99Ns)))
	}
	pc := res.Clients[sim.PacedClient]
	h.Planned, h.NeverSent = pc.Planned, pc.Planned-pc.Sent
	h.Notes = append([]string{"Never sent: the requests the schedule held that a closed loop keeping to it (the paced client) never sent."}, h.Notes...)
	srcTool := r.tool
	if k, ok := kindOf(strings.TrimSuffix(strings.TrimPrefix(r.Source, "the "), " recording")); ok {
		h.FittedP99Ns = res.Recordings[k].P[2]
	} else if srcTool == "" {
		h.FittedP99Ns = res.Recordings[sim.Closed].P[2]
	}
	if !noTools {
		r.runTools(tools.Names(), srcTool, nil)
		return nil
	}
	// Only the file's own tool, whose printout the headline's numbers
	// are; Tools runs the rest from the same state.
	p := &pendingTools{src: srcTool, before: *h}
	p.before.Notes = slices.Clone(h.Notes)
	r.runTools([]string{srcTool}, srcTool, p)
	r.pending = p
	return nil
}

// pendingTools is what a fit with NoTools keeps for Tools: the hidden
// numbers before any tool ran, and the file's own tool's line.
type pendingTools struct {
	src    string
	before Hidden
	line   *toolLine
}

// toolLine is one tool's part of the hidden numbers: its p99, or the note
// that says why it has none.
type toolLine struct {
	t    *ToolP99
	o    *tools.Output
	note string
}

// runTools adds what each named tool would have printed to r.Hidden, in
// the order named (srcTool's also sets the headline's numbers); p, when
// not nil, keeps srcTool's line or gives it.
func (r *Result) runTools(names []string, srcTool string, p *pendingTools) {
	h := &r.Hidden
	cfg := r.Config
	for _, n := range names {
		if !slices.Contains(tools.Names(), n) {
			continue
		}
		if t, _ := tools.Lookup(n); t.PerRequest() && n != srcTool {
			// A per-request output's tool (k6-vus-csv) runs its summary's
			// executor (k6-vus), whose p99 is listed: once is enough.
			continue
		}
		var l *toolLine
		if p != nil && n == srcTool && p.line != nil {
			l = p.line
		} else {
			l = runTool(cfg, n)
			if p != nil && n == srcTool {
				p.line = l
			}
		}
		if l.t == nil {
			h.Notes = append(h.Notes, l.note)
			continue
		}
		h.Tools = append(h.Tools, *l.t)
		if n == srcTool {
			h.FittedP99Ns = l.o.P99Ns
			if t, ok := tools.Lookup(n); ok && t.Timing() == tools.BackToBack {
				// No schedule of its own: its sends are all it planned,
				// and "0 never sent" would say nothing true. The count
				// stays the paced client's, on the model's schedule.
				h.Notes[0] = "Never sent: " + n + " keeps no schedule (each connection sends when its last reply is in), so it planned only what it sent; these are the requests the schedule held that a closed loop keeping to it (the paced client) never sent."
			} else {
				h.Planned, h.NeverSent = l.o.Planned, l.o.Planned-l.o.Sent
				h.Notes[0] = "Never sent: the requests " + n + "'s own schedule held that it never sent."
			}
		}
	}
}

func runTool(cfg sim.Config, n string) *toolLine {
	o, err := tools.Run(cfg, n)
	if err != nil {
		// A tool that refuses the fitted server (more requests than a
		// profile sends, say) is left out with its reason: the fit and
		// the other tools stand.
		return &toolLine{note: err.Error()} // the tool's name leads it
	}
	t := ToolP99{Tool: n, P99Ns: o.P99Ns, Sent: o.Sent}
	if o.P99Ns == 0 && o.Zero != nil {
		t.Zero = o.Zero
		t.Printed = o.Zero.Printed + " " + o.Zero.Unit + " (" + o.Zero.Why + ")"
	}
	// Only the numbers are kept, not the tool's run.
	return &toolLine{t: &t, o: &tools.Output{Tail: sim.Tail[int64]{P99Ns: o.P99Ns}, Planned: o.Planned, Sent: o.Sent}}
}

// Tools fills in what each tool would have printed for a fit made with
// NoTools: after it, the Result is the one a fit without NoTools gives
// (the page shows the fit first and the tools' list when it comes). It
// does nothing for a fit that has them.
func (r *Result) Tools() error {
	p := r.pending
	if p == nil {
		return nil
	}
	r.Hidden = p.before
	r.Hidden.Notes = slices.Clone(p.before.Notes)
	r.runTools(tools.Names(), p.src, p)
	r.pending = nil
	return nil
}

// get is parameter p's value (ns).
func get(c sim.Config, p string) int64 {
	switch p {
	case "every":
		return c.Every
	case "first":
		return c.First
	case "service":
		return c.Service
	case "stall":
		return c.Stall
	}
	return int64(c.Rate)
}

func set(c *sim.Config, p string, v int64) {
	switch p {
	case "every":
		c.Every = v
	case "first":
		c.First = v
	case "service":
		c.Service = v
	case "stall":
		c.Stall = v
	case "rate":
		c.Rate = sim.Rate(v)
	}
}

type evalFunc func(sim.Config) (float64, []Residual)

// golden minimises the score over parameter p in [lo, hi] by golden-section
// search, a fixed number of steps.
func golden(cfg sim.Config, p string, lo, hi int64, eval evalFunc) (sim.Config, float64, []Residual) {
	const phi = 0.6180339887498949
	at := func(x float64) (sim.Config, float64, []Residual) {
		c := cfg
		v := int64(math.Round(x))
		if p == "first" || p == "every" {
			v = snapT(c, v) // stalls begin at due instants
		}
		set(&c, p, v)
		s, rr := eval(c)
		return c, s, rr
	}
	a, b := float64(lo), float64(hi)
	x1, x2 := b-phi*(b-a), a+phi*(b-a)
	c1, s1, r1 := at(x1)
	c2, s2, r2 := at(x2)
	for i := 0; i < 14 && b-a > 1; i++ {
		if s1 <= s2 {
			b, x2, c2, s2, r2 = x2, x1, c1, s1, r1
			x1 = b - phi*(b-a)
			c1, s1, r1 = at(x1)
		} else {
			a, x1, c1, s1, r1 = x1, x2, c2, s2, r2
			x2 = a + phi*(b-a)
			c2, s2, r2 = at(x2)
		}
	}
	if s1 <= s2 {
		return c1, s1, r1
	}
	return c2, s2, r2
}

// round3 rounds parameter p to 3 significant digits (a rate to a whole
// number a second) and reports whether that changed it.
func round3(c *sim.Config, p string) bool {
	v := get(*c, p)
	if p == "rate" {
		r := (v + 500) / 1000 * 1000
		if r == v || r == 0 {
			return false
		}
		set(c, p, r)
		return true
	}
	if v < 1000 {
		return false
	}
	m := int64(1)
	for v/m >= 1000 {
		m *= 10
	}
	r := (v + m/2) / m * m
	if r == v {
		return false
	}
	set(c, p, r)
	return true
}

// snapT puts a stall time on the schedule's grid (the closed forms' regime:
// stalls begin at due instants).
func snapT(c sim.Config, v int64) int64 {
	T := sim.NewSchedule(c.Rate).Interval(1)
	if T <= 0 {
		return v
	}
	return (v + T/2) / T * T
}
