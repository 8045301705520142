package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The query's fields, one row each, in canonical order: the deterministic
// model's, then the event engine's (sim/QUERY.md documents both).
// Fields, Values, Query, CanonicalField, ParseQuery and Validate loop over
// this table; a new field is one row here and its behaviour (a Config field,
// and what the model does with it).
var fieldTable = []field{
	{name: "preset", doc: "the named configuration the other fields start from", binding: presetBinding()},
	{name: "rate", doc: "requests due per second: request i is due at i/rate",
		binding: bind(func(c *Config) *Rate { return &c.Rate }, rates(1, ""))},
	{name: "service", doc: "the service time of one request",
		binding: bind(func(c *Config) *int64 { return &c.Service }, duration(0, MaxTime, ""))},
	{name: "stall", doc: "how long each stall lasts (0s: no stalls)", check: Config.checkStall,
		binding: bind(func(c *Config) *int64 { return &c.Stall }, duration(0, MaxTime, ""))},
	{name: "every", doc: "the period of the stalls (0s: a single stall)",
		binding: bind(func(c *Config) *int64 { return &c.Every }, duration(0, MaxTime, ""))},
	{name: "first", doc: "when the first stall begins",
		binding: bind(func(c *Config) *int64 { return &c.First }, duration(0, MaxTime, ""))},
	{name: "duration", doc: "requests fall due in [0, duration)",
		binding: bind(func(c *Config) *int64 { return &c.Duration }, duration(1, MaxDuration, ""))},
	{name: "interval", doc: "the expected interval of the closed loop's correction (auto: conns/rate)",
		binding: bind(func(c *Config) *int64 { return &c.Interval }, duration(0, MaxTime, "auto"))},
	{name: "above", doc: "the latency above which a sample counts as slow",
		binding: bind(func(c *Config) *int64 { return &c.Above }, duration(0, MaxTime, ""))},
	{name: "conns", doc: "the closed loop's connections",
		binding: bind(func(c *Config) *int { return &c.Conns }, count(1, MaxConns, "connections", ""))},
	{name: "workers", doc: "the server's workers (unlimited: every request is served at once)",
		binding: bind(func(c *Config) *int { return &c.Workers }, count(1, MaxWorkers, "workers", "unlimited"))},
	{name: "rank", doc: "the percentile rank rule: round (HdrHistogram C and Go) or ceil (nearest rank)",
		binding: bind(func(c *Config) *Rank { return &c.Rank }, choice[Rank]("round", "ceil"))},

	// The event engine's fields: their text is read trimmed (field.read).
	{name: "arrivals", engine: true, doc: "the arrival pattern",
		binding: bind(func(c *Config) *Arrivals { return &c.Arrivals }, choice[Arrivals](arrivalNames[:]...))},
	{name: "to", engine: true, doc: "ramp only, required: the rate at the end of the duration", check: Config.checkRampTo,
		binding: bind(func(c *Config) *Rate { return &c.RateTo }, rates(0, "the ramp's end rate: "))},
	{name: "bursts", engine: true, doc: "burst only: windows from-to@rate with their own rate", check: Config.checkBursts,
		binding: bind(func(c *Config) *Windows { return &c.Bursts }, windows(ParseBursts,
			"allowed up to 16 windows from-to@rate, comma separated, not overlapping (e.g. 5s-6s@20000)"))},
	{name: "dist", engine: true, doc: "the service time distribution; service is its first parameter", check: Config.checkDist,
		binding: bind(func(c *Config) *ServiceDist { return &c.Dist }, choice[ServiceDist](distNames[:]...))},
	{name: "service_p95", engine: true, doc: "lognormal only: the 95th percentile of the service time", check: Config.checkServiceP95,
		binding: bind(func(c *Config) *int64 { return &c.ServiceP95 }, durationIn(1,
			"the lognormal's 95th percentile: allowed 1ns to "+FormatDuration(MaxTime)+", as a Go duration"))},
	{name: "service_max", engine: true, doc: "uniform only: the maximum of the service time", check: Config.checkServiceMax,
		binding: bind(func(c *Config) *int64 { return &c.ServiceMax }, durationIn(0,
			"the uniform's maximum: allowed 0s to "+FormatDuration(MaxTime)+", as a Go duration"))},
	{name: "queue", engine: true, doc: "how many requests may wait for a worker (unbounded: no limit, 0: none)", check: Config.checkQueue,
		binding: bind(func(c *Config) *int { return &c.Queue }, queueValue())},
	{name: "timeout", engine: true, doc: "the client's timeout (0s: none)", check: Config.checkTimeout,
		binding: bind(func(c *Config) *int64 { return &c.Timeout }, durationIn(0,
			"the client's timeout: allowed 1ns to "+FormatDuration(MaxTime)+" as a Go duration, or 0s for none"))},
	{name: "outages", engine: true, doc: "windows from-to in which the server fails requests", check: Config.checkOutages,
		binding: bind(func(c *Config) *Windows { return &c.Outages }, windows(ParseOutages,
			"allowed up to 16 windows from-to, comma separated, not overlapping (e.g. 5s-6s,20s-20500ms)"))},
	{name: "attempts", engine: true, added: 2, doc: "attempts per call, the first included (1: no retry)", check: Config.checkAttempts,
		binding: bind(func(c *Config) *int { return &c.Attempts }, attemptsValue())},
	{name: "backoff", engine: true, added: 2, doc: "the fixed wait after a failed attempt before the next (attempts > 1 only)", check: Config.checkBackoff,
		binding: bind(func(c *Config) *int64 { return &c.Backoff }, durationIn(0,
			"the wait between attempts: allowed 0s to "+FormatDuration(MaxTime)+", as a Go duration"))},
	{name: "slow", engine: true, added: 2, doc: "windows from-to@xk in which a service that starts takes k times as long", check: Config.checkSlow,
		binding: bind(func(c *Config) *Windows { return &c.Slow }, windows(ParseSlowdowns,
			"allowed up to 16 windows from-to@xk, k from 1 to 1000, comma separated, not overlapping (e.g. 2s-3s@x10)"))},
	{name: "think", engine: true, added: 2, doc: "the closed loop's pause between a call's end and its connection's next request (0s: none)", check: Config.checkThink,
		binding: bind(func(c *Config) *int64 { return &c.Think }, durationIn(0,
			"the think time: allowed 0s to "+FormatDuration(MaxTime)+", as a Go duration"))},
	{name: "think_max", engine: true, added: 2, doc: "with think: the pause is uniform between think and think_max (0s: fixed)", check: Config.checkThinkMax,
		binding: bind(func(c *Config) *int64 { return &c.ThinkMax }, durationIn(0,
			"the longest think time: allowed 0s to "+FormatDuration(MaxTime)+", as a Go duration"))},
	{name: "seed", engine: true, doc: "the seed of every random stream",
		binding: bind(func(c *Config) *uint64 { return &c.Seed }, seedValue())},
}

// field is one row of the table: a query field's name, what it is, and how
// its text is read into a Config and written back.
type field struct {
	name   string
	engine bool // one of the event engine's fields (QUERY.md)
	// added is the engine version that added the field (0: the first).
	// Params lists such a field only when it is set, so that a result
	// without it keeps the params, and the hash, it had before.
	added int
	doc   string // one line: what it means
	binding
	// check, when set, holds Validate's rules for the field beyond its own
	// range (which binding.valid checks first): those that tie it to other
	// fields, as conflicts naming both (stall's names every) or a companion
	// missing or given without its choice (sim.Dependents).
	check func(c Config, p *problems)
}

// binding is how a field's text is read and written: Set and String, as a
// flag.Value, and reset and Validate's range check, over one Config field.
type binding struct {
	kind    FieldKind
	choices []string
	set     func(c *Config, text string) error // the error's text is the range allowed
	get     func(c Config) string              // the canonical text
	reset   func(c *Config, base Config)       // back to base's value
	valid   func(c Config) string              // nil, or the range allowed when the value is out of it ("" in range)
}

// value is the text of one type: how it is read (set leaves dst alone on
// error) and written, and the range Validate holds it to.
type value[T any] struct {
	kind    FieldKind
	choices []string
	set     func(dst *T, text string) error
	get     func(v T) string
	valid   func(v T) string // nil: no range of its own
}

// bind ties a value to the Config field at returns.
func bind[T any](at func(*Config) *T, v value[T]) binding {
	b := binding{kind: v.kind, choices: v.choices,
		set:   func(c *Config, s string) error { return v.set(at(c), s) },
		get:   func(c Config) string { return v.get(*at(&c)) },
		reset: func(c *Config, base Config) { *at(c) = *at(&base) },
	}
	if v.valid != nil {
		b.valid = func(c Config) string { return v.valid(*at(&c)) }
	}
	return b
}

// read sets the field from its text, or returns its error naming the text
// as given. An engine field's text is trimmed first; the model's fields
// trim their numbers but not their words (auto, unlimited, round, ceil).
func (f *field) read(c *Config, text string) *FieldError {
	v := text
	if f.engine {
		v = strings.TrimSpace(v)
	}
	if err := f.set(c, v); err != nil {
		return &FieldError{Field: f.name, Value: text, Allowed: err.Error()}
	}
	return nil
}

// lookup returns the row of a field, or nil.
func lookup(name string) *field {
	if i := fieldIndex(name); i >= 0 {
		return &fieldTable[i]
	}
	return nil
}

func fieldIndex(name string) int {
	for i := range fieldTable {
		if fieldTable[i].name == name {
			return i
		}
	}
	return -1
}

// FieldKind is what a field's text is.
type FieldKind uint8

const (
	KindChoice   FieldKind = iota // one of its choices
	KindRate                      // requests per second, at most three decimals
	KindDuration                  // a Go duration
	KindCount                     // a whole number
	KindWindows                   // windows of virtual time, from-to[@rate],…
)

// FieldInfo describes one query field, for a form or a reader.
type FieldInfo struct {
	Name string
	Kind FieldKind
	// Choices are a choice field's values, in order; for another field,
	// the words it takes in place of a value ("auto", "unlimited").
	Choices []string
	Engine  bool   // one of the event engine's fields
	Doc     string // what it means, in one line
}

// FieldTable describes every query field, in canonical order (a copy).
func FieldTable() []FieldInfo {
	out := make([]FieldInfo, len(fieldTable))
	for i := range fieldTable {
		out[i] = fieldTable[i].info()
	}
	return out
}

// LookupField describes one query field.
func LookupField(name string) (FieldInfo, bool) {
	if f := lookup(name); f != nil {
		return f.info(), true
	}
	return FieldInfo{}, false
}

func (f *field) info() FieldInfo {
	return FieldInfo{Name: f.name, Kind: f.kind, Choices: append([]string(nil), f.choices...), Engine: f.engine, Doc: f.doc}
}

// The values.

// presetBinding reads a preset's name: the whole Config becomes the
// preset's. It has no reset (a preset is where the others reset to).
func presetBinding() binding {
	names := presetNames()
	return binding{kind: KindChoice, choices: names,
		set: func(c *Config, name string) error {
			p, ok := PresetConfig(name)
			if !ok {
				return errors.New("allowed " + strings.Join(names, ", "))
			}
			*c = p
			return nil
		},
		get: func(c Config) string {
			if c.Preset == "" {
				return "bench"
			}
			return c.Preset
		},
		reset: func(*Config, Config) {},
	}
}

// duration is a duration of the model's, lo to hi, or the word auto (0).
func duration(lo, hi int64, auto string) value[int64] {
	span := fmt.Sprintf("allowed %s to %s", FormatDuration(lo), FormatDuration(hi))
	allowed := span + ", as a Go duration such as 100us, 200ms or 1s"
	v := durationIn(lo, allowed)
	v.valid = func(d int64) string {
		if d < lo || d > hi {
			return span
		}
		return ""
	}
	if auto == "" {
		return v
	}
	allowed += ", or " + auto
	v.choices = []string{auto}
	v.set = func(dst *int64, s string) error {
		if s == auto {
			*dst = 0
			return nil
		}
		return parseDuration(dst, s, lo, hi, allowed)
	}
	get := v.get
	v.get = func(d int64) string {
		if d == 0 {
			return auto
		}
		return get(d)
	}
	return v
}

// durationIn is a duration lo to MaxTime, refused with allowed.
func durationIn(lo int64, allowed string) value[int64] {
	return value[int64]{kind: KindDuration,
		set: func(dst *int64, s string) error { return parseDuration(dst, s, lo, MaxTime, allowed) },
		get: FormatDuration,
	}
}

func parseDuration(dst *int64, s string, lo, hi int64, allowed string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || int64(d) < lo || int64(d) > hi {
		return errors.New(allowed)
	}
	*dst = int64(d)
	return nil
}

// rates is a rate lo to MaxRate; what, if any, says what the rate is.
func rates(lo Rate, what string) value[Rate] {
	span := "allowed " + lo.String() + " to " + MaxRate.String() + " requests per second"
	return value[Rate]{kind: KindRate,
		set: func(dst *Rate, s string) error {
			r, err := ParseRate(s)
			if err != nil || r < lo || r > MaxRate {
				return errors.New(what + span + ", at most three decimals")
			}
			*dst = r
			return nil
		},
		get: Rate.String,
		valid: func(r Rate) string {
			if r < lo || r > MaxRate {
				return span
			}
			return ""
		},
	}
}

// count is a whole number of units lo to hi, or the word unlimited (0).
func count(lo, hi int, units, unlimited string) value[int] {
	span := fmt.Sprintf("allowed %d to %d %s", lo, hi, units)
	least, allowed, valid := lo, span, span
	if unlimited != "" {
		least, allowed, valid = 0, span+", or "+unlimited+" (0)", span+", or "+unlimited
	}
	v := value[int]{kind: KindCount,
		set: func(dst *int, s string) error {
			if unlimited != "" && s == unlimited {
				*dst = 0
				return nil
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < least || n > hi {
				return errors.New(allowed)
			}
			*dst = n
			return nil
		},
		get: func(n int) string {
			if unlimited != "" && n == 0 {
				return unlimited
			}
			return strconv.Itoa(n)
		},
		valid: func(n int) string {
			if n < least || n > hi {
				return valid
			}
			return ""
		},
	}
	if unlimited != "" {
		v.choices = []string{unlimited}
	}
	return v
}

// choice is one of names, the i-th being T(i); its text is T's String.
func choice[T interface {
	~uint8
	String() string
}](names ...string) value[T] {
	allowed := "allowed " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return value[T]{kind: KindChoice, choices: names,
		set: func(dst *T, s string) error {
			for i, n := range names {
				if s == n {
					*dst = T(i)
					return nil
				}
			}
			return errors.New(allowed)
		},
		get: T.String,
		valid: func(v T) string {
			if int(v) >= len(names) {
				return allowed
			}
			return ""
		},
	}
}

// windows is a list of windows read by parse, refused with allowed and
// parse's reason.
func windows(parse func(string) (Windows, error), allowed string) value[Windows] {
	return value[Windows]{kind: KindWindows,
		set: func(dst *Windows, s string) error {
			ws, err := parse(s)
			if err != nil {
				return errors.New(allowed + ": " + err.Error())
			}
			*dst = ws
			return nil
		},
		get: Windows.String,
	}
}

// queueValue is the queue's capacity: unbounded (Config.Queue 0), 0 (none:
// NoQueue) or 1 to MaxQueueCap waiting requests.
func queueValue() value[int] {
	allowed := fmt.Sprintf("allowed 0 to %d waiting requests, or unbounded", MaxQueueCap)
	return value[int]{kind: KindCount, choices: []string{"unbounded"},
		set: func(dst *int, s string) error {
			if s == "unbounded" {
				*dst = 0
				return nil
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > MaxQueueCap {
				return errors.New(allowed)
			}
			*dst = n
			if n == 0 {
				*dst = NoQueue
			}
			return nil
		},
		get: func(q int) string {
			switch {
			case q == NoQueue:
				return "0"
			case q > 0:
				return strconv.Itoa(q)
			}
			return "unbounded"
		},
	}
}

// attemptsValue is the attempts of a call, 1 to MaxAttempts; 1 (no retry)
// is stored as 0, so that a Config without retries has one value.
func attemptsValue() value[int] {
	v := count(1, MaxAttempts, "attempts", "")
	set := v.set
	v.set = func(dst *int, s string) error {
		if err := set(dst, s); err != nil {
			return err
		}
		if *dst == 1 {
			*dst = 0
		}
		return nil
	}
	get := v.get
	v.get = func(n int) string { return get(max(n, 1)) }
	v.valid = func(n int) string {
		if n < 0 || n > MaxAttempts {
			return fmt.Sprintf("allowed 1 to %d attempts", MaxAttempts)
		}
		return ""
	}
	return v
}

// seedValue is a 64-bit seed in decimal digits.
func seedValue() value[uint64] {
	return value[uint64]{kind: KindCount,
		set: func(dst *uint64, s string) error {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return errors.New("allowed 0 to 18446744073709551615, in decimal digits")
			}
			*dst = n
			return nil
		},
		get: func(n uint64) string { return strconv.FormatUint(n, 10) },
	}
}
