//go:build !wasm

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// parseArgs is every command's flag preamble: it parses fs from args and
// takes at most maxArgs arguments beside the flags (a query, for most). -h
// and -help ask for the command's help: run prints it on stdout and exits
// 0. A bad flag or an argument too many exits 2 with a message that names
// the command (and gives usage, when not "").
func parseArgs(fs *flag.FlagSet, args []string, usage string, maxArgs int) error {
	if usage != "" {
		usage = "\n" + usage
	}
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return &helpError{commandHelp(fs)}
		}
		return &exitError{2, fmt.Errorf("%s: %v%s", fs.Name(), err, usage)}
	}
	switch {
	case fs.NArg() <= maxArgs:
		return nil
	case maxArgs == 0:
		return &exitError{2, fmt.Errorf("%s: takes no arguments, got %d%s", fs.Name(), fs.NArg(), usage)}
	}
	return &exitError{2, fmt.Errorf("%s: one query at most, got %d arguments%s", fs.Name(), fs.NArg(), usage)}
}

// helpError carries a command's help, which run prints on stdout before it
// exits 0.
type helpError struct{ help string }

func (e *helpError) Error() string { return e.help }

// commandUsage is a command's usage lines and what it does.
func commandUsage(name string) string {
	switch name {
	case "report":
		return `usage: app report [-json] [-measured FILE] [-vs QUERY2] [QUERY or URL]
       app report -tool NAME QUERY
       app report [-json] -sweep FIELD:FROM..TO/N QUERY
       app report [-json] -fit FILE [rate=R]

Runs a simulation and prints its report (beside a measured file, or a
second query's), what a load generator would print of it, a sweep of one
field (a table per recording), or the model fitted to a measured file.
QUERY is a query (sim/QUERY.md) or a whole share URL.`
	case "export":
		return exportUsage + `

Writes the recordings of a query as an HdrHistogram percentile
distribution (.hgrm, one recording), an interval log (.hlog) or CSV;
-format csv -sweep SPEC writes a row per point and recording.`
	case "experiment":
		return experimentUsage + `

Runs the query for real on loopback, beside the model, with the real load
generators -with names; Ctrl-C stops it and prints what it has.`
	case "static":
		return `usage: app static [-web DIR] [-out DIR] [-prefix /sub/path]

Writes the static site (make wasm builds app.wasm and fit.wasm first).`
	case "serve":
		return `usage: app serve [-addr 127.0.0.1:8000] [-web DIR] [-out DIR]

Writes the static site and serves it, compressed, as a static host would.`
	}
	return "usage: app " + name
}

// commandExamples are each command's examples, one line each, as -h
// prints them (TestCommandExamples runs each).
var commandExamples = map[string][]string{
	"report": {
		"go run ./app report 'preset=tcp&stall=500ms'",
		"go run ./app report -tool wrk2 'rate=1000&stall=200ms&every=1s'",
		"go run ./app report -fit app/testdata/fit-tcp-wrk2.txt",
	},
	"export":     {"go run ./app export -format hgrm -recording open 'preset=tcp' > open.hgrm"},
	"experiment": {"go run ./app experiment -with wrk 'rate=500&stall=100ms&every=1s&duration=5s'"},
	"static":     {"go run ./app static -out /tmp/omission-site -prefix /omission"},
	"serve":      {"go run ./app serve -addr 127.0.0.1:8000"},
}

// commandHelp is a command's usage, its examples, then each of its flags.
func commandHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString(commandUsage(fs.Name()))
	b.WriteString("\n\n")
	if ex := commandExamples[fs.Name()]; len(ex) > 0 {
		b.WriteString("examples:\n  " + strings.Join(ex, "\n  ") + "\n\n")
	}
	b.WriteString("flags:\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return b.String()
}
