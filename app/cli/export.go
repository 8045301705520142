//go:build !wasm

package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"omission/app/address"
	"omission/app/measure"
	"omission/sim"
)

const exportUsage = "usage: app export -format hgrm|hlog|csv [-recording NAME] [-sweep SPEC] QUERY"

// exportCmd writes a query's recordings as an HdrHistogram percentile
// distribution (.hgrm, one recording), an interval log (.hlog, every
// recording or the one named) or a CSV. It exits 2 on bad arguments.
func exportCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	format := fs.String("format", "", "hgrm, hlog or csv")
	recording := fs.String("recording", "", "one recording: closed, paced, open, corrected, paced_corrected")
	sweepFlag := fs.String("sweep", "", "a sweep of one field: a CSV row per point and recording")
	if err := parseArgs(fs, args, exportUsage, 1); err != nil {
		return err
	}
	switch *format {
	case "hgrm", "hlog", "csv":
	case "":
		return &exitError{2, fmt.Errorf("export: -format is required (hgrm, hlog or csv)\n%s", exportUsage)}
	default:
		return &exitError{2, fmt.Errorf("export: -format %q: allowed hgrm, hlog or csv\n%s", *format, exportUsage)}
	}
	cfg, err := sim.ParseQuery(fs.Arg(0), address.PageKeys()...)
	if err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	}
	if spec, err := sweepSpec(*sweepFlag, fs.Arg(0)); err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	} else if spec != "" {
		if *format != "csv" {
			return &exitError{2, fmt.Errorf("export: a sweep is written as -format csv, a row per point and recording\n%s", exportUsage)}
		}
		sw, err := runSweep(cfg, spec)
		if err != nil {
			return err
		}
		return exportSweep(w, sw, *recording)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		return &exitError{2, err}
	}
	set, err := measure.FromResult(res)
	if err != nil {
		return err
	}
	if *format == "hgrm" && *recording == "" {
		return &exitError{2, fmt.Errorf("export: an .hgrm holds one recording: name it with -recording (%s)", strings.Join(set.Names(), ", "))}
	}
	if _, err := set.ForExport(*format, *recording); err != nil {
		return &exitError{2, fmt.Errorf("export: -recording: %v", err)}
	}
	return set.Export(w, *format, *recording, measure.MaxCSVRows)
}
