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
	"github.com/andybalholm/brotli", // serve's and static's compression (app/site/compress.go)
	"crypto/sha256",                 // the native result hash; app.wasm's is sim's smallSum256 (sim/sha256_js.go)
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
			{
				// The router compiles RouteWithRegexp's patterns
				// with package regexp; Omission registers plain routes
				// only (app/main.go), so in the browser build a
				// pattern route panics and regexp is not linked.
				Name:   "pkg/app/route.go",
				SHA256: "3252c7f2876cba69c3fbb203b0b4d5770ddd4651cdaf3ad69e5c33bfd1ccf5bd",
				Edits: []textEdit{
					{Old: "\t\"regexp\"\n", New: ""},
					{Old: "\t\tregexp:       regexp.MustCompile(pattern),\n", New: "\t\tregexp:       noRegexp(pattern),\n"},
					{
						Old: "\tregexp       *regexp.Regexp\n",
						New: "\tregexp       interface{ MatchString(string) bool }\n",
					},
					{
						Old: "type regexpRoute struct {\n",
						New: "// noRegexp stands for regexp.MustCompile, which Omission's browser build\n// leaves out (app/internal/wasmbuild).\n" +
							"func noRegexp(pattern string) interface{ MatchString(string) bool } {\n" +
							"\tpanic(\"RouteWithRegexp(\" + pattern + \"): Omission's browser build links no regexp (app/internal/wasmbuild): use Route\")\n}\n\n" +
							"type regexpRoute struct {\n",
					},
				},
			},
			{
				// Context.Encrypt and Decrypt (AES-GCM with a key
				// from the app's version, for encrypted states) are
				// the only users of crypto/aes, crypto/cipher and
				// crypto/rand; crypto/rand brings the FIPS DRBG and
				// its hashes. Omission stores no state encrypted, so
				// in the browser build both return an error.
				Name:   "pkg/app/crypto.go",
				SHA256: "c0fc14126207dc9fa15fb8869bd882874486654919835dc35d5bef8a6122aa97",
				Edits: []textEdit{
					{Old: "import (\n\t\"crypto/aes\"\n\t\"crypto/cipher\"\n\t\"crypto/rand\"\n\t\"io\"\n\n\t\"github.com/maxence-charriere/go-app/v10/pkg/errors\"\n)\n",
						New: "import (\n\t\"strconv\"\n\t\"time\"\n\n\t\"github.com/maxence-charriere/go-app/v10/pkg/errors\"\n)\n\n" + noCryptoSource},
					{Old: cryptoEncryptBody, New: "\treturn nil, errNoCrypto\n}\n"},
					{Old: cryptoDecryptBody, New: "\treturn nil, errNoCrypto\n}\n"},
				},
			},
			{
				// The device ID is a UUID from github.com/google/uuid,
				// which links crypto/rand, crypto/md5 and crypto/sha1;
				// Omission never asks for it. newID (added to crypto.go)
				// gives an identifier unique enough for go-app's
				// uses (the device ID and the broadcast channel's
				// store ID) without crypto.
				Name:   "pkg/app/context.go",
				SHA256: "1165dc862aad17ba47a7050c7ce32401e6e86eecce1222bf22235f78cccbd1d4",
				Edits: []textEdit{
					{Old: "\t\"github.com/google/uuid\"\n", New: ""},
					{Old: "\tid = uuid.NewString()\n", New: "\tid = newID()\n"},
				},
			},
			{
				Name:   "pkg/app/state.go",
				SHA256: "b41c94e804ab69a8a6341d58c09ac79d8cc8b0022bddd6c74c0f107a9f31480b",
				Edits: []textEdit{
					{Old: "\t\"github.com/google/uuid\"\n", New: ""},
					{Old: "\t\tm.broadcastStoreID = uuid.NewString()\n", New: "\t\tm.broadcastStoreID = newID()\n"},
				},
			},
		},
		MustNotLink: []string{"net/http", "crypto/tls", "crypto/aes", "crypto/rand", "github.com/google/uuid"},
	},
	{
		Module:  "gonum.org/v1/plot",
		Version: "v0.17.0",
		LeftOut: "image/png in the SVG canvas (DrawImage) and its font embedding",
		Files: []filePatch{{
			// vgsvg's DrawImage embeds a raster image as a PNG; its
			// import of image/png links the PNG decoder too (png's
			// init registers it with package image). Omission's charts
			// draw no image (lines, points, polygons and text), so in
			// the browser build DrawImage panics. With the minimal
			// build tag (the Makefile's), plot links no other canvas
			// that imports image/png (gonum.org/v1/plot vgall.go).
			Name:   "vg/vgsvg/vgsvg.go",
			SHA256: "ab4750d0eb78865fc25eca7169405219afcf83399ed4f084a9740ed135a08bcc",
			Edits: []textEdit{
				{Old: "\t\"image/png\"\n", New: ""},
				{
					Old: "\terr := png.Encode(buf, img)\n",
					New: "\tvar err error = errNoPNG // Omission's browser build (app/internal/wasmbuild)\n",
				},
				{
					Old: "// DrawImage implements the vg.Canvas.DrawImage method.\n",
					New: "var errNoPNG = fmt.Errorf(\"Omission's browser build links no image/png (app/internal/wasmbuild)\")\n\n// DrawImage implements the vg.Canvas.DrawImage method.\n",
				},
				{
					// Omission's charts make their canvas with New, which
					// embeds no font (the SVG names Liberation Sans,
					// charts.FontFamily); embedFont and the font's
					// WriteSourceTo go with this call.
					Old: "\tif c.embed {\n\t\tc.embedFont(name, font)\n\t}\n",
					New: "\tif c.embed {\n\t\tpanic(\"vgsvg: Omission's browser build embeds no fonts (app/internal/wasmbuild)\")\n\t}\n",
				},
			},
		}},
		MustNotLink: []string{"image/png"},
	},
	{
		Module:  "github.com/HdrHistogram/hdrhistogram-go",
		Version: "v1.4.0",
		LeftOut: "package regexp (its log reader, and the writer's tag check by hand) and binary.Write's reflection (Encode's header by hand)",
		Files: []filePatch{
			{
				// The browser build reads .hlog files with Omission's
				// own reader (app/measure/hlog_read.go), never with
				// HistogramLogReader, whose line patterns are regexps.
				Name:   "log_reader.go",
				SHA256: "478336bf67f913e5b0e291193c25d37fe14ee2b13cc362c5f241b4cc570dd24d",
				Edits: []textEdit{{
					Old: "package hdrhistogram\n",
					New: "//go:build !wasm\n\n// Omission's browser build leaves this file out (app/internal/wasmbuild).\n\npackage hdrhistogram\n",
				}},
			},
			{
				// The writer refuses a tag matching ".[, \r\n]." with
				// regexp.MatchString; tagHasSeparator is the same test
				// on bytes (TestTagHasSeparator holds it to the regexp).
				Name:   "log_writer.go",
				SHA256: "b13b969d553022f44446d43b63c1d8a0f11a3584b6cca3a324228c3e4be94b06",
				Edits: []textEdit{
					{Old: "\t\"regexp\"\n", New: ""},
					{Old: "\t\tmatch, err = regexp.MatchString(\".[, \\\\r\\\\n].\", tag)\n", New: "\t\tmatch = tagHasSeparator(tag)\n"},
					{Old: "const HISTOGRAM_LOG_FORMAT_VERSION = \"1.3\"\n", New: tagHasSeparatorSource + "\nconst HISTOGRAM_LOG_FORMAT_VERSION = \"1.3\"\n"},
				},
			},
			{
				// Encode writes its header and counts with binary.Write,
				// whose reflection-based fallback (encodeFast, the
				// encoder, dataSize) links even though these int32,
				// int64, float64 and []byte values always take its fast
				// path. The writeBE helpers put the same big-endian bytes
				// in the buffer (TestHdrEncodeUnchanged compares Encode
				// and the log writer's lines with and without them).
				Name:   "hdr_encoding.go",
				SHA256: "c941ecddd37c35a55a1c3ddac0081bdfb642181eb1d9b36b2a771effff798c06",
				Edits: []textEdit{
					{Old: "\terr = binary.Write(buf, binary.BigEndian, compressedEncodingCookie)\n", New: "\terr = writeBE32(buf, compressedEncodingCookie)\n"},
					{Old: "\terr = binary.Write(buf, binary.BigEndian, int32(len(compressedContents)))\n", New: "\terr = writeBE32(buf, int32(len(compressedContents)))\n"},
					{Old: "\terr = binary.Write(buf, binary.BigEndian, compressedContents)\n", New: "\terr = writeBytes(buf, compressedContents)\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, encodingCookie) // 0-3\n", New: "\terr = writeBE32(toCompress, encodingCookie) // 0-3\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, int32(len(countsBytes))) // 3-7\n", New: "\terr = writeBE32(toCompress, int32(len(countsBytes))) // 3-7\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, h.getNormalizingIndexOffset()) // 8-11\n", New: "\terr = writeBE32(toCompress, h.getNormalizingIndexOffset()) // 8-11\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, int32(h.significantFigures)) // 12-15\n", New: "\terr = writeBE32(toCompress, int32(h.significantFigures)) // 12-15\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, h.lowestDiscernibleValue) // 16-23\n", New: "\terr = writeBE64(toCompress, uint64(h.lowestDiscernibleValue)) // 16-23\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, h.highestTrackableValue) // 24-31\n", New: "\terr = writeBE64(toCompress, uint64(h.highestTrackableValue)) // 24-31\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, h.getIntegerToDoubleValueConversionRatio()) // 32-39\n", New: "\terr = writeBE64(toCompress, math.Float64bits(h.getIntegerToDoubleValueConversionRatio())) // 32-39\n"},
					{Old: "\terr = binary.Write(toCompress, binary.BigEndian, countsBytes)\n", New: "\terr = writeBytes(toCompress, countsBytes)\n"},
					{Old: "\t\t\terr = binary.Write(buf, binary.BigEndian, zig_zag_encode_i64(-zeros))\n", New: "\t\t\terr = writeBytes(buf, zig_zag_encode_i64(-zeros))\n"},
					{Old: "\t\t\terr = binary.Write(buf, binary.BigEndian, zig_zag_encode_i64(count))\n", New: "\t\t\terr = writeBytes(buf, zig_zag_encode_i64(count))\n"},
					{Old: "// internal method to encode a histogram in V2 Compressed format\n", New: writeBESource + "\n// internal method to encode a histogram in V2 Compressed format\n"},
				},
			},
		},
	},
	{
		Module:  "golang.org/x/image",
		Version: "v0.30.0",
		LeftOut: "sfnt's PostScript (CFF) outlines",
		Files: []filePatch{{
			// sfnt parses a font's glyphs either from TrueType tables
			// (glyf, loca) or from a CFF table with a Type 2 charstring
			// interpreter (postscript.go). The only fonts app.wasm
			// parses are the Liberation subsets the charts measure text
			// with (app/charts/fonts/liberation), all TrueType, so in
			// the browser build a CFF ("OTTO") font fails to parse and
			// the interpreter is not linked (TestChartFontsTrueType).
			Name:   "font/sfnt/sfnt.go",
			SHA256: "979b1acfc16a4ada3d5fd3ff2dbad59f100a84ec6afbf752e41001b75abf0c04",
			Edits: []textEdit{
				{
					Old: "\t\tp := cffParser{\n\t\t\tsrc:    &f.src,\n\t\t\tbase:   int(f.cff.offset),\n\t\t\toffset: int(f.cff.offset),\n\t\t\tend:    int(f.cff.offset + f.cff.length),\n\t\t}\n\t\tret, err = p.parse(numGlyphs)\n\t\tif err != nil {\n\t\t\treturn nil, glyphData{}, false, err\n\t\t}\n",
					New: "\t\treturn nil, glyphData{}, false, errNoCFF\n",
				},
				{
					Old: "\t\tbuf, offset, length, err := f.viewGlyphData(b, x)\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tb.psi.type2Charstrings.initialize(f, b, x)\n\t\tif err := b.psi.run(psContextType2Charstring, buf, offset, length); err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tif !b.psi.type2Charstrings.ended {\n\t\t\treturn nil, errInvalidCFFTable\n\t\t}\n",
					New: "\t\treturn nil, errNoCFF\n",
				},
				{
					Old: "\terrInvalidCFFTable        = errors.New(\"sfnt: invalid CFF table\")\n",
					New: "\terrInvalidCFFTable        = errors.New(\"sfnt: invalid CFF table\")\n\terrNoCFF                  = errors.New(\"sfnt: Omission's browser build reads TrueType outlines only, no CFF (app/internal/wasmbuild)\")\n",
				},
			},
		}},
	},
	{
		Module:  "codeberg.org/go-latex/latex",
		Version: "v0.2.0",
		LeftOut: "its default Go fonts and package log",
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
		}, {
			// tex/box.go's one log.Printf (a box packed with nothing to
			// stretch) is package log's only use in app.wasm; print
			// (the builtin, to the console) says the same without
			// linking log and its standard logger.
			Name:   "tex/box.go",
			SHA256: "17a94242b13a0ef95be44c770ff4af72a7d52e28733e9c5a6a00da3b851af94c",
			Edits: []textEdit{
				{Old: "\t\"log\"\n", New: ""},
				{
					Old: "\t\t\tlog.Printf(\"%s %s: %v\", errMsg, typ, lst.children)\n",
					New: "\t\t\tprint(fmt.Sprintf(\"%s %s: %v\\n\", errMsg, typ, lst.children)) // Omission's browser build (app/internal/wasmbuild)\n",
				},
			},
		}},
		MustNotLink: []string{
			"golang.org/x/image/font/gofont/goregular",
			"golang.org/x/image/font/gofont/goitalic",
			"golang.org/x/image/font/gofont/gobold",
			"golang.org/x/image/font/gofont/gobolditalic",
			"log",
		},
	},
}

// tagHasSeparatorSource is added to hdrhistogram-go's log_writer.go in the
// browser build: regexp.MatchString(".[, \\r\\n].", tag) on bytes. "." is any
// character but a newline, and a character ends (or starts) with the byte
// '\n' only when it is a newline, so looking at the neighbouring bytes is
// enough, in valid UTF-8 or not.
const tagHasSeparatorSource = `// tagHasSeparator is regexp.MatchString(".[, \\r\\n].", tag) (Omission's
// browser build, app/internal/wasmbuild).
func tagHasSeparator(tag string) bool {
	for i := 1; i+1 < len(tag); i++ {
		switch tag[i] {
		case ',', ' ', '\r', '\n':
			if tag[i-1] != '\n' && tag[i+1] != '\n' {
				return true
			}
		}
	}
	return false
}
`

// writeBESource is added to hdrhistogram-go's hdr_encoding.go in the
// browser build: binary.Write(buf, binary.BigEndian, v) for the int32,
// uint64 (int64 and float64 bits) and []byte values Encode writes. The fast
// path of binary.Write puts the same bytes and returns Write's error, which a
// bytes.Buffer never has; an empty slice writes nothing either way.
const writeBESource = `// writeBE32, writeBE64 and writeBytes are binary.Write(buf,
// binary.BigEndian, v) for the values Encode writes, without its reflection
// fallback (Omission's browser build, app/internal/wasmbuild).
func writeBE32(buf *bytes.Buffer, v int32) error {
	_, err := buf.Write(binary.BigEndian.AppendUint32(nil, uint32(v)))
	return err
}

func writeBE64(buf *bytes.Buffer, v uint64) error {
	_, err := buf.Write(binary.BigEndian.AppendUint64(nil, v))
	return err
}

func writeBytes(buf *bytes.Buffer, v []byte) error {
	_, err := buf.Write(v)
	return err
}
`

// noCryptoSource replaces go-app's crypto imports in the browser build:
// encrypt and decrypt return errNoCrypto, and newID stands for
// uuid.NewString.
const noCryptoSource = `// Omission's browser build links no crypto (app/internal/wasmbuild):
// Context.Encrypt and Decrypt fail with errNoCrypto, and newID stands for
// uuid.NewString.
var errNoCrypto = errors.New("encryption is not available in Omission's browser build")

var idCount uint64

// newID returns the time in nanoseconds and a counter, in hex: distinct on
// a device, which is what go-app's device and broadcast IDs need.
func newID() string {
	idCount++
	return strconv.FormatInt(time.Now().UnixNano(), 16) + "-" + strconv.FormatUint(idCount, 16)
}
`

// cryptoEncryptBody and cryptoDecryptBody are the bodies of go-app's
// encrypt and decrypt (pkg/app/crypto.go), after their first line.
const cryptoEncryptBody = "\tc, err := aes.NewCipher([]byte(key))\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\n\tgcm, err := cipher.NewGCM(c)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\n\tnonce := make([]byte, gcm.NonceSize())\n\tif _, err = io.ReadFull(rand.Reader, nonce); err != nil {\n\t\treturn nil, err\n\t}\n\n\treturn gcm.Seal(nonce, nonce, v, nil), nil\n}\n"

const cryptoDecryptBody = "\tc, err := aes.NewCipher([]byte(key))\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\n\tgcm, err := cipher.NewGCM(c)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\n\tnonceSize := gcm.NonceSize()\n\tif len(v) < nonceSize {\n\t\treturn nil, errors.New(\"ciphertext too short\")\n\t}\n\n\tnonce, ciphertext := v[:nonceSize], v[nonceSize:]\n\treturn gcm.Open(nil, nonce, ciphertext, nil)\n}\n"
