//go:build !wasm

package site

// The site is served compressed and cached: Build writes a .br and a
// .gz beside each text file and app.wasm (for static hosts that serve such
// files, and for serve), and Handler serves them by Accept-Encoding
// with cache lifetimes that never keep a stale file.
//
// What go-app's generated pages reference, and how long each may be kept
// (go-app v10.1.11, pkg/app/http.go):
//
//   - index.html, article/index.html, embed/index.html, app.js, app.css,
//     wasm_exec.js, manifest.webmanifest and app-worker.js have fixed URLs
//     (:268 initPWAResources, :612 servePage), so they are sent with
//     "Cache-Control: no-cache" and a strong ETag: a browser keeps them but
//     asks each time, and gets 304 Not Modified when nothing changed.
//     go-app's Version only names the service worker's cache ("app-" +
//     Version in app-worker.js); no URL carries it.
//   - Every file under /web/ that go-app references (app.wasm, the styles,
//     scripts and icons) is given a URL with its own content hash,
//     /web/app.wasm?v=<hash>, by the resource resolver below: go-app resolves
//     them all through Handler.Resources (:324 {{.Wasm}} in app.js, :356 the
//     worker's resource list, :377-400 the manifest's icons, and the page's
//     links and images through the resolver servePage hands its page and
//     engine, :623 and :634). A request whose v is the file's hash is
//     "immutable" for a year; any other request for it is no-cache. A new
//     build changes the hash of what changed, so a cached file is never
//     served for a newer one.
//
// The service worker precaches with fetch(url, {cache: "no-cache"})
// (app/worker.js:19), so its install revalidates and never takes an old copy.

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// textTypes are the Content-Types of the files served and written
// compressed, by extension.
var textTypes = map[string]string{
	".wasm":        "application/wasm",
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".svg":         "image/svg+xml",
	".webmanifest": "application/manifest+json",
}

// encodings are the precompressed variants, in order of preference: the
// file name suffix and the Content-Encoding.
var encodings = []struct{ suffix, coding string }{
	{".br", "br"},
	{".gz", "gzip"},
}

// ContentType is the Content-Type of a file served under name.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := textTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Compressible reports whether a file is served and written compressed.
func Compressible(name string) bool {
	_, ok := textTypes[strings.ToLower(path.Ext(name))]
	return ok
}

// precompress writes name.br (brotli, quality 11) and name.gz (gzip, best
// compression) beside every compressible file under dir, when they are
// smaller than the file. Results are kept in a cache keyed by the file's
// content, so a site rebuilt from the same app.wasm does not compress it
// again. Brotli at quality 11 is single-threaded and takes about 25 s for
// app.wasm, so the encodings run one per core, the largest files first:
// on two cores app.wasm's and fit.wasm's brotli run side by side.
func precompress(dir string) error {
	type job struct {
		path   string
		size   int64
		suffix string
		coding string
	}
	var jobs []job
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !Compressible(p) {
			return err
		}
		for _, e := range encodings {
			jobs = append(jobs, job{p, info.Size(), e.suffix, e.coding})
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].size > jobs[j].size })
	cache := newCompressCache()
	next := make(chan job)
	errs := make(chan error, len(jobs))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				errs <- precompressOne(cache, j.path, j.suffix, j.coding)
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// precompressOne writes path+suffix, path's content in coding, unless it
// is no smaller than the file (then the plain file is served).
func precompressOne(cache compressCache, path, suffix, coding string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	z, err := cache.compressed(b, coding)
	if err != nil {
		return fmt.Errorf("compressing %s: %w", path, err)
	}
	if len(z) >= len(b) {
		return nil
	}
	return os.WriteFile(path+suffix, z, 0o644)
}

// compress encodes b with coding ("br" or "gzip").
func compress(b []byte, coding string) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "br":
		// Window 2^24, the largest browsers decode: app.wasm is 9 MB.
		w = brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	case "gzip":
		gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		w = gz
	default:
		return nil, fmt.Errorf("unknown coding %q", coding)
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// compressCache keeps compressed files by the SHA-256 of their content in
// the user cache directory (no cache when there is none).
type compressCache struct{ dir string }

// compressCacheFormat names the encoder settings: change it when they change.
const compressCacheFormat = "br11w24-gz9-v1"

func newCompressCache() compressCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return compressCache{}
	}
	return compressCache{filepath.Join(dir, "omission-compress", compressCacheFormat)}
}

// compressed returns b encoded with coding, from the cache when it is there.
// Small inputs are not cached: compressing them is quicker than a file.
func (c compressCache) compressed(b []byte, coding string) ([]byte, error) {
	if c.dir == "" || len(b) < 64<<10 {
		return compress(b, coding)
	}
	sum := sha256.Sum256(b)
	name := filepath.Join(c.dir, hex.EncodeToString(sum[:])+"."+coding)
	if z, err := os.ReadFile(name); err == nil {
		now := time.Now()
		os.Chtimes(name, now, now) // kept by pruning
		return z, nil
	}
	z, err := compress(b, coding)
	if err != nil {
		return nil, err
	}
	if os.MkdirAll(c.dir, 0o755) == nil {
		tmp := fmt.Sprintf("%s.tmp-%d", name, os.Getpid())
		if os.WriteFile(tmp, z, 0o644) == nil && os.Rename(tmp, name) != nil {
			os.Remove(tmp)
		}
		c.prune()
	}
	return z, nil
}

// compressCacheKeep is how many cached files are kept, the newest used.
const compressCacheKeep = 16

func (c compressCache) prune() {
	entries, err := os.ReadDir(c.dir)
	if err != nil || len(entries) <= compressCacheKeep {
		return
	}
	type aged struct {
		name string
		t    time.Time
	}
	var files []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil && !e.IsDir() {
			files = append(files, aged{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].t.After(files[j].t) })
	for _, f := range files[min(len(files), compressCacheKeep):] {
		os.Remove(filepath.Join(c.dir, f.name))
	}
}

// ContentHash is the hash a file's URL carries (?v=) and its ETag.
func ContentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// hashedResources resolves go-app's resources as inner does and adds
// "?v=<content hash>" to those in hashes (the files under /web/).
type hashedResources struct {
	inner  app.ResourceResolver
	hashes map[string]string // "/web/app.wasm" → its content hash
}

func (r hashedResources) Resolve(location string) string {
	u := r.inner.Resolve(location)
	if h, ok := r.hashes[location]; ok && u != "" {
		return u + "?v=" + h
	}
	return u
}

// hashWebURLs gives every file of webDir a URL with its content hash in
// h's pages, and tells go-app app.wasm's size (its progress bar divides by
// the Content-Length header otherwise, which is the compressed size when
// the wasm is sent compressed).
func hashWebURLs(h *app.Handler, webDir string) error {
	hashes := make(map[string]string)
	err := filepath.Walk(webDir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(webDir, p)
		hashes["/web/"+filepath.ToSlash(rel)] = ContentHash(b)
		if rel == "app.wasm" {
			h.WasmContentLength = strconv.Itoa(len(b))
		}
		return nil
	})
	if err != nil {
		return err
	}
	inner := h.Resources
	if inner == nil {
		inner = app.LocalDir("") // go-app's default (http.go:181, initStaticResources)
	}
	h.Resources = hashedResources{inner: inner, hashes: hashes}
	return nil
}

// Handler serves a built site (Build's output) as a static host
// would, with its precompressed files and cache headers. It reads the
// directory once: a file added later is not served.
type Handler struct {
	files map[string]*siteFile // by URL path
}

type siteFile struct {
	path     string // on disk
	ctype    string
	hash     string
	modTime  time.Time
	variants map[string]string // Content-Encoding → file on disk
	noCache  bool              // a page or the service worker: never immutable
}

// NewHandler indexes the site in dir: every file, its hash and its
// precompressed variants.
func NewHandler(dir string) (*Handler, error) {
	h := &Handler{files: make(map[string]*siteFile)}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		url := "/" + filepath.ToSlash(rel)
		for _, e := range encodings {
			if strings.HasSuffix(url, e.suffix) {
				if _, err := os.Stat(strings.TrimSuffix(p, e.suffix)); err == nil {
					return nil // a variant, served for its file
				}
			}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := &siteFile{path: p, ctype: ContentType(p), hash: ContentHash(b), modTime: info.ModTime(),
			variants: make(map[string]string),
			noCache:  strings.HasSuffix(url, ".html") || path.Base(url) == "app-worker.js"}
		if Compressible(p) {
			for _, e := range encodings {
				if _, err := os.Stat(p + e.suffix); err == nil {
					f.variants[e.coding] = p + e.suffix
				}
			}
		}
		h.files[url] = f
		if path.Base(url) == "index.html" {
			h.files[strings.TrimSuffix(url, "index.html")] = f
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(h.files) == 0 {
		return nil, fmt.Errorf("%s holds no file to serve", dir)
	}
	return h, nil
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	f, ok := h.files[p]
	if !ok {
		// A directory asked for without its slash: as static hosts do.
		if _, dir := h.files[p+"/"]; dir && !strings.HasSuffix(p, "/") {
			u := path.Base(p) + "/"
			if r.URL.RawQuery != "" {
				u += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, u, http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.ctype)
	hd.Set("X-Content-Type-Options", "nosniff")
	if !f.noCache && r.URL.Query().Get("v") == f.hash {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	name, etag := f.path, f.hash
	if len(f.variants) > 0 {
		hd.Add("Vary", "Accept-Encoding")
		if coding := pickEncoding(r.Header.Values("Accept-Encoding"), f.variants); coding != "" {
			name, etag = f.variants[coding], f.hash+"-"+coding
			hd.Set("Content-Encoding", coding)
		}
	}
	hd.Set("ETag", `"`+etag+`"`)
	file, err := os.Open(name)
	if err != nil {
		http.Error(w, "500 the file went missing", http.StatusInternalServerError)
		return
	}
	defer file.Close()
	if hd.Get("Content-Encoding") != "" {
		// ServeContent leaves Content-Length out when Content-Encoding is
		// set (Go 1.26 net/http/fs.go:423), except for a range, which it sets
		// itself: the variant is the whole body.
		if info, err := file.Stat(); err == nil {
			hd.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
	}
	// ServeContent answers Range, HEAD and the conditional requests (the
	// ETag set above).
	http.ServeContent(w, r, f.path, f.modTime, file)
}

// pickEncoding returns the Content-Encoding to send among those available
// (the keys of have), from a request's Accept-Encoding headers: the one with
// the highest q-value above 0, brotli before gzip on a tie, or "" for none.
func pickEncoding(accept []string, have map[string]string) string {
	q := make(map[string]float64)
	star := -1.0
	for _, line := range accept {
		for _, part := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			v := 1.0
			for _, param := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(param), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						v = f
					} else {
						v = 0
					}
				}
			}
			switch coding {
			case "":
			case "*":
				star = v
			case "x-gzip":
				q["gzip"] = max(q["gzip"], v)
			default:
				q[coding] = max(q[coding], v)
			}
		}
	}
	best, bestQ := "", 0.0
	for _, e := range encodings {
		if _, ok := have[e.coding]; !ok {
			continue
		}
		v, listed := q[e.coding]
		if !listed && star >= 0 {
			v = star
		}
		if v > bestQ {
			best, bestQ = e.coding, v
		}
	}
	return best
}
