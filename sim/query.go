package sim

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Fields returns the query names in canonical order (a copy): the
// deterministic model's, then the event engine's (fields.go, QUERY.md).
func Fields() []string {
	names := make([]string, len(fieldTable))
	for i := range fieldTable {
		names[i] = fieldTable[i].name
	}
	return names
}

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
// into a Config: the preset first, then each field over it. It is the one
// rule for a query, the page's and the command line's. Every problem is
// returned at once, as Errors, each field named once:
//
//   - a value invalid on its own (ReasonInvalid), an unknown or a repeated
//     key: the field keeps the preset's value and the run goes on; so does
//     a companion given without its choice (service_p95 without
//     dist=lognormal), and a choice whose required companion is missing
//     (ReasonRequired) runs without that choice;
//   - fields valid alone but not together (ReasonConflict: stall ≥ every,
//     service_p95 below service …) are each named, with the other field
//     and its value, and the run is refused: Errors.Refused;
//   - a run over a size limit (ReasonLimit) is refused, and so is one whose
//     fallen-back values, the preset's in place of the invalid ones, then
//     conflict or pass a limit.
//
// When the errors fall back only, the Config returned runs (Validate is
// nil); when they refuse, it holds the reader's values (the preset's in
// place of the invalid ones), never the preset's run in their stead, and
// it must not be run. Keys named in extra are allowed and ignored (the
// page's own keys).
func ParseQuery(q string, extra ...string) (Config, error) {
	cfg, es, given := readQueryKeys(q, extra)
	// The rules between fields and the limits: a fallback may bring a new
	// problem (the preset's every beside a given stall), so they are
	// checked again over the fallen-back values until none is left or the
	// run is refused.
	// Each reset takes a field back to the preset's value, so the passes end.
	for pass := 0; pass <= len(fieldTable); pass++ {
		found := cfg.problems()
		for _, fe := range found {
			// Each field is named once: a field whose value was refused
			// keeps the preset's value and is not named again (a repeated
			// key's field is, since it was not given at all).
			if prev := es.Field(fe.Field); prev == nil || prev.Reason == ReasonRepeated {
				es = append(es, fe)
			}
		}
		if len(found) == 0 || found.Refused() {
			break // runs, or refused with the reader's values
		}
		base, _ := PresetConfig(cfg.Preset)
		for _, fe := range found {
			switch fe.Reason {
			case ReasonInvalid:
				// The preset's value, or the default's when the preset's is
				// the one refused (its service_max beside a dist=fixed).
				to := base
				if f := lookup(fe.Field); f != nil && f.get(cfg) == f.get(base) {
					to = Default()
				}
				cfg.reset(fe.Field, to)
			case ReasonRequired:
				// The choice that needs it (dist=lognormal …) runs without
				// it: the preset's choice, or the default's when the
				// preset's is the one (preset=pause&service_max=0s).
				owner, to := dependsOn[fe.Field], base
				if f := lookup(owner); f != nil && f.get(cfg) == f.get(base) {
					to = Default()
				}
				cfg.reset(owner, to)
				cfg.followChoices(given, base)
			}
		}
	}
	if es != nil {
		return cfg, es
	}
	return cfg, nil
}

// followChoices sets each companion the reader did not give beside an
// owner the reader gave after the owner's value: the preset's (base) when
// the owner holds its choice, the default's otherwise. So a preset's
// companion of a choice the reader changed goes with it
// (preset=pause&dist=fixed drops pause's service_max), and comes back with
// the preset's choice when that choice falls back.
func (c *Config) followChoices(given map[string]bool, base Config) {
	for _, d := range dependents {
		f := lookup(d.Owner)
		if !given[d.Owner] || given[d.Field] || f == nil {
			continue
		}
		if f.get(*c) == d.Choice {
			c.reset(d.Field, base)
		} else {
			c.reset(d.Field, Default())
		}
	}
}

// readQuery reads each field of q over its preset: a field in error keeps
// the preset's value. The rules between fields are not applied.
func readQuery(q string, extra []string) (Config, Errors) {
	cfg, es, _ := readQueryKeys(q, extra)
	return cfg, es
}

// readQueryKeys is readQuery, with the keys q gives.
func readQueryKeys(q string, extra []string) (Config, Errors, map[string]bool) {
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
	// The preset first (the table's first row): the others are read over it.
	for i := range fieldTable {
		f := &fieldTable[i]
		if v, ok := get(f.name); ok {
			if fe := f.read(&cfg, v); fe != nil {
				es = append(es, fe)
			}
		}
	}
	given := map[string]bool{}
	for k := range vals {
		given[k] = true
	}
	base, _ := PresetConfig(cfg.Preset)
	cfg.followChoices(given, base)
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
	sortStrings(unknown)
	for _, k := range unknown {
		es = append(es, &FieldError{Field: k, Reason: ReasonUnknown, Allowed: "unknown parameter; known: " + strings.Join(Fields(), ", ")})
	}
	return cfg, es, given
}

// CanonicalField returns the canonical writing of one field's text, read
// over the named preset, or the field's own error (the rules between
// fields are not applied: see ParseQuery).
func CanonicalField(preset, name, text string) (string, *FieldError) {
	cfg, ok := PresetConfig(preset)
	if !ok {
		cfg = Default()
	}
	f := lookup(name)
	if f == nil {
		return "", &FieldError{Field: name, Reason: ReasonUnknown, Allowed: "unknown parameter; known: " + strings.Join(Fields(), ", ")}
	}
	if fe := f.read(&cfg, text); fe != nil {
		return "", fe
	}
	if name == "preset" {
		return text, nil // a preset's name has one writing; "" is bench
	}
	return f.get(cfg), nil
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
	{"to", "arrivals", "ramp", true},
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
	vals := make([]string, len(fieldTable))
	for i := range fieldTable {
		vals[i] = fieldTable[i].get(c)
	}
	return vals
}

// Query returns the canonical query string: fixed key order, normalised
// values, and only the fields that differ from the preset (the bench preset
// itself is the default and is omitted). One state, one URL.
func (c Config) Query() string {
	base, ok := PresetConfig(c.Preset)
	if !ok {
		base = Default()
	}
	var b strings.Builder
	for i := range fieldTable {
		f := &fieldTable[i]
		mine := f.get(c)
		if f.name == "preset" {
			if c.Preset == "" || c.Preset == "bench" {
				continue
			}
		} else if mine == f.get(base) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(f.name)
		b.WriteByte('=')
		b.WriteString(queryEscape(mine))
	}
	return b.String()
}

// QueryEscape escapes a query key or value as Query writes it (queryEscape):
// the pages write their whole address with it (app/ui's Address).
func QueryEscape(s string) string { return queryEscape(s) }

// queryEscape is url.QueryEscape leaving ',', '@', ':' and '/' as they
// are: all four are allowed in a query (RFC 3986, 3.4), and the window
// lists and the page's sweep (stall:0s-900ms/19) read better without %2C,
// %40, %3A and %2F.
func queryEscape(s string) string {
	e := url.QueryEscape(s)
	if strings.Contains(e, "%") {
		e = queryUnescaper.Replace(e)
	}
	return e
}

var queryUnescaper = strings.NewReplacer("%2C", ",", "%40", "@", "%3A", ":", "%2F", "/")

// reset sets one field back to base's value.
func (c *Config) reset(field string, base Config) {
	if f := lookup(field); f != nil {
		f.reset(c, base)
	}
}

// QueryWords writes a canonical query for people: the empty one, every field
// at its default, is the bench preset's. Every command, chart and page that
// shows a query writes it so.
func QueryWords(q string) string {
	if q == "" {
		return "(defaults: preset bench)"
	}
	return q
}
