//go:build !wasm

package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"omission/app/experiment"
	"omission/app/measure"
	"omission/sim"
)

const experimentUsage = "usage: app experiment [-json] [-out DIR] [-with TOOL[,TOOL…]] QUERY"

// experimentCmd runs the query for real on loopback (package experiment)
// and prints what each client measured beside the model. Ctrl-C stops it
// and prints what it has. It exits 2 on bad arguments or a query the
// experiment cannot run.
func experimentCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("experiment", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	out := fs.String("out", "", "write each measured recording as DIR/<recording>.hlog and .hgrm")
	with := fs.String("with", "", "also run real load generators: "+strings.Join(experiment.RealToolNames(), ","))
	if err := parseArgs(fs, args, experimentUsage, 1); err != nil {
		return err
	}
	var opt experiment.Options
	if *with != "" {
		opt.Paths = map[string]string{}
		// Every name is checked before any tool is looked for, so that a
		// misspelt one is refused as such on any machine.
		for _, name := range strings.Split(*with, ",") {
			if name = strings.TrimSpace(name); name != "" {
				if err := experiment.CheckTool(name); err != nil {
					return &exitError{2, fmt.Errorf("experiment: %v", err)}
				}
			}
		}
		for _, name := range strings.Split(*with, ",") {
			name = strings.TrimSpace(name)
			if name == "" || opt.Paths[name] != "" {
				continue
			}
			path, err := experiment.FindTool(name)
			if err != nil {
				return &exitError{2, fmt.Errorf("experiment: %v", err)}
			}
			opt.With = append(opt.With, name)
			opt.Paths[name] = path
		}
	}
	cfg, err := sim.ParseQuery(fs.Arg(0))
	if err != nil {
		return &exitError{2, fmt.Errorf("invalid query: %v", err)}
	}
	if err := experiment.Check(cfg); err != nil {
		return &exitError{2, fmt.Errorf("experiment: %v", err)}
	}
	if len(opt.With) > 0 {
		if err := experiment.CheckWith(cfg); err != nil {
			return &exitError{2, fmt.Errorf("experiment: %v", err)}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := experiment.Run(ctx, cfg, opt)
	if err != nil {
		return &exitError{2, err}
	}
	if *out != "" {
		if err := writeMeasured(*out, res); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	res.WriteText(w)
	if *out != "" {
		fmt.Fprintf(w, "wrote each measured recording to %s as .hlog and .hgrm\n", *out)
	}
	return nil
}

// writeMeasured writes DIR/<recording>.hlog and DIR/<recording>.hgrm.
func writeMeasured(dir string, res *experiment.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, set := range res.Sets() {
		for _, name := range set.Names() {
			one, _ := set.Select(name)
			if err := writeFile(filepath.Join(dir, name+".hlog"), one.WriteHlog); err != nil {
				return err
			}
			h := one.Sources[0].Hist
			if err := writeFile(filepath.Join(dir, name+".hgrm"), func(w io.Writer) error { return measure.WriteHgrm(w, h) }); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
