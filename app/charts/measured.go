package charts

import (
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The reader's measured files are drawn thick, each distribution (a file
// can hold several: wrk2's corrected and uncorrected) in a colour and a
// dash of its own, in the order the page lists them: the first in the
// theme's ink and solid, the next two in colours picked to keep 4.5:1
// contrast with their background and a ΔE*ab of at least 18 from every
// recording's colour, from the ink and from each other, for normal vision
// and under simulated protanopia, deuteranopia and tritanopia
// (measured_test.go). Past three the colours repeat with other dashes, so
// the first six differ in colour or dash from their neighbours and in
// colour and dash together from all the others.
//
//	slot  light             dark              dash
//	0     ink    #1A1A1A    ink   #E6E6E6     solid
//	1     violet #5500BB    violet #8866FF    long dash
//	2     brown  #772200    lime  #AAFF88     dash-dot
var measuredColours = [2][3]string{
	Light: {"#1A1A1A", "#5500BB", "#772200"},
	Dark:  {"#E6E6E6", "#8866FF", "#AAFF88"},
}

// measuredColourNames name those colours for a caption.
var measuredColourNames = [2][3]string{
	Light: {"ink", "violet", "brown"},
	Dark:  {"ink", "violet", "lime"},
}

// measuredDashes are their dashes, for gonum (nil: solid), and their
// names.
var measuredDashes = [...]struct {
	lengths []vg.Length
	name    string
}{
	{nil, "solid"},
	{[]vg.Length{12, 4}, "long-dashed"},
	{[]vg.Length{8, 3, 2, 3}, "dash-dotted"},
	{[]vg.Length{3, 3}, "short-dashed"},
	{[]vg.Length{1.5, 3}, "dotted"},
	{[]vg.Length{12, 3, 2, 3, 2, 3}, "dash-dot-dotted"},
}

// MeasuredLooks is how many measured series are drawn each in a look no
// other one has.
const MeasuredLooks = len(measuredDashes)

// measuredWidth is their lines' width: thicker than the recordings'.
const measuredWidth = 1.8

// MeasuredLook is how the i-th measured series (from 0, in the page's
// order of files and, within a file, of its distributions) is drawn in
// theme t: its colour and its dash (an SVG stroke-dasharray, "none" when
// solid). Glyph is empty: a file's spectrum has no markers.
func MeasuredLook(i int, t Theme) Look {
	if t != Dark {
		t = Light
	}
	i = max(i, 0)
	d := measuredDashes[i%len(measuredDashes)]
	dash := "none"
	if len(d.lengths) > 0 {
		dash = ""
		for j, l := range d.lengths {
			if j > 0 {
				dash += " "
			}
			dash += fmt.Sprint(float64(l))
		}
	}
	return Look{Colour: measuredColours[t][i%3], Dash: dash}
}

// MeasuredLookName says in words how the i-th measured series is drawn
// ("a thick solid line in ink"), for a caption or a list of files.
func MeasuredLookName(i int, t Theme) string {
	if t != Dark {
		t = Light
	}
	i = max(i, 0)
	return "a thick " + measuredDashes[i%len(measuredDashes)].name + " line in " + measuredColourNames[t][i%3]
}

// MeasuredSwatch is a small inline SVG (w×h px) of the i-th measured
// series' line, for the page's list of files.
func MeasuredSwatch(i int, t Theme, w, h int) string {
	l := MeasuredLook(i, t)
	dash := ""
	if l.Dash != "none" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, l.Dash)
	}
	y := float64(h) / 2
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" aria-hidden="true">`+
		`<line x1="0" y1="%g" x2="%d" y2="%g" stroke="%s" stroke-width="3"%s/></svg>`,
		w, h, w, h, y, w, y, l.Colour, dash)
}

// measuredLine is the i-th measured series' line style.
func (th *theme) measuredLine(i int) draw.LineStyle {
	i = max(i, 0)
	t := th.t
	if t != Dark {
		t = Light
	}
	return draw.LineStyle{Color: hex(measuredColours[t][i%3]), Width: th.lineWidth * measuredWidth,
		Dashes: measuredDashes[i%len(measuredDashes)].lengths}
}
