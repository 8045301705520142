//go:build js

package sim

// sum256 is the result hash's SHA-256 in the browser build (smallSum256:
// no FIPS module in app.wasm).
func sum256(b []byte) [32]byte { return smallSum256(b) }
