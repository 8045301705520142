package article

import (
	"fmt"

	"omission/app/address"
	"omission/app/compute"
	"omission/sim"
)

// sectionView is what one section shows for the reader's values: the
// canonical query of each name it reads, each claim's verdict, its numbers
// and the range each adjustable can move in. Computed when the values
// change, read by Render.
type sectionView struct {
	vals     Values
	queries  map[string]string
	verdicts map[*claim]bool
	nums     map[NumRef]NumValue
	bounds   map[*adjustable][2]int64
	err      string
}

// computeSection runs a section's queries with vals and evaluates what it
// shows: the claims first, then the numbers of the sentences that hold.
func computeSection(c *compute.Cache, sec *section, vals Values) *sectionView {
	v := &sectionView{vals: vals, queries: map[string]string{}, verdicts: map[*claim]bool{},
		nums: map[NumRef]NumValue{}, bounds: map[*adjustable][2]int64{}}
	fail := func(err error) *sectionView {
		if v.err == "" {
			v.err = err.Error()
		}
		return v
	}
	results := map[string]*sim.Result{}
	run := func(name string) (*sim.Result, string, error) {
		q, ok := v.queries[name]
		if !ok {
			return nil, "", fmt.Errorf("no query %q in this section", name)
		}
		if r, ok := results[name]; ok {
			return r, q, nil
		}
		r, err := c.Run(q)
		if err != nil {
			return nil, q, err
		}
		results[name] = r
		return r, q, nil
	}
	for _, name := range sec.names() {
		q, err := queryFor(sec, name, vals)
		if err != nil {
			return fail(err)
		}
		v.queries[name] = q
	}
	var visit func(segs []seg)
	visit = func(segs []seg) {
		for _, g := range segs {
			switch {
			case g.num != nil:
				res, q, err := run(g.num.name)
				if err != nil {
					fail(err)
					continue
				}
				n, err := articleNumber(res, g.num.metric)
				if err != nil {
					fail(err)
					continue
				}
				v.nums[NumRef{q, g.num.metric}] = n
			case g.claim != nil:
				ok, err := v.holds(g.claim, len(vals) > 0, run)
				if err != nil {
					fail(err)
				}
				v.verdicts[g.claim] = ok
				if ok {
					visit(g.claim.then)
				} else {
					visit(g.claim.els)
				}
			}
		}
	}
	for _, b := range sec.blocks {
		visit(b.para)
	}
	for _, adj := range sec.adjs {
		lo, hi := sec.bounds(adj, vals)
		v.bounds[adj] = [2]int64{lo, hi}
	}
	return v
}

// holds evaluates a claim; changed tells whether the reader set a value of
// the section.
func (v *sectionView) holds(c *claim, changed bool, run func(string) (*sim.Result, string, error)) (bool, error) {
	if claimOnSection(c.id) {
		return !changed, nil // as-published
	}
	res, _, err := run(c.name)
	if err != nil {
		return false, err
	}
	return claimHolds(c.id, res)
}

// articleState is the whole article for the reader's values.
type articleState struct {
	vals  map[string]Values
	notes []string
	views []*sectionView // one per section
	// clean is the query the URL keeps once dropStrays has dropped what the
	// article does not take; dropped tells whether it dropped anything.
	clean   string
	dropped bool
}

// compute makes the state of the article for a URL query: the keys it
// drops (dropStrays), the reader's values (readValues) and every section's
// view.
func (a *article) compute(c *compute.Cache, raw string) *articleState {
	addr := address.ParseAddress(raw)
	clean, drops := a.dropStrays(addr)
	st := &articleState{clean: clean.String(), dropped: len(drops) > 0}
	st.vals, st.notes = a.readValues(st.clean)
	st.notes = append(drops, st.notes...)
	for _, sec := range a.sections {
		st.views = append(st.views, computeSection(c, sec, st.vals[sec.slug]))
	}
	return st
}

// numbers gathers every section's numbers; the first error of a section
// is returned with them.
func (st *articleState) numbers() (map[NumRef]NumValue, error) {
	out := map[NumRef]NumValue{}
	var first error
	for _, v := range st.views {
		for k, n := range v.nums {
			out[k] = n
		}
		if v.err != "" && first == nil {
			first = fmt.Errorf("%s", v.err)
		}
	}
	return out, first
}

// Numbers computes every number the article shows at its own values,
// running its queries in c.
func Numbers(c *compute.Cache) (map[NumRef]NumValue, error) { return NumbersFor(c, "") }

// NumbersFor computes every number the article shows for a URL query that
// holds the reader's values (ArticleKeys).
func NumbersFor(c *compute.Cache, raw string) (map[NumRef]NumValue, error) {
	return theArticle().compute(c, raw).numbers()
}
