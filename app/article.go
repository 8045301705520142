package main

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/units"
	"omission/sim"
)

// The explainer article. Its prose is literal text; every number in it is a
// numRef that the simulator computes when the page loads (articleNumbers),
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
	text   string
	num    *numRef
	figure *figureRef
	emph   bool
}

// numRef names a number: the query it comes from and a metric.
type numRef struct{ query, metric string }

type figureRef struct {
	kind  string // a charts kind name, or "animation"
	query string
}

func t(s string) seg             { return seg{text: s} }
func em(s string) seg            { return seg{text: s, emph: true} }
func n(query, metric string) seg { return seg{num: &numRef{query, metric}} }
func fig(kind, query string) seg { return seg{figure: &figureRef{kind, query}} }
func para(s ...seg) []seg        { return s }
func heading(s string) []seg     { return []seg{{text: s, emph: true}} }
func isHeading(p []seg) bool     { return len(p) == 1 && p[0].emph }

// articleText is the article, in order. A paragraph that is a single
// emphasised text is a section heading.
func articleText() [][]seg {
	b := qBench
	return [][]seg{
		para(t("A load test reports what it measured. The trouble is what it did not measure. When the server under test freezes, a load generator that waits for each reply before it sends the next request freezes with it, so the worst moments of the run leave almost no mark on its percentiles. The effect has a name, "), em("coordinated omission"), t(": the generator and the server agree, without meaning to, to skip the measurements that would have been slow. This page shows it with a simulator that runs in your browser. Every number below is computed by it as the page loads; none was typed in.")),

		heading("One server, one schedule, two ways to send"),
		para(t("Take a server that answers each request in "), n(b, "config.service"), t(" and, starting at "), n(b, "config.first"), t(", stops for "), n(b, "config.stall"), t(" once every "), n(b, "config.every"), t(". A schedule asks for "), n(b, "config.rate"), t(" requests per second, one every "), n(b, "config.slot"), t(", for "), n(b, "config.duration"), t(": "), n(b, "open.planned"), t(" requests in all. Whenever the server runs it has capacity to spare.")),
		para(t("A "), em("closed-loop"), t(" client sends a request when it is due or, if the previous one is still out, the moment that reply arrives, and records reply minus send. An "), em("open-loop"), t(" client sends every request when it is due, whatever is outstanding, and records reply minus due time. With one connection and one worker both walk exactly the same server timeline: every request starts and finishes at the same instant for both. They differ only in what they subtract.")),

		heading("What a closed loop does while the server is stalled"),
		para(t("When a stall begins, the closed loop has one request out. It waits "), n(b, "closed.max"), t(" for the reply and sends nothing else. That single request is recorded as slow. The requests that fell due in the meantime leave back to back as soon as the reply arrives; each is answered one service time later, so each is recorded at "), n(b, "closed.p50"), t(", however late it really was. Over the run the server stalls "), n(b, "closed.stalls"), t(" times, and the closed loop records "), n(b, "closed.above"), t(" samples above "), n(b, "config.above"), t(" out of "), n(b, "closed.count"), t(". Its p99 is "), n(b, "closed.p99"), t("; only its maximum admits that anything happened.")),
		para(t("The open loop charges each of those requests from its due time. After each stall "), n(b, "form.J"), t(" requests wait: the ones due during the stall and about as many again that fall due while the server works off the backlog with its spare capacity. They record an arithmetic sequence from "), n(b, "open.max"), t(" down, in steps of "), n(b, "form.d"), t(". "), n(b, "open.above"), t(" samples ("), n(b, "open.share"), t(") are above "), n(b, "config.above"), t(". The open loop's p99 is "), n(b, "open.p99"), t(", "), n(b, "ratio.p99"), t(" times the closed loop's, for exactly the same behaviour of the server.")),
		para(fig("spectrum", b)),
		para(t("Plotted against time, the difference is a shape. The open loop draws a sawtooth after every stall: a jump to the stall's length, then a straight slide back down as the queue drains. The closed loop draws one spike per stall and nothing else.")),
		para(fig("latency-time", b)),
		para(fig("animation", b)),

		heading("Pacing the client does not fix it"),
		para(t("A common remedy is to pace the client: it sleeps until its next slot, and when it falls behind it sends at once and carries on from there. In an experiment with a real TCP server that stops for "), n(qTCP, "config.stall"), t(" every "), n(qTCP, "config.every"), t(", at "), n(qTCP, "config.rate"), t(" requests per second, the paced client planned "), n(qTCP, "paced.planned"), t(" requests and sent "), n(qTCP, "paced.sent"), t(". The "), n(qTCP, "paced.never_sent"), t(" it never sent are, almost one for one, the slots that fell inside the stalls, and they are exactly the requests that would have been slow. Its p99 is "), n(qTCP, "paced.p99"), t(", the closed loop's "), n(qTCP, "closed.p99"), t(", the open loop's "), n(qTCP, "open.p99"), t(". The open loop records "), n(qTCP100, "open.above"), t(" samples above "), n(qTCP100, "config.above"), t("; the closed loop "), n(qTCP100, "closed.above"), t(", one per stall.")),
		para(t("So the number to ask of any load test is not only its percentiles but how many requests it planned and how many it actually sent. A gap between the two is where the slow requests went.")),

		heading("A back-of-the-envelope note, and when it holds"),
		para(t("A short note works through a run of "), n(qNote, "config.duration"), t(" at "), n(qNote, "config.rate"), t(" requests per second against a "), n(qNote, "config.service"), t(" service with one "), n(qNote, "config.stall"), t(" stall, and estimates the open loop's p99, mean and p99.9 from the requests due during the stall alone. The simulator agrees when the server has enough workers to answer the whole backlog the moment the stall ends: p99 "), n(qNote, "open.p99"), t(", mean "), n(qNote, "open.mean"), t(", p99.9 "), n(qNote, "open.p99_9"), t(", while the closed loop's p99 stays at "), n(qNote, "closed.p99"), t(".")),
		para(t("With a single worker the same server is already busy all the time: one request takes "), n(qSingle, "config.service"), t(" and one falls due every "), n(qSingle, "config.slot"), t(". There is no spare capacity to drain anything, so the backlog a stall leaves never shrinks: from the stall on, every request waits the whole stall. The open loop's p99 is "), n(qSingle, "open.p99"), t(" and its mean "), n(qSingle, "open.mean"), t(". The note's estimate silently assumed the first server.")),

		heading("Ten connections, and the mean"),
		para(t("An essay on the subject considers "), n(qClients, "config.rate"), t(" requests per second spread over "), n(qClients, "config.conns"), t(" connections, each request taking "), n(qClients, "config.service"), t(", and one "), n(qClients, "config.stall"), t(" stall. While the server is stopped every connection is blocked, so the closed loop records "), n(qClients10, "closed.above"), t(" samples above "), n(qClients10, "config.above"), t(", one per connection. The open loop records "), n(qClients10, "open.above"), t(".")),
		para(t("The essay also claims that the correction leaves the mean unchanged, since the total waiting is the same either way. The simulator does not bear that out: every sample the correction adds is slower than a typical reply, so the average of the larger set is higher. The measured mean here is "), n(qClients, "closed.mean"), t("; the corrected mean is "), n(qClients, "corrected.mean"), t(". The correction changes the mean as well as the tail.")),

		heading("Two fixes, and where each one stops"),
		para(t("The first fix is to time each request from when it should have been sent, as wrk2 does: that is the open loop, and it needs no correction. The second is to repair closed-loop data afterwards: HdrHistogram's expected-interval correction adds, for each sample longer than the interval E, the samples the missing requests would have recorded, falling by E each time. On the first run it adds "), n(b, "form.k"), t(" samples per stall and lifts the p99 from "), n(b, "closed.p99"), t(" to "), n(b, "corrected.p99"), t(", close to the open loop's "), n(b, "open.p99"), t(".")),
		para(t("But the correction only knows the interval. It fills the stall in even steps and knows nothing of the queue that forms behind it while the server catches up. Lower in the distribution it misses: the corrected p90 is "), n(b, "corrected.p90"), t(" where the open loop's is "), n(b, "open.p90"), t(". It also depends on the E it is given: with E set to "), n(qBenchE1ms, "config.interval"), t(" instead of the schedule's interval, the corrected p99 of the same run is "), n(qBenchE1ms, "corrected.p99"), t(".")),
		para(t("The open loop has a limit of its own. Driven faster than the server can answer, its queue grows without end, and what it measures is then mostly how long the test ran. The single-worker run above is on that edge; any rate beyond it is past it.")),

		heading("Which system does the number describe?"),
		para(t("None of the recordings is wrong about what it measured. A closed-loop figure describes a system whose clients wait for their replies before asking again: a batch job, a fixed pool of workers with a connection each. If that is the real client, the closed loop tells the truth about it. An open-loop figure describes users who arrive on their own schedule whether or not the service is coping, which is what most public services face. The mistake is to take a closed-loop measurement and call it the latency of the service. Before trusting a percentile, ask how the requests were scheduled, how many were planned, and how many were sent.")),
	}
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
				q = s.num.query
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

// numValue is a computed number: the value and how it is shown.
type numValue struct {
	Value float64
	IsNs  bool // a latency in ns (data-ns); else a count or ratio (data-value)
	Text  string
}

// articleNumber computes one of the article's numbers from a result.
func articleNumber(res *sim.Result, metric string) (numValue, error) {
	cfg := res.Config
	lat := func(ns int64) numValue { return numValue{float64(ns), true, units.Duration(float64(ns))} }
	cnt := func(v int64) numValue { return numValue{float64(v), false, units.Count(v)} }
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
			return numValue{float64(cfg.Rate) / 1000, false, units.Thousands(cfg.Rate.String())}, nil
		case "conns":
			return cnt(int64(cfg.Conns)), nil
		}
	case "form":
		cf := sim.DeriveClosedForms(cfg)
		if cf == nil {
			return numValue{}, fmt.Errorf("%s: no closed form for %q", metric, res.Query)
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
				return numValue{r, false, text}, nil
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
			return numValue{rec.Mean, true, units.Duration(rec.Mean)}, nil
		case "max":
			return lat(rec.Max), nil
		case "above":
			return cnt(rec.Above), nil
		case "share":
			return numValue{rec.Share(), false, units.Share(rec.Share())}, nil
		}
		for i, p := range sim.Percentiles {
			if p.Name == name {
				return lat(rec.P[i]), nil
			}
		}
	}
	return numValue{}, fmt.Errorf("unknown article metric %q", metric)
}

// articlePage is the explainer at /article. It runs the article's queries
// when it is mounted and renders the text with their numbers.
type articlePage struct {
	app.Compo

	nums map[numRef]numValue
	err  string
}

// OnMount runs on the UI goroutine: it computes every number once and
// hands the animation figure its result.
func (a *articlePage) OnMount(ctx app.Context) {
	defer recoverFault(ctx, "article")
	a.compute()
	publishResult(ctx, qBench)
}

// publishResult runs a query and publishes it as stateResult, which the
// animation panel follows (on the visualiser, the page publishes it).
func publishResult(ctx app.Context, q string) {
	res, err := runQuery(q)
	if err != nil {
		return
	}
	view := buildView(nextSeq(), res, 0)
	ctx.Defer(func(ctx app.Context) { ctx.SetState(stateResult, view) })
}

func (a *articlePage) compute() {
	nums, err := articleNumbers()
	a.nums = nums
	if err != nil {
		a.err = err.Error()
	}
}

// articleNumbers computes every number of the article.
func articleNumbers() (map[numRef]numValue, error) {
	nums := map[numRef]numValue{}
	for _, p := range articleText() {
		for _, s := range p {
			if s.num == nil {
				continue
			}
			res, err := runQuery(s.num.query)
			if err != nil {
				return nums, err
			}
			v, err := articleNumber(res, s.num.metric)
			if err != nil {
				return nums, err
			}
			nums[*s.num] = v
		}
	}
	return nums, nil
}

// Render builds the article from the numbers compute cached.
func (a *articlePage) Render() app.UI {
	body := []app.UI{
		app.Nav().Class("crumbs").Body(app.A().Href(visualiserLink("")).Text("← The visualiser")),
		app.H1().Text("The requests your load test never sent"),
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
			body = append(body, articleFigure(*p[0].figure))
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
func (a *articlePage) number(r numRef) app.UI {
	v, ok := a.nums[r]
	if !ok {
		return app.Span().Class("num pending").Text("…")
	}
	s := app.Span().Class("num").DataSet("metric", r.metric).DataSet("query", r.query)
	if v.IsNs {
		s = s.DataSet("ns", units.Raw(v.Value)).Title("%s", units.ExactNs(v.Value))
	} else {
		s = s.DataSet("value", units.Raw(v.Value))
	}
	return s.Text(v.Text)
}

// articleFigure is a figure bound to a query: a chart or the animation
// (which follows the result OnMount publishes: the bench run).
func articleFigure(f figureRef) app.UI {
	if k, ok := charts.ParseKind(f.kind); ok {
		return &chartFigure{IKind: k, IQuery: f.query}
	}
	return app.Figure().Class("figure").DataSet("figure", f.kind).Body(
		&animPanel{},
		app.FigCaption().Body(app.A().Href(visualiserLink(f.query)).Text("Open in the visualiser")),
	)
}
