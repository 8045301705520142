//go:build !wasm

package site

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// served is what go-app's own handler serves at path for a site whose
// app.wasm is at /web/app.wasm?v=abc.
func served(t *testing.T, path string) []byte {
	t.Helper()
	h := AppHandler("", "v1")
	h.Resources = hashedResources{inner: app.LocalDir(""), hashes: map[string]string{"/web/app.wasm": "abc"}}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	if w.Code != 200 {
		t.Fatalf("go-app served %s with %d", path, w.Code)
	}
	return w.Body.Bytes()
}

// TestPatchAppJS: go-app's app.js, patched, fetches app.wasm once with a
// plain fetch compiled as it streams, has no progress reader and no
// loader left to touch, says a failure on the page, registers the service
// worker only once the page is idle, and is JavaScript node can parse; a
// go-app whose app.js has changed fails the build.
func TestPatchAppJS(t *testing.T) {
	const url = "/web/app.wasm?v=abc"
	js := served(t, "/app.js")
	got, err := patchAppJS(js, url)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{`fetch("` + url + `")`, "WebAssembly.instantiateStreaming(response, go.importObject)", "window.omissionLoadFailed(String(err))", "go.run(wasm.instance)", "function goappCanLoadWebAssembly() {", "requestIdleCallback(() => goappInitServiceWorker(), { timeout: 2000 })"} {
		if !strings.Contains(s, want) {
			t.Errorf("patched app.js lacks %q", want)
		}
	}
	for _, gone := range []string{"fetchWithProgress", "app-wasm-loader", "showProgress", appJSWorker} {
		if strings.Contains(s, gone) {
			t.Errorf("patched app.js still holds %q", gone)
		}
	}
	if strings.Count(s, "app.wasm") != 1 {
		t.Errorf("patched app.js names app.wasm %d times, not once", strings.Count(s, "app.wasm"))
	}
	if node, err := exec.LookPath("node"); err == nil {
		f := filepath.Join(t.TempDir(), "app.js")
		if err := os.WriteFile(f, got, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("node --check on the patched app.js: %v\n%s", err, out)
		}
	} else {
		t.Log("node is not installed: the patched app.js was not parsed")
	}
	for what, in := range map[string]string{
		"no start":          strings.Replace(string(js), appJSStart, "async function start() {", 1),
		"no progress":       strings.Replace(string(js), appJSProgress, "async function other(url) {", 1),
		"another address":   strings.Replace(string(js), url, "/web/other.wasm", 1),
		"two starts":        string(js) + "\n" + appJSStart + "}\n",
		"progress too soon": appJSProgress + "}\n" + string(js),
		"no registration":   strings.Replace(string(js), appJSWorker, "\n", 1),
	} {
		if _, err := patchAppJS([]byte(in), url); err == nil {
			t.Errorf("%s: patched without an error", what)
		}
	}
}

// TestDropLoader: go-app's page loses its loader, and only it; a page
// without one, or with two, is an error.
func TestDropLoader(t *testing.T) {
	app.Route("/loader-test", func() app.Composer { return &loaderTestPage{} })
	page := served(t, "/loader-test")
	got, err := dropLoader(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "app-wasm-loader") || strings.Contains(string(got), "<aside") {
		t.Errorf("the loader is still in the page:\n%s", got)
	}
	if removed := len(page) - len(got); removed < 100 || removed > 600 {
		t.Errorf("dropLoader removed %d bytes: more or less than the loader", removed)
	}
	if !strings.HasSuffix(strings.TrimSpace(string(got)), "</html>") {
		t.Errorf("the page no longer ends its document: %q", got[len(got)-60:])
	}
	if _, err := dropLoader(got); err == nil {
		t.Error("a page without go-app's loader passed")
	}
	if _, err := dropLoader(append(append([]byte{}, page...), page...)); err == nil {
		t.Error("a page with two loaders passed")
	}
}

type loaderTestPage struct{ app.Compo }

func (*loaderTestPage) Render() app.UI { return app.Main().Text("page") }

// TestWasmPreload: the head's first link asks for the address app.js
// fetches, as a fetch in cors mode (what fetch() makes of a same-origin
// URL), so that the browser matches the two; a page without one head, or
// with two, is an error.
func TestWasmPreload(t *testing.T) {
	app.Route("/preload-test", func() app.Composer { return &loaderTestPage{} })
	page := served(t, "/preload-test")
	got, err := addPreload(page, "/p/web/app.wasm?v=abc")
	if err != nil {
		t.Fatal(err)
	}
	head := string(got)[strings.Index(string(got), "<head>"):strings.Index(string(got), "</head>")]
	link := head[strings.Index(head, "<link"):]
	link = link[:strings.Index(link, ">")+1]
	for _, want := range []string{`rel="preload"`, `href="/p/web/app.wasm?v=abc"`, `as="fetch"`, `crossorigin="anonymous"`} {
		if !strings.Contains(link, want) {
			t.Errorf("the head's first link %s lacks %s", link, want)
		}
	}
	if _, err := addPreload([]byte("<html><body></body></html>"), "/w"); err == nil {
		t.Error("a page without a head passed")
	}
	if _, err := addPreload(append(append([]byte{}, page...), page...), "/w"); err == nil {
		t.Error("a page with two heads passed")
	}
}
