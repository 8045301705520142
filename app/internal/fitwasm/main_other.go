//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says where this program runs: natively, report -fit does the same.
func main() {
	fmt.Fprintln(os.Stderr, "fitwasm is fit.wasm, the page's fit worker: build it with make wasm; natively, run go run ./app report -fit FILE")
	os.Exit(2)
}
