// Command wasmsize prints how much of a Go wasm binary's code each package
// takes: it reads the code section's function bodies and the name section's
// function names, and sums the bodies' bytes by the package each name
// starts with. Build the binary without -ldflags=-s to keep the names
// (make wasm WASM_LDFLAGS=); the sizes are of code before compression, and
// the data section (type data, strings, embedded fonts) is one figure.
//
//	go run ./app/internal/wasmsize [-top 40] [-pkg omission/app/page] app.wasm
//
// It may import the standard library only.
package main
