package charts

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	stdfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"

	"omission/sim"
)

// The fonts gonum measures chart text with are subsets of Liberation
// (fonts/liberation, replacing codeberg.org/go-fonts/liberation). These
// tests check that the subsets measure like the real fonts and that no
// chart draws a character the subset lacks, whose width would silently be
// .notdef's.

const fontModule = "codeberg.org/go-fonts/liberation"

// faces are the twelve faces of gonum's Liberation collection, by package.
var faces = []struct {
	pkg string
	fnt font.Font
}{
	{"liberationsansregular", font.Font{Typeface: "Liberation", Variant: "Sans"}},
	{"liberationsansbold", font.Font{Typeface: "Liberation", Variant: "Sans", Weight: stdfont.WeightBold}},
	{"liberationsansitalic", font.Font{Typeface: "Liberation", Variant: "Sans", Style: stdfont.StyleItalic}},
	{"liberationsansbolditalic", font.Font{Typeface: "Liberation", Variant: "Sans", Style: stdfont.StyleItalic, Weight: stdfont.WeightBold}},
	{"liberationserifregular", font.Font{Typeface: "Liberation", Variant: "Serif"}},
	{"liberationserifbold", font.Font{Typeface: "Liberation", Variant: "Serif", Weight: stdfont.WeightBold}},
	{"liberationserifitalic", font.Font{Typeface: "Liberation", Variant: "Serif", Style: stdfont.StyleItalic}},
	{"liberationserifbolditalic", font.Font{Typeface: "Liberation", Variant: "Serif", Style: stdfont.StyleItalic, Weight: stdfont.WeightBold}},
	{"liberationmonoregular", font.Font{Typeface: "Liberation", Variant: "Mono"}},
	{"liberationmonobold", font.Font{Typeface: "Liberation", Variant: "Mono", Weight: stdfont.WeightBold}},
	{"liberationmonoitalic", font.Font{Typeface: "Liberation", Variant: "Mono", Style: stdfont.StyleItalic}},
	{"liberationmonobolditalic", font.Font{Typeface: "Liberation", Variant: "Mono", Style: stdfont.StyleItalic, Weight: stdfont.WeightBold}},
}

// required are characters the subset of the charts' face must keep: all of
// Latin-1 and the symbols that labels, units and captions use or may use.
var required = func() string {
	var b strings.Builder
	for r := rune(0x20); r <= 0xFF; r++ {
		if r < 0x7F || r >= 0xA0 {
			b.WriteRune(r)
		}
	}
	b.WriteString("−–—‘’“”•…‰′″\u2009\u202F←↑→↓≤≥≈≠∞√∑ΔΩμσπ€™")
	return b.String()
}()

// chartFace is the subset face the charts measure with.
func chartFace(t testing.TB) *sfnt.Font {
	t.Helper()
	if !font.DefaultCache.Has(sans) {
		t.Fatalf("gonum's font cache has no %v", sans)
	}
	return font.DefaultCache.Lookup(sans, 12).Face
}

// fontMod is what the go command says of the font module.
type fontMod struct {
	Version string
	Dir     string // where its packages are read from: the replacement
	Replace *struct{ Path, Dir string }
}

// goList describes the font module with go list -m (the test binary has no
// module information of its own).
func goList(t testing.TB) fontMod {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-json", fontModule).Output()
	if err != nil {
		t.Skipf("go list -m %s: %v (the go command is needed to find the font module)", fontModule, err)
	}
	var m fontMod
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("go list -m %s: %v", fontModule, err)
	}
	return m
}

// TestFontModuleReplaced checks that the charts measure with this
// repository's subsets, not with the whole fonts.
func TestFontModuleReplaced(t *testing.T) {
	m := goList(t)
	if m.Replace == nil || !strings.HasSuffix(filepath.ToSlash(m.Replace.Dir), "app/charts/fonts/liberation") {
		t.Fatalf("%s is not replaced by app/charts/fonts/liberation: %+v", fontModule, m.Replace)
	}
	if n := chartFace(t).NumGlyphs(); n > 1000 {
		t.Errorf("the charts' face has %d glyphs: not the subset", n)
	}
}

// originalFonts returns the real fonts of the module version gonum requires,
// from the module cache, by package; it skips the test when they are absent
// (the test fetches nothing).
func originalFonts(t *testing.T) map[string]*opentype.Font {
	t.Helper()
	m := goList(t)
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(cache)), fontModule+"@"+m.Version)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the original fonts are not in the module cache (%v): go mod download %s@%s to compare the subsets with them", err, fontModule, m.Version)
	}
	out := make(map[string]*opentype.Font)
	for _, f := range faces {
		files, _ := filepath.Glob(filepath.Join(dir, f.pkg, "*.ttf"))
		if len(files) != 1 {
			t.Fatalf("%s: want one .ttf in %s, found %q", f.pkg, dir, files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		ft, err := opentype.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", files[0], err)
		}
		out[f.pkg] = ft
	}
	return out
}

// TestFontSubsetMetrics compares the subsets with the real fonts: the same
// extents for every face and, for the charts' face, the same width for
// every character it keeps alone, for every pair of Latin-1 and symbol
// characters (kerning), and for chart-like strings. Every required
// character the real font has must be kept.
func TestFontSubsetMetrics(t *testing.T) {
	orig := originalFonts(t)
	for _, f := range faces {
		for _, size := range []font.Length{11, 11.5, 12} {
			sub := font.DefaultCache.Lookup(f.fnt, size)
			if !font.DefaultCache.Has(f.fnt) {
				t.Fatalf("%s: gonum's cache lacks %v", f.pkg, f.fnt)
			}
			real := font.Face{Font: sub.Font, Face: orig[f.pkg]}
			if got, want := sub.Extents(), real.Extents(); got != want {
				t.Errorf("%s at %v: extents %+v, the real font's %+v", f.pkg, size, got, want)
			}
		}
	}

	fnt := font.From(sans, 12)
	sub := font.DefaultCache.Lookup(fnt, 12)
	real := font.Face{Font: fnt, Face: orig["liberationsansregular"]}
	var buf sfnt.Buffer
	has := func(f *sfnt.Font, r rune) bool {
		i, err := f.GlyphIndex(&buf, r)
		return err == nil && i != 0
	}
	for _, r := range required {
		if has(real.Face, r) && !has(sub.Face, r) {
			t.Errorf("the subset lacks %q (U+%04X), which the real font has: add it to CHART_TEXT in app/charts/fonts/liberation/subset.py", r, r)
		}
	}
	var kept []rune
	for r := rune(0x20); r <= 0x22FF; r++ {
		if !has(sub.Face, r) {
			continue
		}
		kept = append(kept, r)
		if got, want := sub.Width(string(r)), real.Width(string(r)); got != want {
			t.Errorf("width of %q (U+%04X): %v, the real font's %v", r, r, got, want)
		}
	}
	if len(kept) < len([]rune(required)) {
		t.Fatalf("the subset keeps %d characters, fewer than the %d required", len(kept), len([]rune(required)))
	}
	var pairs []rune
	for _, r := range required {
		if has(sub.Face, r) {
			pairs = append(pairs, r)
		}
	}
	kerned := 0
	for _, a := range pairs {
		for _, b := range pairs {
			s := string([]rune{a, b})
			got, want := sub.Width(s), real.Width(s)
			if got != want {
				t.Fatalf("width of %q: %v, the real font's %v", s, got, want)
			}
			if want != real.Width(string(a))+real.Width(string(b)) {
				kerned++
			}
		}
	}
	if kerned == 0 {
		t.Errorf("no pair of the %d characters is kerned: the comparison does not reach the kerning", len(pairs))
	}
	for _, s := range []string{"percentile (spaced by 1/(1−p))", "100 µs", "99.9999%", "threshold (above = 1 ms)",
		"paced_corrected", "due time (paced: send time)", "AVA Type Wave ‘quoted’ “Yes.” 1,234 × 5 ÷ 6 → 7 ≥ 8"} {
		if got, want := sub.Width(s), real.Width(s); got != want {
			t.Errorf("width of %q: %v, the real font's %v", s, got, want)
		}
	}
	t.Logf("%d characters kept, %d of %d pairs kerned", len(kept), kerned, len(pairs)*len(pairs))
}

// TestChartText renders every chart of every preset in each display variant
// and checks its text (checkChart does the same for every chart the other
// tests draw).
func TestChartText(t *testing.T) {
	for _, p := range sim.Presets() {
		res, err := sim.Run(p.Config)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		for _, k := range Kinds() {
			for _, o := range options[:6] {
				checkGlyphs(t, p.Name+" "+k.String(), render(t, res, k, o).SVG)
			}
		}
	}
}

// checkGlyphs fails when a <text> of svg is drawn in a face other than the
// one the subset serves (Liberation Sans Regular) or holds a character the
// subset lacks.
func checkGlyphs(t *testing.T, where, svg string) {
	t.Helper()
	face := chartFace(t)
	var buf sfnt.Buffer
	d := xml.NewDecoder(strings.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local != "text" {
				continue
			}
			inText = true
			var style string
			for _, a := range tok.Attr {
				if a.Name.Local == "style" {
					style = a.Value
				}
			}
			for _, want := range []string{"font-family:" + FontFamily + ";", "font-variant:normal", "font-weight:normal", "font-style:normal"} {
				if !strings.Contains(style, want) {
					t.Errorf("%s: a text is not in Liberation Sans Regular (style %q lacks %q), the only face whose subset keeps the charts' characters: give its face CHART_TEXT in FACES in app/charts/fonts/liberation/subset.py", where, style, want)
				}
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if !inText {
				continue
			}
			for _, r := range string(tok) {
				if i, err := face.GlyphIndex(&buf, r); err != nil || i == 0 {
					t.Errorf("%s: chart text %q holds %q (U+%04X), which the subset font lacks: its width would be .notdef's. Add it to CHART_TEXT in app/charts/fonts/liberation/subset.py and run it",
						where, string(tok), r, r)
				}
			}
		}
	}
}
