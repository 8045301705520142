// Command wasmbuild builds app.wasm, the browser half of Omission, without
// the parts of its dependencies that the browser never runs but that a Go
// program links as soon as it imports their package (patches.go lists
// every edit and why):
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
package main
