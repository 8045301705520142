//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says what this program is: it runs only as compute.wasm.
func main() {
	fmt.Fprintln(os.Stderr, "computewasm: this is compute.wasm, the page's simulation worker: make wasm builds it for the browser")
	os.Exit(2)
}
