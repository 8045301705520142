//go:build !wasm

package main

import (
	"os"

	"omission/app/cli"
)

// nativeMain runs the command line (app/cli) and exits with its status.
func nativeMain() { os.Exit(cli.Main(os.Args[1:])) }
