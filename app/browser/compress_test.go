//go:build !wasm

package browser

import (
	"strconv"
	"strings"
	"testing"
)

// TestBrowserServedCompressed loads the page from serve's handler and
// checks, from the browser's own resource timing, that app.wasm came by its
// hashed URL and encoded (fewer bytes on the wire than decoded), and that
// go-app's loading progress divides by its decoded size (it divides by the
// Content-Length, the encoded size, when not told).
func TestBrowserServedCompressed(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/?preset=tcp")
	b.waitReady(t, "preset=tcp")
	type entry struct {
		Name             string
		Encoded, Decoded float64
	}
	e := eval[[]entry](t, b, `performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.endsWith("/web/app.wasm")).map(e => ({Name: e.name, Encoded: e.encodedBodySize, Decoded: e.decodedBodySize}))`)
	if len(e) != 1 {
		t.Fatalf("app.wasm fetched %d times: %+v", len(e), e)
	}
	if !strings.Contains(e[0].Name, "/web/app.wasm?v=") {
		t.Errorf("app.wasm fetched as %s, not by its hashed URL", e[0].Name)
	}
	if e[0].Decoded == 0 || e[0].Encoded >= e[0].Decoded/2 {
		t.Errorf("app.wasm came as %.0f bytes for %.0f decoded: not compressed", e[0].Encoded, e[0].Decoded)
	}
	if n := eval[string](t, b, "goappWasmContentLength"); n != strconv.FormatFloat(e[0].Decoded, 'f', -1, 64) {
		t.Errorf("go-app's progress divides by %s bytes; app.wasm is %.0f", n, e[0].Decoded)
	}
	t.Logf("app.wasm: %.0f bytes on the wire, %.0f decoded", e[0].Encoded, e[0].Decoded)
}
