//go:build !wasm

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"omission/app/ui"
	"omission/app/units"
	"omission/sim"
)

// parseQueryArgs parses a command's flags and its one optional query; an
// error exits 2 and names the command (with its usage line, when given).
func parseQueryArgs(fs *flag.FlagSet, args []string, usage string) error {
	if usage != "" {
		usage = "\n" + usage
	}
	if err := fs.Parse(args); err != nil {
		return &exitError{2, fmt.Errorf("%s: %v%s", fs.Name(), err, usage)}
	}
	if fs.NArg() > 1 {
		return &exitError{2, fmt.Errorf("%s: one query at most, got %d arguments%s", fs.Name(), fs.NArg(), usage)}
	}
	return nil
}

// reportCmd runs one query and prints the report as text or JSON. It exits 1
// when a check fails and 2 when the query is invalid.
func reportCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	tool := fs.String("tool", "", "print what this load generator would print")
	measuredPath := fs.String("measured", "", "a measurement file to print beside the model (measured_cmd.go)")
	vsFlag := fs.String("vs", "", "a second query to run beside it, with the differences (vs_cmd.go)")
	if err := parseQueryArgs(fs, args, ""); err != nil {
		return err
	}
	cfg, err := sim.ParseQuery(fs.Arg(0), ui.PageKeys()...)
	if err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
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

// writeText prints the report tables.
func writeText(w io.Writer, res *sim.Result) {
	cfg := res.Config
	fmt.Fprintf(w, "query: %s\n", displayQuery(res.Query))
	fmt.Fprintf(w, "schedule: %d requests due at %s/s (every %s) over %s; stall %s every %s from %s; service %s; conns %d; workers %s; rank %s\n\n",
		res.Planned, cfg.Rate, sim.FormatDuration(res.Slot), sim.FormatDuration(cfg.Duration), sim.FormatDuration(cfg.Stall),
		sim.FormatDuration(cfg.Every), sim.FormatDuration(cfg.First), sim.FormatDuration(cfg.Service), cfg.Conns, workersText(cfg.Workers), cfg.Rank)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, k := range sim.Kinds() {
		fmt.Fprintf(tw, "%s\t", k)
	}
	fmt.Fprint(tw, "open/closed\t\n")
	row := func(name string, f func(r *sim.Recording) string, ratio func(o, c *sim.Recording) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for i := range res.Recordings {
			fmt.Fprintf(tw, "%s\t", f(&res.Recordings[i]))
		}
		fmt.Fprintf(tw, "%s\t\n", ratio(&res.Recordings[sim.Open], &res.Recordings[sim.Closed]))
	}
	none := func(o, c *sim.Recording) string { return "" }
	row("count", func(r *sim.Recording) string { return fmt.Sprint(r.Count) }, none)
	row("mean", func(r *sim.Recording) string { return units.Micros(r.Mean) }, func(o, c *sim.Recording) string { return ratio(o.Mean, c.Mean) })
	for i, p := range sim.Percentiles() {
		row(strings.ReplaceAll(p.Name, "_", "."), func(r *sim.Recording) string { return units.Micros(float64(r.P[i])) },
			func(o, c *sim.Recording) string { return ratio(float64(o.P[i]), float64(c.P[i])) })
	}
	row("max", func(r *sim.Recording) string { return units.Micros(float64(r.Max)) }, func(o, c *sim.Recording) string { return ratio(float64(o.Max), float64(c.Max)) })
	row("above "+sim.FormatDuration(cfg.Above), func(r *sim.Recording) string { return fmt.Sprintf("%d (%.4f%%)", r.Above, 100*r.Share()) },
		func(o, c *sim.Recording) string { return ratio(float64(o.Above), float64(c.Above)) })
	tw.Flush()
	fmt.Fprintf(w, "\ncorrection: expected interval E = %s (closed), %s (paced)\n\n",
		sim.FormatDuration(res.Recordings[sim.Corrected].Interval), sim.FormatDuration(res.Recordings[sim.PacedCorrected].Interval))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "client\tplanned\tsent\tnever sent\tstalls met\tlast reply\t\n")
	for _, c := range res.Clients {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\n", c.Client, c.Planned, c.Sent, c.Planned-c.Sent, c.StallsMet, units.Micros(float64(c.LastCompletion)))
	}
	tw.Flush()
	passed, total := res.Passed()
	fmt.Fprintf(w, "\nchecks: %d passed, %d failed\n", passed, total-passed)
	for _, c := range res.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s %-32s want %-14s got %s\n", mark, c.ID, trimFloat(c.Want), trimFloat(c.Got))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func displayQuery(q string) string {
	if q == "" {
		return "(defaults: preset bench)"
	}
	return q
}

func workersText(n int) string {
	if n == 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func trimFloat(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return fmt.Sprintf("%.3f", f)
}
