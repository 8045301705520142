package charts

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"omission/sim"
)

func linear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

func rgbLinear(s string) [3]float64 {
	c := hex(s)
	return [3]float64{linear(c.R), linear(c.G), linear(c.B)}
}

func luminance(s string) float64 {
	c := rgbLinear(s)
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

// contrast is WCAG 2's contrast ratio.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
var cvd = map[string][3][3]float64{
	"protanopia":   {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	"deuteranopia": {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	"tritanopia":   {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
	"normal":       {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
}

// lab converts linear sRGB to CIE L*a*b* (D65).
func lab(c [3]float64) [3]float64 {
	x := (0.4124*c[0] + 0.3576*c[1] + 0.1805*c[2]) / 0.95047
	y := 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	z := (0.0193*c[0] + 0.1192*c[1] + 0.9505*c[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func simulate(m [3][3]float64, c [3]float64) [3]float64 {
	var out [3]float64
	for i := range out {
		v := m[i][0]*c[0] + m[i][1]*c[1] + m[i][2]*c[2]
		out[i] = math.Min(1, math.Max(0, v))
	}
	return out
}

// TestColours checks the claims of the style table: every recording's
// colour has 3:1 contrast with its background, and any two recordings stay
// at least ΔE*ab 15 apart for normal vision and under simulated
// protanopia, deuteranopia and tritanopia.
func TestColours(t *testing.T) {
	for _, th := range []Theme{Light, Dark} {
		bg := Colours(th).Background
		for _, k := range sim.Kinds() {
			if c := contrast(LookOf(k, th).Colour, bg); c < 3 {
				t.Errorf("%s %s: contrast %.2f with %s, want at least 3", th, k, c, bg)
			}
		}
		for name, m := range cvd {
			for _, a := range sim.Kinds() {
				for _, b := range sim.Kinds()[a+1:] {
					la := lab(simulate(m, rgbLinear(LookOf(a, th).Colour)))
					lb := lab(simulate(m, rgbLinear(LookOf(b, th).Colour)))
					d := math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
					if d < 15 {
						t.Errorf("%s, %s: %s and %s are only ΔE %.1f apart", th, name, a, b, d)
					}
				}
			}
		}
	}
}

// TestLooks checks that Style, LookOf and the dashes gonum draws agree, and
// that no two recordings share a dash or a glyph.
func TestLooks(t *testing.T) {
	for _, th := range []Theme{Light, Dark} {
		seenDash, seenGlyph := map[string]bool{}, map[string]bool{}
		for _, k := range sim.Kinds() {
			l := LookOf(k, th)
			c, d := Style(k, th)
			if c != l.Colour || d != l.Dash {
				t.Errorf("%s: Style = %s %s, LookOf = %+v", k, c, d, l)
			}
			var nums []string
			for _, v := range dashes[k] {
				nums = append(nums, strconv.FormatFloat(float64(v), 'g', -1, 64))
			}
			if want := strings.Join(nums, " "); want != strings.ReplaceAll(d, "none", "") {
				t.Errorf("%s: dash %q, gonum draws %q", k, d, want)
			}
			if seenDash[d] || seenGlyph[l.Glyph] {
				t.Errorf("%s: dash %q or glyph %q used twice", k, d, l.Glyph)
			}
			seenDash[d], seenGlyph[l.Glyph] = true, true
			sw := Swatch(k, th, 24, 10)
			if !strings.HasPrefix(sw, "<svg") || !strings.Contains(sw, l.Colour) || wellFormed(sw) != nil {
				t.Errorf("%s: swatch %s", k, sw)
			}
		}
	}
	if l := LookOf(sim.NumKinds, Light); l.Colour == "" {
		t.Errorf("out-of-range kind has no look")
	}
}
