// Package site builds the static site (Build: go-app's generated pages
// and the web resources) and serves it compressed and cached (Handler),
// for app/cli's static and serve and for the tests of the built site. It
// may import no package of the project: it hands web/page.js the addresses
// of the workers' script and programs through go-app's environment.
//
// static writes the site into static/ (or -out): go-app's generated pages,
// /article/ and /embed/ as index.html files, the web resources with the
// built app.wasm and fit.wasm (make wasm), local icons and the toolchain's
// wasm_exec.js. -prefix serves it under a sub-path. serve writes the same
// site and serves it, so what runs locally is what a static host serves;
// python3 -m http.server --directory static serves it too, uncompressed.
// static/ is build output and is not committed.
//
// Beside each text file (html, js, css, json, svg, webmanifest) and the
// wasm files, static writes a brotli .br and a gzip .gz copy for hosts that
// serve precompressed files (nginx gzip_static and brotli_static, Caddy's
// precompressed). serve sends them itself when the browser's
// Accept-Encoding asks, with Vary: Accept-Encoding and one strong ETag per
// encoding, so app.wasm travels as 1.8 MB (brotli) instead of 11.5 MB. go-app's fixed
// addresses (the pages, app.js, app.css, wasm_exec.js, the manifest and the
// service worker) are sent no-cache: kept, but revalidated every time. Every
// file under /web/ is referenced as /web/<file>?v=<its content hash> and
// cached for a year under that address, which changes with its content.
//
// Every page is finished as loader.go says (Finish): go-app's full-window
// loader is gone, so a reader sees the prerendered page while app.wasm
// loads; the head preloads app.wasm, app.js compiles it as it arrives,
// and the service worker is registered once the page is idle.
//
// The site's version is a hash of what it ships, so the service worker's
// cache is renewed exactly when something changed; after one visit the site
// works offline, share URLs included. Every page carries a
// Content-Security-Policy that allows only the site's own scripts, styles
// and WebAssembly, and nothing from a URL or an imported file is executed or
// inserted as markup. How app.wasm is kept under its size budget is
// app/internal/wasmbuild's.
package site
