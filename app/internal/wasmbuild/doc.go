// Command wasmbuild builds the browser half of Omission (app.wasm and
// fit.wasm) without the parts of its dependencies that the
// browser never runs but that a Go program links as soon as it imports
// their package (patches.go lists every edit and why):
//
//   - go-app's HTTP server (app.Handler, pkg/app/http.go), whose import of
//     net/http brings crypto/tls and the package-init state of half the
//     standard library's crypto (about 0.4 MB of app.wasm after gzip);
//   - go-latex's default Go fonts (font/ttf parses four of them in a package
//     variable, 0.5 MB raw, 0.28 MB gzip): gonum/plot's LaTeX text handler
//     always passes its own fonts (gonum.org/v1/plot v0.17.0 text/latex.go:60
//     and :93, ttf.NewFrom), and Omission's
//     charts draw plain text;
//   - go-app's AES-GCM Encrypt and Decrypt and its UUIDs, which link
//     crypto/rand and the standard library's FIPS module (about 0.05 MB
//     gzip), and gonum/plot's PNG encoder in the SVG canvas (image/png,
//     0.03 MB gzip);
//   - regexp in go-app's router and hdrhistogram-go's log reader.
//   - the reflection behind binary.Write in hdrhistogram-go's Encode, whose
//     values always take its fast path (0.008 MB gzip).
//   - sfnt's CFF (PostScript outline) parser and Type 2 charstring
//     interpreter: the charts' Liberation subsets are TrueType (0.015 MB
//     gzip).
//
// It copies those modules from the module cache, applies the edits in
// patches.go (each checked against the original file's SHA-256, so another
// version of a dependency fails the build instead of being patched blindly),
// and runs go build for GOOS=js GOARCH=wasm with a copy of go.mod that
// replaces the modules by the copies (go build -modfile). The native
// commands and every test build with the untouched modules. After the build
// it checks with go list that none of the packages the patches leave out is
// linked again, nor a native-only one (nativeOnly: the brotli encoder).
//
// Usage, from the repository root (make wasm runs it):
//
//	go run ./app/internal/wasmbuild [-go go] [-cache dir] -- <go build flags and packages>
//
// The copies live in the user cache directory (os.UserCacheDir, or -cache)
// under omission-wasmbuild/, keyed by module version and patch, and are
// written once.
//
// It may import the standard library only: it runs before anything else
// is built.
//
// # The size budgets
//
// The page loads app.wasm (about 11.9 MB, 2.58 MB after gzip -9), which is
// also its simulation worker, and fit.wasm when the reader asks for a fit;
// make bench prints their sizes, brotli's too, and app.wasm's code by
// package. make test-built fails when app.wasm passes its raw budget
// (app/browser/size_test.go), and app's TestBinariesLink when a package
// leaks into a program that must not link it. What keeps them there,
// beside the patches above:
//
//   - Fonts: gonum/plot registers the twelve Liberation fonts (4.4 MB) to
//     measure text. app/charts/fonts/liberation replaces that module (a
//     go.mod replace) with subsets written by its subset.py (make fonts):
//     Liberation Sans Regular, the face of every chart, keeps Latin-1,
//     Greek, punctuation, arrows and maths; the other faces keep almost
//     nothing. app/charts/fonts_test.go compares widths, kerning and extents
//     with the real fonts and fails when a chart draws a character the
//     subset lacks.
//   - No cryptography in the browser: with go-app's Encrypt and Decrypt
//     failing in the browser build and its IDs made without
//     github.com/google/uuid, crypto/rand and the standard library's FIPS
//     module are not linked. The result hash is SHA-256 in plain Go
//     (sim/sha256small.go, held to crypto/sha256 natively and under
//     js/wasm), while native builds use crypto/sha256. gonum/plot's SVG
//     canvas loses DrawImage, whose PNG encoder linked image/png. The build
//     fails if crypto/aes, crypto/rand, crypto/sha256,
//     github.com/google/uuid or image/png come back.
//   - No regexp or math/big in what the browser runs: package regexp stays
//     imported by go-pdf, which gonum/plot links, but its matcher is not
//     linked unless something calls it. wrk's and the interval log's line
//     patterns are matched by hand (app/measure/match.go, held to the
//     regexps on generated lines), and the x87 long double that wrk prints
//     through is emulated in 64-bit words (app/tools/ld.go, bit for bit
//     against math/big in its tests).
//   - No inlining (the Makefile's WASM_GCFLAGS, 0.28 MB after gzip): the
//     simulator was the last package to inline, until it cost 36 kB; without
//     it its fast paths in the browser stay within noise and the long path
//     takes some 20 % longer (make bench builds its wasm benchmarks with the
//     same flags).
//   - Sorts of Omission's own element types go through sort.Slice, whose
//     code is shared: a generic slices.SortFunc is compiled again for each
//     element type (some 5 kB after gzip each).
//   - The fit of a measured file is a second module, web/fit.wasm (1.61 MB
//     after gzip, app/internal/fitwasm), fetched only when the reader first
//     reaches for a file: app.wasm holds neither the fit nor its panel's
//     layout, only a renderer of the nodes fit.wasm lays out.
//   - -ldflags=-s leaves out the wasm name section (Go function names in
//     the browser's profiler); make wasm WASM_LDFLAGS= keeps it.
package main
