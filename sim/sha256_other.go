//go:build !js

package sim

import "crypto/sha256"

// sum256 is the result hash's SHA-256: natively crypto/sha256's.
func sum256(b []byte) [32]byte { return sha256.Sum256(b) }
