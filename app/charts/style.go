package charts

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"omission/sim"
)

// Theme selects the colours of a chart.
type Theme uint8

const (
	Light Theme = iota // dark ink on white
	Dark               // light ink on a near-black background
)

func (t Theme) String() string {
	if t == Dark {
		return "dark"
	}
	return "light"
}

// Palette holds a theme's non-data colours as "#RRGGBB" strings, so that the
// page can give the elements around a chart the same ones.
type Palette struct {
	Background string  // behind the whole chart
	Ink        string  // axes, tick labels, text
	Grid       string  // horizontal grid lines
	Stall      string  // stall windows, drawn with StallAlpha over the background
	StallAlpha float64 // opacity of Stall
	// Outage windows (the event engine's) are Stall drawn with OutageAlpha.
	OutageAlpha float64
	// Slowdown windows (the server slower, not stopped) are Stall drawn
	// with SlowAlpha, paler than a stall.
	SlowAlpha float64
}

var palettes = [...]Palette{
	Light: {Background: "#FFFFFF", Ink: "#1A1A1A", Grid: "#E4E4E4", Stall: "#000000", StallAlpha: 0.09, OutageAlpha: 0.24, SlowAlpha: 0.05},
	Dark:  {Background: "#16181D", Ink: "#E6E6E6", Grid: "#30343C", Stall: "#FFFFFF", StallAlpha: 0.11, OutageAlpha: 0.26, SlowAlpha: 0.06},
}

// Colours returns the palette of a theme.
func Colours(t Theme) Palette {
	if t == Dark {
		return palettes[Dark]
	}
	return palettes[Light]
}

// Look is how one recording is drawn: the same in every chart, and what the
// page should use for its table and legend.
type Look struct {
	Colour string // "#RRGGBB"
	// Dash is an SVG/CSS stroke-dasharray in px ("none" when solid).
	Dash string
	// Glyph names the percentile marker's shape: "circle", "ring",
	// "triangle", "open-triangle" or "square". Filled shapes are measured
	// recordings, open ones the corrected recordings derived from them.
	Glyph string
}

// The colours come from Okabe and Ito's palette for colour-blind readers
// (Color Universal Design, 2008). Each one has at least 3:1 contrast with its
// theme's background (WCAG 1.4.11 for graphics), and the five stay apart
// under simulated protanopia, deuteranopia and tritanopia (style_test.go).
// Okabe–Ito's orange and sky blue are too light for white, and its blue too
// dark for black, so the themes differ in two slots:
//
//	recording        light              dark               dash       glyph
//	closed           blue    #0072B2    sky blue #56B4E9   solid      circle
//	paced            green   #009E73    green    #009E73   dotted     triangle
//	open             vermil. #D55E00    vermil.  #D55E00   long dash  square
//	corrected        black   #000000    yellow   #F0E442   dash-dot   ring
//	paced_corrected  purple  #CC79A7    purple   #CC79A7   dash-dot-dot open triangle
//
// Dashes differ too, so the lines also part in greyscale print.
var looks = [2][sim.NumKinds]Look{
	Light: {
		sim.Closed:         {"#0072B2", "none", "circle"},
		sim.Paced:          {"#009E73", "2 3", "triangle"},
		sim.Open:           {"#D55E00", "9 3", "square"},
		sim.Corrected:      {"#000000", "9 3 2 3", "ring"},
		sim.PacedCorrected: {"#CC79A7", "5 2 1.5 2 1.5 2", "open-triangle"},
	},
	Dark: {
		sim.Closed:         {"#56B4E9", "none", "circle"},
		sim.Paced:          {"#009E73", "2 3", "triangle"},
		sim.Open:           {"#D55E00", "9 3", "square"},
		sim.Corrected:      {"#F0E442", "9 3 2 3", "ring"},
		sim.PacedCorrected: {"#CC79A7", "5 2 1.5 2 1.5 2", "open-triangle"},
	},
}

// dashes holds the same dash patterns as numbers, for gonum.
var dashes = [sim.NumKinds][]vg.Length{
	sim.Closed:         nil,
	sim.Paced:          {2, 3},
	sim.Open:           {9, 3},
	sim.Corrected:      {9, 3, 2, 3},
	sim.PacedCorrected: {5, 2, 1.5, 2, 1.5, 2},
}

// LookOf returns how recording k is drawn in theme t.
func LookOf(k sim.Kind, t Theme) Look {
	if k < 0 || k >= sim.NumKinds {
		return Look{Colour: Colours(t).Ink, Dash: "none", Glyph: "circle"}
	}
	if t != Dark {
		t = Light
	}
	return looks[t][k]
}

// Style returns recording k's colour ("#RRGGBB") and dash (an SVG/CSS
// stroke-dasharray, "none" when solid) in theme t.
func Style(k sim.Kind, t Theme) (colour, dash string) {
	l := LookOf(k, t)
	return l.Colour, l.Dash
}

// Swatch returns a small inline SVG (w×h px) of recording k's line, dash and
// marker, for a legend or a table header.
func Swatch(k sim.Kind, t Theme, w, h int) string {
	l := LookOf(k, t)
	dash := ""
	if l.Dash != "none" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, l.Dash)
	}
	y := float64(h) / 2
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" aria-hidden="true">`+
		`<line x1="0" y1="%g" x2="%d" y2="%g" stroke="%s" stroke-width="2"%s/>%s</svg>`,
		w, h, w, h, y, w, y, l.Colour, dash, glyphSVG(l, float64(w)/2, y))
}

func glyphSVG(l Look, x, y float64) string {
	const r = 3.5
	fill := l.Colour
	stroke := ""
	switch l.Glyph {
	case "ring", "open-triangle":
		fill, stroke = "none", fmt.Sprintf(` stroke="%s" stroke-width="1.2"`, l.Colour)
	}
	switch l.Glyph {
	case "triangle", "open-triangle":
		return fmt.Sprintf(`<path d="M%g,%gL%g,%gL%g,%gZ" fill="%s"%s/>`, x, y-r, x+r, y+r*0.8, x-r, y+r*0.8, fill, stroke)
	case "square":
		return fmt.Sprintf(`<rect x="%g" y="%g" width="%g" height="%g" fill="%s"%s/>`, x-r*0.85, y-r*0.85, 1.7*r, 1.7*r, fill, stroke)
	}
	return fmt.Sprintf(`<circle cx="%g" cy="%g" r="%g" fill="%s"%s/>`, x, y, r, fill, stroke)
}

// hex parses "#RRGGBB" (with strconv: fmt.Sscanf would link fmt's whole
// scanner into app.wasm for this one call).
func hex(s string) color.NRGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

func withAlpha(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(a*255 + 0.5)
	return c
}

// theme is a Palette and the recordings' looks as gonum values.
type theme struct {
	t                           Theme
	bg, ink, grid, stall, muted color.NRGBA
	outage, slow                color.NRGBA
	kinds                       [sim.NumKinds]color.NRGBA
	glyphs                      [sim.NumKinds]draw.GlyphDrawer
	lineWidth, radius           vg.Length
}

// themes are built once: a theme is never changed after.
var themes = [2]*theme{Light: buildTheme(Light), Dark: buildTheme(Dark)}

func newTheme(t Theme) *theme {
	if t == Dark {
		return themes[Dark]
	}
	return themes[Light]
}

func buildTheme(t Theme) *theme {
	p := Colours(t)
	th := &theme{t: t, bg: hex(p.Background), ink: hex(p.Ink), grid: hex(p.Grid),
		stall: withAlpha(hex(p.Stall), p.StallAlpha), outage: withAlpha(hex(p.Stall), p.OutageAlpha),
		slow:      withAlpha(hex(p.Stall), p.SlowAlpha),
		lineWidth: 1.6, radius: 3.5}
	th.muted = withAlpha(th.ink, 0.7)
	for _, k := range sim.Kinds() {
		l := LookOf(k, t)
		th.kinds[k] = hex(l.Colour)
		switch l.Glyph {
		case "ring":
			th.glyphs[k] = hollowGlyph{}
		case "triangle":
			th.glyphs[k] = draw.PyramidGlyph{}
		case "open-triangle":
			th.glyphs[k] = hollowGlyph{triangle: true}
		case "square":
			th.glyphs[k] = draw.BoxGlyph{}
		default:
			th.glyphs[k] = draw.CircleGlyph{}
		}
	}
	return th
}

// line is recording k's line style.
func (th *theme) line(k sim.Kind) draw.LineStyle {
	return draw.LineStyle{Color: th.kinds[k], Width: th.lineWidth, Dashes: dashes[k]}
}

// glyph is recording k's marker style.
func (th *theme) glyph(k sim.Kind) draw.GlyphStyle {
	return draw.GlyphStyle{Color: th.kinds[k], Radius: th.radius, Shape: th.glyphs[k]}
}

// hollowGlyph is an outlined circle or triangle with a stroke heavy enough to
// read at marker size (gonum's RingGlyph and TriangleGlyph use 0.5 px).
type hollowGlyph struct{ triangle bool }

func (g hollowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: 1.2})
	r := sty.Radius
	var p vg.Path
	if g.triangle {
		r *= 1.25
		p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r*0.866, Y: pt.Y - r*0.5})
		p.Line(vg.Point{X: pt.X + r*0.866, Y: pt.Y - r*0.5})
	} else {
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
	}
	p.Close()
	c.Stroke(p)
}
