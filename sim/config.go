package sim

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Rank is the percentile rank convention.
type Rank uint8

const (
	// RankRound is HdrHistogram's (C and Go): rank floor(p/100·n + 1/2), at least 1.
	RankRound Rank = iota
	// RankCeil is the nearest-rank rule (Java HdrHistogram): rank ceil(p/100·n).
	RankCeil
)

func (r Rank) String() string {
	if r == RankCeil {
		return "ceil"
	}
	return "round"
}

// Rate is a request rate in thousandths of a request per second, so that
// rates such as 0.5/s and 333.333/s are exact.
type Rate int64

// RateOf returns the Rate of n whole requests per second.
func RateOf(n int64) Rate { return Rate(n * 1000) }

func (r Rate) String() string {
	whole, frac := int64(r)/1000, int64(r)%1000
	if frac == 0 {
		return fmt.Sprint(whole)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%03d", whole, frac), "0")
}

// Config is one simulation. Times are nanoseconds.
type Config struct {
	Preset   string // the preset the parameters started from ("" is bench)
	Rate     Rate   // requests per second (milli)
	Service  int64  // service time
	Stall    int64  // stall length; 0: no stalls
	Every    int64  // stall period; 0: a single stall at First
	First    int64  // start of the first stall
	Duration int64  // requests are due in [0, Duration)
	Interval int64  // expected interval for the correction; 0: conns/rate
	Above    int64  // threshold for the "above" count
	Conns    int    // closed-loop connections
	Workers  int    // server workers; 0: unlimited
	Rank     Rank

	// The event engine's fields (engine.go, QUERY.md). Their zero values are
	// today's model: constant arrivals, fixed service, an unbounded queue,
	// no timeout, no outages.
	Arrivals   Arrivals    // the arrival pattern
	RateTo     Rate        // ramp: the rate at the end of the duration
	Bursts     Windows     // burst: windows from-to@rate (ParseBursts)
	Dist       ServiceDist // the service time distribution; Service is its first parameter
	ServiceP95 int64       // lognormal: the 95th percentile (Service is the median)
	ServiceMax int64       // uniform: the maximum (Service is the minimum)
	Queue      int         // waiting room: 0 unbounded, NoQueue none, n at most n waiting
	Timeout    int64       // client timeout; 0: none
	Outages    Windows     // outage windows from-to (ParseOutages)
	Attempts   int         // attempts per call, the first included; 0 or 1: no retry
	Backoff    int64       // the fixed wait after a failed attempt before the next
	Slow       Windows     // slowdown windows from-to@xk (ParseSlowdowns)
	Think      int64       // the closed loop's pause between a call's end and its connection's next request
	ThinkMax   int64       // with Think: the pause is uniform between Think and ThinkMax (0: fixed)
	Seed       uint64      // the seed of every random stream
}

// Limits. A configuration beyond one of them is refused with a message that
// names the limit and by how much it is exceeded.
const (
	MaxRate     = Rate(10_000_000 * 1000) // 10M requests/s
	MaxDuration = int64(86400e9)          // one day of virtual time
	MaxTime     = int64(86400e9)          // stall, service, first, every, interval, above
	MaxConns    = 10000
	MaxWorkers  = 10000
	// MaxRequests bounds the work of one deterministic run: stretches of
	// the long path (stalls met × slots), or requests one at a time.
	MaxRequests = int64(50_000_000)
	// ExactSamples: a deterministic run walks and keeps every request up to
	// this many a client (beyond, the long path keeps counted runs, exact
	// too); the event engine keeps exact samples up to this many a client.
	ExactSamples  = int64(2_000_000)
	HistogramSigf = 3 // the event engine's significant digits beyond ExactSamples
)

// maxVirtualTime bounds a run's virtual clock (about 36 years), well inside
// int64 nanoseconds and the histograms' range.
const maxVirtualTime = float64(int64(1) << 60)

// maxCorrected bounds the samples a correction may add to one recording.
const maxCorrected = float64(int64(1) << 61)

// Default is the bench preset, the reference run of seed 000.
func Default() Config {
	return Config{
		Rate:     RateOf(5000),
		Service:  100e3,
		Stall:    200e6,
		Every:    1e9,
		First:    500e6,
		Duration: 20e9,
		Above:    1e6,
		Conns:    1,
		Workers:  1,
		Rank:     RankRound,
	}
}

// Preset is a named starting configuration.
type Preset struct {
	Name, Title, Source string
	Config              Config
}

// Presets lists the named configurations, in display order.
func Presets() []Preset { return slices.Clone(presetTable()) }

// presetTable is the presets, built once: every query parsed starts from
// one (PresetConfig), and building them parses their windows again each
// time (on a cold load of the article, a third of what its queries cost
// the page's thread). A Config is a value, so the copies handed out share
// nothing with the table.
var presetTable = sync.OnceValue(buildPresets)

func buildPresets() []Preset {
	bench := Default()
	tcp := Default()
	tcp.Rate, tcp.Service, tcp.Stall, tcp.Every, tcp.First, tcp.Duration = RateOf(1000), 10e3, 500e6, 5e9, 2500e6, 20e9
	note := Default()
	note.Rate, note.Service, note.Stall, note.Every, note.First, note.Duration, note.Workers = RateOf(1000), 1e6, 1e9, 0, 30e9, 60e9, 0
	single := note
	single.Workers = 1
	c10 := Default()
	c10.Rate, c10.Conns, c10.Service, c10.Stall, c10.Every, c10.First, c10.Duration, c10.Workers = RateOf(1000), 10, 10e6, 1e9, 0, 30e9, 60e9, 0
	// A retry storm after an outage (the retry rules of seed 002): the
	// server is 80 % busy; a 500 ms outage fails every call in it; the open
	// loop's retries, three attempts 100 ms apart, meet the returning server
	// at three times the load, and the timed-out attempts it still serves
	// keep it saturated to the end.
	storm := Default()
	storm.Rate, storm.Service, storm.Stall, storm.Every, storm.First, storm.Duration = RateOf(1000), 800e3, 0, 0, 0, 10e9
	storm.Timeout, storm.Attempts, storm.Backoff = 50e6, 3, 100e6
	storm.Outages, _ = ParseOutages("4s-4500ms")
	pause := rivalIncident(180, 32, 72, 34, 35, "8s-9400ms@x7", 17)
	brownout := rivalIncident(155, 28, 88, 42, 45, "7s-14s@x3.8", 31)
	saturation := rivalIncident(260, 18, 78, 28, 28, "5s-18s@x2.5", 43)
	baseline := rivalIncident(120, 36, 64, 24, 40, "9s-11s@x1.15", 59)
	ps := []Preset{
		{"bench", "Seed 000: 5000/s, 100 µs service, 200 ms stall every 1 s", "000", bench},
		{"tcp", "Seed 001: 1000/s, 10 µs service, 500 ms stall every 5 s", "001", tcp},
		{"note60", "Seed 004: 60 s at 1000/s, 1 ms service, one 1 s stall, unlimited workers", "004", note},
		{"note60-single", "Seed 004 with one worker: the queue never drains", "004", single},
		{"clients10", "Seed 003: 1000/s over 10 connections, 10 ms service, one 1 s stall, unlimited workers", "003", c10},
		{"retry-storm", "Seed 002's retries: 1000/s, 800 µs service, a 500 ms outage at 4 s, 50 ms timeout, 3 attempts 100 ms apart", "002", storm},
		{"pause", "The rival's stop-the-world pause: 180/s, 32 workers, 72 ms ± 34 %, ×7 for 1.4 s at 8 s, 20 users thinking 35 ms", rivalSource, pause},
		{"brownout", "The rival's downstream brownout: 155/s, 28 workers, 88 ms ± 42 %, ×3.8 for 7 s at 7 s, 21 users thinking 45 ms", rivalSource, brownout},
		{"saturation", "The rival's pool saturation: 260/s, 18 workers, 78 ms ± 28 %, ×2.5 for 13 s at 5 s, 28 users thinking 28 ms", rivalSource, saturation},
		{"baseline", "The rival's healthy baseline: 120/s, 36 workers, 64 ms ± 24 %, ×1.15 for 2 s at 9 s, 13 users thinking 40 ms", rivalSource, baseline},
	}
	for i := range ps {
		ps[i].Config.Preset = ps[i].Name
	}
	ps[0].Config.Preset = ""
	return ps
}

// rivalSource is where the four incident presets come from: the PRESETS of
// lib/simulation.ts in github.com/telemetry-sh/coordinated-omission-lab.
const rivalSource = "telemetry-sh/coordinated-omission-lab"

// rivalIncident maps one of the rival's incidents onto the query: its
// 24 s at rps requests a second (our schedule; its open loop's too), its
// workers, its service base·(1 ± jitter %) as dist=uniform between the two
// (its draws are uniform in that range), its incident as a slowdown window
// (its rule: a service that starts inside takes the multiplier times as
// long), its users as connections, ceil(rps·(base + think)) as it counts
// them, each thinking its fixed think time after a reply, its correction's
// interval 1/rps (it corrects the closed loop with the rate's interval, not
// with conns/rate), its 500 ms objective as above, and its nearest-rank
// percentiles (rank=ceil). No stall. Where the models differ (our closed
// loop keeps to the schedule, the rival's users send as soon as they have
// thought, and ours sends every request of the schedule, past the end if
// late; the random numbers are xoshiro256**'s, not mulberry32's, from the
// same seed number) the figures differ too: sim/rival_test.go measures by
// how much.
func rivalIncident(rps, workers, baseMs, jitterPct, thinkMs int64, slow string, seed uint64) Config {
	c := Default()
	c.Rate, c.Workers, c.Duration, c.Stall, c.Every, c.First = RateOf(rps), int(workers), 24e9, 0, 0, 0
	c.Dist, c.Service, c.ServiceMax = ServiceUniform, baseMs*1e4*(100-jitterPct), baseMs*1e4*(100+jitterPct)
	c.Conns = int((rps*(baseMs+thinkMs) + 999) / 1000)
	c.Think = thinkMs * 1e6
	c.Slow, _ = ParseSlowdowns(slow)
	c.Interval = (1e9 + rps/2) / rps
	c.Above, c.Rank, c.Seed = 500e6, RankCeil, seed
	return c
}

// PresetConfig returns the named preset's configuration.
func PresetConfig(name string) (Config, bool) {
	if name == "" {
		name = "bench"
	}
	for _, p := range presetTable() {
		if p.Name == name {
			return p.Config, true
		}
	}
	return Config{}, false
}

// FieldError is one invalid field: its name, the value given and the range allowed.
type FieldError struct {
	Field, Value, Allowed string
	Reason                Reason // why it was refused
	// With is, for a conflict, the other field of the rule: the two are
	// valid alone and not together, and each is named with the other.
	With string
}

// Reason says why a query key was refused.
type Reason uint8

const (
	ReasonInvalid  Reason = iota // the value is malformed or out of its range: the run keeps the preset's value
	ReasonUnknown                // the key is no field of the query
	ReasonRepeated               // the key was given more than once
	ReasonLimit                  // the run would pass a size or cost limit: nothing runs
	// ReasonConflict: the value is valid alone but not with another field's
	// (stall ≥ every, service_p95 below service …): nothing runs.
	ReasonConflict
	// ReasonRequired: a choice needs this field and it is missing
	// (dist=lognormal without service_p95): the run goes without that choice.
	ReasonRequired
)

// Refuses reports whether a query with this error runs nothing: a conflict
// between fields or a limit. The other reasons fall back (ParseQuery).
func (r Reason) Refuses() bool { return r == ReasonConflict || r == ReasonLimit }

// MaxQuoted is the most characters of a value a message quotes.
const MaxQuoted = 64

// Quote quotes a value for a message, cut to MaxQuoted characters (a URL
// may hold a value of any length; a message never echoes it whole).
func Quote(v string) string {
	if n := len([]rune(v)); n > MaxQuoted {
		return fmt.Sprintf("%q… (%d characters)", string([]rune(v)[:MaxQuoted]), n)
	}
	return fmt.Sprintf("%q", v)
}

func (e *FieldError) Error() string {
	if e.Reason == ReasonConflict {
		return fmt.Sprintf("%s: %s is not allowed with %s: %s", e.Field, Quote(e.Value), e.With, e.Allowed)
	}
	if e.Value == "" {
		return fmt.Sprintf("%s: %s", e.Field, e.Allowed)
	}
	return fmt.Sprintf("%s: %s is not allowed: %s", e.Field, Quote(e.Value), e.Allowed)
}

// Errors is every problem found at once.
type Errors []*FieldError

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "; ")
}

// Field returns the error for one field, or nil.
func (es Errors) Field(name string) *FieldError {
	for _, e := range es {
		if e.Field == name {
			return e
		}
	}
	return nil
}

// Refused reports whether the errors refuse the run (Reason.Refuses): the
// Config ParseQuery returned beside them holds the reader's values and
// does not run.
func (es Errors) Refused() bool {
	for _, e := range es {
		if e.Reason.Refuses() {
			return true
		}
	}
	return false
}

// problems collects Validate's findings, by reason.
type problems struct{ es Errors }

// bad records a value out of its range, or a companion given without its
// choice (ReasonInvalid).
func (p *problems) bad(field, value, allowed string) {
	p.es = append(p.es, &FieldError{Field: field, Value: value, Allowed: allowed})
}

// required records a companion its owner's choice needs and lacks.
func (p *problems) required(field, allowed string) {
	p.es = append(p.es, &FieldError{Field: field, Allowed: allowed, Reason: ReasonRequired})
}

// limit records a size limit: the run as a whole, naming the field to change.
func (p *problems) limit(field, value, allowed string) {
	p.es = append(p.es, &FieldError{Field: field, Value: value, Allowed: allowed, Reason: ReasonLimit})
}

// side is one field of a conflict: its value and what it must be.
type side struct{ field, value, allowed string }

// conflict records two fields valid alone and not together, each with its
// own message naming the other and its value.
func (p *problems) conflict(a, b side) {
	p.es = append(p.es,
		&FieldError{Field: a.field, Value: a.value, Allowed: a.allowed, Reason: ReasonConflict, With: b.field},
		&FieldError{Field: b.field, Value: b.value, Allowed: b.allowed, Reason: ReasonConflict, With: a.field})
}

// Validate checks every field, the rules between fields and the size
// limits, returning every problem at once as Errors (nil when the
// configuration can run). The size limits need fields that hold together:
// they are checked once no other problem is left (a run refused for a
// conflict is checked against them when the conflict is mended).
func (c Config) Validate() error {
	if es := c.problems(); es != nil {
		return es
	}
	return nil
}

func (c Config) problems() Errors {
	var p problems
	// Each field's own range, then its rules with the others (fieldTable).
	for i := range fieldTable {
		f := &fieldTable[i]
		if f.valid != nil {
			if allowed := f.valid(c); allowed != "" {
				p.bad(f.name, f.get(c), allowed)
				continue
			}
		}
		if f.check != nil {
			f.check(c, &p)
		}
	}
	if len(p.es) == 0 {
		c.validateEngineSize(p.limit)
	}
	if len(p.es) == 0 && !c.EventDriven() {
		c.validateFastSize(p.limit)
	}
	return p.es
}

// checkStall: a stall as long as its period leaves the server no time.
func (c Config) checkStall(p *problems) {
	if c.Every > 0 && c.Stall >= c.Every {
		stall, every := FormatDuration(c.Stall), FormatDuration(c.Every)
		p.conflict(
			side{"stall", stall, fmt.Sprintf("must be shorter than every (%s), or the server never runs", every)},
			side{"every", every, fmt.Sprintf("must be longer than stall (%s), or the server never runs; 0s is a single stall", stall)})
	}
}

// validateFastSize refuses a deterministic run that the fast path cannot
// make: one whose virtual clock or correction could overflow, or a long run
// (beyond ExactSamples requests a client) whose stretches, about the stalls
// met times the slots of the clients, would exceed MaxRequests.
func (c Config) validateFastSize(bad func(field, value, allowed string)) {
	n := NewSchedule(c.Rate).Count(c.Duration)
	end := c.fastEnd(n)
	if end > maxVirtualTime {
		bad("service", FormatDuration(c.Service), fmt.Sprintf(
			"limit: requests × service, stretched by the stalls, reaches about %.3g s of virtual time, over the limit of %.3g s (shorten the duration, the service or the stalls)",
			end/1e9, maxVirtualTime/1e9))
		return
	}
	// The correction adds fewer than v/E samples for each sample v, and the
	// latencies of a closed loop with N connections sum to at most N times
	// its span (at most N requests are out at once): at most N·end/E.
	if add := float64(c.Conns)*end/float64(c.ExpectedInterval()) + end/float64(c.PacedInterval()); add > maxCorrected {
		e := min(c.ExpectedInterval(), c.PacedInterval())
		bad("interval", FormatDuration(e), fmt.Sprintf(
			"limit: with this expected interval the correction could add about %.3g samples, over the limit of %.3g (a longer interval, or a shorter run)",
			add, maxCorrected))
		return
	}
	if n <= ExactSamples {
		return // walked request by request
	}
	if w := c.longWork(n, c.longEnd(n, end)); w > float64(MaxRequests) {
		bad("duration", FormatDuration(c.Duration), fmt.Sprintf(
			"limit requests: a run of %d requests a client is simulated stretch by stretch, about %.3g of them here (stalls met × connections or workers), over the limit of %d (fewer stalls: a longer every; fewer conns or workers; or a shorter duration)",
			n, w, MaxRequests))
	}
}

// fastEnd bounds the last reply of a deterministic run of n requests a
// client. Each client's requests split over its k slots, each slot a server
// of its own fed before the duration: the last reply comes at most the work
// of one slot's requests after it, stretched by the stalls' share.
func (c Config) fastEnd(n int64) float64 {
	kOpen, kClosed := int64(c.Workers), int64(c.Conns)
	if c.Workers == 0 {
		kOpen = n
	}
	if c.Workers != 0 && c.Workers < c.Conns {
		kClosed = int64(c.Workers)
	}
	perSlot := func(k int64) float64 { return float64((n+k-1)/max(k, 1)) * float64(c.Service) }
	work := max(perSlot(kOpen), perSlot(kClosed))
	if c.Stall > 0 && c.Every > 0 {
		work = work*float64(c.Every)/float64(c.Every-c.Stall) + float64(c.Stall)
	} else {
		work += float64(c.Stall)
	}
	return float64(c.Duration) + work
}

// longEnd estimates the last reply of a long run, for its work: when the
// slots keep up with the schedule, stalls' share included (load ρ < 1), the
// duration and one stall's backlog drained at the spare capacity 1 − ρ;
// else the bound end of fastEnd.
func (c Config) longEnd(n int64, end float64) float64 {
	k := float64(c.Conns)
	if c.Workers != 0 {
		k = min(k, float64(c.Workers))
	}
	x := float64(nsPerMilliRate) / float64(c.Rate) // 1/rate in ns
	rho := float64(c.Service) / (k * x)
	if c.Stall > 0 && c.Every > 0 {
		rho *= float64(c.Every) / float64(c.Every-c.Stall)
	}
	if rho >= 1 {
		return end
	}
	return min(end, float64(c.Duration)+float64(c.Stall+c.Service)/(1-rho))
}

// longWork estimates the stretches the long path walks for all clients: a
// few per slot for every stall met before end, the pair of classes of a
// closed loop with fewer workers than connections counted twice.
func (c Config) longWork(n int64, end float64) float64 {
	if c.Stall > 0 && c.Every > 0 && c.Service > c.Every-c.Stall {
		// Every service spans a stall: each request that waits for another
		// is one at a time (closed, paced, open with workers).
		return 3 * float64(n)
	}
	stalls := float64(1)
	if c.Stall > 0 {
		stalls += float64(newStalls(c).Count(int64(min(end, maxVirtualTime))))
	}
	slots := float64(1) // paced
	if c.Workers > 0 {
		slots += float64(c.Workers)
	} else {
		slots += 2 // unlimited: a stretch in, and one after, each stall
	}
	if c.Workers != 0 && c.Workers < c.Conns {
		slots += 2 * float64(c.Workers)
	} else {
		slots += float64(c.Conns)
	}
	return 4 * stalls * slots
}

// ExpectedInterval is the E the closed loop's correction uses: Interval if
// set, else each connection's own interval conns/rate, rounded to a nanosecond.
func (c Config) ExpectedInterval() int64 {
	if c.Interval > 0 {
		return c.Interval
	}
	return NewSchedule(c.Rate).Interval(int64(c.Conns))
}

// PacedSlot is the paced client's slot length, 1/rate rounded to a nanosecond.
func (c Config) PacedSlot() int64 { return NewSchedule(c.Rate).Interval(1) }

// PacedInterval is the E of the paced client's correction: its slot 1/rate
// (the interval field sets the closed loop's E only).
func (c Config) PacedInterval() int64 { return c.PacedSlot() }
