package sim

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestSmallSum256 holds the browser build's SHA-256 to crypto/sha256: every
// length from 0 to 200 bytes (the padding's cases: 55, 56, 63, 64 and on)
// and 300 random messages up to 20 kB, the size of a result's hash document.
// Under js/wasm (make test-wasm) it also checks sum256, which is
// smallSum256 there.
func TestSmallSum256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var msgs [][]byte
	for n := range 201 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		msgs = append(msgs, b)
	}
	for range 300 {
		b := make([]byte, r.IntN(20_000))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		msgs = append(msgs, b)
	}
	for _, b := range msgs {
		want := sha256.Sum256(b)
		if got := smallSum256(b); got != want {
			t.Fatalf("smallSum256 of %d bytes = %x, want %x", len(b), got, want)
		}
		if got := sum256(b); got != want {
			t.Fatalf("sum256 of %d bytes = %x, want %x", len(b), got, want)
		}
	}
}
