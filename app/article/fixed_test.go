//go:build !wasm

package article

import "testing"

// TestPrintoutQueries: the query the article runs for a real printout is
// the one the fit gives that printout (report -fit FILE rate=R), so its
// live numbers are the fitted model's.
func TestPrintoutQueries(t *testing.T) {
	for name, p := range printoutFiles {
		r, err := fitOf(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if q, ok := queryOf(p.query); !ok || q.q != r.Query {
			t.Errorf("%s: the article's query %s is %q, the fit's %q", name, p.query, q.q, r.Query)
		}
	}
}
