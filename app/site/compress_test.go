//go:build !wasm

package site

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/app/internal/rawget"
)

// testSite writes a small site like Build's output and precompresses it.
func testSite(t *testing.T) (dir string, files map[string][]byte) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the compression cache of this test alone
	dir = t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	wasm := make([]byte, 80<<10) // above the size compressCache keeps
	for i := range wasm {
		wasm[i] = "\x00asm\x01\x02\x03go"[rng.IntN(9)] // compressible, not trivially
	}
	png := make([]byte, 3000)
	for i := range png {
		png[i] = byte(rng.Uint32())
	}
	page := "<!doctype html><html><head><title>Omission</title></head><body>" + strings.Repeat("<p>latency</p>", 200) + "</body></html>"
	files = map[string][]byte{
		"index.html":           []byte(page),
		"article/index.html":   []byte(strings.Replace(page, "Omission", "Article", 1)),
		"app.js":               []byte(strings.Repeat("const goappEnv = {};\n", 100)),
		"app-worker.js":        []byte(strings.Repeat("self.addEventListener('fetch', () => {});\n", 50)),
		"manifest.webmanifest": []byte(`{"name":"Omission","icons":[` + strings.Repeat(`{"src":"/web/icon-192.png"},`, 20) + `{}]}`),
		"web/app.wasm":         wasm,
		"web/app.css":          []byte(strings.Repeat(".omission { color: #1f2a44; }\n", 100)),
		"web/icon-192.png":     png,
		"web/icon.svg":         []byte(`<svg/>`),
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := precompress(dir); err != nil {
		t.Fatal(err)
	}
	return dir, files
}

// TestPrecompress checks the files precompress writes: each decodes to its
// file, only text files and app.wasm have them, and none is larger; then it
// serves the site (brotli at its best is slow under the race detector, so
// the site is compressed once).
func TestPrecompress(t *testing.T) {
	dir, files := testSite(t)
	t.Run("files", func(t *testing.T) { checkPrecompressed(t, dir, files) })
	t.Run("served", func(t *testing.T) { checkServed(t, dir, files) })
	// A second run takes app.wasm's encodings from the cache.
	for _, e := range encodings {
		os.Remove(filepath.Join(dir, "web", "app.wasm"+e.suffix))
	}
	if err := precompress(dir); err != nil {
		t.Fatal(err)
	}
	cached, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "omission-compress", compressCacheFormat, "*"))
	if len(cached) != len(encodings) {
		t.Errorf("the compression cache holds %q, want app.wasm's %d encodings", cached, len(encodings))
	}
	checkPrecompressed(t, dir, files)
}

func checkPrecompressed(t *testing.T, dir string, files map[string][]byte) {
	for name, want := range files {
		for _, e := range encodings {
			z, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)+e.suffix))
			switch {
			case !Compressible(name):
				if err == nil {
					t.Errorf("%s%s written: %s is not a text file", name, e.suffix, name)
				}
			case name == "web/icon.svg":
				if err == nil && len(z) >= len(want) {
					t.Errorf("%s%s is %d bytes, the file %d", name, e.suffix, len(z), len(want))
				}
			case err != nil:
				t.Errorf("%s%s: %v", name, e.suffix, err)
			default:
				if got := rawget.Decode(t, e.coding, z); !bytes.Equal(got, want) {
					t.Errorf("%s%s does not decode to %s", name, e.suffix, name)
				}
				if len(z) >= len(want) {
					t.Errorf("%s%s is %d bytes, the file %d", name, e.suffix, len(z), len(want))
				}
			}
		}
	}
}

// checkServed serves the test site and checks encodings, headers, bodies,
// redirects and conditional requests.
func checkServed(t *testing.T, dir string, files map[string][]byte) {
	h, err := NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	wasmHash := ContentHash(files["web/app.wasm"])

	for _, c := range []struct {
		path, accept, coding, ctype, cache string
		want                               []byte
	}{
		{"/web/app.wasm", "gzip, deflate, br, zstd", "br", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "gzip", "gzip", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "", "", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "identity", "", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "br;q=0, gzip;q=0.5", "gzip", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "gzip;q=0, *;q=0.1", "br", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm", "br;q=0, gzip;q=0", "", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/web/app.wasm?v=" + wasmHash, "br", "br", "application/wasm", "public, max-age=31536000, immutable", files["web/app.wasm"]},
		{"/web/app.wasm?v=0123456789abcdef", "br", "br", "application/wasm", "no-cache", files["web/app.wasm"]},
		{"/", "gzip, br", "br", "text/html; charset=utf-8", "no-cache", files["index.html"]},
		{"/?preset=tcp&v=" + ContentHash(files["index.html"]), "gzip", "gzip", "text/html; charset=utf-8", "no-cache", files["index.html"]},
		{"/article/", "br", "br", "text/html; charset=utf-8", "no-cache", files["article/index.html"]},
		{"/app.js", "br", "br", "text/javascript; charset=utf-8", "no-cache", files["app.js"]},
		{"/app-worker.js?v=" + ContentHash(files["app-worker.js"]), "br", "br", "text/javascript; charset=utf-8", "no-cache", files["app-worker.js"]},
		{"/manifest.webmanifest", "gzip", "gzip", "application/manifest+json", "no-cache", files["manifest.webmanifest"]},
		{"/web/app.css?v=" + ContentHash(files["web/app.css"]), "br", "br", "text/css; charset=utf-8", "public, max-age=31536000, immutable", files["web/app.css"]},
		{"/web/icon-192.png", "br, gzip", "", "image/png", "no-cache", files["web/icon-192.png"]},
	} {
		name := c.path + " [" + c.accept + "]"
		r := rawget.Get(t, "GET", srv.URL+c.path, "Accept-Encoding", c.accept)
		if r.Status != 200 {
			t.Errorf("%s: status %d", name, r.Status)
			continue
		}
		if got := r.Header.Get("Content-Encoding"); got != c.coding {
			t.Errorf("%s: Content-Encoding %q, want %q", name, got, c.coding)
		}
		if got := r.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q, want %q", name, got, c.ctype)
		}
		if got := r.Header.Get("Cache-Control"); got != c.cache {
			t.Errorf("%s: Cache-Control %q, want %q", name, got, c.cache)
		}
		vary := r.Header.Get("Vary")
		if p, _, _ := strings.Cut(c.path, "?"); Compressible(p) || strings.HasSuffix(p, "/") {
			if vary != "Accept-Encoding" {
				t.Errorf("%s: Vary %q", name, vary)
			}
		} else if vary != "" {
			t.Errorf("%s: Vary %q for a file sent as it is", name, vary)
		}
		if got := r.Header.Get("Content-Length"); got != fmt.Sprint(len(r.Body)) {
			t.Errorf("%s: Content-Length %s, body %d bytes", name, got, len(r.Body))
		}
		if c.coding != "" && len(r.Body) >= len(c.want) {
			t.Errorf("%s: %d bytes sent for a %d-byte file", name, len(r.Body), len(c.want))
		}
		if got := rawget.Decode(t, c.coding, r.Body); !bytes.Equal(got, c.want) {
			t.Errorf("%s: the decoded body is not the file (%d bytes, want %d)", name, len(got), len(c.want))
		}
		etag := r.Header.Get("ETag")
		if etag == "" {
			t.Errorf("%s: no ETag", name)
			continue
		}
		// The same representation again, conditionally: 304.
		if r2 := rawget.Get(t, "GET", srv.URL+c.path, "Accept-Encoding", c.accept, "If-None-Match", etag); r2.Status != http.StatusNotModified || len(r2.Body) != 0 {
			t.Errorf("%s: If-None-Match %s: status %d, %d bytes", name, etag, r2.Status, len(r2.Body))
		}
	}

	// Each encoding has its own ETag.
	tags := map[string]bool{}
	for _, ae := range []string{"br", "gzip", ""} {
		tags[rawget.Get(t, "GET", srv.URL+"/web/app.wasm", "Accept-Encoding", ae).Header.Get("ETag")] = true
	}
	if len(tags) != 3 {
		t.Errorf("ETags of br, gzip and identity: %v", tags)
	}

	// A directory without its slash redirects, keeping the query.
	for path, want := range map[string]string{"/article": "/article/", "/article?preset=tcp": "/article/?preset=tcp"} {
		r := rawget.Get(t, "GET", srv.URL+path)
		if r.Status != http.StatusMovedPermanently || r.Header.Get("Location") != want {
			t.Errorf("%s: %d to %q, want 301 to %q", path, r.Status, r.Header.Get("Location"), want)
		}
	}
	// Ranges, HEAD, other methods, unknown paths, variants by their name.
	if r := rawget.Get(t, "GET", srv.URL+"/web/app.wasm", "Range", "bytes=4-11"); r.Status != http.StatusPartialContent || !bytes.Equal(r.Body, files["web/app.wasm"][4:12]) {
		t.Errorf("Range: status %d, %q", r.Status, r.Body)
	}
	br, err := os.ReadFile(filepath.Join(dir, "web", "app.wasm.br"))
	if err != nil {
		t.Fatal(err)
	}
	if r := rawget.Get(t, "GET", srv.URL+"/web/app.wasm", "Accept-Encoding", "br", "Range", "bytes=100-199"); r.Status != http.StatusPartialContent || !bytes.Equal(r.Body, br[100:200]) || r.Header.Get("Content-Length") != "100" {
		t.Errorf("Range of the brotli variant: status %d, %d bytes, Content-Length %s", r.Status, len(r.Body), r.Header.Get("Content-Length"))
	}
	if r := rawget.Get(t, "HEAD", srv.URL+"/web/app.wasm", "Accept-Encoding", "br"); r.Status != 200 || len(r.Body) != 0 || r.Header.Get("Content-Encoding") != "br" || r.Header.Get("Content-Length") != fmt.Sprint(len(br)) {
		t.Errorf("HEAD: %d, %d bytes, %v", r.Status, len(r.Body), r.Header)
	}
	if r := rawget.Get(t, "POST", srv.URL+"/"); r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", r.Status, r.Header.Get("Allow"))
	}
	for _, p := range []string{"/nope", "/web/app.wasm.br", "/web/app.wasm.gz", "/../go.mod", "/web/../../x"} {
		if r := rawget.Get(t, "GET", srv.URL+p); r.Status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, r.Status)
		}
	}
}

func TestPickEncoding(t *testing.T) {
	both := map[string]string{"br": "x.br", "gzip": "x.gz"}
	gz := map[string]string{"gzip": "x.gz"}
	for _, c := range []struct {
		accept []string
		have   map[string]string
		want   string
	}{
		{nil, both, ""},
		{[]string{""}, both, ""},
		{[]string{"gzip, deflate, br"}, both, "br"},
		{[]string{"gzip", "br"}, both, "br"},
		{[]string{"BR;Q=0.5, gzip;q=0.8"}, both, "gzip"},
		{[]string{"br;q=1.0, gzip;q=1.0"}, both, "br"},
		{[]string{"br;q=0"}, both, ""},
		{[]string{"*"}, both, "br"},
		{[]string{"*;q=0.5, br;q=0"}, both, "gzip"},
		{[]string{"x-gzip"}, both, "gzip"},
		{[]string{"br"}, gz, ""},
		{[]string{"br, gzip"}, gz, "gzip"},
		{[]string{"gzip;q=nonsense"}, both, ""},
		{[]string{"deflate, zstd"}, both, ""},
		{[]string{" gzip ; q=0.3 ,br;q=0.2"}, both, "gzip"},
	} {
		if got := pickEncoding(c.accept, c.have); got != c.want {
			t.Errorf("pickEncoding(%q, %v) = %q, want %q", c.accept, c.have, got, c.want)
		}
	}
}
