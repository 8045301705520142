package article

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"omission/app/address"
	"omission/app/compute"
	"omission/app/units"
	"omission/sim"
)

// adjustable is a number of the prose the reader may change: a query field
// of one of the section's queries, within a range. The value steps along a
// ladder of round numbers (adjustLadder), so that every step reads well
// and, where it matters, keeps 1/rate a whole number of nanoseconds.
type adjustable struct {
	section string // the section's slug
	name    string // the query name it sets
	field   string // service, stall, every, rate, conns or interval
	lo, hi  int64  // its range, in the field's unit (adjustField)
}

// key is the adjustable's URL key: slug.field.
func (a *adjustable) key() string { return a.section + "." + a.field }

// adjustField is what the article knows of a field it lets the reader
// change: how to read and write its value (ns for durations, milli-requests
// a second for the rate, a count for connections) and what to call it.
type adjustField struct {
	name  string // the query field
	label string // for a screen reader: "stall length"
	unit  string // spoken after a count: "requests per second"
	kind  int
}

const (
	kindDuration = iota
	kindRate
	kindCount
)

// adjustFields are the fields the article lets the reader change (a list:
// static data in the browser's build).
var adjustFields = [...]adjustField{
	{name: "service", label: "service time", kind: kindDuration},
	{name: "stall", label: "stall length", kind: kindDuration},
	{name: "every", label: "time between stalls", kind: kindDuration},
	{name: "interval", label: "expected interval E of the correction", kind: kindDuration},
	{name: "rate", label: "request rate", unit: "requests per second", kind: kindRate},
	{name: "conns", label: "connections", kind: kindCount},
}

// fieldOf returns what the article knows of a field it lets the reader
// change.
func fieldOf(name string) (adjustField, bool) {
	for _, f := range adjustFields {
		if f.name == name {
			return f, true
		}
	}
	return adjustField{}, false
}

// fieldOf returns the adjustField of an adjustable.
func (a *adjustable) fieldOf() adjustField {
	f, _ := fieldOf(a.field)
	return f
}

// parseAdjustable reads the range of an adjustable slot, "MIN..MAX".
func parseAdjustable(name, metric, rng string) (*adjustable, error) {
	group, field, _ := strings.Cut(metric, ".")
	f, ok := fieldOf(field)
	if group != "config" || !ok {
		return nil, fmt.Errorf("only config.service, stall, every, interval, rate and conns can be adjusted")
	}
	lo, hi, ok := strings.Cut(rng, "..")
	if !ok {
		return nil, fmt.Errorf("want a range MIN..MAX, got %q", rng)
	}
	a := &adjustable{name: name, field: field}
	var err error
	if a.lo, err = f.parse(lo); err != nil {
		return nil, err
	}
	if a.hi, err = f.parse(hi); err != nil {
		return nil, err
	}
	if a.lo <= 0 || a.lo >= a.hi {
		return nil, fmt.Errorf("the range %q must be positive and increasing", rng)
	}
	return a, nil
}

// parse reads a value as the query format writes it.
func (f adjustField) parse(s string) (int64, error) {
	switch f.kind {
	case kindRate:
		r, err := sim.ParseRate(s)
		return int64(r), err
	case kindCount:
		return strconv.ParseInt(s, 10, 64)
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("%q is negative", s)
	}
	return int64(d), err
}

// format writes a value as the query format does.
func (f adjustField) format(v int64) string {
	switch f.kind {
	case kindRate:
		return sim.Rate(v).String()
	case kindCount:
		return strconv.FormatInt(v, 10)
	}
	return sim.FormatDuration(v)
}

// show writes a value as the prose shows it (as articleNumber does): a
// count of connections with its noun, so that one is "1 connection".
func (f adjustField) show(v int64) string {
	switch f.kind {
	case kindRate:
		return units.Thousands(sim.Rate(v).String())
	case kindCount:
		return units.Plural(v, "connection")
	}
	return units.Duration(float64(v))
}

// spoken writes a value for a screen reader, units in words.
func (f adjustField) spoken(v int64) string {
	switch f.kind {
	case kindCount:
		return f.show(v)
	case kindRate:
		return f.show(v) + " " + f.unit
	}
	num, unit, _ := strings.Cut(units.Duration(float64(v)), " ")
	switch unit {
	case "ns":
		unit = "nanoseconds"
	case "µs":
		unit = "microseconds"
	case "ms":
		unit = "milliseconds"
	case "s":
		unit = "seconds"
	case "min":
		unit = "minutes"
	case "h":
		unit = "hours"
	case "d":
		unit = "days"
	}
	return num + " " + unit
}

// fromData reads a value as data-ns or data-value wrote it (ns, requests a
// second, a count); false for "" or a value that is not one.
func (f adjustField) fromData(s string) (int64, bool) {
	x, err := strconv.ParseFloat(s, 64)
	if s == "" || err != nil || x < 0 || x > 1e18 {
		return 0, false
	}
	if f.kind == kindRate {
		x *= 1000
	}
	return int64(math.Round(x)), true
}

// number is a value as aria-valuenow: seconds for durations, requests a
// second for the rate.
func (f adjustField) number(v int64) string {
	switch f.kind {
	case kindRate:
		return units.Raw(float64(v) / 1000)
	case kindCount:
		return strconv.FormatInt(v, 10)
	}
	return units.Raw(float64(v) / 1e9)
}

// adjustLadder lists the values a field steps through in [lo, hi]:
// units.Ladder's round numbers (so that a rate on it keeps 1/rate a whole
// number of nanoseconds), in ns for durations, milli-requests a second for
// the rate, and for connections every count up to ten first. The
// visualiser's number boxes step along the same ladder (app/page).
func adjustLadder(f adjustField, lo, hi int64) []int64 {
	switch f.kind {
	case kindRate:
		return units.Ladder(lo, hi, 1000, 0)
	case kindCount:
		return units.Ladder(lo, hi, 1, 10)
	}
	return units.Ladder(lo, hi, 1, 0)
}

// ArticleKeys returns the URL keys of the article's adjustable numbers,
// slug.field, in reading order (address.PageKeys lists the same keys:
// TestArticleKeys).
func ArticleKeys() []string {
	var keys []string
	for _, s := range theArticle().sections {
		for _, a := range s.adjs {
			keys = append(keys, a.key())
		}
	}
	return keys
}

// dropStrays applies the pages' one rule for keys to the article's
// address: a key that is not the article's (address.PageKeys: the figures' keys
// and the sections' slug.field, so that a field a section does not adjust,
// or a section that does not exist, is unknown) and a value of the
// sections' given more than once are dropped, each with a notice in the
// visualiser's words (address.DroppedNotice). So is a part of the address that
// cannot be decoded. It returns the address the URL keeps and the notices.
func (a *article) dropStrays(addr address.Address) (address.Address, []string) {
	known := address.PageKeys()
	es := addr.Strays(func(k string) bool { return slices.Contains(known, k) }, ArticleKeys()...)
	var notes []string
	if err := addr.Err(); err != nil {
		fe := &sim.FieldError{Field: "query", Allowed: "cannot be decoded: " + err.Error()}
		notes = append(notes, fe.Error()+"; that part was removed from the address.")
	}
	for _, fe := range es {
		kept := ""
		if sec, adj := a.adjustableOf(fe.Field); adj != nil {
			own, _ := sec.current(adj, nil)
			kept = adj.fieldOf().show(own)
		}
		notes = append(notes, address.DroppedNotice(fe, "The section keeps the article's value", kept))
	}
	return addr.Without(address.Fields(es)...), notes
}

// adjustableOf returns the adjustable of a URL key (slug.field) and its
// section, or nil.
func (a *article) adjustableOf(key string) (*section, *adjustable) {
	for _, sec := range a.sections {
		for _, adj := range sec.adjs {
			if adj.key() == key {
				return sec, adj
			}
		}
	}
	return nil, nil
}

// readValues reads the reader's values from a URL query: per section slug,
// the values given for its adjustable numbers. A value that cannot be read,
// is outside its range or makes the section's runs invalid is left out,
// with a note that says which and why.
func (a *article) readValues(raw string) (map[string]Values, []string) {
	q := address.ParseAddress(raw)
	out := map[string]Values{}
	var notes []string
	for _, sec := range a.sections {
		vals := Values{}
		for _, adj := range sec.adjs {
			text := q.Get(adj.key())
			if text == "" {
				continue
			}
			f := adj.fieldOf()
			v, err := f.parse(text)
			switch {
			case err != nil:
				notes = append(notes, adj.key()+"="+sim.Quote(text)+" is not a value of "+f.label+": "+err.Error())
			case v < adj.lo || v > adj.hi:
				notes = append(notes, adj.key()+"="+sim.Quote(text)+": this section allows "+f.label+" from "+f.show(adj.lo)+" to "+f.show(adj.hi))
			default:
				vals[adj.field] = f.format(v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if err := sec.runnable(vals); err != nil {
			notes = append(notes, "the values for “"+sec.heading+"” were not used: "+err.Error())
			continue
		}
		out[sec.slug] = vals
	}
	return out, notes
}

// runnable tells whether every query of the section can run with vals in
// the article: valid, and small enough for a figure's cache.
func (s *section) runnable(vals Values) error {
	for _, name := range s.names() {
		q, err := queryFor(s, name, vals)
		if err != nil {
			return err
		}
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			return err
		}
		if n := cfg.ExpectedArrivals(); n > compute.FigureRequests {
			return fmt.Errorf("about %.0f requests a client, more than the %d the article runs at once", n, compute.FigureRequests)
		}
	}
	return nil
}

// names lists the query names the section reads, in order of appearance.
func (s *section) names() []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, b := range s.blocks {
		if b.figure != nil {
			add(b.figure.name)
		}
		walk(b.para, func(g seg) {
			if g.num != nil {
				add(g.num.name)
			}
			if g.claim != nil {
				add(g.claim.name)
			}
		})
	}
	return out
}

// current returns an adjustable's value in a section with vals, and
// whether the reader set it.
func (s *section) current(adj *adjustable, vals Values) (int64, bool) {
	f := adj.fieldOf()
	if text, ok := vals[adj.field]; ok {
		if v, err := f.parse(text); err == nil {
			return v, true
		}
	}
	if v, ok := ownValues.Load(adj.name + "\x00" + adj.field); ok {
		return v.(int64), false
	}
	cfg, err := sim.ParseQuery(query(adj.name).q)
	if err != nil {
		return 0, false
	}
	v := fieldValue(cfg, adj.field)
	ownValues.Store(adj.name+"\x00"+adj.field, v)
	return v, false
}

// ownValues holds the article's own value of each adjustable (its query's
// name and field → the value), read once from its query: Render asks for
// them every time, and parsing the same queries again was a tenth of the
// article's first render on the page's thread.
var ownValues sync.Map

// fieldValue is the value of an adjustable's field in cfg.
func fieldValue(cfg sim.Config, field string) int64 {
	switch field {
	case "service":
		return cfg.Service
	case "stall":
		return cfg.Stall
	case "every":
		return cfg.Every
	case "interval":
		return cfg.ExpectedInterval()
	case "rate":
		return int64(cfg.Rate)
	case "conns":
		return int64(cfg.Conns)
	}
	return 0
}

// with returns vals with the adjustable set to v; the article's own value
// removes the reader's.
func (s *section) with(adj *adjustable, vals Values, v int64) Values {
	out := Values{}
	for k, x := range vals {
		out[k] = x
	}
	f := adj.fieldOf()
	delete(out, adj.field)
	if own, _ := s.current(adj, nil); own != v {
		out[adj.field] = f.format(v)
	}
	return out
}

// step returns the value an adjustable takes steps rungs away from its
// current one, going no further than the section can run; and whether it
// moved.
func (s *section) step(adj *adjustable, vals Values, steps int) (int64, bool) {
	f := adj.fieldOf()
	ladder := adjustLadder(f, adj.lo, adj.hi)
	cur, _ := s.current(adj, vals)
	v := cur
	dir := 1
	if steps < 0 {
		dir, steps = -1, -steps
	}
	for ; steps > 0; steps-- {
		next := units.Step(ladder, v, dir)
		if next == v || s.runnable(s.with(adj, vals, next)) != nil {
			break
		}
		v = next
	}
	return v, v != cur
}

// bounds returns the least and the greatest value the adjustable can take
// from its current one, the other values as they are.
func (s *section) bounds(adj *adjustable, vals Values) (lo, hi int64) {
	lo, _ = s.step(adj, vals, -1<<20)
	hi, _ = s.step(adj, vals, 1<<20)
	return lo, hi
}
