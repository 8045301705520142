package charts

import (
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
)

// svgFamily is the font-family that gonum's SVG backend writes for the
// charts' face: the family name in the font's own name table
// (gonum.org/v1/plot v0.17.0 vg/vgsvg/vgsvg.go:419, svgFamilyName). The fonts that gonum measures with are subsets of
// Liberation, which the font licence does not let carry the Liberation name
// (fonts/liberation/README.md), so finish swaps whatever this is for
// FontFamily, which names the real fonts.
var svgFamily = faceFamily(sans)

// faceFamily returns the name-table family of fnt's face in gonum's cache.
func faceFamily(fnt font.Font) string {
	face := font.DefaultCache.Lookup(fnt, 12) // plot's init filled the cache
	var buf sfnt.Buffer
	name, err := face.Face.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		panic("charts: the chart font has no family name: " + err.Error())
	}
	return name
}
