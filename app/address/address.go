package address

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"omission/sim"
)

// Address is a page's URL query, read once (ParseAddress) and written in one
// place (String): each key with its values as given. It holds the
// simulator's fields (sim.Fields), the pages' own keys (PageKeys) and any
// other key given, so that a page can tell what it drops.
//
// String writes one fixed order, the simulator's fields in sim.Fields order,
// then any other key (sorted), then the page keys in PageKeys order, with
// one escaping, the simulator's (sim.QueryEscape keeps ',' and '@'): the
// same value is written the same way wherever it is.
//
// An Address is a value: With and the others return a new one and never
// change the one they are called on.
type Address struct {
	vals url.Values
	err  error
}

// ParseAddress reads a raw query: a leading '?' and a fragment ('#…') are
// dropped. A part that cannot be decoded is left out, and Err says why.
func ParseAddress(raw string) Address {
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	vals, err := url.ParseQuery(strings.TrimPrefix(raw, "?"))
	return Address{vals: vals, err: err}
}

// Err is why a part of the parsed query could not be decoded, or nil.
func (a Address) Err() error { return a.err }

// Get returns the first value of k, or "".
func (a Address) Get(k string) string { return a.vals.Get(k) }

// Given returns the value of k when k is given exactly once.
func (a Address) Given(k string) (string, bool) {
	if vs := a.vals[k]; len(vs) == 1 {
		return vs[0], true
	}
	return "", false
}

// Has reports whether k is given (with any value, even empty).
func (a Address) Has(k string) bool { return len(a.vals[k]) > 0 }

// With returns a with k's values replaced by vs, taken as they are (an empty
// value included); with no vs, k is removed.
func (a Address) With(k string, vs ...string) Address {
	out := a.clone()
	if len(vs) == 0 {
		delete(out.vals, k)
	} else {
		out.vals[k] = append([]string(nil), vs...)
	}
	return out
}

// WithKeys returns a with each key of keys set to its non-empty values: a
// key whose values are all empty is removed (ActionKeys' rule).
func (a Address) WithKeys(keys url.Values) Address {
	out := a.clone()
	for k, vs := range keys {
		var keep []string
		for _, v := range vs {
			if v != "" {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			delete(out.vals, k)
		} else {
			out.vals[k] = keep
		}
	}
	return out
}

// Only returns the keys of a that are among keys.
func (a Address) Only(keys ...string) Address {
	out := Address{vals: url.Values{}}
	for _, k := range keys {
		if vs, ok := a.vals[k]; ok {
			out.vals[k] = append([]string(nil), vs...)
		}
	}
	return out
}

// Without returns a without keys.
func (a Address) Without(keys ...string) Address {
	out := a.clone()
	for _, k := range keys {
		delete(out.vals, k)
	}
	return out
}

// String writes the address: every key and value in the fixed order and
// with the escaping of Address ("" when empty).
func (a Address) String() string {
	var b strings.Builder
	for _, k := range a.ordered() {
		for _, v := range a.vals[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(sim.QueryEscape(k))
			b.WriteByte('=')
			b.WriteString(sim.QueryEscape(v))
		}
	}
	return b.String()
}

// ordered lists the keys of a in the order String writes them.
func (a Address) ordered() []string {
	order := addressOrder()
	var others []string
	for k := range a.vals {
		if _, known := order.known[k]; !known {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	out := make([]string, 0, len(a.vals))
	for _, k := range order.sim {
		if _, ok := a.vals[k]; ok {
			out = append(out, k)
		}
	}
	out = append(out, others...)
	for _, k := range order.page {
		if _, ok := a.vals[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

func (a Address) clone() Address {
	out := Address{vals: make(url.Values, len(a.vals)+1), err: a.err}
	for k, vs := range a.vals {
		out.vals[k] = vs // values are replaced, never changed in place
	}
	return out
}

// keyOrder is the order String writes the known keys in.
type keyOrder struct {
	sim, page []string
	known     map[string]bool
}

// addressOrder is the simulator's fields and the page keys, read once.
var addressOrder = sync.OnceValue(func() keyOrder {
	o := keyOrder{sim: sim.Fields(), page: PageKeys(), known: map[string]bool{}}
	for _, k := range append(append([]string(nil), o.sim...), o.page...) {
		o.known[k] = true
	}
	return o
})

// SetKeys returns the query raw with keys set (an empty value removes a
// key), written as an Address: the simulator's fields first, in their
// order, then any other parameter, then the page keys in PageKeys order.
func SetKeys(raw string, keys url.Values) string {
	return ParseAddress(raw).WithKeys(keys).String()
}

// Strays returns the keys of a that a page drops from its address, under
// the pages' one rule: each key that known does not accept (ReasonUnknown)
// and each key of once given more than once (ReasonRepeated, its values
// joined by ','), in the order String writes them. DroppedNotice words
// each for the reader.
func (a Address) Strays(known func(k string) bool, once ...string) sim.Errors {
	var out sim.Errors
	for _, k := range a.ordered() {
		switch vs := a.vals[k]; {
		case !known(k):
			out = append(out, &sim.FieldError{Field: k, Reason: sim.ReasonUnknown, Allowed: "not a parameter of this page"})
		case len(vs) > 1 && slices.Contains(once, k):
			out = append(out, &sim.FieldError{Field: k, Value: strings.Join(vs, ","), Reason: sim.ReasonRepeated,
				Allowed: "given " + strconv.Itoa(len(vs)) + " times; give it once"})
		}
	}
	return out
}

// Fields returns the keys of es (the keys Strays found), for Without.
func Fields(es sim.Errors) []string {
	out := make([]string, len(es))
	for i, fe := range es {
		out[i] = fe.Field
	}
	return out
}

// DroppedNotice words a key a page dropped from its address (Strays, or
// the simulator's unknown and repeated keys): what was dropped and, for a
// key given more than once, which value the field kept. keeper says who
// keeps whose value ("The run keeps the preset's value"), kept is that
// value as the page shows it ("" says nothing of it). The visualiser, the
// article and the embeds word it so.
func DroppedNotice(fe *sim.FieldError, keeper, kept string) string {
	if fe.Reason == sim.ReasonUnknown {
		return fmt.Sprintf("Ignored %s: not a parameter of this page; it was removed from the address.", sim.Quote(fe.Field))
	}
	if kept != "" {
		kept = " " + keeper + ", " + kept + "."
	}
	return fmt.Sprintf("%s was given more than once (%s), so neither value was taken and the key was removed from the address.%s",
		fe.Field, sim.Quote(fe.Value), kept)
}
