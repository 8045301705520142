package sim

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// fields are the query names in canonical order; the event engine's
// (engine_config.go, QUERY.md) follow the deterministic model's.
var fields = append([]string{"preset", "rate", "service", "stall", "every", "first", "duration", "interval", "above", "conns", "workers", "rank"}, engineFields...)

// Fields returns the query names in canonical order (a copy).
func Fields() []string { return append([]string(nil), fields...) }

// FormatDuration writes ns in Go duration syntax with the largest unit that
// represents it exactly (ASCII "us" for microseconds), so that one value has
// one spelling.
func FormatDuration(ns int64) string {
	if ns == 0 {
		return "0s"
	}
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	units := []struct {
		name string
		size int64
	}{{"h", 3600e9}, {"m", 60e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}}
	for _, u := range units {
		if ns%u.size == 0 {
			return sign + strconv.FormatInt(ns/u.size, 10) + u.name
		}
	}
	return sign + strconv.FormatInt(ns, 10) + "ns"
}

// ParseRate reads a decimal rate with at most three decimals.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && !dot || len(frac) > 3 || (dot && frac == "") {
		return 0, fmt.Errorf("not a decimal number with at most three decimals")
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a decimal number with at most three decimals")
		}
	}
	if len(whole) > 12 {
		return 0, fmt.Errorf("too large")
	}
	var w, f int64
	if whole != "" {
		w, _ = strconv.ParseInt(whole, 10, 64)
	}
	if frac != "" {
		f, _ = strconv.ParseInt((frac + "00")[:3], 10, 64)
	}
	return Rate(w*1000 + f), nil
}

// ParseQuery reads a query string (or a whole URL; a leading '?' is fine)
// into a Config: the preset first, then each field over it. Every problem is
// returned at once, as Errors; a field in error keeps the preset's value, so
// the Config returned is always runnable when only field errors occurred.
// Keys named in extra are allowed and ignored (the page's own keys).
func ParseQuery(q string, extra ...string) (Config, error) {
	if i := strings.IndexByte(q, '?'); i >= 0 {
		q = q[i+1:]
	}
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q = q[:i]
	}
	var es Errors
	vals, err := url.ParseQuery(q)
	if err != nil {
		es = append(es, &FieldError{Field: "query", Value: "", Allowed: "cannot be decoded: " + err.Error()})
	}
	cfg := Default()
	// A key given more than once is refused, whatever its values: the field
	// keeps the preset's value, so that the query means one thing.
	get := func(k string) (string, bool) {
		vs, ok := vals[k]
		if !ok {
			return "", false
		}
		if len(vs) > 1 {
			es = append(es, &FieldError{Field: k, Value: strings.Join(vs, ","), Reason: ReasonRepeated,
				Allowed: fmt.Sprintf("given %d times; give it once (the run keeps the preset's value)", len(vs))})
			return "", false
		}
		return vs[0], true
	}
	if name, ok := get("preset"); ok {
		if p, found := PresetConfig(name); found {
			cfg = p
		} else {
			es = append(es, &FieldError{Field: "preset", Value: name, Allowed: "allowed " + strings.Join(presetNames(), ", ")})
		}
	}
	for _, name := range fields[1:] {
		if v, ok := get(name); ok {
			if fe := cfg.setField(name, v); fe != nil {
				es = append(es, fe)
			}
		}
	}
	known := map[string]bool{}
	for _, f := range append(Fields(), extra...) {
		known[f] = true
	}
	var unknown []string
	for k := range vals {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sortStrings(unknown)
		for _, k := range unknown {
			es = append(es, &FieldError{Field: k, Reason: ReasonUnknown, Allowed: "unknown parameter; known: " + strings.Join(fields, ", ")})
		}
	}
	// Cross-field rules and size limits. A field they name goes back to the
	// preset's value, so the Config returned always runs.
	if err := cfg.Validate(); err != nil {
		// Every problem at once, each field named once: a field whose value
		// was refused keeps the preset's value and is not named again (a
		// repeated key's field is, since it was not given at all).
		for _, fe := range err.(Errors) {
			if prev := es.Field(fe.Field); prev == nil || prev.Reason == ReasonRepeated {
				es = append(es, fe)
			}
		}
		base, _ := PresetConfig(cfg.Preset)
		for _, fe := range err.(Errors) {
			cfg.reset(fe.Field, base)
			// A field that another choice needs (service_p95 with
			// dist=lognormal …) takes that choice back with it.
			if owner, ok := dependsOn[fe.Field]; ok {
				cfg.reset(owner, base)
			}
		}
		if cfg.Validate() != nil {
			cfg = base
		}
	}
	if es != nil {
		return cfg, es
	}
	return cfg, nil
}

// setField reads one field's text (any field but preset) into c. It checks
// the value on its own; the rules between fields are Validate's.
func (c *Config) setField(name, v string) *FieldError {
	dur := func(dst *int64, lo, hi int64, auto string) *FieldError {
		allowed := fmt.Sprintf("allowed %s to %s, as a Go duration such as 100us, 200ms or 1s", FormatDuration(lo), FormatDuration(hi))
		if auto != "" {
			allowed += ", or " + auto
			if v == auto {
				*dst = 0
				return nil
			}
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || int64(d) < lo || int64(d) > hi {
			return &FieldError{Field: name, Value: v, Allowed: allowed}
		}
		*dst = int64(d)
		return nil
	}
	switch name {
	case "rate":
		r, err := ParseRate(v)
		if err != nil || r < 1 || r > MaxRate {
			return &FieldError{Field: "rate", Value: v, Allowed: "allowed 0.001 to 10000000 requests per second, at most three decimals"}
		}
		c.Rate = r
	case "service":
		return dur(&c.Service, 0, MaxTime, "")
	case "stall":
		return dur(&c.Stall, 0, MaxTime, "")
	case "every":
		return dur(&c.Every, 0, MaxTime, "")
	case "first":
		return dur(&c.First, 0, MaxTime, "")
	case "duration":
		return dur(&c.Duration, 1, MaxDuration, "")
	case "interval":
		return dur(&c.Interval, 0, MaxTime, "auto")
	case "above":
		return dur(&c.Above, 0, MaxTime, "")
	case "conns":
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > MaxConns {
			return &FieldError{Field: "conns", Value: v, Allowed: fmt.Sprintf("allowed 1 to %d connections", MaxConns)}
		}
		c.Conns = n
	case "workers":
		if v == "unlimited" {
			c.Workers = 0
			return nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > MaxWorkers {
			return &FieldError{Field: "workers", Value: v, Allowed: fmt.Sprintf("allowed 1 to %d workers, or unlimited (0)", MaxWorkers)}
		}
		c.Workers = n
	case "rank":
		switch v {
		case "round":
			c.Rank = RankRound
		case "ceil":
			c.Rank = RankCeil
		default:
			return &FieldError{Field: "rank", Value: v, Allowed: "allowed round or ceil"}
		}
	default:
		return c.parseEngineField(name, v)
	}
	return nil
}

// CanonicalField returns the canonical writing of one field's text, read
// over the named preset, or the field's own error (the rules between
// fields are not applied: see ParseQuery).
func CanonicalField(preset, name, text string) (string, *FieldError) {
	cfg, ok := PresetConfig(preset)
	if !ok {
		cfg = Default()
	}
	i := fieldIndex(name)
	if i < 0 {
		return "", &FieldError{Field: name, Reason: ReasonUnknown, Allowed: "unknown parameter; known: " + strings.Join(fields, ", ")}
	}
	if i == 0 {
		if _, ok := PresetConfig(text); !ok {
			return "", &FieldError{Field: "preset", Value: text, Allowed: "allowed " + strings.Join(presetNames(), ", ")}
		}
		return text, nil
	}
	if fe := cfg.setField(name, text); fe != nil {
		return "", fe
	}
	return cfg.Values()[i], nil
}

func fieldIndex(name string) int {
	for i, f := range fields {
		if f == name {
			return i
		}
	}
	return -1
}

func presetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// Dependent is a field that belongs to one choice of another: it is
// offered, and may be given, only with that choice.
type Dependent struct {
	Field    string // "service_p95"
	Owner    string // "dist"
	Choice   string // "lognormal"
	Required bool   // the choice cannot run without it
}

var dependents = []Dependent{
	{"to", "arrivals", "ramp", false},
	{"bursts", "arrivals", "burst", true},
	{"service_p95", "dist", "lognormal", true},
	{"service_max", "dist", "uniform", true},
}

// Dependents lists the fields that belong to a choice of another field.
func Dependents() []Dependent { return append([]Dependent(nil), dependents...) }

// dependsOn maps a dependent field to its owner.
var dependsOn = func() map[string]string {
	m := map[string]string{}
	for _, d := range dependents {
		m[d.Field] = d.Owner
	}
	return m
}()

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Values returns each field's canonical text, in Fields order.
func (c Config) Values() []string {
	w := strconv.Itoa(c.Workers)
	if c.Workers == 0 {
		w = "unlimited"
	}
	iv := FormatDuration(c.Interval)
	if c.Interval == 0 {
		iv = "auto"
	}
	p := c.Preset
	if p == "" {
		p = "bench"
	}
	return append([]string{p, c.Rate.String(), FormatDuration(c.Service), FormatDuration(c.Stall),
		FormatDuration(c.Every), FormatDuration(c.First), FormatDuration(c.Duration), iv,
		FormatDuration(c.Above), strconv.Itoa(c.Conns), w, c.Rank.String()}, c.engineFieldValues()...)
}

// Query returns the canonical query string: fixed key order, normalised
// values, and only the fields that differ from the preset (the bench preset
// itself is the default and is omitted). One state, one URL.
func (c Config) Query() string {
	base, ok := PresetConfig(c.Preset)
	if !ok {
		base = Default()
	}
	mine, theirs := c.Values(), base.Values()
	var b strings.Builder
	for i, k := range fields {
		if k == "preset" {
			if c.Preset == "" || c.Preset == "bench" {
				continue
			}
		} else if mine[i] == theirs[i] {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(queryEscape(mine[i]))
	}
	return b.String()
}

// QueryEscape escapes a query key or value as Query writes it (queryEscape):
// the pages write their whole address with it (app/ui's Address).
func QueryEscape(s string) string { return queryEscape(s) }

// queryEscape is url.QueryEscape leaving ',' and '@' as they are: both are
// allowed in a query, and the window lists read better without %2C and %40.
func queryEscape(s string) string {
	e := url.QueryEscape(s)
	if strings.Contains(e, "%") {
		e = strings.NewReplacer("%2C", ",", "%40", "@").Replace(e)
	}
	return e
}

// reset sets one field back to base's value.
func (c *Config) reset(field string, base Config) {
	switch field {
	case "rate":
		c.Rate = base.Rate
	case "service":
		c.Service = base.Service
	case "stall":
		c.Stall = base.Stall
	case "every":
		c.Every = base.Every
	case "first":
		c.First = base.First
	case "duration":
		c.Duration = base.Duration
	case "interval":
		c.Interval = base.Interval
	case "above":
		c.Above = base.Above
	case "conns":
		c.Conns = base.Conns
	case "workers":
		c.Workers = base.Workers
	case "rank":
		c.Rank = base.Rank
	default:
		c.resetEngine(field, base)
	}
}
