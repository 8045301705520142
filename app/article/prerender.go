//go:build !wasm

package article

import (
	"encoding/json"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/ui"
)

// The prerendering hooks: go-app calls them where it renders natively (the
// static generator, the test engine), never in the browser, so the
// browser's build leaves them out.

// OnPreRender runs where go-app renders natively (the static generator, the
// test engine): the generated HTML holds the article's numbers and figures
// at its own values.
func (a *Article) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "article")
	ctx.Page().SetTitle("%s · Omission", theArticle().title)
	a.load(ctx)
	a.kept = theArticle().keepState(a.raw, a.st)
}

// OnPreRender runs where go-app renders natively: the generated page holds
// the figure of the URL the generator asked for.
func (e *Embed) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "embed")
	if u := ctx.Page().URL(); u != nil {
		e.load(ctx, u.RawQuery)
	}
	ctx.Page().SetTitle("%s · Omission", e.title())
}

// OnPreRender runs where go-app renders natively: the figure is drawn at
// its default size (an embed's for the README's 660×420 frame).
func (f *chartFigure) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "figure")
	f.draw()
	if f.chart != nil {
		f.kept = keepChart(f.drawn, f.chart)
	}
}

// keepState writes st, computed for the query raw, as the HTML keeps it
// ("" when it cannot: the browser then computes the article).
func (a *article) keepState(raw string, st *articleState) string {
	if st == nil || len(st.views) != len(a.sections) {
		return ""
	}
	k := keptArticle{Query: raw, Clean: st.clean, Dropped: st.dropped, Notes: st.notes, Vals: st.vals}
	for i, sec := range a.sections {
		v := st.views[i]
		kv := keptView{Vals: v.vals, Queries: v.queries, Verdicts: map[string]bool{}, Err: v.err}
		for j, c := range claimsOf(sec) {
			if ok, seen := v.verdicts[c]; seen {
				kv.Verdicts[strconv.Itoa(j)] = ok
			}
		}
		for ref, n := range v.nums {
			kv.Nums = append(kv.Nums, keptNum{ref.Query, ref.Metric, n.Value, n.IsNs, n.IsText, n.Text})
		}
		for _, adj := range sec.adjs {
			kv.Bounds = append(kv.Bounds, v.bounds[adj])
		}
		k.Views = append(k.Views, kv)
	}
	b, err := json.Marshal(k)
	if err != nil {
		return "" // a number JSON cannot hold (NaN, ±Inf): computed in the browser
	}
	return ui.AttrSafe(string(b))
}

// keepChart writes a figure's chart as the HTML keeps it, and what it
// was drawn for (chartFigure.drawn).
func keepChart(drawn string, ch *charts.Chart) string {
	c := *ch
	c.SVG, c.Src = "", "" // the HTML has it, in the figure's image
	b, err := json.Marshal(struct {
		Drawn string
		Chart *charts.Chart
	}{drawn, &c})
	if err != nil {
		return ""
	}
	return ui.AttrSafe(string(b))
}
