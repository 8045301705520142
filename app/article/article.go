package article

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/anim"
	"omission/app/charts"
	"omission/app/compute"
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"
	"omission/sim"
)

// The explainer article. Its prose is article.txt; every number in it is a
// NumRef that the simulator computes when the page loads (Numbers),
// carried in the same data-metric / data-ns / data-value attributes as the
// visualiser's table, with the query it came from in data-query. A test
// (article_test.go) fails if a digit appears in the literal text.

// The queries the article's numbers and figures are bound to.
const (
	qBench     = ""
	qTCP       = "preset=tcp"
	qTCP100    = "preset=tcp&above=100ms"
	qNote      = "preset=note60"
	qSingle    = "preset=note60-single"
	qClients   = "preset=clients10"
	qClients10 = "preset=clients10&above=100ms"
	qBenchE1ms = "interval=1ms"
)

// seg is a piece of a paragraph: literal text, a computed number, or a
// figure.
type seg struct {
	text    string
	num     *NumRef
	figure  *figureRef
	emph    bool
	heading bool // the whole paragraph is a section heading
}

// NumRef names a number: the query it comes from and a metric.
type NumRef struct{ Query, Metric string }

type figureRef struct {
	kind  string // a charts kind name, or "animation"
	query string
}

func isHeading(p []seg) bool { return len(p) == 1 && p[0].emph && p[0].heading }

// The article's prose is article.txt, read as prose and edited as prose:
//
//	# Title
//	## A section heading
//	A paragraph, wrapped at will; its lines join with a space. *Emphasis*,
//	and a number computed by the simulator: {bench:open.p99} (a query's
//	name from articleQueryNames, then the metric).
//	[figure spectrum bench]   (a chart kind or animation, and a query name)
//
//go:embed article.txt
var articleSource string

// articleQueryNames name the queries the article's slots use.
var articleQueryNames = map[string]string{
	"bench": qBench, "tcp": qTCP, "tcp100": qTCP100, "note60": qNote, "single": qSingle,
	"clients10": qClients, "clients10-100ms": qClients10, "bench-e1ms": qBenchE1ms,
}

// parsedArticle is article.txt, read once.
var parsedArticle = sync.OnceValues(func() (article, error) { return parseArticle(articleSource) })

// article is the parsed text: its title and paragraphs (a paragraph that is
// one heading segment is a section heading).
type article struct {
	title string
	paras [][]seg
}

// articleText is the article, in order. It panics if article.txt does not
// parse (a test holds it to parse).
func articleText() [][]seg {
	a, err := parsedArticle()
	if err != nil {
		panic(err)
	}
	return a.paras
}

// parseArticle reads the article's source; an error names the line.
func parseArticle(src string) (article, error) {
	var a article
	var para []string
	lineOf := 0
	flush := func() error {
		if len(para) == 0 {
			return nil
		}
		segs, err := parseParagraph(strings.Join(para, " "))
		if err != nil {
			return fmt.Errorf("article.txt:%d: %v", lineOf, err)
		}
		a.paras = append(a.paras, segs)
		para = nil
		return nil
	}
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, " \t\r")
		switch {
		case line == "":
			if err := flush(); err != nil {
				return a, err
			}
		case strings.HasPrefix(line, "## "):
			if err := flush(); err != nil {
				return a, err
			}
			a.paras = append(a.paras, []seg{{text: strings.TrimPrefix(line, "## "), emph: true, heading: true}})
		case strings.HasPrefix(line, "# "):
			a.title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "[figure "):
			if err := flush(); err != nil {
				return a, err
			}
			f := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(line, "[figure "), "]"))
			q, ok := articleQueryNames[f[len(f)-1]]
			if len(f) != 2 || !ok {
				return a, fmt.Errorf("article.txt:%d: want [figure KIND QUERY-NAME], got %q", i+1, line)
			}
			a.paras = append(a.paras, []seg{{figure: &figureRef{f[0], q}}})
		default:
			if len(para) == 0 {
				lineOf = i + 1
			}
			para = append(para, line)
		}
	}
	return a, flush()
}

// parseParagraph cuts a paragraph into text, *emphasis* and {query:metric}
// numbers.
func parseParagraph(p string) ([]seg, error) {
	var out []seg
	for p != "" {
		i := strings.IndexAny(p, "*{")
		if i < 0 {
			out = append(out, seg{text: p})
			break
		}
		if i > 0 {
			out = append(out, seg{text: p[:i]})
		}
		close := map[byte]string{'*': "*", '{': "}"}[p[i]]
		j := strings.Index(p[i+1:], close)
		if j < 0 {
			return nil, fmt.Errorf("%q opened and not closed", p[i:i+1])
		}
		inner := p[i+1 : i+1+j]
		if p[i] == '*' {
			out = append(out, seg{text: inner, emph: true})
		} else {
			name, metric, ok := strings.Cut(inner, ":")
			q, known := articleQueryNames[name]
			if !ok || !known {
				return nil, fmt.Errorf("number {%s}: want {QUERY-NAME:metric} with a query of articleQueryNames", inner)
			}
			out = append(out, seg{num: &NumRef{q, metric}})
		}
		p = p[i+2+j:]
	}
	return out, nil
}

// articleQueries lists the distinct queries of the article.
func articleQueries() []string {
	seen := map[string]bool{}
	var qs []string
	for _, p := range articleText() {
		for _, s := range p {
			var q string
			switch {
			case s.num != nil:
				q = s.num.Query
			case s.figure != nil:
				q = s.figure.query
			default:
				continue
			}
			if !seen[q] {
				seen[q] = true
				qs = append(qs, q)
			}
		}
	}
	return qs
}

// NumValue is a computed number: the value and how it is shown.
type NumValue struct {
	Value float64
	IsNs  bool // a latency in ns (data-ns); else a count or ratio (data-value)
	Text  string
}

// articleNumber computes one of the article's numbers from a result.
func articleNumber(res *sim.Result, metric string) (NumValue, error) {
	cfg := res.Config
	lat := func(ns int64) NumValue { return NumValue{float64(ns), true, units.Duration(float64(ns))} }
	cnt := func(v int64) NumValue { return NumValue{float64(v), false, units.Count(v)} }
	group, name, _ := strings.Cut(metric, ".")
	switch group {
	case "config":
		switch name {
		case "service":
			return lat(cfg.Service), nil
		case "stall":
			return lat(cfg.Stall), nil
		case "every":
			return lat(cfg.Every), nil
		case "first":
			return lat(cfg.First), nil
		case "duration":
			return lat(cfg.Duration), nil
		case "above":
			return lat(cfg.Above), nil
		case "interval":
			return lat(res.Recordings[sim.Corrected].Interval), nil
		case "slot":
			return lat(res.Slot), nil
		case "rate":
			return NumValue{float64(cfg.Rate) / 1000, false, units.Thousands(cfg.Rate.String())}, nil
		case "conns":
			return cnt(int64(cfg.Conns)), nil
		}
	case "form":
		cf := sim.DeriveClosedForms(cfg)
		if cf == nil {
			return NumValue{}, fmt.Errorf("%s: no closed form for %q", metric, res.Query)
		}
		switch name {
		case "J":
			return cnt(cf.J), nil
		case "d":
			return lat(cf.D), nil
		case "k":
			return cnt(cf.Added), nil
		}
	case "ratio":
		o, c := res.Recordings[sim.Open], res.Recordings[sim.Closed]
		for i, p := range sim.Percentiles {
			if p.Name == name && c.P[i] > 0 {
				r := float64(o.P[i]) / float64(c.P[i])
				text, _ := units.Ratio(float64(o.P[i]), float64(c.P[i]))
				return NumValue{r, false, text}, nil
			}
		}
	}
	for _, c := range res.Clients {
		if c.Client.String() != group {
			continue
		}
		switch name {
		case "planned":
			return cnt(c.Planned), nil
		case "sent":
			return cnt(c.Sent), nil
		case "never_sent":
			return cnt(c.Planned - c.Sent), nil
		case "stalls":
			return cnt(c.StallsMet), nil
		}
	}
	if rec := res.Recording(group); rec != nil {
		switch name {
		case "count":
			return cnt(rec.Count), nil
		case "mean":
			return NumValue{rec.Mean, true, units.Duration(rec.Mean)}, nil
		case "max":
			return lat(rec.Max), nil
		case "above":
			return cnt(rec.Above), nil
		case "share":
			return NumValue{rec.Share(), false, units.Share(rec.Share())}, nil
		}
		for i, p := range sim.Percentiles {
			if p.Name == name {
				return lat(rec.P[i]), nil
			}
		}
	}
	return NumValue{}, fmt.Errorf("unknown article metric %q", metric)
}

// Article is the explainer at /article. It runs the article's queries
// when it is mounted and renders the text with their numbers.
type Article struct {
	app.Compo

	ICache *compute.Cache // where its runs are made and kept (set by the route)

	nums map[NumRef]NumValue
	err  string
}

// OnMount runs on the UI goroutine: it computes every number once and
// hands the animation figure its result.
func (a *Article) OnMount(ctx app.Context) {
	defer ui.Recover(ctx, "article")
	ui.OwnURL(ctx)
	a.compute()
	publishResult(ctx, a.ICache, qBench)
}

// publishResult runs a query and publishes it as ui.StateResult, which the
// animation panel follows (on the visualiser, the page publishes it).
func publishResult(ctx app.Context, c *compute.Cache, q string) {
	res, err := c.Run(q, ui.PageKeys()...)
	if err != nil {
		return
	}
	v := view.Build(compute.NextSeq(), res, 0)
	ctx.Defer(func(ctx app.Context) { ctx.SetState(ui.StateResult, v) })
}

func (a *Article) compute() {
	nums, err := Numbers(a.ICache)
	a.nums = nums
	if err != nil {
		a.err = err.Error()
	}
}

// Numbers computes every number of the article, running its queries in c.
func Numbers(c *compute.Cache) (map[NumRef]NumValue, error) {
	nums := map[NumRef]NumValue{}
	for _, p := range articleText() {
		for _, s := range p {
			if s.num == nil {
				continue
			}
			res, err := c.Run(s.num.Query)
			if err != nil {
				return nums, err
			}
			v, err := articleNumber(res, s.num.Metric)
			if err != nil {
				return nums, err
			}
			nums[*s.num] = v
		}
	}
	return nums, nil
}

// Render builds the article from the numbers compute cached.
func (a *Article) Render() app.UI {
	body := []app.UI{
		app.Nav().Class("crumbs").Body(app.A().Href(ui.VisualiserLink("")).Text("← The visualiser")),
		app.H1().Text(articleTitle()),
	}
	if a.err != "" {
		body = append(body, app.P().Class("error").Text(a.err))
	}
	for _, p := range articleText() {
		if isHeading(p) {
			body = append(body, app.H2().Text(p[0].text))
			continue
		}
		if len(p) == 1 && p[0].figure != nil {
			body = append(body, articleFigure(*p[0].figure, a.ICache))
			continue
		}
		parts := make([]app.UI, 0, len(p))
		for _, s := range p {
			switch {
			case s.num != nil:
				parts = append(parts, a.number(*s.num))
			case s.emph:
				parts = append(parts, app.Em().Text(s.text))
			default:
				parts = append(parts, app.Text(s.text))
			}
		}
		body = append(body, app.P().Body(parts...))
	}
	return app.Main().Class("article").Body(app.Article().Body(body...))
}

// number renders one computed number with its exact value in attributes.
func (a *Article) number(r NumRef) app.UI {
	v, ok := a.nums[r]
	if !ok {
		return app.Span().Class("num pending").Text("…")
	}
	s := app.Span().Class("num").DataSet("metric", r.Metric).DataSet("query", r.Query)
	if v.IsNs {
		s = s.DataSet("ns", units.Raw(v.Value)).Title("%s", units.ExactNs(v.Value))
	} else {
		s = s.DataSet("value", units.Raw(v.Value))
	}
	return s.Text(v.Text)
}

// articleFigure is a figure bound to a query: a chart or the animation
// (which follows the result OnMount publishes: the bench run).
func articleFigure(f figureRef, c *compute.Cache) app.UI {
	if k, ok := charts.ParseKind(f.kind); ok {
		return &chartFigure{IKind: k, IQuery: f.query, ICache: c}
	}
	return app.Figure().Class("figure").DataSet("figure", f.kind).Body(
		&anim.Panel{},
		app.FigCaption().Body(app.A().Href(ui.VisualiserLink(f.query)).Text("Open in the visualiser")),
	)
}

// articleTitle is the article's heading.
func articleTitle() string {
	a, _ := parsedArticle()
	return a.title
}
