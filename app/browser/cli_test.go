//go:build !wasm

package browser

import (
	"fmt"
	"io"

	"omission/app/cli"
)

// runCLI runs a command line as app/cli does, its error on stderr and its
// exit status as the error.
func runCLI(stdout, stderr io.Writer, args []string) error {
	if code := cli.Run(stdout, stderr, args); code != 0 {
		return fmt.Errorf("%v: exit %d", args, code)
	}
	return nil
}
