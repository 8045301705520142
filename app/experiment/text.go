package experiment

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"omission/app/units"

	"omission/sim"
)

// WriteText prints the experiment: a table of each recording measured
// beside the calibrated model, planned versus sent, and the explanations.
func (r *Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "experiment: %s\n", sim.QueryWords(r.Query))
	fmt.Fprintf(w, "transport: %s\n", r.Transport)
	fmt.Fprintf(w, "servers: 127.0.0.1, a fresh one per client (first %s); stalls %s every %s from %s, measured from each server's start\n",
		r.Server, units.Duration(r.cfg.Stall), units.Duration(r.cfg.Every), units.Duration(r.cfg.First))
	fmt.Fprintf(w, "service: %s; round trip measured %s; calibrated model: %s\n\n", units.Duration(r.ServiceNs), units.Duration(r.RoundTripNs), sim.QueryWords(r.CalibratedQuery))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	var recs []string
	for _, k := range sim.Kinds() {
		recs = append(recs, k.String())
	}
	fmt.Fprint(tw, "\t")
	for _, rec := range recs {
		if _, ok := r.Measured[rec]; ok {
			fmt.Fprintf(tw, "%s\tmodel\t", rec)
		}
	}
	fmt.Fprint(tw, "\n")
	us := units.Duration[float64] // people's units, as the report's table
	row := func(name string, meas func(m Metrics) string, model func(rec string) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, rec := range recs {
			if m, ok := r.Measured[rec]; ok {
				fmt.Fprintf(tw, "%s\t%s\t", meas(m), model(rec))
			}
		}
		fmt.Fprint(tw, "\n")
	}
	cal := r.Calibrated.Recordings
	row("count", func(m Metrics) string { return fmt.Sprint(m.Count) }, func(rec string) string { return fmt.Sprint(cal[rec].Count) })
	row("mean", func(m Metrics) string { return us(m.MeanNs) }, func(rec string) string { return us(cal[rec].MeanNs) })
	row("p50", func(m Metrics) string { return us(float64(m.P50Ns)) }, func(rec string) string { return us(float64(cal[rec].P50Ns)) })
	row("p90", func(m Metrics) string { return us(float64(m.P90Ns)) }, func(rec string) string { return us(float64(cal[rec].P90Ns)) })
	row("p99", func(m Metrics) string { return us(float64(m.P99Ns)) }, func(rec string) string { return us(float64(cal[rec].P99Ns)) })
	row("p99.9", func(m Metrics) string { return us(float64(m.P999Ns)) }, func(rec string) string { return us(float64(cal[rec].P999Ns)) })
	row("p99.99", func(m Metrics) string { return us(float64(m.P9999Ns)) }, func(rec string) string { return us(float64(cal[rec].P9999Ns)) })
	row("max", func(m Metrics) string { return us(float64(m.MaxNs)) }, func(rec string) string { return us(float64(cal[rec].MaxNs)) })
	row("above "+units.Duration(r.cfg.Above), func(m Metrics) string { return fmt.Sprint(m.Above) }, func(rec string) string { return fmt.Sprint(cal[rec].Above) })
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "client\tplanned\tsent\tnever sent\tmodel never sent\tunanswered\tserver\t\n")
	for _, name := range sim.ClientNames() {
		if cr := r.MeasuredClients[name]; cr != nil {
			mc := r.Calibrated.Clients[name]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", name, cr.Planned, cr.Sent, cr.Planned-cr.Sent, mc.Planned-mc.Sent, cr.Unanswered, cr.Server)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	r.writeTools(w)
	for _, e := range r.Explanations {
		fmt.Fprintf(w, "- %s\n", e)
	}
	fmt.Fprintf(w, "\nwall time %s; model columns: the calibrated model; percentiles measured with hdrhistogram-go (3 significant digits), counts, means and maxima exact\n", units.Duration(r.WallNs))
}

// writeTools prints each real tool's figures beside its prediction.
func (r *Result) writeTools(w io.Writer) {
	for _, tr := range r.Tools {
		if tr.Err != "" {
			fmt.Fprintf(w, "%s: not compared: %s\n\n", tr.Tool, tr.Err)
			continue
		}
		fmt.Fprintf(w, "%s (real): %s\n", tr.Tool, tr.Command)
		fmt.Fprintf(w, "  against a fresh server whose stall clock started at the tool's first request; load average %.2f to %.2f\n",
			tr.LoadAverage[0], tr.LoadAverage[1])
		fmt.Fprintf(w, "  predicted: the %s profile on %s, service time %s fitted to %s\n", tr.Tool, sim.QueryWords(tr.ModelQuery), units.Duration(tr.ServiceNs), tr.Fit)
		if tr.RoundTripNs > 0 {
			fmt.Fprintf(w, "  held above ten round trips of %s: %s\n", units.Duration(tr.RoundTripNs), tr.RoundTripHow)
		}
		if tr.Clock != "" {
			fmt.Fprintf(w, "  the model's clock: %s\n", tr.Clock)
		}
		if tr.RunLength != "" {
			fmt.Fprintf(w, "  the model's run length: %s\n", tr.RunLength)
		}
		fmt.Fprintf(w, "  with client time: the same profile with the server's service time (%s) and the tool's own time per request %s, fitted the same way\n", units.Duration(tr.ServerServiceNs), units.Duration(tr.ClientNs))
		client := map[string]ToolDiff{}
		for _, d := range tr.DiffsClient {
			client[d.Metric] = d
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\treal\tpredicted\tdiff\t\twith client time\tdiff\t\n")
		for _, d := range tr.Diffs {
			f := func(v int64) string {
				if d.Metric == "requests" {
					return fmt.Sprint(v)
				}
				return units.Duration(v)
			}
			held := "not held (below ten round trips)"
			switch {
			case d.Compared && d.Metric == "requests":
				held = "held to 1 %"
			case d.Compared:
				held = "held to 2 %"
			}
			pct := func(p *float64) string {
				if p == nil {
					return "-"
				}
				return fmt.Sprintf("%+.2f %%", *p)
			}
			c := client[d.Metric]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", strings.ReplaceAll(d.Metric, "_", "."), f(d.Real), f(d.Predicted), pct(d.Pct), held, f(c.Predicted), pct(c.Pct))
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
}
