//go:build !wasm

package site

import (
	_ "embed"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Pages lists the routes the static site holds: "/" as index.html, the
// others as directories with an index.html, which every static host serves.
func Pages() []string { return []string{"/", "/article", "/embed"} }

// pageDirs returns the addresses of the pages other than "/" (with the
// trailing slash a static host redirects to).
func pageDirs() []string {
	var dirs []string
	for _, p := range Pages()[1:] {
		dirs = append(dirs, p+"/")
	}
	return dirs
}

// workerJS is the service worker template (see worker.js).
//
//go:embed worker.js
var workerJS string

// AppHandler is the go-app handler shared by the server and the generator.
func AppHandler(prefix, version string) *app.Handler {
	h := &app.Handler{
		Name:            "Omission",
		ShortName:       "Omission",
		Title:           "Omission: the latency a load test never measured",
		Description:     "A simulator of coordinated omission: one stalling server, one schedule, and what closed, paced and open load generators record of it.",
		Lang:            "en",
		Icon:            app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		BackgroundColor: "#ffffff",
		ThemeColor:      "#1f2a44",
		LoadingLabel:    "Loading the simulator… {progress}%",
		Styles:          []string{"/web/app.css", "/web/article.css", "/web/anim.css"},
		Scripts:         []string{"/web/page.js", "/web/anim.js"},
		// Only the site's own scripts, styles, images and WebAssembly; no
		// inline script, event handler or style attribute.
		RawHeaders: []string{`<meta http-equiv="Content-Security-Policy" content="` + ContentSecurityPolicy + `">`},
		Version:    version,
		// Every page the site has is precached, so share URLs work offline,
		// and so are the workers' script and the fit's program (loaded only
		// when the reader asks for a fit).
		CacheableResources:    append(pageDirs(), "/web/worker.js", "/web/fit.wasm"),
		ServiceWorkerTemplate: workerJS,
	}
	if prefix != "" {
		h.Resources = app.PrefixedLocation(prefix)
	}
	return h
}

// ContentSecurityPolicy is every page's policy. 'wasm-unsafe-eval' lets
// the page compile app.wasm and nothing else; img-src allows data: for the
// charts, which are SVG images of data: URLs.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
	"frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'self'"

// siteVersion hashes everything the site ships, so caches renew only when
// something changed.
func siteVersion(webDir, prefix string) (string, error) {
	sum := sha256.New()
	io.WriteString(sum, prefix+"\x00")
	var files []string
	err := filepath.Walk(webDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	files = append(files, wasmExecBeside(webDir))
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(sum, "%s\x00%d\x00", filepath.ToSlash(f), len(b))
		sum.Write(b)
	}
	return hex.EncodeToString(sum.Sum(nil))[:16], nil
}

// Build writes the static site into out: go-app's generated files, the
// web resources (app.wasm included) and the toolchain's wasm_exec.js.
func Build(webDir, out, prefix string) (string, error) {
	for _, f := range []string{"app.wasm", "fit.wasm"} {
		if _, err := os.Stat(filepath.Join(webDir, f)); err != nil {
			return "", fmt.Errorf("%s/%s is missing: build it first (make wasm)", webDir, f)
		}
	}
	prefix = strings.TrimRight(prefix, "/")
	if prefix != "" && !strings.HasPrefix(prefix, "/") {
		return "", fmt.Errorf("prefix %q must start with /", prefix)
	}
	version, err := siteVersion(webDir, prefix)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(out); err != nil {
		return "", err
	}
	h := AppHandler(prefix, version)
	if err := hashWebURLs(h, webDir); err != nil { // compress.go
		return "", err
	}
	// web/page.js starts the workers from these addresses (go-app's
	// environment, goappEnv): the versioned ones the service worker keeps
	// offline.
	h.Env = map[string]string{
		"OMISSION_WORKER_JS": h.Resources.Resolve("/web/worker.js"),
		"OMISSION_FIT_WASM":  h.Resources.Resolve("/web/fit.wasm"),
	}
	if err := app.GenerateStaticWebsite(out, h, Pages()...); err != nil {
		return "", err
	}
	// go-app writes /article as article.html; a static host serves that only
	// at /article.html, so it becomes article/index.html (/article/, to
	// which hosts redirect /article).
	for _, p := range Pages()[1:] {
		f := filepath.Join(out, strings.Trim(p, "/"))
		if err := os.MkdirAll(f, 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(f+".html", filepath.Join(f, "index.html")); err != nil {
			return "", err
		}
	}
	if err := copyDir(webDir, filepath.Join(out, "web")); err != nil {
		return "", err
	}
	// The site ships the wasm_exec.js of the toolchain that built app.wasm.
	if err := copyFile(wasmExecBeside(webDir), filepath.Join(out, "wasm_exec.js")); err != nil {
		return "", err
	}
	if err := Finish(out, h.Resources.Resolve("/web/app.wasm")); err != nil {
		return "", err
	}
	return version, nil
}

// Finish makes a site go-app generated into out (its pages, app.js and web
// resources) start and travel as this one does: app.js compiles app.wasm
// (at wasmURL) as it arrives and registers the service worker once the
// page is idle, every page drops go-app's loader and preloads app.wasm
// (loader.go), each start tag has its attributes in one order, the same
// bytes every build (attrs.go), and beside each text file and the wasm
// files lie their .br and .gz (compress.go). make bench serves the floor
// of the stack (app/internal/stackfloor) through it too.
func Finish(out, wasmURL string) error {
	appJS := filepath.Join(out, "app.js")
	js, err := os.ReadFile(appJS)
	if err == nil {
		js, err = patchAppJS(js, wasmURL)
	}
	if err == nil {
		err = os.WriteFile(appJS, js, 0o644)
	}
	if err != nil {
		return err
	}
	if err := filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			b, err = dropLoader(b)
		}
		if err == nil {
			b, err = addPreload(b, wasmURL)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return os.WriteFile(p, sortAttrs(b), info.Mode())
	}); err != nil {
		return err
	}
	return precompress(out)
}

// wasmExecBeside is the project's wasm_exec.js, next to the web directory.
func wasmExecBeside(webDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(webDir)), "wasm_exec.js")
}

func copyDir(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
