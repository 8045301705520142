//go:build !wasm

package browser

import (
	"html"
	"omission/app/article"
	"omission/app/compute"
	"omission/app/routes"
	"omission/app/site"
	"omission/app/units"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The generated pages are read as HTML text, without a browser: the
// attributes of a tag come in any order (go-app writes them from a map).
var (
	spanRe = regexp.MustCompile(`<span([^>]*)>([^<]*)</span>`)
	attrRe = regexp.MustCompile(`([a-z-]+)(?:="([^"]*)")?`)
	imgRe  = regexp.MustCompile(`<img[^>]*src="data:image/svg\+xml;base64,`)
)

func attrs(s string) map[string]string {
	out := map[string]string{}
	for _, m := range attrRe.FindAllStringSubmatch(s, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// generate writes the static pages of paths natively, as make static does,
// and returns the directory.
func generate(t *testing.T, paths ...string) string {
	t.Helper()
	routesOnce.Do(routes.Register)
	dir := t.TempDir()
	if err := app.GenerateStaticWebsite(dir, site.AppHandler("", "test"), paths...); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPrerenderedArticle: the generated article holds every number it
// shows, each the simulator's value with its metric and query, and its
// figures drawn, before any script runs; the generated embed holds its
// chart, title and heading.
func TestPrerenderedArticle(t *testing.T) {
	dir := generate(t, "/article", "/embed")
	b, err := os.ReadFile(filepath.Join(dir, "article.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	want, err := article.Numbers(compute.NewCache(16, compute.FigureRequests))
	if err != nil {
		t.Fatal(err)
	}
	seen, fixed := map[article.NumRef]bool{}, 0
	for _, m := range spanRe.FindAllStringSubmatch(page, -1) {
		a := attrs(m[1])
		if !strings.Contains(" "+a["class"]+" ", " num ") {
			continue
		}
		if a["data-fixed"] != "" {
			// A number read from a real file when article_gen.go was
			// written (TestArticleGenerated holds it to the file).
			if a["data-printout"] == "" || m[2] == "" {
				t.Errorf("a fixed number without its file or text: %v", a)
			}
			fixed++
			continue
		}
		ref := article.NumRef{Query: a["data-query"], Metric: a["data-metric"]}
		w, ok := want[ref]
		if !ok {
			t.Errorf("the generated article shows %v, which is not the article's", ref)
			continue
		}
		seen[ref] = true
		got := a["data-value"]
		if w.IsNs {
			got = a["data-ns"]
		}
		if got != units.Raw(w.Value) || html.UnescapeString(m[2]) != w.Text {
			t.Errorf("%v: generated %q (%s), the simulator's %q (%s)", ref, got, m[2], units.Raw(w.Value), w.Text)
		}
	}
	t.Logf("the generated article holds %d numbers, %d read from real files, %d charts", len(seen), fixed, len(imgRe.FindAllString(page, -1)))
	if fixed == 0 {
		t.Error("the generated article shows no number of a real printout")
	}
	if len(seen) != len(want) {
		t.Errorf("the generated article holds %d of the article's %d numbers", len(seen), len(want))
	}
	if n := len(imgRe.FindAllString(page, -1)); n < 2 {
		t.Errorf("the generated article holds %d drawn charts", n)
	}
	if !strings.Contains(page, "<title>The requests your load test never sent · Omission</title>") {
		t.Error("the generated article has not its own title")
	}
	b, err = os.ReadFile(filepath.Join(dir, "embed.html"))
	if err != nil {
		t.Fatal(err)
	}
	embed := string(b)
	if len(imgRe.FindAllString(embed, -1)) != 1 || !strings.Contains(embed, "Percentile spectrum · Omission</title>") ||
		!regexp.MustCompile(`<h1[^>]*>Omission: Percentile spectrum</h1>`).MatchString(embed) {
		t.Errorf("the generated embed lacks its chart, title or heading")
	}
}
