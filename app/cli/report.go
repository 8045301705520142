//go:build !wasm

package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"omission/app/address"
	"omission/app/units"
	"omission/app/view"
	"omission/sim"
)

// reportCmd runs one query and prints the report as text or JSON. It exits 1
// when a check fails and 2 when the query is invalid.
func reportCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	tool := fs.String("tool", "", "print what this load generator would print")
	measuredPath := fs.String("measured", "", "a measurement file to print beside the model")
	vsFlag := fs.String("vs", "", "a second query to run beside it, with the differences")
	sweepFlag := fs.String("sweep", "", "a sweep of one field, a run per point")
	fitPath := fs.String("fit", "", "a measured file to fit the model to")
	if err := parseArgs(fs, args, "", 1); err != nil {
		return err
	}
	if *fitPath != "" {
		if *tool != "" || *measuredPath != "" || *vsFlag != "" || *sweepFlag != "" {
			return &exitError{2, fmt.Errorf("report: -fit prints the fit of one file: it takes no -tool, -measured, -vs or -sweep")}
		}
		return fitCmd(w, *fitPath, fs.Arg(0), *asJSON)
	}
	cfg, err := sim.ParseQuery(fs.Arg(0), address.PageKeys()...)
	if err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	}
	if spec, err := sweepSpec(*sweepFlag, fs.Arg(0)); err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	} else if spec != "" {
		if *tool != "" || *measuredPath != "" || *vsFlag != "" {
			return &exitError{2, fmt.Errorf("report: -sweep prints a row per point: it takes no -tool, -measured or -vs")}
		}
		return sweepCmd(w, cfg, spec, *asJSON)
	}
	if *tool != "" {
		return toolCmd(w, cfg, *tool)
	}
	var meas *measuredFile
	if *measuredPath != "" {
		if meas, err = loadMeasured(*measuredPath); err != nil {
			return &exitError{2, err}
		}
	}
	res, err := sim.Run(cfg)
	if err != nil {
		return &exitError{2, err}
	}
	var vs *sim.Result
	if q, err := vsQuery(*vsFlag, fs.Arg(0)); err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	} else if q != "" {
		if vs, err = runVs(q); err != nil {
			return err
		}
	}
	rep := res.Report()
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		out, err := withTools(rep, cfg, fs.Arg(0))
		if err != nil {
			return err
		}
		if vs != nil {
			vr := vs.Report()
			out.Vs, out.Delta = &vr, deltas(res, vs)
		}
		said := view.Build(0, res, 0).Headline.Said()
		out.Headline = &said
		if err := enc.Encode(meas.json(out)); err != nil {
			return err
		}
	} else {
		writeText(w, res)
		meas.text(w, res)
		if vs != nil {
			writeVsText(w, res, vs)
		}
	}
	if rep.Failed > 0 {
		return &exitError{1, fmt.Errorf("%d of %d checks failed", rep.Failed, len(rep.Checks))}
	}
	return nil
}

// writeText prints the report as text: the run's schedule, the results
// table, the correction, the clients and the checks.
func writeText(w io.Writer, res *sim.Result) {
	cfg := res.Config
	v := view.Build(0, res, 0)
	fmt.Fprintf(w, "query: %s\n", sim.QueryWords(res.Query))
	fmt.Fprintf(w, "schedule: %d requests due at %s/s (every %s) over %s; stall %s every %s from %s; service %s; conns %d; workers %s; rank %s\n\n",
		res.Planned, cfg.Rate, units.Duration(res.Slot), units.Duration(cfg.Duration), units.Duration(cfg.Stall),
		units.Duration(cfg.Every), units.Duration(cfg.First), units.Duration(cfg.Service), cfg.Conns, workersText(cfg.Workers), cfg.Rank)
	writeSaid(w, v.Headline.Said())
	writeTable(w, v)
	fmt.Fprintf(w, "\ncorrection: expected interval E = %s (closed), %s (paced)\n\n",
		units.Duration(res.Recordings[sim.Corrected].Interval), units.Duration(res.Recordings[sim.PacedCorrected].Interval))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "client\tplanned\tsent\tnever sent\tstalls met\tlast reply\t\n")
	for _, c := range res.Clients {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\n", c.Client, c.Planned, c.Sent, c.Planned-c.Sent, c.StallsMet, units.Duration(c.LastCompletion))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nchecks: %d passed, %d failed\n", v.Passed, v.Total-v.Passed)
	// Each check in the simulator's order, its numbers as the page's list
	// has them: a latency in people's units beside its exact nanoseconds.
	for _, c := range res.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		want, got := units.Exact(c.Want), units.Exact(c.Got)
		if vc := v.CheckByID(c.ID); vc != nil {
			want, got = vc.Want, vc.Got
		}
		fmt.Fprintf(w, "  %s %-32s want %-28s got %s\n", mark, c.ID, want, got)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// writeSaid prints the page's headline in words (view.Said): the run in
// a line, each card's number with what is said beside it, and the story.
func writeSaid(w io.Writer, s view.Said) {
	fmt.Fprintf(w, "server: %s\n", s.Summary)
	for _, c := range s.Cards {
		fmt.Fprintf(w, "%s: %s · %s\n", c.Label, c.Value, c.Sub)
	}
	fmt.Fprintf(w, "%s\n\n", s.Story)
}

// writeTable prints the page's results table (view.View's columns, rows,
// labels and exact values) in a terminal's style: latencies as the page
// writes them (units.Duration), counts in digits, the share above the threshold beside its count,
// open ÷ closed to two decimals. The requests planned and sent are the
// clients' table's.
func writeTable(w io.Writer, v *view.View) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	vals := make([]map[string]float64, len(v.Columns))
	for i, c := range v.Columns {
		fmt.Fprintf(tw, "%s\t", c.Recording)
		vals[i] = v.Values(c.Recording)
	}
	fmt.Fprint(tw, "open/closed\t\n")
	for _, r := range v.Rows {
		switch r.Metric {
		case "planned", "sent", "above_share":
			continue
		}
		label := r.Label
		if r.Metric == "count" {
			label = r.Metric // "samples" on the page, count in the JSON and here
		}
		fmt.Fprintf(tw, "%s\t", label)
		for i, c := range r.Cells {
			x := vals[i][r.Metric]
			switch {
			case c.Text == view.NoLatency:
				fmt.Fprintf(tw, "%s\t", c.Text)
			case c.Attr == "ns":
				fmt.Fprintf(tw, "%s\t", c.Text) // units.Duration, as on the page
			case r.Metric == "above":
				fmt.Fprintf(tw, "%d (%.4f%%)\t", int64(x), 100*vals[i]["above_share"])
			default:
				fmt.Fprintf(tw, "%d\t", int64(x))
			}
		}
		fmt.Fprintf(tw, "%s\t\n", textRatio(r.Ratio))
	}
	tw.Flush()
	// Each reason a ratio is missing, once.
	seen := map[string]bool{}
	for _, r := range v.Rows {
		if why := r.Ratio.Why; why != "" && !seen[why] {
			seen[why] = true
			fmt.Fprintf(w, "open/closed %s: %s\n", r.Ratio.Text, why)
		}
	}
}

// textRatio is a row's open ÷ closed to two decimals, the view's text when
// it has no exact value (a line under the table says why), "" for a row
// without one.
func textRatio(r view.Ratio) string {
	if r.Metric == "" {
		return ""
	}
	x, err := strconv.ParseFloat(r.Exact, 64)
	if err != nil {
		return r.Text
	}
	return fmt.Sprintf("%.2f", x)
}

func workersText(n int) string {
	if n == 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}
