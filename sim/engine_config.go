package sim

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Arrivals is the pattern of the request schedule.
type Arrivals uint8

const (
	// ArrivalsConstant is today's schedule: request i due at i/rate.
	ArrivalsConstant Arrivals = iota
	// ArrivalsPoisson draws each gap from an exponential of mean 1/rate.
	ArrivalsPoisson
	// ArrivalsRamp is a Poisson process whose rate moves linearly from rate
	// at 0 to RateTo at the end of the duration.
	ArrivalsRamp
	// ArrivalsBurst is a Poisson process at rate, and at each burst
	// window's own rate inside it.
	ArrivalsBurst
)

var arrivalNames = [...]string{"constant", "poisson", "ramp", "burst"}

func (a Arrivals) String() string {
	if int(a) < len(arrivalNames) {
		return arrivalNames[a]
	}
	return fmt.Sprintf("Arrivals(%d)", a)
}

// ServiceDist is the distribution of service times.
type ServiceDist uint8

const (
	// ServiceFixed: every request takes Service.
	ServiceFixed ServiceDist = iota
	// ServiceExponential: exponential with mean Service.
	ServiceExponential
	// ServiceLognormal: lognormal with median Service and 95th percentile ServiceP95.
	ServiceLognormal
	// ServiceUniform: uniform between Service and ServiceMax.
	ServiceUniform
)

var distNames = [...]string{"fixed", "exponential", "lognormal", "uniform"}

func (d ServiceDist) String() string {
	if int(d) < len(distNames) {
		return distNames[d]
	}
	return fmt.Sprintf("ServiceDist(%d)", d)
}

// NoQueue is the Config.Queue value of a server with no waiting room: a
// request that finds every worker busy is rejected. Queue 0 is unbounded.
const NoQueue = -1

// Engine limits, beyond those of config.go. A configuration over one is
// refused before it starts (arrivals) or when the run reaches it (events,
// queued, drain), with a *LimitError naming the limit.
const (
	MaxArrivals = int64(10_000_000)  // mean arrivals per client of an event-driven run
	MaxEvents   = int64(200_000_000) // events of one run, over its three clients
	MaxQueued   = 2_000_000          // requests waiting at one instant at one server
	MaxDrain    = int64(7 * 86400e9) // virtual time after the duration for the backlog to clear
	MaxQueueCap = 1_000_000          // the largest queue capacity
	MaxWindows  = 16                 // burst windows, outage windows, and slowdown windows
	MaxSlowdown = Rate(1000 * 1000)  // the largest slowdown factor k (×1000, as a Rate's three decimals)
	MaxAttempts = 10                 // attempts of one call, the first included
	// TimeBudget is the real time a caller should allow one run (the engine
	// reads no clock: the browser measures it between Step slices).
	TimeBudget = 20 * time.Second
)

// LimitError is a run refused by a limit: its name, what the run needed and
// what the limit allows.
type LimitError struct {
	Limit string // "arrivals", "events", "queued", "drain", "time"
	Need  string
	Max   string
	Hint  string
}

func (e *LimitError) Error() string {
	s := fmt.Sprintf("limit %s: %s, over the limit of %s", e.Limit, e.Need, e.Max)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// ErrTimeBudget is the refusal of a run that a caller stopped after its real
// time budget (the browser: TimeBudget) ran out. The caller writes both
// times for people (sim formats no duration for them).
func ErrTimeBudget(elapsed, budget string) error {
	return &LimitError{Limit: "time", Need: "the run took more than " + elapsed + " of real time",
		Max: budget, Hint: "shorten the duration, lower the rate, or run it natively with the report command"}
}

// Window is a half-open interval of virtual time [From, To).
type Window struct{ From, To int64 }

// Burst is a window with its own arrival rate.
type Burst struct {
	Window
	Rate Rate
}

// Windows is a list of at most MaxWindows windows of virtual time, sorted by
// start and not overlapping, each with its own arrival rate when it is a
// list of bursts. It is a value, comparable as Config is: parsed and checked
// once, from its text (ParseBursts, ParseOutages), and never again.
type Windows struct {
	n      int8
	rated  bool // bursts: every window carries a rate
	factor bool // slowdowns: every window carries a factor ×k (in Rate, its three decimals)
	w      [MaxWindows]Burst
}

// ParseBursts reads burst windows "from-to@rate,…" (Go durations, rates as
// in the rate field).
func ParseBursts(s string) (Windows, error) { return parseWindows(s, true) }

// ParseOutages reads outage windows "from-to,…".
func ParseOutages(s string) (Windows, error) { return parseWindows(s, false) }

// ParseSlowdowns reads slowdown windows "from-to@xk,…": k, 1 to 1000 with
// at most three decimals, is the factor by which a service that starts
// inside the window is longer ("×" is read as "x").
func ParseSlowdowns(s string) (Windows, error) {
	return parseWindowsAs(strings.ReplaceAll(s, "×", "x"), true, true)
}

// Len returns the number of windows.
func (ws Windows) Len() int { return int(ws.n) }

// At returns window i, 0 ≤ i < Len(), in order of start.
func (ws Windows) At(i int) Burst { return ws.w[i] }

// String returns the canonical text: sorted, each duration in its largest
// exact unit ("" for none).
func (ws Windows) String() string {
	parts := make([]string, ws.n)
	for i := range parts {
		parts[i] = ws.format(ws.w[i])
	}
	return strings.Join(parts, ",")
}

// parseWindows reads "from-to[@rate],…" (Go durations, rates as in rate).
// withRate says whether each window carries "@rate". The windows come back
// sorted by From; overlaps and bad parts are errors.
func parseWindows(s string, withRate bool) (Windows, error) {
	return parseWindowsAs(s, withRate, false)
}

// parseWindowsAs is parseWindows; with factor, each window's "@xk" is a
// slowdown factor k, 1 to 1000, in place of a rate.
func parseWindowsAs(s string, withRate, factor bool) (Windows, error) {
	var ws Windows // none: the zero value, whatever the kind, so that Configs compare
	s = strings.TrimSpace(s)
	if s == "" {
		return ws, nil
	}
	ws.rated, ws.factor = withRate && !factor, factor
	withRate = withRate || factor
	parts := strings.Split(s, ",")
	if len(parts) > MaxWindows {
		return Windows{}, fmt.Errorf("%d windows, at most %d", len(parts), MaxWindows)
	}
	out := ws.w[:0]
	for _, p := range parts {
		p = strings.TrimSpace(p)
		var b Burst
		span := p
		if withRate {
			var rs string
			var ok bool
			span, rs, ok = strings.Cut(p, "@")
			switch k, isK := strings.CutPrefix(strings.TrimSpace(rs), "x"); {
			case factor && (!ok || !isK):
				return Windows{}, fmt.Errorf("window %s has no @xk (k the slowdown factor, e.g. 2s-3s@x10)", Quote(p))
			case factor:
				r, err := ParseRate(k)
				if err != nil || r < RateOf(1) || r > MaxSlowdown {
					return Windows{}, fmt.Errorf("window %s: factor %s is not x1 to x1000 with at most three decimals", Quote(p), Quote(rs))
				}
				b.Rate = r
			case !ok:
				return Windows{}, fmt.Errorf("window %s has no @rate", Quote(p))
			default:
				r, err := ParseRate(rs)
				if err != nil || r > MaxRate {
					return Windows{}, fmt.Errorf("window %s: rate %s is not 0 to 10000000 with at most three decimals", Quote(p), Quote(rs))
				}
				b.Rate = r
			}
		}
		from, to, ok := strings.Cut(span, "-")
		if !ok {
			return Windows{}, fmt.Errorf("window %s is not from-to", Quote(p))
		}
		f, err1 := time.ParseDuration(strings.TrimSpace(from))
		t, err2 := time.ParseDuration(strings.TrimSpace(to))
		if err1 != nil || err2 != nil || f < 0 || int64(t) > MaxTime || f >= t {
			return Windows{}, fmt.Errorf("window %s: need 0 ≤ from < to ≤ %s, as Go durations", Quote(p), FormatDuration(MaxTime))
		}
		b.From, b.To = int64(f), int64(t)
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	for i := 1; i < len(out); i++ {
		if out[i].From < out[i-1].To {
			return Windows{}, fmt.Errorf("windows %s and %s overlap", ws.format(out[i-1]), ws.format(out[i]))
		}
	}
	ws.n = int8(len(out))
	return ws, nil
}

// format writes one window of the list in its canonical text.
func (ws Windows) format(b Burst) string {
	if ws.factor {
		return FormatDuration(b.From) + "-" + FormatDuration(b.To) + "@x" + b.Rate.String()
	}
	return formatWindow(b, ws.rated)
}

func formatWindow(b Burst, withRate bool) string {
	s := FormatDuration(b.From) + "-" + FormatDuration(b.To)
	if withRate {
		s += "@" + b.Rate.String()
	}
	return s
}

// BurstWindows returns the burst windows, sorted (nil if none).
func (c Config) BurstWindows() []Burst {
	if c.Bursts.n == 0 {
		return nil
	}
	return append([]Burst(nil), c.Bursts.w[:c.Bursts.n]...)
}

// OutageWindows returns the outage windows, sorted (nil if none).
func (c Config) OutageWindows() []Window {
	if c.Outages.n == 0 {
		return nil
	}
	out := make([]Window, c.Outages.n)
	for i := range out {
		out[i] = c.Outages.w[i].Window
	}
	return out
}

// EventDriven reports whether the configuration uses a feature only the
// event engine models (random arrivals or service, a queue capacity, a
// client timeout, outages, retries, slowdowns, think time). The others run
// on the fast path of walk.go; the two agree on them (engine_test.go).
// Slowdowns and think time run on the engine even with fixed service and
// constant arrivals: the fast path's stretches (long.go) rest on every
// service being the same, so they would not stay exact; the engine's run is
// exact request by request up to ExactSamples (its percentiles are sample
// values), and its checks say what holds.
func (c Config) EventDriven() bool {
	return c.Arrivals != ArrivalsConstant || c.Dist != ServiceFixed || c.Queue != 0 || c.Timeout != 0 || c.Outages.Len() > 0 || c.Retrying() ||
		c.Slowed() || c.Thinking()
}

// Slowed reports whether the server has slowdown windows.
func (c Config) Slowed() bool { return c.Slow.Len() > 0 }

// Thinking reports whether the closed loop pauses between calls.
func (c Config) Thinking() bool { return c.Think > 0 || c.ThinkMax > 0 }

// SlowWindows returns the slowdown windows, sorted (nil if none); each
// window's Rate is its factor k ×1000 (Rate's three decimals).
func (c Config) SlowWindows() []Burst {
	if c.Slow.n == 0 {
		return nil
	}
	return append([]Burst(nil), c.Slow.w[:c.Slow.n]...)
}

// SlowedService is a service of s that starts in a window of factor k
// (×1000): s·k rounded to the nanosecond, halves up, at most MaxTime.
// Exact in integers (s·k may pass 2⁶³; its parts do not).
func SlowedService(s int64, k Rate) int64 {
	q, r := s/1000, s%1000
	m := int64(k)
	if m > 0 && q > MaxTime/m {
		return MaxTime
	}
	return min(q*m+(r*m+500)/1000, MaxTime)
}

// SlowFactor returns the factor (×1000) of the slowdown window holding t,
// RateOf(1) outside every window.
func (c Config) SlowFactor(t int64) Rate {
	for i := 0; i < c.Slow.Len(); i++ {
		if w := c.Slow.w[i]; w.From <= t && t < w.To {
			return w.Rate
		}
	}
	return RateOf(1)
}

// Retrying reports whether a failed attempt is tried again (attempts > 1).
func (c Config) Retrying() bool { return c.Attempts > 1 }

// AttemptsPerCall is the attempts of one call, the first included (1: no
// retry).
func (c Config) AttemptsPerCall() int { return max(c.Attempts, 1) }

// ExpectedArrivals is the mean number of arrivals of the schedule before
// the duration (exact for constant arrivals).
func (c Config) ExpectedArrivals() float64 {
	D := float64(c.Duration)
	perNs := func(r Rate) float64 { return float64(r) / 1e12 }
	switch c.Arrivals {
	case ArrivalsPoisson:
		return perNs(c.Rate) * D
	case ArrivalsRamp:
		return (perNs(c.Rate) + perNs(c.RateTo)) / 2 * D
	case ArrivalsBurst:
		m, inside := 0.0, 0.0
		for _, b := range c.BurstWindows() {
			to := math.Min(float64(b.To), D)
			if to > float64(b.From) {
				m += perNs(b.Rate) * (to - float64(b.From))
				inside += to - float64(b.From)
			}
		}
		return m + perNs(c.Rate)*(D-inside)
	}
	return float64(NewSchedule(c.Rate).Count(c.Duration))
}

// The engine fields' rules in Validate (fieldTable's check), each run
// once the field's own range holds: a companion missing (required) or given
// without its choice (bad), the conflicts between fields valid alone, and
// the ranges the table's values do not hold.

func (c Config) checkRampTo(p *problems) {
	switch {
	case c.Arrivals == ArrivalsRamp && c.RateTo == 0:
		p.required("to", "required with arrivals=ramp: the rate at the end of the duration, 0.001 to "+MaxRate.String()+" requests per second")
	case c.RateTo != 0 && c.Arrivals != ArrivalsRamp:
		p.bad("to", c.RateTo.String(), "the ramp's end rate: allowed only with arrivals=ramp")
	}
}

// checkBursts: the windows were parsed and checked on their own once
// (ParseBursts); what is left are the rules between fields.
func (c Config) checkBursts(p *problems) {
	switch bs := c.BurstWindows(); {
	case !c.Bursts.rated && len(bs) > 0:
		p.bad("bursts", c.Bursts.String(), "allowed windows from-to@rate, each with its rate (e.g. 5s-6s@20000)")
	case c.Arrivals == ArrivalsBurst && len(bs) == 0:
		p.required("bursts", "required with arrivals=burst: 1 to 16 windows from-to@rate, e.g. 5s-6s@20000")
	case c.Arrivals != ArrivalsBurst && len(bs) > 0:
		p.bad("bursts", c.Bursts.String(), "allowed only with arrivals=burst")
	case len(bs) > 0 && bs[len(bs)-1].To > c.Duration: // sorted and not overlapping: the last ends last
		last, dur := bs[len(bs)-1], FormatDuration(c.Duration)
		p.conflict(
			side{"bursts", c.Bursts.String(), fmt.Sprintf("each window must end inside the duration (%s): %s does not", dur, formatWindow(last, true))},
			side{"duration", dur, fmt.Sprintf("must reach the end of every burst window (%s, in bursts)", FormatDuration(last.To))})
	}
}

// checkDist: the service time is the first parameter of the distribution.
func (c Config) checkDist(p *problems) {
	if (c.Dist == ServiceExponential || c.Dist == ServiceLognormal) && c.Service <= 0 {
		what := map[bool]string{true: "mean", false: "median"}[c.Dist == ServiceExponential]
		p.conflict(
			side{"service", FormatDuration(c.Service), fmt.Sprintf("the %s of dist=%s: allowed 1ns to %s", what, c.Dist, FormatDuration(MaxTime))},
			side{"dist", c.Dist.String(), fmt.Sprintf("needs a service (its %s) of at least 1ns; service is %s", what, FormatDuration(c.Service))})
	}
}

func (c Config) checkServiceP95(p *problems) {
	dur := FormatDuration
	switch {
	case c.ServiceP95 < 0 || c.ServiceP95 > MaxTime:
		p.bad("service_p95", dur(c.ServiceP95), "allowed 1ns to "+dur(MaxTime))
	case c.Dist == ServiceLognormal && c.ServiceP95 == 0:
		p.required("service_p95", "required with dist=lognormal: the 95th percentile, at least service (the median)")
	case c.Dist == ServiceLognormal && c.ServiceP95 < c.Service:
		p.conflict(
			side{"service_p95", dur(c.ServiceP95), fmt.Sprintf("allowed service (the median, %s) to %s", dur(c.Service), dur(MaxTime))},
			side{"service", dur(c.Service), fmt.Sprintf("the median of dist=lognormal: at most service_p95 (%s)", dur(c.ServiceP95))})
	case c.Dist != ServiceLognormal && c.ServiceP95 != 0:
		p.bad("service_p95", dur(c.ServiceP95), "allowed only with dist=lognormal")
	}
}

func (c Config) checkServiceMax(p *problems) {
	dur := FormatDuration
	switch {
	case c.ServiceMax < 0 || c.ServiceMax > MaxTime:
		p.bad("service_max", dur(c.ServiceMax), "allowed 0s to "+dur(MaxTime))
	case c.Dist == ServiceUniform && c.ServiceMax == 0 && c.Service > 0:
		p.required("service_max", fmt.Sprintf("required with dist=uniform: the maximum, service (the minimum, %s) to %s", dur(c.Service), dur(MaxTime)))
	case c.Dist == ServiceUniform && c.ServiceMax < c.Service:
		p.conflict(
			side{"service_max", dur(c.ServiceMax), fmt.Sprintf("allowed service (the minimum, %s) to %s", dur(c.Service), dur(MaxTime))},
			side{"service", dur(c.Service), fmt.Sprintf("the minimum of dist=uniform: at most service_max (%s)", dur(c.ServiceMax))})
	case c.Dist != ServiceUniform && c.ServiceMax != 0:
		p.bad("service_max", dur(c.ServiceMax), "allowed only with dist=uniform")
	}
}

func (c Config) checkQueue(p *problems) {
	if c.Queue < NoQueue || c.Queue > MaxQueueCap {
		p.bad("queue", strconv.Itoa(c.Queue), fmt.Sprintf("allowed 0 to %d waiting requests, or unbounded", MaxQueueCap))
	}
}

func (c Config) checkTimeout(p *problems) {
	if c.Timeout < 0 || c.Timeout > MaxTime {
		p.bad("timeout", FormatDuration(c.Timeout), "allowed 1ns to "+FormatDuration(MaxTime)+", or none (0s)")
	}
}

// checkOutages: the windows were parsed and checked on their own once
// (ParseOutages); a list of bursts is not a list of outages.
func (c Config) checkOutages(p *problems) {
	if c.Outages.rated {
		p.bad("outages", c.Outages.String(), "allowed windows from-to, without a rate (e.g. 5s-6s,20s-20500ms)")
	}
}

func (c Config) checkAttempts(p *problems) {
	if c.Attempts < 0 || c.Attempts > MaxAttempts {
		p.bad("attempts", strconv.Itoa(c.Attempts), fmt.Sprintf("allowed 1 to %d attempts", MaxAttempts))
	}
}

// checkBackoff: a backoff waits between attempts, so it needs a second
// attempt; with attempts=1 the two are a conflict (refused, both named),
// not a backoff silently ignored.
func (c Config) checkBackoff(p *problems) {
	switch {
	case c.Backoff < 0 || c.Backoff > MaxTime:
		p.bad("backoff", FormatDuration(c.Backoff), "allowed 0s to "+FormatDuration(MaxTime))
	case c.Backoff != 0 && !c.Retrying():
		backoff := FormatDuration(c.Backoff)
		p.conflict(
			side{"backoff", backoff, "the wait between attempts: allowed only with attempts above 1"},
			side{"attempts", "1", "must be above 1 for a backoff (" + backoff + ") to wait between attempts; or set backoff to 0s"})
	}
}

// checkSlow: the windows were parsed and checked on their own once
// (ParseSlowdowns): sorted, not overlapping, each factor 1 to 1000. What is
// left is their kind and the duration they must lie inside.
func (c Config) checkSlow(p *problems) {
	switch ws := c.SlowWindows(); {
	case len(ws) > 0 && !c.Slow.factor:
		p.bad("slow", c.Slow.String(), "allowed windows from-to@xk, each with its factor k from 1 to 1000 (e.g. 2s-3s@x10)")
	case len(ws) > 0 && ws[len(ws)-1].To > c.Duration: // sorted and not overlapping: the last ends last
		last, dur := ws[len(ws)-1], FormatDuration(c.Duration)
		p.conflict(
			side{"slow", c.Slow.String(), fmt.Sprintf("each window must end inside the duration (%s): %s does not", dur, c.Slow.format(last))},
			side{"duration", dur, fmt.Sprintf("must reach the end of every slowdown window (%s, in slow)", FormatDuration(last.To))})
	}
}

func (c Config) checkThink(p *problems) {
	if c.Think < 0 || c.Think > MaxTime {
		p.bad("think", FormatDuration(c.Think), "allowed 0s to "+FormatDuration(MaxTime))
	}
}

// checkThinkMax: think_max is the top of a uniform pause whose bottom is
// think, so it needs a think, at most itself; otherwise the two are a
// conflict (refused, both named), not a pause silently changed.
func (c Config) checkThinkMax(p *problems) {
	dur := FormatDuration
	switch {
	case c.ThinkMax < 0 || c.ThinkMax > MaxTime:
		p.bad("think_max", dur(c.ThinkMax), "allowed 0s to "+dur(MaxTime))
	case c.ThinkMax != 0 && c.Think == 0:
		p.conflict(
			side{"think_max", dur(c.ThinkMax), "the longest think time: allowed only with a think (the shortest)"},
			side{"think", "0s", "must be set, 1ns to think_max (" + dur(c.ThinkMax) + "), for think_max to be the top of a uniform pause; or set think_max to 0s"})
	case c.ThinkMax != 0 && c.ThinkMax < c.Think:
		p.conflict(
			side{"think_max", dur(c.ThinkMax), fmt.Sprintf("allowed think (the shortest, %s) to %s", dur(c.Think), dur(MaxTime))},
			side{"think", dur(c.Think), fmt.Sprintf("the shortest think time: at most think_max (%s)", dur(c.ThinkMax))})
	}
}

// validateEngineSize refuses an event-driven run whose mean arrivals exceed
// MaxArrivals; it runs once every field is valid.
func (c Config) validateEngineSize(bad func(field, value, allowed string)) {
	if !c.EventDriven() {
		return
	}
	if n := c.ExpectedArrivals(); n > float64(MaxArrivals) {
		bad("duration", FormatDuration(c.Duration), fmt.Sprintf(
			"limit arrivals: an event-driven run allows at most %d arrivals per client on average; these parameters plan about %.0f, %.0f over (shorten the duration or lower the rate)",
			MaxArrivals, n, n-float64(MaxArrivals)))
	}
}
