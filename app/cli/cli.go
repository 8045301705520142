//go:build !wasm

package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// exitError carries a process exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// Main runs the command line args (without the program's name) with the
// process's stdout and stderr and returns the exit status.
func Main(args []string) int {
	return Run(os.Stdout, os.Stderr, args)
}

// Run runs the command line args, prints any error to stderr and returns
// the exit status.
func Run(stdout, stderr io.Writer, args []string) int {
	return exitCode(run(stdout, stderr, args), stderr)
}

// exitCode prints err (if any) and maps it to the process status: 0 ok,
// 1 a check failed, 2 invalid input.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 2
}

const usage = `usage: app <command> [arguments]

commands:
  serve  [-addr 127.0.0.1:8000] [-web DIR] [-out DIR]   build the static site and serve it
  static [-web DIR] [-out DIR] [-prefix /sub/path]      write the static site
  report [-json] [-measured FILE] [QUERY or URL]        run a simulation and print its report (beside a measured file)
  report [-json] -sweep FIELD:FROM..TO/N QUERY          run a sweep of one field: a table per recording
  report [-json] -fit FILE [rate=R]                     fit the model to a measured file: what it hid
  export -format hgrm|hlog|csv [-recording NAME] QUERY  write the recordings as HdrHistogram files or CSV
                                                        (-format csv -sweep SPEC: a row per point and recording)
  experiment [-json] [-out DIR] [-with TOOL,…] QUERY    run the query for real on loopback, beside the model

app COMMAND -h prints that command's usage, examples and flags.
`

// run runs one native command; a command's -h or -help prints its help.
func run(stdout, stderr io.Writer, args []string) error {
	err := command(stdout, args)
	var help *helpError
	if errors.As(err, &help) {
		_, err = fmt.Fprint(stdout, help.help)
		return err
	}
	return err
}

// command runs the command args name.
func command(stdout io.Writer, args []string) error {
	if len(args) == 0 {
		return &exitError{2, errors.New(usage)}
	}
	switch args[0] {
	case "report":
		return reportCmd(stdout, args[1:])
	case "serve":
		return serveCmd(stdout, args[1:])
	case "static":
		return staticCmd(stdout, args[1:])
	case "export":
		return exportCmd(stdout, args[1:])
	case "experiment":
		return experimentCmd(stdout, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return &exitError{2, fmt.Errorf("unknown command %q\n%s", args[0], usage)}
}
