package fit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"omission/app/measure"
	"omission/app/tools"
	"omission/app/units"
	"omission/sim"
)

// Free is a parameter the file leaves free: the fit chose Value, and every
// value in [Lo, Hi] fits as well (Lo = Hi = -1: any value), and why.
type Free struct {
	Param string `json:"param"`
	Value string `json:"value"`
	Lo    string `json:"lo,omitempty"`
	Hi    string `json:"hi,omitempty"`
	Why   string `json:"why"`
}

// DurationSpan reads the range of a duration parameter (stall, every,
// first, service) in ns: Lo from 0 when it is not stated, Hi unbounded
// (math.MaxInt64) when it is not; an error for words that are not a
// duration (a rate's range).
func (f Free) DurationSpan() (lo, hi int64, err error) {
	lo, hi = 0, math.MaxInt64
	if f.Lo != "" {
		d, err := time.ParseDuration(f.Lo)
		if err != nil {
			return 0, 0, fmt.Errorf("%s's lower end %q: %w", f.Param, f.Lo, err)
		}
		lo = int64(d)
	}
	if f.Hi != "" {
		d, err := time.ParseDuration(f.Hi)
		if err != nil {
			return 0, 0, fmt.Errorf("%s's upper end %q: %w", f.Param, f.Hi, err)
		}
		hi = int64(d)
	}
	return lo, hi, nil
}

// guess is the first estimate: a configuration, which parameters the file
// determines (searched on) and which it leaves free.
type guess struct {
	cfg      sim.Config
	searched []string // parameters the search moves
	free     []Free
	how      map[string]string // parameter -> how it was found
	// countN: the duration is the count times 1/rate (the file states
	// none), kept so as the rate moves.
	countN int64
	// countOf, when set, is the count of requests a run at c's rate and
	// stall sent, for a file whose count is not that (a paced loop's
	// recording leaves out the slots its stalls covered, a corrected one
	// adds samples); countN is its value at the estimate's.
	countOf func(c sim.Config) int64
	// ranges bound first and every (ns) for the golden-section search (an
	// .hlog's intervals).
	ranges map[string][2]int64
	why    string
	// k is the stalls met the estimate took (-1: none found).
	k int64
	// svc, when svc[1] > 0, is the range the file leaves the service in
	// (a locust summary's whole milliseconds): the estimate takes its
	// middle and the search leaves it there.
	svc [2]int64
	// rateImplied: the rate is the file's, implied exactly rather than
	// stated (tools.Stated.RateFrom): kept as given, like a stated one.
	rateImplied bool
	// rateUnknown: the file states no rate and shows none (no due times):
	// the rate is taken, and the hidden numbers are answered over every
	// rate that explains the file (fitSource's rateSpan).
	rateUnknown bool
}

// fix keeps the duration at the count's when the file states none (the
// count of requests the run sent, at c's rate and stall, when that is not
// the file's own).
func (g *guess) fix(c *sim.Config) {
	if g.countN > 0 {
		n := g.countN
		if g.countOf != nil {
			n = g.countOf(*c)
		}
		c.Duration = n * sim.NewSchedule(c.Rate).Interval(1)
	}
}

func (g *guess) setFree(param, value, lo, hi, why string) {
	g.free = append(g.free, Free{Param: param, Value: value, Lo: lo, Hi: hi, Why: why})
	g.how[param] = "free"
}

// byKind returns the observation of recording k, or nil.
func byKind(in *input, src source, k sim.Kind) *obs {
	for i, sk := range src.kinds {
		if sk == k && i < len(in.obs) {
			return &in.obs[i]
		}
	}
	return nil
}

// values returns an observation's value counts: its samples, its
// histogram, or its spectrum rows' count differences.
func values(o *obs) []measure.ValueCount {
	if len(o.vc) > 0 {
		return o.vc
	}
	var out []measure.ValueCount
	prev := int64(0)
	for _, pt := range o.points {
		if pt.Count < 0 {
			return nil
		}
		if pt.Count > prev {
			out = append(out, measure.ValueCount{Ns: pt.Ns, Count: pt.Count - prev})
			prev = pt.Count
		}
	}
	return out
}

func minOf(o *obs) int64 {
	if vc := values(o); len(vc) > 0 {
		return vc[0].Ns
	}
	if o.min >= 0 {
		return o.min
	}
	return o.p[0]
}

// tail is the values above the lowest value's bucket (above s·(1+2⁻⁹)).
func tail(o *obs, s int64) (vc []measure.ValueCount, n int64) {
	for _, v := range values(o) {
		if float64(v.Ns) > float64(s)*(1+1.0/512) {
			vc = append(vc, v)
			n += v.Count
		}
	}
	return vc, n
}

// slowMedian is the median of o's values at or above from (-1: none).
func slowMedian(o *obs, from int64) int64 {
	var n int64
	vc := values(o)
	for _, v := range vc {
		if v.Ns >= from {
			n += v.Count
		}
	}
	if n == 0 {
		return -1
	}
	var c int64
	for _, v := range vc {
		if v.Ns >= from {
			if c += v.Count; 2*c >= n {
				return v.Ns
			}
		}
	}
	return -1
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// estimate derives the first estimate from the shapes the closed forms
// give each recording (sim/closedform.go), in the deterministic regime: one
// connection, one worker, stalls at due instants.
func estimate(in *input, src source, pin sim.Rate, forceK int64) guess {
	if src.pacedUsers() {
		return estimateLocust(in, src, pin, forceK)
	}
	g := guess{cfg: sim.Default(), how: map[string]string{}}
	cfg := &g.cfg
	cfg.Preset = ""
	cfg.Workers = 1
	cfg.Conns = 1
	switch {
	case in.Conns > 0:
		cfg.Conns = in.Conns
		g.how["conns"] = "stated"
		if in.ConnsFrom != "" {
			g.how["conns"] = in.ConnsFrom
		}
	case src.cap > 0:
		cfg.Conns = src.cap
		g.how["conns"] = capHow
	case in.Dropped > 0 && src.tool != "" && src.desc().OnlyDropped():
		// A capped tool's file whose skipped count and percentiles no cap
		// gives (capsOf found none): one virtual user is run, and said to
		// be no more than that.
		g.setFree("conns", "1", "1", "", fmt.Sprintf("the file counts the %s arrivals its cap of virtual users (maxVusers) skipped but not the cap, and no cap gives that count with its percentiles, within the bounds the fit allows each stall's edges: it runs 1, which the file does not fix", units.Count(in.Dropped)))
	case src.unbounded():
		g.how["conns"] = "unused: " + src.tool + " sends each request as it falls due, on a worker of its own"
	default:
		g.how["conns"] = "assumed"
	}
	closed, open, paced := byKind(in, src, sim.Closed), byKind(in, src, sim.Open), byKind(in, src, sim.Paced)
	corr, pcorr := byKind(in, src, sim.Corrected), byKind(in, src, sim.PacedCorrected)
	main := &in.obs[0]
	if closed == nil && main.exact && src.is(tools.BackToBack) && (src.tool == "" || !src.desc().PerRequest()) {
		// A closed loop's file that lists every request (a JMeter JTL):
		// its samples are the closed recording's, each from its send. (A
		// per-request output read back from the model's run, k6 --out
		// csv, places its stalls by its own path: firstEvery.)
		closed = main
	}

	// Service S: the smallest sample of a loop that records reply − send
	// or reply − due; the commonest value of a corrected recording alone.
	var S int64 = -1
	for _, o := range []*obs{closed, open, paced} {
		if o != nil {
			if m := minOf(o); S < 0 || m < S {
				S = m
			}
		}
	}
	if S < 0 {
		if (src.is(tools.BackToBack) || src.bursts()) && main.p[0] >= 0 {
			// Back to back, most replies take S on one connection; on
			// conns of them sharing the one worker, each waits for the
			// others' too: conns·S (and so at a bucket's ticks).
			S = main.p[0] / int64(cfg.Conns)
		} else {
			S = minOf(main)
			if src.tool == "" { // a corrected recording alone: its mode
				var best measure.ValueCount
				for _, v := range values(main) {
					if v.Count > best.Count {
						best = v
					}
				}
				S = best.Ns
			}
		}
	}
	S = max(S, 0)
	cfg.Service = S
	// The largest sample is L+S.
	M := int64(-1)
	for _, o := range in.obs {
		M = max(M, o.max)
		if vc := values(&o); len(vc) > 0 {
			M = max(M, vc[len(vc)-1].Ns)
		}
	}
	L := M - S
	if (src.is(tools.BackToBack) || src.bursts()) && cfg.Conns > 1 {
		// The slowest reply of conns sharing the one worker waited
		// through the stall and then behind the others' requests.
		L = M - int64(cfg.Conns)*S
	}
	if float64(M) <= float64(S)*(1+1.0/256)+1000 {
		L = 0
	}
	hiccup := false // the slowest reply is a hiccup's, far above the stalls'
	if L > 0 && closed != nil {
		// A closed loop meets each stall with one slow reply of L+S: their
		// median, not their largest, which a real run's hiccup (the
		// scheduler, a collection) can stretch. The model's own files hold
		// L+S in every one.
		if m := slowMedian(closed, S+L/2); m > S {
			L = m - S
		}
		if closed.exact && src.tool != "" {
			// A real file that lists every request (a JTL): a hiccup far
			// above the stalls (a JVM's warm-up, a collection) set the
			// half the median was taken over; taken again over half of
			// the median's, until it settles.
			for r := 0; r < 3; r++ {
				if m := slowMedian(closed, S+L/2); m > S && m-S != L {
					L = m - S
				}
			}
			hiccup = isHiccup(M, L+S)
		}
	}
	cfg.Stall = max(L, 0)
	g.searched = append(g.searched, "service")

	// Stalls met, K.
	var K int64 = -1
	switch {
	case L == 0:
		K = 0
	case closed != nil && closed.exact && cfg.Conns > 1:
		K = int64(len(stallSends(closed, L)))
	case closed != nil:
		K = 0
		for _, v := range values(closed) {
			if 2*v.Ns >= 2*S+L {
				K += v.Count
			}
		}
	case src.tool != "" && main.exact:
		// Every request with its time: the stalls its slow sends show.
		K = int64(len(stallSends(main, L)))
	case forceK > 0:
		K = forceK
		g.how["stalls"] = "tried in turn"
	case src.is(tools.FromDue) && max(in.Rate, in.RateHint) > 0 && main.mean > 0 && main.count > 0:
		// Timed from the due time: a stall of L holds J = ⌈L/(T − S)⌉
		// requests, waiting L − j·(T − S) + S, and the rest wait S. The
		// mean's excess over S gives the stalls met.
		T := sim.NewSchedule(max(in.Rate, in.RateHint)).Interval(1)
		if T > S && L > 0 {
			J := (L + T - S - 1) / (T - S)
			per := float64(J)*float64(L) - float64(T-S)*float64(J*(J-1))/2
			K = max(int64(math.Round((main.mean-float64(S))*float64(main.count)/per)), 1)
		}
	case src.drops() && in.Dropped > 0 && in.Duration > 0 && L > 0:
		// Each stall finds the VUs busy and drops the iterations due in
		// it, about L·rate less one a VU.
		T := in.Duration / (in.Requests + in.Dropped)
		if per := L/max(T, 1) - int64(cfg.Conns); per > 0 {
			K = max(int64(math.Round(float64(in.Dropped)/float64(per))), 1)
		} else {
			K = 1
		}
	case src.is(tools.FromSend) && in.Slow > 0:
		// Each connection's call out when a stall begins waits through
		// it, and its catch-up (or skip) is fast: about one slow reply
		// a connection a stall.
		K = max(int64(math.Round(float64(in.Slow)/float64(cfg.Conns))), 1)
	case src.is(tools.FromSend) && in.Rate > 0 && in.Duration > 0 && in.Requests > 0 && L > 0:
		// Paced, timed from the send, its slow replies above the
		// percentiles it prints (bombardier --rate's -o json): each stall
		// holds back about L·rate requests that are never sent (less the
		// few a bucket lets leave at once after it).
		sched := sim.NewSchedule(in.Rate)
		per := float64(L) / float64(sched.Interval(1))
		K = max(int64(math.Round(float64(sched.Count(in.Duration)-in.Requests)/per)), 1)
	case src.is(tools.BackToBack) && in.Duration > 0 && in.Requests > 0 && S > 0:
		K = int64(math.Round(float64(in.Duration-in.Requests*S) / float64(L)))
		K = max(K, 1)
	case src.is(tools.FromIntended) && in.Duration > 0 && in.Requests > 0:
		// wrk2 keeps the schedule: J = ⌈L/(T−S)⌉ late samples a stall.
		T := in.Duration / in.Requests
		_, n := tail(main, S)
		if T > S {
			J := (L + T - S - 1) / (T - S)
			K = max(int64(math.Round(float64(n)/float64(J))), 1)
		}
	case paced != nil:
		_, K = tail(paced, S)
	default:
		// The open loop's staircase: every step holds K samples.
		vc, _ := tail(main, S)
		for _, v := range vc {
			K = gcd(max(K, 0), v.Count)
		}
	}
	if src.unit().Ns > 0 && src.is(tools.BackToBack) && in.Duration > 0 && in.Requests > 0 {
		if L > 0 {
			K = max(K, 1) // a printed service of 0 leaves it to the stall counts tried
		}
		// hey prints to 0.1 ms and ab to whole ms, too coarse for the
		// service time a printed percentile gives. One worker serves the
		// requests back to back but for the K stalls: requests·S + K·L =
		// duration, and the slowest reply is L+S; solved together for S
		// and L (a few rounds: each moves the other by S/L of itself).
		for r := 0; r < 4; r++ {
			S = max((in.Duration-K*L)/in.Requests, 0)
			if M > int64(cfg.Conns)*S && !hiccup {
				L = M - int64(cfg.Conns)*S // as above: conns·S behind the others
			}
		}
		cfg.Service, cfg.Stall = S, max(L, 0)
	}
	if u := src.unit(); u.Ns > 0 && u.Stamped && u.ServiceFree != "" && !src.is(tools.BackToBack) && !src.pacedUsers() && main.p[0] >= 0 {
		// A scheduled tool that stamps whole units (Artillery's Date.now()
		// at the send and at the reply): its median is the service to a
		// unit either way (a stamped latency is within one unit of the
		// true one), and the server kept up (under 1/rate). The file
		// leaves the service free between those: the estimate takes the
		// middle, and the search leaves it there.
		lo, hi := max(main.p[0]-u.Ns, 0), main.p[0]+u.Ns
		if in.Rate > 0 {
			hi = min(hi, sim.NewSchedule(in.Rate).Interval(1))
		}
		if hi > lo {
			S = (lo + hi) / 2
			cfg.Service, g.svc = S, [2]int64{lo, hi}
			if L > 0 && M > S {
				L = M - S
				cfg.Stall = L
			}
		}
	}
	if L > 0 {
		g.searched = append(g.searched, "stall")
	}
	g.k = K

	// The interval T = 1/rate.
	var T int64
	rateHow := ""
	step := func(o *obs, perStall int64) int64 { // the staircase's step
		vc, n := tail(o, S)
		if perStall <= 0 || len(vc) == 0 {
			return 0
		}
		J := n / perStall
		if J < 2 {
			return 0
		}
		return int64(math.Round(float64(vc[len(vc)-1].Ns-vc[0].Ns) / float64(J-1)))
	}
	switch {
	case in.Rate > 0:
		cfg.Rate, rateHow = in.Rate, "stated"
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	case src.tool != "" && main.exact && !src.is(tools.BackToBack) && len(main.at) > 2:
		// A tool on a schedule that sends each request on time but for
		// the stalls (k6's constant-arrival-rate): its sends step by
		// 1/rate, the median step.
		sends := make([]int64, len(main.at))
		for i := range main.at {
			sends[i] = main.at[i] - main.lat[i]
		}
		slices.Sort(sends)
		var steps []int64
		for i := 1; i < len(sends); i++ {
			if d := sends[i] - sends[i-1]; d > 0 {
				steps = append(steps, d)
			}
		}
		if len(steps) > 0 {
			slices.Sort(steps)
			T = steps[len(steps)/2]
			cfg.Rate, rateHow = sim.Rate(math.Round(1e12/float64(T))), "the sends' median step"
			T = sim.NewSchedule(cfg.Rate).Interval(1)
		}
	case src.drops() && in.Duration > 0 && in.Requests > 0:
		// The iterations sent and dropped over the run: the rate.
		cfg.Rate, rateHow = tools.MeasuredRate(float64(in.Requests+in.Dropped)*1e9/float64(in.Duration)), "the iterations sent and dropped over the duration"
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	case in.RateHint > 0:
		cfg.Rate, rateHow = in.RateHint, "the responses over the duration (oha sends every tick it queued)"
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	case open != nil && open.exact && len(open.at) > 1:
		n := int64(len(open.at))
		due0, dueN := open.at[0]-open.lat[0], open.at[n-1]-open.lat[n-1]
		cfg.Rate = sim.Rate(math.Round(1e12 * float64(n-1) / float64(dueN-due0)))
		T = sim.NewSchedule(cfg.Rate).Interval(1)
		rateHow = "the open loop's due times"
	case open != nil && K > 0:
		if d := step(open, K); d > 0 {
			T, rateHow = S+d, "the open loop's staircase L+S−j·(T−S)"
		}
	case corr != nil && K > 0:
		if e := step(corr, K); e > 0 {
			T, rateHow = e/int64(cfg.Conns), "the correction's step E"
		}
	case pcorr != nil && K > 0:
		if e := step(pcorr, K); e > 0 {
			T, rateHow = e, "the paced correction's step 1/rate"
		}
	case src.is(tools.FromIntended) && in.Duration > 0 && in.Requests > 0:
		T, rateHow = in.Duration/in.Requests, src.tool+"'s requests over its duration"
	}
	if T == 0 && src.is(tools.FromIntended) && K > 0 {
		if d := step(main, K); d > 0 {
			T, rateHow = S+d, src.tool+"'s staircase"
		}
	}
	N := main.count
	if closed != nil {
		N = closed.count
	} else if open != nil {
		N = open.count
	}
	perIv := closed
	if perIv == nil && src.tool == "" && len(src.kinds) == 1 && open != nil {
		perIv = open // an open loop's log alone: its replies come as they fell due but for the stalls'
	}
	if in.format == measure.FormatHlog && perIv != nil && len(perIv.intervals) > 2 {
		// An interval log counts the replies each interval: their median
		// over the interval's length is the rate, to one a length.
		var cs []int64
		for _, iv := range perIv.intervals[:len(perIv.intervals)-1] {
			cs = append(cs, iv.Count)
		}
		slices.Sort(cs)
		if w := perIv.intervals[0].LengthS; w > 0 && cs[len(cs)/2] > 0 {
			T, rateHow = int64(math.Round(w*1e9/float64(cs[len(cs)/2]))), "the log's replies per interval"
		}
	}
	if T == 0 && in.format == measure.FormatHlog && N > 0 {
		// The intervals span the run: about N·T.
		if len(main.intervals) > 0 {
			last := main.intervals[len(main.intervals)-1]
			span := int64((last.StartS + last.LengthS) * 1e9)
			T, rateHow = span/N, "the log's span over the count (±1 interval)"
		}
	}
	if T > 0 && rateHow != "the open loop's due times" && rateHow != "stated" && rateHow != "the sends' median step" {
		cfg.Rate = sim.Rate(math.Round(1e12 / float64(T)))
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	}
	wholeRate := false
	if src.wholeRate() && pin == 0 && cfg.Rate > 0 && rateHow != "stated" {
		// wrk2's -R is a whole number of requests a second (sim's wrk2
		// profile refuses any other), so the rate it ran at is one.
		cfg.Rate, wholeRate = max(1000, (cfg.Rate+500)/1000*1000), true
		if rateHow != "" {
			rateHow += ", "
		}
		rateHow += "to a whole number (" + src.tool + "'s " + src.desc().RateFlag() + " is one)"
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	}
	if pin > 0 {
		cfg.Rate, rateHow = pin, "given"
		T = sim.NewSchedule(cfg.Rate).Interval(1)
	}
	if rateHow == "" {
		// The file does not say when requests were due: a closed loop or
		// wrk records none of it. The model runs at a server 10 % busy,
		// and, when the run's length is the count's, no faster than one
		// whose stalls take a tenth of it (a faster one packs the K stalls
		// of the file into a run too short to hold them); fitSource then
		// answers over every rate that explains the file.
		why := "a server 10 % busy, rate = 1/(10·service)"
		if S > 0 {
			cfg.Rate = sim.Rate(sig3(int64(math.Round(1e12 / float64(10*S)))))
		}
		if in.Duration == 0 && N > 0 && K > 0 && L > 0 {
			if r := sim.Rate(sig3(int64(math.Round(1e12 * float64(N) / float64(10*K*L))))); r > 0 && (r < cfg.Rate || S == 0) {
				cfg.Rate, why = r, "a run whose stalls take a tenth of it, rate = count/(10·stalls·stall)"
			}
		}
		T = sim.NewSchedule(cfg.Rate).Interval(1)
		g.setFree("rate", cfg.Rate.String(), "", "", "the file records no due times (reply − send only), so no rate: the model runs at "+why+"; give the rate as rate=R")
		g.rateUnknown = true
	} else {
		g.how["rate"] = rateHow
		if pin == 0 && !wholeRate && rateHow != "stated" {
			g.searched = append(g.searched, "rate")
		}
		if rateHow == "stated" && in.RateFrom != "" {
			g.how["rate"], g.rateImplied = in.RateFrom, true
		}
	}

	if paced != nil && closed == nil && open == nil && T > 0 && K > 0 {
		// The paced loop alone: it never sends the slots a stall covers,
		// about L/T a stall; at another rate, as many at that rate.
		g.countOf = func(c sim.Config) int64 {
			return paced.count + K*(c.Stall/sim.NewSchedule(c.Rate).Interval(1))
		}
		N = g.countOf(*cfg)
	}
	if corr != nil && closed == nil && open == nil && T > 0 && K > 0 {
		// A corrected recording alone: each stall's sample G = L+S added
		// k = G/E − 1 samples, E = conns/rate; at another rate, as many
		// as E at that rate gives.
		g.countOf = func(c sim.Config) int64 {
			E := sim.NewSchedule(c.Rate).Interval(1) * int64(c.Conns)
			if E > 0 && (c.Stall+c.Service)/E >= 2 {
				return corr.count - K*((c.Stall+c.Service)/E-1)
			}
			return corr.count
		}
		N = g.countOf(*cfg)
	}
	// Duration: stated, or N·T.
	switch {
	case rateHow == "the sends' median step" && pin == 0 && in.Requests > 0:
		// A schedule's iterations, sent and dropped, fell due 1/rate
		// apart from the run's start to its end.
		cfg.Duration = (in.Requests + in.Dropped) * T
		g.how["duration"] = "the iterations sent and dropped times 1/rate"
	case in.Duration > 0:
		cfg.Duration = in.Duration
		g.how["duration"] = "stated"
		if in.DurationFrom != "" {
			g.how["duration"] = in.DurationFrom
		}
	case N > 0 && T > 0:
		cfg.Duration = N * T
		g.countN = N
		g.how["duration"] = "count × 1/rate"
	}
	if src.is(tools.BackToBack) && in.Duration == 0 {
		g.setFree("duration", sim.FormatDuration(cfg.Duration), "", "", "the printout states no duration")
	}

	// First stall and period.
	g.firstEvery(in, src, closed, K, T)
	return g
}

// capHow says where a cap of virtual users the file does not state comes
// from.
const capHow = "one of the caps of virtual users (maxVusers) that the skipped requests and the percentiles allow (the notes say which were fitted): each stall lets that many in, which wait through it, and skips the rest"

// A capStalls is a cap of virtual users and the stall count that goes
// with it.
type capStalls struct{ cap, stalls int64 }

// capsOf lists, for a tool that skips what finds its cap of virtual users
// busy (Artillery's maxVusers) and whose file does not state the cap, the
// caps the file allows, each with its stall count, best first, at most
// maxCaps. A stall of L spans L/T arrivals: the first C get in and wait
// through it, the rest are skipped, so K stalls skip about K·(L/T − C),
// one more or less each (where the stall began between two arrivals):
// each cap C gives its K from the skipped count, and is kept when that K
// is whole to within that, with the caps beside it (the stall's length,
// free within its range, moves each stall's count by about one). Of the
// C that get in, those that wait more than half the stall, min(C, L/2T),
// are the file's slow replies: K of them each must lie within what the
// printed percentiles bracket (a percentile q at or above half the stall
// puts (1 − q)·n replies there or more; one below it, fewer). (The mean,
// printed to 0.1 ms of whole-ms times, does not tell them apart.)
func capsOf(in *input, main *obs, S, L, T int64) []capStalls {
	if T <= 0 || L <= T || main.count <= 0 {
		return nil
	}
	per := float64(L) / float64(T)
	n := float64(main.count)
	lo, hi := 0.0, n
	half := float64(S + L/2)
	bound := func(pct float64, v int64) {
		if v < 0 || pct <= 0 || pct >= 100 {
			return
		}
		share := (100 - pct) / 100 * n
		if float64(v) >= half {
			lo = max(lo, share)
		} else {
			hi = min(hi, share)
		}
	}
	for i, p := range sim.Percentiles() {
		bound(p.Percent(), main.p[i])
	}
	for _, pt := range main.points {
		bound(pt.Percentile, pt.Ns)
	}
	type cand struct {
		capStalls
		off float64
	}
	var cs []cand
	for c := int64(1); float64(c) < per && c <= int64(sim.MaxConns); c++ {
		k := math.Round(float64(in.Dropped) / (per - float64(c)))
		if k < 1 || k > maxStallsTried || in.Duration > 0 && k*float64(L) > float64(in.Duration) {
			continue
		}
		off := math.Abs(k*(per-float64(c)) - float64(in.Dropped))
		slow := k * min(float64(c), per/2)
		if off > k+2 || slow < lo*0.9-k || slow > hi*1.1+k {
			continue
		}
		cs = append(cs, cand{capStalls{c, int64(k)}, off / k})
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.off, b.off) })
	// Each with its neighbours: the stall's length, free within its
	// range, moves each stall's count by about one arrival a cap.
	var out []capStalls
	seen := map[int64]bool{}
	for _, c := range cs {
		for _, d := range []int64{0, -1, 1} {
			if cc := c.cap + d; cc >= 1 && !seen[cc] && len(out) < maxCaps {
				seen[cc] = true
				out = append(out, capStalls{cc, c.stalls})
			}
		}
	}
	return out
}

// maxCaps bounds the caps of virtual users fitted for a file that does
// not state its cap.
const maxCaps = 8

// estimateLocust is the first estimate for a locust summary, through the
// locust profile: users started together, each paced at rate/users and
// timed from its send, printed in whole milliseconds (the Avg, Min and Max
// columns are int() of the exact values, the percentiles keys of a dict
// rounded to the ms below 100 ms; app/tools/locust.go).
//   - The service: the Min column is it to the ms below; the 50 % key, the
//     median reply to the nearest ms, is one to u of them (u users' tasks
//     sent together queue for the one worker); and it is under 1/rate
//     (the users' tasks of one interval share the one worker). The file
//     leaves it free between those: the estimate takes the middle.
//   - The stall: the Max column is the slowest reply to the ms below, the
//     stall plus a service less the time from the stall's start to the
//     send of the task it held (searched within that in fitSource).
//   - Each stall holds one slow reply a user (the task sent into it; the
//     next follows at once, constant_throughput does not make up missed
//     slots, and takes a service) and the slots it covered are never sent:
//     requests = rate·(duration − K·stall) + K·users, whence the rate for
//     K stalls, K tried over what the percentiles bracket.
func estimateLocust(in *input, src source, pin sim.Rate, forceK int64) guess {
	g := guess{cfg: sim.Default(), how: map[string]string{}}
	cfg := &g.cfg
	cfg.Preset, cfg.Workers, cfg.Conns = "", 1, 1
	if in.Conns > 0 {
		cfg.Conns = in.Conns
		g.how["conns"] = "stated"
		if in.ConnsFrom != "" {
			g.how["conns"] = in.ConnsFrom
		}
	} else {
		g.how["conns"] = "assumed"
		g.setFree("conns", "1", "", "", "the summary states no users (its log line \"All users spawned: … (U total users)\" is not in the file): one is taken; u users give u slow replies a stall, which the stall count trades against")
	}
	u := int64(cfg.Conns)
	main := &in.obs[0]
	const ms = int64(1e6)
	lo, hi := max(main.min, 0), max(main.min, 0)+ms
	if src.unit().Stamped {
		lo = max(main.min-ms, 0) // a JTL's least elapsed time is within a ms of the service either way
	}
	if k50 := main.p[0]; k50 >= 0 && 2*k50 < main.max {
		// The median reply is a service or more, and at most u of them
		// (u users' tasks sent together queue for the one worker; after
		// a stall they come back a service apart and queue no more).
		// locust rounds its 50 % key to the nearest ms; a JTL's elapsed
		// time, the difference of two whole-ms stamps, is within a ms
		// either way.
		half := ms / 2
		if src.unit().Stamped {
			half = ms
		}
		lo = max(lo, (k50-half)/u)
		hi = min(hi, k50+half)
	}
	M := main.max
	D := in.Duration
	cfg.Duration = D
	g.how["duration"] = "stated (\"Run time limit set to\")"
	if in.DurationFrom != "" {
		g.how["duration"] = in.DurationFrom
	}
	n := in.Requests
	K := forceK
	if K <= 0 {
		K = max((in.Slow+u-1)/u, 1)
	}
	var S, L int64
	rate := pin
	stated := pin == 0 && in.Rate > 0 // a paced JTL's: its threads' period
	if stated {
		rate = in.Rate
	}
	for r := 0; r < 3; r++ {
		h := hi
		if rate > 0 {
			h = min(h, sim.NewSchedule(rate).Interval(1)) // under 1/rate
		}
		S = (lo + max(h, lo)) / 2
		L = max(M+ms/2-S, 0) // the Max column truncates
		if M <= hi+ms {
			L, K = 0, 0 // nothing slow: no stall
		}
		if pin == 0 && !stated && D > K*L && n > K*u {
			rate = sim.Rate(math.Round(1e12 * float64(n-K*u) / float64(D-K*L)))
		}
	}
	if rate <= 0 {
		rate = cfg.Rate
	}
	cfg.Service, cfg.Stall, cfg.Rate = S, L, rate
	g.svc = [2]int64{lo, max(min(hi, sim.NewSchedule(rate).Interval(1)), lo)}
	g.how["service"] = "the Min column and the 50 % key (whole ms)"
	g.how["rate"] = "the requests, the stalls and the run time: requests = rate·(duration − stalls·stall) + stalls·users"
	switch {
	case pin > 0:
		g.how["rate"] = "given"
	case stated:
		g.how["rate"], g.rateImplied = in.RateFrom, true
	default:
		g.searched = append(g.searched, "rate")
	}
	if L > 0 {
		g.searched = append(g.searched, "stall")
	}
	g.k = K
	g.firstEvery(in, src, nil, K, sim.NewSchedule(rate).Interval(1))
	return g
}

// firstEvery places the stalls: exactly from the CSV's slow samples, within
// bounds from an .hlog's intervals, freely otherwise.
func (g *guess) firstEvery(in *input, src source, closed *obs, K, T int64) {
	cfg := &g.cfg
	S, L := cfg.Service, cfg.Stall
	snap := func(v int64) int64 {
		if T > 0 && g.how["rate"] != "" && g.how["rate"] != "free" {
			return int64(math.Round(float64(v)/float64(T))) * T
		}
		return v
	}
	if L == 0 || K <= 0 {
		cfg.Stall, cfg.Every, cfg.First = 0, 0, 0
		g.how["stall"] = "no slow samples"
		return
	}
	D := cfg.Duration
	noTimes := "the file holds no times"
	if len(in.obs) > 0 && len(in.obs[0].intervals) > 0 && closed == nil {
		noTimes = "the fit places stalls by a closed loop's intervals only, and this log holds " + src.String() + " alone"
	}
	switch {
	case closed == nil && src.tool != "" && len(in.obs) > 0 && in.obs[0].exact:
		// Every request with its time (k6 --out csv): each stall's slow
		// sends. The request a stall caught in flight was sent within a
		// service before it began: a closed loop's last slow send (its
		// connections' requests queued behind it were sent earlier), a
		// schedule's first (those due later in the stall were sent after
		// it began).
		ss := stallSends(&in.obs[0], L)
		if len(ss) == 0 {
			break
		}
		at := func(k int) int64 {
			if src.is(tools.BackToBack) {
				return ss[k][1]
			}
			return ss[k][0]
		}
		cfg.First = snap(at(0))
		cfg.Every = 0
		if n := len(ss); n > 1 {
			cfg.Every = snap(int64(math.Round(float64(at(n-1)-at(0)) / float64(n-1))))
		} else {
			g.setFree("every", "0", sim.FormatDuration(D-cfg.First), "", "one stall in the run: any period from the rest of the run on gives the same run")
		}
		g.how["first"], g.how["every"] = "the slow samples' send times", "the slow samples' send times"
		g.searched = append(g.searched, "first", "every")
		return
	case closed != nil && closed.exact:
		s := slowTimes(closed)
		if cfg.Conns > 1 {
			// One slow sample a connection at each stall, sent within a
			// few services of each other: each stall's first.
			s = nil
			for _, st := range stallSends(closed, L) {
				s = append(s, st[0])
			}
		}
		if src.tool != "" {
			s = fullStalls(closed, S, L, int64(cfg.Conns))
		}
		if len(s) > 0 {
			cfg.First = snap(s[0])
			if len(s) > 1 {
				cfg.Every = snap(int64(math.Round(float64(s[len(s)-1]-s[0]) / float64(len(s)-1))))
			} else {
				cfg.Every = 0
				g.setFree("every", "0", sim.FormatDuration(D-cfg.First), "", "one stall in the run: any period from the rest of the run on gives the same run")
			}
			g.how["first"], g.how["every"] = "the slow samples' send times", "the slow samples' send times"
			g.searched = append(g.searched, "first", "every")
			return
		}
	case closed != nil && len(closed.intervals) > 0:
		var a []float64 // the interval start of each stall's slow reply
		w := closed.intervals[0].LengthS
		for _, iv := range closed.intervals {
			for _, v := range iv.Values {
				if 2*v.Ns >= 2*S+L {
					for c := int64(0); c < v.Count; c++ {
						a = append(a, iv.StartS)
					}
				}
			}
		}
		if len(a) > 0 {
			off := float64(L+S) / 1e9
			if len(a) == 1 {
				lo, hi := a[0]-off, a[0]+w-off
				cfg.First = snap(int64(math.Max(lo+hi, 0) / 2 * 1e9))
				cfg.Every = 0
				g.how["first"] = "the log's intervals, then golden-section search"
				g.ranges = map[string][2]int64{"first": {int64(math.Max(lo, 0) * 1e9), int64(hi * 1e9)}}
				g.why = "the log places the one slow reply within one interval"
				g.setFree("every", "0s", "", "", "one stall in the run: the period does not show")
				return
			}
			// Stall k's reply is in [a_k, a_k + w): F + k·P ∈ [a_k − off, a_k + w − off).
			n := len(a)
			lo, hi := 0.0, math.Inf(1)
			pairs := func(j, k int) {
				dk := float64(k - j)
				lo = math.Max(lo, (a[k]-a[j]-w)/dk)
				hi = math.Min(hi, (a[k]+w-a[j])/dk)
			}
			if n <= 400 {
				for j := 0; j < n; j++ {
					for k := j + 1; k < n; k++ {
						pairs(j, k)
					}
				}
			} else {
				for k := 1; k < n; k++ {
					pairs(0, k)
					pairs(k-1, k)
					pairs(k, n-1)
				}
			}
			if lo > hi {
				// No one period puts the k-th slow reply in the k-th
				// one's interval: one reply was slow for another reason
				// (a real run's hiccup), or a stall had none. The log
				// then places nothing: the stalls are placed as in a
				// file without times.
				noTimes = fmt.Sprintf("the log's %d slow replies fit no one period (a reply slow for another reason, or a stall without one)", n)
				break
			}
			P := (lo + hi) / 2
			flo, fhi := math.Inf(-1), math.Inf(1)
			for k := range a {
				flo = math.Max(flo, a[k]-off-float64(k)*P)
				fhi = math.Min(fhi, a[k]+w-off-float64(k)*P)
			}
			cfg.Every = snap(int64(P * 1e9))
			cfg.First = snap(int64(math.Max((flo+fhi)/2, 0) * 1e9))
			g.how["every"], g.how["first"] = "the log's intervals, then golden-section search", "the log's intervals, then golden-section search"
			// The first stall's bounds for any period in [lo, hi].
			flo2, fhi2 := math.Inf(-1), math.Inf(1)
			for k := range a {
				flo2 = math.Max(flo2, a[k]-off-float64(k)*hi)
				fhi2 = math.Min(fhi2, a[k]+w-off-float64(k)*lo)
			}
			g.ranges = map[string][2]int64{
				"every": {int64(lo * 1e9), int64(hi * 1e9)},
				"first": {int64(math.Max(flo2, 0) * 1e9), int64(math.Max(fhi2, 0) * 1e9)},
			}
			g.why = fmt.Sprintf("the log's %g s intervals place each of the %d slow replies within one interval", w, n)
			return
		}
	}
	// No times: K stalls somewhere in the run.
	if K == 1 {
		cfg.First, cfg.Every = snap(sig3(D/2)), 0
		g.setFree("first", sim.FormatDuration(cfg.First), "0s", sim.FormatDuration(D), noTimes+": one stall anywhere in the run gives the same numbers")
		g.setFree("every", "0", "", "", "one stall: the period does not show")
		return
	}
	P := snap(sig3(D / K))
	cfg.Every, cfg.First = P, snap(sig3(P/2))
	if cfg.Every <= cfg.Stall {
		cfg.Every = cfg.Stall + max(T, 1)
	}
	// The count the ranges hold to: this estimate's, or fewer where the
	// late samples allow fewer (an open loop's: lateStalls).
	kMin, how := K, fmt.Sprintf("it shows %d stalls", K)
	if o := lateObs(in, src); o != nil && T > 0 {
		if k, n := lateStalls(o, T, S, L); k >= 1 && k < K {
			kMin = k
			how = fmt.Sprintf("it shows %d stalls by the model's count, and %d or more by its %d samples of half the stall or later (a stall delays at most rate·stall/(2·(1 − rate·service)) + 1 of them that long): the file does not fix the count between them", K, k, n)
		}
	}
	if kMin > 1 {
		elo, ehi := span(cfg.Stall, D/(kMin-1))
		g.setFree("every", sim.FormatDuration(cfg.Every), elo, ehi,
			fmt.Sprintf("%s: %s, and any first and period that place that many stalls in the run give the same numbers (a period longer than the stall, at most duration/(stalls − 1))", noTimes, how))
	} else {
		g.setFree("every", sim.FormatDuration(cfg.Every), sim.FormatDuration(cfg.Stall), "",
			fmt.Sprintf("%s: %s, and one stall may explain them: any period longer than the stall", noTimes, how))
	}
	// Any period is at least the stall: the first stall is at most the
	// run less kMin − 1 of them.
	_, fhi := span(0, max(D-(kMin-1)*cfg.Stall, 0))
	g.setFree("first", sim.FormatDuration(cfg.First), "0s", fhi, noTimes)
}

// lateObs is the recording of in timed from each request's due instant (an
// open loop's, whose late samples count the stalls' length), or nil.
func lateObs(in *input, src source) *obs {
	switch {
	case src.is(tools.FromIntended) || src.is(tools.FromDue):
		return &in.obs[0]
	case src.tool == "":
		return byKind(in, src, sim.Open)
	}
	return nil
}

// lateStalls bounds the stall count from below by an open loop's late
// samples: a request due t into a stall of L waits until the stall ends and
// then behind the t·rate due before it, each a service S, so its latency is
// L − t·(1 − rate·S); it is L/2 or more for t up to L/(2·(1 − rate·S)). A
// stall so delays at most rate·L/(2·(1 − rate·S)) + 1 requests by L/2 or
// more, and n such samples need n over that many stalls. T is the schedule's
// interval (1/rate). It returns the bound and n; 0 when the load leaves no
// bound (rate·S of 0.9 or more).
func lateStalls(o *obs, T, S, L int64) (int64, int64) {
	if T <= 0 || L <= 0 || 10*S >= 9*T {
		return 0, 0
	}
	rho := float64(S) / float64(T)
	var n int64
	for _, v := range values(o) {
		if 2*v.Ns >= L {
			n += v.Count
		}
	}
	per := float64(L)/float64(T)/(2*(1-rho)) + 1
	return int64(math.Ceil(float64(n)/per - 1e-9)), n
}

// sig3 rounds v to 3 significant digits: a free value is given round.
func sig3(v int64) int64 {
	m := int64(1)
	for v/m >= 1000 {
		m *= 10
	}
	return (v + m/2) / m * m
}

// span writes a range for people, rounded outwards to four significant
// digits of its upper end (so that it still holds every value it held).
func span(lo, hi int64) (string, string) {
	m := int64(1)
	for hi/m >= 10000 {
		m *= 10
	}
	return sim.FormatDuration(max(lo, 0) / m * m), sim.FormatDuration((hi + m - 1) / m * m)
}

// fullStalls are the stalls a tool's file that lists every request shows
// whole: the sends of its slow samples (as stallSends groups them), each stall's kept
// when its slowest sample took the stall's length give or take a tenth
// (conns services more, a clock tick either way). A real run's hiccups
// (a JVM's warm-up, a collection) and a stall a hiccup cut into are left
// out, so that the period is the stalls'; when fewer than two are left,
// every stall's send is kept.
func fullStalls(o *obs, S, L, conns int64) []int64 {
	type cl struct{ send, max int64 }
	var cs []cl
	idx := make([]int, 0)
	for i, v := range o.lat {
		if 2*v >= 2*S+L {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(o.at[a]-o.lat[a], o.at[b]-o.lat[b]) })
	for _, i := range idx {
		t, v := o.at[i]-o.lat[i], o.lat[i]
		if len(cs) == 0 || 2*(t-cs[len(cs)-1].send) > L {
			cs = append(cs, cl{t, v})
		} else {
			cs[len(cs)-1].max = max(cs[len(cs)-1].max, v)
		}
	}
	var all, whole []int64
	lo, hi := L-L/10-1e6, L+conns*S+L/10+1e6
	for _, c := range cs {
		all = append(all, c.send)
		if c.max >= lo && c.max <= hi {
			whole = append(whole, c.send)
		}
	}
	if len(whole) >= 2 {
		return whole
	}
	return all
}

// isHiccup says whether the slowest reply M of a file that lists every
// request is a hiccup's (a JVM's warm-up, a collection) rather than a
// stall's: more than a tenth and a millisecond above med, the median of
// the slow replies. A closed loop's stalls on conns connections hold
// replies from L+S to L+conns·S, which stay within it while the stall is
// a dozen services or more.
func isHiccup(M, med int64) bool { return med > 0 && float64(M) > 1.1*float64(med)+1e6 }
