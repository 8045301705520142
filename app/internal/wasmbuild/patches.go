package main

// modulePatch is what the browser build leaves out of one dependency.
type modulePatch struct {
	Module, Version string
	LeftOut         string // what is left out, for the build's log
	Files           []filePatch
	// MustNotLink are packages that the patched build must not link: the
	// build fails if one of them comes back.
	MustNotLink []string
}

// filePatch edits one file of a module: each Old must occur exactly once in
// the original, whose SHA-256 is given.
type filePatch struct {
	Name   string // slash-separated, from the module root
	SHA256 string
	Edits  []textEdit
}

type textEdit struct{ Old, New string }

// nativeOnly are packages of the native commands that app.wasm must not link
// either: the build fails if one comes in.
var nativeOnly = []string{
	"github.com/andybalholm/brotli", // serve's and static's compression (app/compress.go)
}

// patches lists every edit of the browser build. The files are the ones
// the module cache holds for these versions; the SHA-256 sums pin them.
var patches = []modulePatch{
	{
		Module:  "github.com/maxence-charriere/go-app/v10",
		Version: "v10.1.11",
		LeftOut: "its HTTP server (app.Handler) and net/http",
		Files: []filePatch{
			{
				// http.go is app.Handler, the server that generates
				// the pages (it is the whole file). The browser never
				// runs it: the page runs RunWhenOnBrowser and the
				// engine (app.go, engine.go).
				Name:   "pkg/app/http.go",
				SHA256: "0601189a9f611378e9b24ab4bdf42780a03cbf95c1bbebd4171b523ddbe9a32d",
				Edits: []textEdit{{
					Old: "package app\n",
					New: "//go:build !wasm\n\n// Omission's browser build leaves this file out (app/internal/wasmbuild).\n\npackage app\n",
				}},
			},
			{
				// The wasm stub of GenerateStaticWebsite takes a
				// *Handler; without the Handler it goes too (it only
				// panics).
				Name:   "pkg/app/wasm.go",
				SHA256: "10117b07fb7147cdfcd97d1e07cd010da30914e2a622b73d0242b5d9019796f8",
				Edits: []textEdit{{
					Old: "import (\n\t\"runtime\"\n\n\t\"github.com/maxence-charriere/go-app/v10/pkg/errors\"\n)\n\n" +
						"func GenerateStaticWebsite(dir string, h *Handler, pages ...string) error {\n" +
						"\tpanic(errors.New(\"unsupported instruction\").\n\t\tWithTag(\"architecture\", runtime.GOARCH))\n}\n",
					New: "// Omission's browser build leaves GenerateStaticWebsite out with the\n// Handler (app/internal/wasmbuild).\n",
				}},
			},
			{
				// LocalDir's resolver embeds an http.FileServer, which
				// only the Handler serves from; the browser uses the
				// resolvers for their Resolve method alone.
				Name:   "pkg/app/resource.go",
				SHA256: "6b52ab4ec2f4171d403384bffe159e9ec22699933e768ef5868f2851a1b84baa",
				Edits: []textEdit{
					{Old: "\t\"net/http\"\n", New: ""},
					{Old: "\t\tHandler:   http.FileServer(http.Dir(directory)),\n", New: ""},
					{Old: "\thttp.Handler\n", New: ""},
				},
			},
		},
		MustNotLink: []string{"net/http", "crypto/tls"},
	},
	{
		Module:  "codeberg.org/go-latex/latex",
		Version: "v0.2.0",
		LeftOut: "its default Go fonts",
		Files: []filePatch{{
			// font/ttf parses the four Go fonts into a package
			// variable, the fonts of ttf.New. gonum/plot only calls
			// ttf.NewFrom with fonts of its own (text/latex.go:60, :93), so
			// ttf.New, never called by Omission, panics instead.
			Name:   "font/ttf/ttf.go",
			SHA256: "ae483358f45755c9dec175bb41b02dbe78084a9ab67df670b751690d01f48ffe",
			Edits: []textEdit{
				{Old: "\t\"golang.org/x/image/font/gofont/gobold\"\n", New: ""},
				{Old: "\t\"golang.org/x/image/font/gofont/gobolditalic\"\n", New: ""},
				{Old: "\t\"golang.org/x/image/font/gofont/goitalic\"\n", New: ""},
				{Old: "\t\"golang.org/x/image/font/gofont/goregular\"\n", New: ""},
				{
					Old: "func New(cnv *drawtex.Canvas) *Backend {\n\treturn NewFrom(cnv, &defaultFonts)\n}\n",
					New: "func New(cnv *drawtex.Canvas) *Backend {\n\tpanic(\"ttf.New: Omission's browser build has no default fonts (app/internal/wasmbuild): use NewFrom\")\n}\n",
				},
				{
					Old: "var defaultFonts = Fonts{\n\tRm:   mustParseTTF(goregular.TTF),\n\tIt:   mustParseTTF(goitalic.TTF),\n\tBf:   mustParseTTF(gobold.TTF),\n\tBfIt: mustParseTTF(gobolditalic.TTF),\n}\n",
					New: "var defaultFonts Fonts // Omission's browser build leaves the Go fonts out (app/internal/wasmbuild)\n",
				},
			},
		}},
		MustNotLink: []string{
			"golang.org/x/image/font/gofont/goregular",
			"golang.org/x/image/font/gofont/goitalic",
			"golang.org/x/image/font/gofont/gobold",
			"golang.org/x/image/font/gofont/gobolditalic",
		},
	},
}
