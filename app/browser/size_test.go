//go:build !wasm

package browser

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"omission/app/internal/rawget"
	"omission/app/site"
)

// wasmRawBudget is the most app.wasm (the page and its simulation worker)
// may weigh, raw: the raw size moves with what is linked, and only with it
// (a bound after gzip moved by kilobytes for a few hundred bytes of article
// text; git log of this file has the history of the bounds). The last
// moves: Artillery (its period reports, readers and DDSketch: 58 kB of
// code) to 11,991,862 bytes, jmeter-ctt to 11,999,080, Gatling (its t-digest
// tree, console summary and reader: 74 kB of app/tools' code, the rest
// its texts and sim/profile's injections) to 12,124,124, the tools'
// notes on their cards and their list as one Tab stop to 12,130,427, and
// the experiment's autocannon -R round trip (its -j reader's count of
// replies, now linked beside its descriptor) with jmeter-ctt's rate key
// and JTL service words to 12,140,773, and the page's lower sections held
// and built after its first screen (app/page's below.go) to 12,156,352,
// and artillery-maxvusers with Artillery's arrivalCount phase and the
// reader's search for either (18 kB of app/tools' code, the rest its
// texts) to 12,190,850 (JMeter's experiment runner split its server's
// address with package net, which brought 23 kB of net's code and more of
// os and syscall, 128 kB in all: it splits it by hand). Every tool costs
// it until the page reads the tools' names without their descriptors
// (TestBinariesLink lists what each program must not link). The page's
// own reader of the worker's answers and writer of its requests
// (app/worker's decode.go, which spares its thread encoding/json's scan
// and field tables: 60 ms of a cold load's long tasks) took it from
// 12,189,608 to 12,212,399 (6.5 kB more after gzip -9). The lower
// sections built as the reader comes to them, the article's animation
// given its result after the first paint and its own values kept, the
// presets built once and k6's arrival-rate gauge took it to 12,238,778
// (2.5 kB more after gzip -9; by package with names kept: app/article
// 4.4 kB, go-app 2.6 kB, sync 2.0 kB, syscall/js 1.5 kB, app/page 1.4 kB).
const wasmRawBudget = 12_245_000

// builtRequired reports whether the tests of the built app.wasm must run
// (make test-built) rather than skip when it is stale.
func builtRequired() bool { return os.Getenv("OMISSION_WASM") == "1" }

// builtWasm returns web/app.wasm, skipping the test when it is not built
// and, unless OMISSION_WASM=1, when it is older than the sources.
func builtWasm(t *testing.T) []byte {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "web", "app.wasm"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("web/app.wasm is not built, so it is not checked: make wasm, or make test-built, which builds it and runs this")
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := checkWasmFresh(root); err != nil {
		if builtRequired() {
			t.Fatal(err)
		}
		t.Skipf("%v: it is checked after the build (make test-built)", err)
	}
	return b
}

// TestWasmSize fails when app.wasm passes its budget in raw bytes
// (wasmRawBudget), and logs its size after gzip -9, the measure make bench
// prints (site.app_wasm.gzip). Go's compress/gzip at BestCompression
// writes some 18 kB more for the same file; it is the logged measure only
// where no gzip command is installed.
func TestWasmSize(t *testing.T) {
	b := builtWasm(t)
	size, how := gzipSize(t, b)
	t.Logf("web/app.wasm: %d bytes (budget %d), %d after %s", len(b), wasmRawBudget, size, how)
	if len(b) > wasmRawBudget {
		t.Errorf("web/app.wasm is %d bytes, over its budget of %d (%d after %s): go doc ./app/internal/wasmbuild says what it holds and how it is built",
			len(b), wasmRawBudget, size, how)
	}
}

// gzipSize is b's size after gzip -9, or after Go's gzip at its best
// compression when there is no gzip command.
func gzipSize(t *testing.T, b []byte) (int, string) {
	t.Helper()
	if path, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command(path, "-9", "-c")
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("gzip -9: %v", err)
		}
		return len(out), "gzip -9"
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Len(), "Go's gzip (no gzip command)"
}

// TestBuiltSite builds the static site from web/ and serves it with
// serve's handler: every text file and app.wasm comes brotli- or
// gzip-encoded and decodes to the file, and the pages reference app.wasm and
// /web/ by hashed URLs that are immutable. It compresses app.wasm at
// brotli's best (cached by content), so it runs in make test-built.
func TestBuiltSite(t *testing.T) {
	if !builtRequired() {
		t.Skip("the built site: set OMISSION_WASM=1 (make test-built)")
	}
	wasm := builtWasm(t)
	for _, prefix := range []string{"", "/omission"} {
		dir, err := buildTestSite(prefix)
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		h, err := site.NewHandler(dir)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()

		checked := 0
		err = filepath.Walk(dir, func(p string, info fs.FileInfo, err error) error {
			if err != nil || info.IsDir() || !site.Compressible(p) {
				return err
			}
			want, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			url := "/" + filepath.ToSlash(rel)
			for _, ae := range []string{"br", "gzip", ""} {
				r := rawget.Get(t, "GET", srv.URL+url, "Accept-Encoding", ae)
				if r.Status != 200 || r.Header.Get("Content-Type") != site.ContentType(p) {
					t.Errorf("%s [%s]: %d, %s", url, ae, r.Status, r.Header.Get("Content-Type"))
					continue
				}
				coding := r.Header.Get("Content-Encoding")
				if ae != "" && coding != ae && len(want) > 1000 {
					t.Errorf("%s [%s]: sent with Content-Encoding %q", url, ae, coding)
				}
				if got := rawget.Decode(t, coding, r.Body); !bytes.Equal(got, want) {
					t.Errorf("%s [%s]: the decoded body is not the file", url, ae)
				}
			}
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if checked < 8 {
			t.Errorf("prefix %q: %d text files checked", prefix, checked)
		}

		// app.js fetches app.wasm by its hashed URL, which is immutable,
		// and knows its size for the progress bar.
		hashed := prefix + "/web/app.wasm?v=" + site.ContentHash(wasm)
		appJS, _ := os.ReadFile(filepath.Join(dir, "app.js"))
		worker, _ := os.ReadFile(filepath.Join(dir, "app-worker.js"))
		index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
		css, _ := os.ReadFile(filepath.Join(dir, "web", "app.css"))
		for what, s := range map[string]string{
			"app.js fetches":           string(appJS),
			"app-worker.js precaches":  string(worker),
			"app.js has the wasm size": string(appJS),
			"index.html links":         string(index),
		} {
			want := `"` + hashed + `"`
			switch what {
			case "app.js has the wasm size":
				want = fmt.Sprintf("const goappWasmContentLength = \"%d\";", len(wasm))
			case "index.html links":
				want = `"` + prefix + "/web/app.css?v=" + site.ContentHash(css) + `"`
			}
			if !strings.Contains(s, want) {
				t.Errorf("prefix %q: %s %s: not found", prefix, what, want)
			}
		}
		// The workers' script and programs: precached by their hashed
		// URLs, and their addresses in the page's environment (app.js),
		// from which web/page.js starts them.
		for _, f := range []string{"worker.js", "fit.wasm"} {
			b, err := os.ReadFile(filepath.Join(dir, "web", f))
			if err != nil {
				t.Fatal(err)
			}
			want := prefix + "/web/" + f + "?v=" + site.ContentHash(b)
			if !strings.Contains(string(worker), `"`+want+`"`) {
				t.Errorf("prefix %q: app-worker.js does not precache %s", prefix, want)
			}
			if !strings.Contains(string(appJS), want) {
				t.Errorf("prefix %q: app.js's environment lacks %s", prefix, want)
			}
		}
		if prefix != "" {
			continue // the test server serves the site at its root
		}
		fitWasm, _ := os.ReadFile(filepath.Join(dir, "web", "fit.wasm"))
		if r := rawget.Get(t, "GET", srv.URL+"/web/fit.wasm?v="+site.ContentHash(fitWasm), "Accept-Encoding", "br, gzip"); r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			r.Header.Get("Content-Encoding") != "br" || r.Header.Get("Content-Type") != "application/wasm" {
			t.Errorf("the hashed fit.wasm: %d, Cache-Control %q, Content-Encoding %q, Content-Type %q", r.Status, r.Header.Get("Cache-Control"), r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"))
		} else {
			t.Logf("fit.wasm sent as %d bytes of brotli (%d raw)", len(r.Body), len(fitWasm))
		}
		r := rawget.Get(t, "GET", srv.URL+"/web/app.wasm?v="+site.ContentHash(wasm), "Accept-Encoding", "br, gzip")
		if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" || r.Header.Get("Content-Encoding") != "br" {
			t.Errorf("the hashed app.wasm: Cache-Control %q, Content-Encoding %q", cc, r.Header.Get("Content-Encoding"))
		}
		t.Logf("app.wasm sent as %d bytes of brotli (%d raw)", len(r.Body), len(wasm))
		for _, p := range []string{"/", "/article/", "/embed/", "/app-worker.js", "/app.js", "/wasm_exec.js", "/manifest.webmanifest"} {
			if cc := rawget.Get(t, "GET", srv.URL+p).Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("%s: Cache-Control %q, want no-cache", p, cc)
			}
		}
	}
}
