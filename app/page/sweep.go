package page

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/charts"
	"omission/app/ui"
	"omission/app/worker"
	"omission/sim"
	"omission/sim/sweep"
)

// The landscape (issue 25): the query swept over one field, kept in the
// URL as sweep=<spec> (and its metric as metric=), run in the worker after
// the query's own run, point by point (worker.SweepAsk); the panel shows
// the points as they come. Off until the reader asks for it.

// sweepShown is what the page shows of the sweep: the points that came,
// the landscape of them, and where the sweep stands.
type sweepShown struct {
	seq       int64  // the run whose sweep it is
	spec      string // the spec it answers
	points    []sweep.Point
	total     int
	chart     *charts.Chart
	src       string // the landscape as a data: URL
	done      bool
	cancelled bool
	err       string // the spec cannot run (the worker's message)
	ms        float64
}

// stateSweep carries the sweep's points to the panel, so that a batch's
// arrival renders the panel alone.
const stateSweep = "omission/page/sweep"

// publishSweep hands the sweep's state to the panel.
func (p *Page) publishSweep(ctx app.Context) { ctx.SetState(stateSweep, p.sweep) }

// The panel's actions, handled by the page.
const (
	actionSweep       = "omission/page/sweep"        // Value: the spec ("" turns the landscape off)
	actionSweepMetric = "omission/page/sweep-metric" // Value: a charts.LandscapeMetrics name
	actionSweepCancel = "omission/page/sweep-cancel" // Value: true to stop the sweep, false to run it again
)

// sweepSpec is the URL's sweep= and why it cannot run ("" for none).
func (p *Page) sweepSpec() (spec string, err error) {
	spec = p.addr.Get(address.KeySweep)
	if spec == "" {
		return "", nil
	}
	if _, err := sweep.Parse(spec); err != nil {
		return spec, err
	}
	return spec, nil
}

// sweepMetric is the URL's metric= when the landscape has it, else p99.
func (p *Page) sweepMetric() string {
	m := p.addr.Get(address.KeyMetric)
	for _, n := range charts.LandscapeMetrics() {
		if n == m {
			return m
		}
	}
	return "p99"
}

// sweepAsk is the sweep a request asks for: nil when there is none or its
// spec is invalid (the panel says why; the rest of the page runs).
func (p *Page) sweepAsk() *worker.SweepAsk {
	spec, err := p.sweepSpec()
	if spec == "" || err != nil || p.sweep.cancelled && p.sweep.seq == p.seq && p.sweep.spec == spec {
		return nil // none, invalid, or stopped by the reader (a redraw does not resume it)
	}
	return &worker.SweepAsk{Spec: spec, Metric: p.sweepMetric()}
}

// handleSweep registers the panel's actions.
func (p *Page) handleSweep(ctx app.Context) {
	ctx.Handle(actionSweep, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "sweep")
		spec, _ := a.Value.(string)
		spec = strings.TrimSpace(spec)
		if spec == p.addr.Get(address.KeySweep) {
			return
		}
		p.setKeys(ctx, url.Values{address.KeySweep: {spec}})
		p.sweep = sweepShown{}
		p.publishSweep(ctx)
		p.sendSweep(false)
	})
	ctx.Handle(actionSweepMetric, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "sweep")
		m, _ := a.Value.(string)
		if m == "p99" {
			m = "" // the default stays out of the URL
		}
		p.setKeys(ctx, url.Values{address.KeyMetric: {m}})
		p.sendSweep(false)
	})
	ctx.Handle(actionSweepCancel, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "sweep")
		if stop, _ := a.Value.(bool); stop {
			if p.client != nil && !p.sweep.done {
				p.client.Send(worker.Request{ID: p.seq, Cancel: true})
				spec, _ := p.sweepSpec()
				if p.sweep.seq != p.seq || p.sweep.spec != spec {
					p.sweep = sweepShown{seq: p.seq, spec: spec}
				}
				p.sweep.cancelled = true
				p.publishSweep(ctx)
			}
			return
		}
		p.sweep.cancelled = false
		p.publishSweep(ctx)
		p.sendSweep(true)
	})
}

// sendSweep asks for the URL's sweep of the run on show: the sweep alone
// when the run's charts are drawn, else the whole request again (the worker
// runs only what it lacks).
func (p *Page) sendSweep(force bool) {
	ask := p.sweepAsk()
	if ask == nil || p.client == nil || !p.Settings.Simulate || p.refused || !force && askKey(ask) == p.sweepAsked {
		return
	}
	p.sweepAsked = askKey(ask)
	if p.running || p.shown == nil || p.shown.Seq != p.seq {
		p.send(p.cfg, true)
		return
	}
	// The landscape at the charts' width now (a result taken over from the
	// static HTML was drawn by no request).
	p.client.Send(worker.Request{ID: p.seq, Gen: p.charts.gen, Query: p.cfg.Query(), Charts: p.chartOptions(),
		Redraw: true, SweepOnly: true, Sweep: ask})
}

// askKey is what a sweep request asks, to tell whether it was asked.
func askKey(a *worker.SweepAsk) string {
	if a == nil {
		return ""
	}
	return a.Spec + "\x00" + a.Metric
}

// sweepResponse takes a batch of the sweep's points.
func (p *Page) sweepResponse(u *worker.SweepUpdate) {
	spec, _ := p.sweepSpec()
	if u.Spec != spec {
		return // another sweep's (the reader changed it since)
	}
	s := &p.sweep
	if s.seq != p.seq || s.spec != spec || u.From == 0 {
		// A cancel stands against the batches already on their way.
		stopped := s.cancelled && s.seq == p.seq && s.spec == spec
		*s = sweepShown{seq: p.seq, spec: spec, cancelled: stopped}
	}
	s.err, s.total = u.Err, u.Total
	if u.From <= len(s.points) {
		// A new slice: the panel holds the one it was handed.
		s.points = append(append(make([]sweep.Point, 0, u.From+len(u.Points)), s.points[:u.From]...), u.Points...)
	}
	if u.Chart != nil {
		s.chart, s.src = u.Chart, ui.SVGDataURL(u.Chart.SVG)
	}
	s.done, s.ms = u.Done, u.Ms
	if u.Done {
		s.cancelled = false
	}
}

// defaultSweep is the spec the panel starts from for cfg: the stall from
// none to nine tenths of its period (a stall is shorter than every), or to
// twice its length for a single stall, in 50 points.
func defaultSweep(cfg sim.Config) string {
	to := cfg.Every * 9 / 10
	if cfg.Every == 0 {
		to = max(2*cfg.Stall, 1_000_000_000)
	}
	return "stall:0s.." + sim.FormatDuration(to) + "/50"
}

// sweepParts splits a spec into the panel's controls: field, from, to and
// the form after the '/' (a count, a step or x and a factor).
type sweepParts struct{ Field, From, To, Form string }

func splitSweep(spec string) sweepParts {
	var s sweepParts
	s.Field, spec, _ = strings.Cut(spec, ":")
	span, form, _ := strings.Cut(spec, "/")
	s.From, s.To, _ = strings.Cut(span, "..")
	s.Form = form
	return s
}

func (s sweepParts) spec() string { return s.Field + ":" + s.From + ".." + s.To + "/" + s.Form }

// sweepFor is the spec the panel proposes when the reader picks field: a
// range around the query's own value of it.
func sweepFor(field string, cfg sim.Config) string {
	if field == "stall" {
		return defaultSweep(cfg)
	}
	fi, ok := sim.LookupField(field)
	if !ok {
		return defaultSweep(cfg)
	}
	v := cfg.Values()[fieldIndex(field)]
	sw := sweep.Sweep{Kind: fi.Kind}
	x, num := sw.Number(v)
	switch fi.Kind {
	case sim.KindDuration:
		hi := int64(2 * x)
		if !num || hi <= 0 {
			hi = 1_000_000_000
		}
		return field + ":0s.." + sim.FormatDuration(hi) + "/20"
	case sim.KindRate:
		if !num || x <= 0 {
			x = 1000
		}
		lo, hi := sim.Rate(int64(max(x/10, 1)*1000)), sim.Rate(int64(min(2*x, 1e7)*1000))
		return fmt.Sprintf("%s:%s..%s/20", field, lo, hi)
	}
	hi := 16
	if num && int(2*x) > hi {
		hi = int(2 * x)
	}
	return fmt.Sprintf("%s:1..%d/x2", field, hi)
}

// renderSweep is the landscape's panel with the page's state of it.
func (p *Page) renderSweep() app.UI {
	spec, err := p.sweepSpec()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	merr := ""
	if m := p.addr.Get(address.KeyMetric); m != "" && m != p.sweepMetric() {
		fe := &sim.FieldError{Field: address.KeyMetric, Value: m, Allowed: "allowed " + strings.Join(charts.LandscapeMetrics(), ", ") + "; the landscape draws p99 until it is fixed"}
		merr = fe.Error()
	}
	return &sweepPanel{ISpec: spec, ISeq: p.seq, IErr: msg, IMetricErr: merr, IMetric: p.sweepMetric(), IDefault: defaultSweep(p.cfg), IRefused: p.why}
}
