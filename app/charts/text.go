package charts

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// measurer is a text.Handler that draws plain text as text.Plain does but
// measures each (text, font) once per chart: gonum measures every tick
// label many times while it lays a plot out, and in WebAssembly that was a
// quarter of a chart's time.
type measurer struct {
	plain text.Plain
	boxes map[boxKey]box
	exts  map[font.Font]font.Extents
	faces map[font.Font]font.Face
}

type boxKey struct {
	txt string
	fnt font.Font
}

type box struct{ w, h, d vg.Length }

var _ text.Handler = (*measurer)(nil)

func newMeasurer() *measurer {
	return &measurer{
		plain: text.Plain{Fonts: font.DefaultCache}, // plot's init put Liberation there
		boxes: make(map[boxKey]box),
		exts:  make(map[font.Font]font.Extents),
		faces: make(map[font.Font]font.Face),
	}
}

// ensure plot's init (which loads the fonts) has run.
var _ = plot.DefaultFont

func (m *measurer) Cache() *font.Cache { return m.plain.Fonts }

func (m *measurer) face(fnt font.Font) font.Face {
	f, ok := m.faces[fnt]
	if !ok {
		f = m.plain.Fonts.Lookup(fnt, fnt.Size)
		m.faces[fnt] = f
	}
	return f
}

func (m *measurer) Extents(fnt font.Font) font.Extents {
	e, ok := m.exts[fnt]
	if !ok {
		f := m.face(fnt)
		e = f.Extents()
		m.exts[fnt] = e
	}
	return e
}

func (m *measurer) Lines(txt string) []string {
	if !strings.Contains(txt, "\n") {
		return []string{txt}
	}
	return m.plain.Lines(txt)
}

func (m *measurer) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	k := boxKey{txt, fnt}
	b, ok := m.boxes[k]
	if !ok {
		e := m.Extents(fnt)
		f := m.face(fnt)
		b = box{f.Width(txt), e.Ascent, e.Descent}
		m.boxes[k] = b
	}
	return b.w, b.h, b.d
}

// Draw is text.Plain's Draw with cached measures.
func (m *measurer) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if len(txt) == 0 {
		return
	}
	fnt := m.face(sty.Font)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := m.Lines(txt)
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - m.Extents(sty.Font).Ascent
	for i, line := range lines {
		w, _, _ := m.Box(line, sty.Font)
		xoffs := vg.Length(sty.XAlign) * w
		n := vg.Length(len(lines) - i)
		c.FillString(fnt, pt.Add(vg.Point{X: xoffs, Y: n * sty.Font.Size}), line)
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}
