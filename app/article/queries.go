package article

import (
	"fmt"

	"omission/app/address"
	"omission/sim"
)

// articleQuery is a query the article's slots, claims and figures name.
// A query may follow another: the reader's values for the one it follows
// apply to it too, except for the fields it sets itself (tcp100 is the tcp
// run counted above 100 ms; a new stall for tcp is a new stall for tcp100,
// a new threshold is not).
type articleQuery struct {
	q       string
	follows string
}

// articleQueries names the queries of the article (a list, not a map: it
// is static data in the browser's build).
var articleQueries = [...]struct {
	name string
	articleQuery
}{
	{"bench", articleQuery{q: ""}},
	{"tcp", articleQuery{q: "preset=tcp"}},
	{"tcp100", articleQuery{q: "preset=tcp&above=100ms", follows: "tcp"}},
	{"note60", articleQuery{q: "preset=note60"}},
	{"single", articleQuery{q: "preset=note60-single", follows: "note60"}},
	{"clients10", articleQuery{q: "preset=clients10"}},
	{"clients10-100ms", articleQuery{q: "preset=clients10&above=100ms", follows: "clients10"}},
	{"bench-e1ms", articleQuery{q: "interval=1ms", follows: "bench"}},
	{"land", articleQuery{q: "duration=4s"}},
	{"land0", articleQuery{q: "stall=0s&duration=4s", follows: "land"}},
	{"land-long", articleQuery{q: "stall=800ms&duration=4s", follows: "land"}},
	// What the fit makes of a real wrk printout (fixed.go, TestPrintoutQueries).
	{"hid", articleQuery{q: "rate=1000&service=150062ns&stall=145535342ns&every=1880ms&first=940ms&duration=30020ms"}},
}

// queryOf returns the article's query of a name.
func queryOf(name string) (articleQuery, bool) {
	for _, q := range articleQueries {
		if q.name == name {
			return q.articleQuery, true
		}
	}
	return articleQuery{}, false
}

// query returns the article's query of a known name.
func query(name string) articleQuery {
	q, _ := queryOf(name)
	return q
}

// fixes reports whether the query name sets field itself.
func fixes(name, field string) bool {
	return address.ParseAddress(query(name).q).Has(field)
}

// reaches reports whether a reader's value for a field of query from
// applies to query name: name is from, or follows it (through others) and
// does not set the field itself.
func reaches(from, name, field string) bool {
	if name == from {
		return true
	}
	if fixes(name, field) {
		return false
	}
	for n := query(name).follows; n != ""; n = query(n).follows {
		if n == from {
			return true
		}
		if fixes(n, field) {
			return false
		}
	}
	return false
}

// Values are the reader's values of one section: field → value as the
// query format writes it.
type Values map[string]string

// queryFor is the canonical query of name in a section with the reader's
// values vals: the query's own, with every value that reaches it.
func queryFor(sec *section, name string, vals Values) (string, error) {
	q, ok := queryOf(name)
	if !ok {
		return "", fmt.Errorf("no query %q", name)
	}
	a := address.ParseAddress(q.q)
	if err := a.Err(); err != nil {
		return "", err
	}
	for _, adj := range sec.adjs {
		if text, set := vals[adj.field]; set && reaches(adj.name, name, adj.field) {
			a = a.With(adj.field, text)
		}
	}
	cfg, err := sim.ParseQuery(a.String())
	if err != nil {
		return "", err
	}
	return cfg.Query(), nil
}
