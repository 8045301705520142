package article

import (
	"errors"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/jsonread"
)

// The generated article holds its numbers, sentences and figures; the
// browser takes them over instead of running the article's queries again
// (about half a second of the page's thread on a cold load, most of
// Lighthouse's total blocking time on /article/). The static generator
// writes what Render needs as JSON: the article's state in main's
// data-prerender, each figure's chart (its SVG left in its image) in the
// figure's. web/page.js keeps them before app.wasm starts
// (window.omissionArticle, window.omissionFigures); OnInit reads them
// before the first Render, so that go-app builds the article's DOM once,
// with its numbers. What the reader changes is computed as before.

// keptArticle is an articleState as the HTML keeps it. A claim is named
// by its place among its section's claims (claimsOf), an adjustable by its
// place in the section's adjs.
type keptArticle struct {
	Query   string            `json:"q"`
	Clean   string            `json:"clean"`
	Dropped bool              `json:"dropped"`
	Notes   []string          `json:"notes"`
	Vals    map[string]Values `json:"vals"`
	Views   []keptView        `json:"views"`
}

type keptView struct {
	Vals     Values            `json:"vals"`
	Queries  map[string]string `json:"queries"`
	Verdicts map[string]bool   `json:"verdicts"`
	Nums     []keptNum         `json:"nums"`
	Bounds   [][2]int64        `json:"bounds"`
	Err      string            `json:"err"`
}

type keptNum struct {
	Query  string  `json:"q"`
	Metric string  `json:"m"`
	Value  float64 `json:"v"`
	IsNs   bool    `json:"ns"`
	IsText bool    `json:"text"`
	Text   string  `json:"t"`
}

// claimsOf lists a section's claims in reading order, those inside claims
// included.
func claimsOf(sec *section) []*claim {
	var out []*claim
	for _, b := range sec.blocks {
		walk(b.para, func(g seg) {
			if g.claim != nil {
				out = append(out, g.claim)
			}
		})
	}
	return out
}

// readState reads what keepState wrote: the state and the query it was
// computed for. It reads without encoding/json's reflection (app/jsonread),
// on the page's start.
func (a *article) readState(b []byte) (*articleState, string, error) {
	st := &articleState{}
	query := ""
	views := 0
	r := jsonread.New(b)
	r.Object(func(key string) {
		switch key {
		case "q":
			query = r.String()
		case "clean":
			st.clean = r.String()
		case "dropped":
			st.dropped = r.Bool()
		case "notes":
			if !r.Null() {
				st.notes = r.Strings()
			}
		case "vals":
			if r.Null() {
				return
			}
			st.vals = map[string]Values{}
			r.Object(func(slug string) { st.vals[slug] = readValues(r) })
		case "views":
			r.Array(func() {
				if views >= len(a.sections) {
					r.Skip()
					views++
					return
				}
				st.views = append(st.views, readView(r, a.sections[views]))
				views++
			})
		default:
			r.Skip()
		}
	})
	if err := r.End(); err != nil {
		return nil, "", err
	}
	if views != len(a.sections) {
		return nil, "", errNotThisArticle
	}
	return st, query, nil
}

var errNotThisArticle = errors.New("the kept article has not this article's sections")

func readValues(r *jsonread.Reader) Values {
	if r.Null() {
		return nil
	}
	v := Values{}
	r.Object(func(k string) { v[k] = r.String() })
	return v
}

func readView(r *jsonread.Reader, sec *section) *sectionView {
	v := &sectionView{queries: map[string]string{}, verdicts: map[*claim]bool{},
		nums: map[NumRef]NumValue{}, bounds: map[*adjustable][2]int64{}}
	claims := claimsOf(sec)
	r.Object(func(key string) {
		switch key {
		case "vals":
			v.vals = readValues(r)
		case "queries":
			if !r.Null() {
				r.Object(func(k string) { v.queries[k] = r.String() })
			}
		case "verdicts":
			if r.Null() {
				return
			}
			r.Object(func(k string) {
				ok := r.Bool()
				if j, err := strconv.Atoi(k); err == nil && j >= 0 && j < len(claims) {
					v.verdicts[claims[j]] = ok
				}
			})
		case "nums":
			if r.Null() {
				return
			}
			r.Array(func() {
				var ref NumRef
				var n NumValue
				r.Object(func(k string) {
					switch k {
					case "q":
						ref.Query = r.String()
					case "m":
						ref.Metric = r.String()
					case "v":
						n.Value = r.Float()
					case "ns":
						n.IsNs = r.Bool()
					case "text":
						n.IsText = r.Bool()
					case "t":
						n.Text = r.String()
					default:
						r.Skip()
					}
				})
				v.nums[ref] = n
			})
		case "bounds":
			if r.Null() {
				return
			}
			j := 0
			r.Array(func() {
				var b [2]int64
				i := 0
				r.Array(func() {
					if i < 2 {
						b[i] = r.Int()
					} else {
						r.Skip()
					}
					i++
				})
				if j < len(sec.adjs) {
					v.bounds[sec.adjs[j]] = b
				}
				j++
			})
		case "err":
			v.err = r.String()
		default:
			r.Skip()
		}
	})
	return v
}

// OnInit runs before the first Render: in the browser, the article takes
// over the state the HTML holds when it was computed for the URL's query.
func (a *Article) OnInit() {
	if !app.IsClient || a.st != nil {
		return
	}
	kept := app.Window().Get("omissionArticle")
	if !kept.Truthy() || kept.Type() != app.TypeString {
		return
	}
	st, q, err := theArticle().readState([]byte(kept.String()))
	if err != nil {
		return
	}
	if asked := strings.TrimPrefix(app.Window().Get("location").Get("search").String(), "?"); asked != q {
		return // another address's values: computed at the mount
	}
	a.st, a.raw, a.taken = st, q, true
	a.gather()
}

// takeOver gives the figure the chart the HTML holds for its kind and
// query, when web/page.js kept one: draw then draws again only when the
// figure's size or the reader's colour scheme differs from the generator's.
func (f *chartFigure) takeOver() {
	figs := app.Window().Get("omissionFigures")
	if !figs.Truthy() {
		return
	}
	kind := f.IKind.String()
	for i, n := 0, figs.Length(); i < n; i++ {
		k := figs.Index(i)
		if k.Get("kind").String() != kind || k.Get("query").String() != f.IQuery {
			continue
		}
		drawn, ch, err := readChart([]byte(k.Get("json").String()))
		if err != nil {
			return
		}
		ch.Src = k.Get("src").String()
		f.drawn, f.chart, f.src, f.err = drawn, ch, ch.Src, ""
		return
	}
}

// readChart reads what keepChart wrote, without reflection.
func readChart(b []byte) (string, *charts.Chart, error) {
	var drawn string
	var ch *charts.Chart
	r := jsonread.New(b)
	r.Object(func(key string) {
		switch key {
		case "Drawn":
			drawn = r.String()
		case "Chart":
			ch = &charts.Chart{}
			ch.ReadJSON(r)
		default:
			r.Skip()
		}
	})
	if err := r.End(); err != nil {
		return "", nil, err
	}
	if drawn == "" || ch == nil {
		return "", nil, errors.New("the kept chart says not what it was drawn for")
	}
	return drawn, ch, nil
}
