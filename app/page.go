package main

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

// page is the visualiser. (A first version: the bench report table.)
type page struct {
	app.Compo

	res  *sim.Result
	errs error
}

// OnNav runs on the UI goroutine when the page becomes the navigation target.
func (p *page) OnNav(ctx app.Context) { p.load(ctx.Page().URL().RawQuery) }

func (p *page) load(query string) {
	cfg, err := sim.ParseQuery(query)
	p.errs = err
	res, err := sim.Run(cfg)
	if err != nil {
		p.errs = err
		return
	}
	p.res = res
}

func (p *page) Render() app.UI {
	if p.res == nil {
		return app.Main().Body(app.P().Text("Simulating…"))
	}
	head := []app.UI{app.Th().Text("")}
	for _, k := range sim.Kinds() {
		head = append(head, app.Th().Scope("col").Text(k.String()))
	}
	rows := []app.UI{app.Tr().Body(head...)}
	metric := func(name string, get func(r *sim.Recording) int64) {
		cells := []app.UI{app.Th().Scope("row").Text(name)}
		for i := range p.res.Recordings {
			r := &p.res.Recordings[i]
			v := get(r)
			cells = append(cells, app.Td().DataSet("metric", r.Kind.String()+"."+name).DataSet("ns", v).Text(fmt.Sprintf("%.1f µs", float64(v)/1e3)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	for i, pc := range sim.Percentiles {
		metric(pc.Name, func(r *sim.Recording) int64 { return r.P[i] })
	}
	metric("max", func(r *sim.Recording) int64 { return r.Max })
	passed, total := p.res.Passed()
	return app.Main().Body(
		app.H1().Text("Omission"),
		app.P().Text("One server stalls on a schedule; three load generators record it."),
		app.Table().Body(rows...),
		app.P().Textf("%d of %d checks passed", passed, total),
	)
}
