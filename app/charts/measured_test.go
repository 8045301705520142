package charts

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"omission/sim"
)

// deltaE is ΔE*ab between two colours as seen through the matrix m.
func deltaE(m [3][3]float64, a, b string) float64 {
	la, lb := lab(simulate(m, rgbLinear(a))), lab(simulate(m, rgbLinear(b)))
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

// TestMeasuredColours checks the claims of measured.go: each of the three
// colours has 4.5:1 contrast with its background, the second and third
// stay ΔE 18 from every recording's colour and the ink, and the three stay
// ΔE 18 apart, for normal vision and the three simulated deficiencies.
func TestMeasuredColours(t *testing.T) {
	for _, th := range []Theme{Light, Dark} {
		bg, ink := Colours(th).Background, Colours(th).Ink
		if got := MeasuredLook(0, th).Colour; got != ink {
			t.Errorf("%s: the first file is drawn in %s, the ink is %s", th, got, ink)
		}
		for i := 0; i < 3; i++ {
			c := MeasuredLook(i, th).Colour
			if r := contrast(c, bg); r < 4.5 {
				t.Errorf("%s: measured %d (%s) has contrast %.2f with %s, want 4.5", th, i, c, r, bg)
			}
			for name, m := range cvd {
				for j := i + 1; j < 3; j++ {
					if d := deltaE(m, c, MeasuredLook(j, th).Colour); d < 18 {
						t.Errorf("%s, %s: measured %d and %d only ΔE %.1f apart", th, name, i, j, d)
					}
				}
				if i == 0 {
					continue // the ink, thick and solid, as before
				}
				for _, k := range sim.Kinds() {
					if d := deltaE(m, c, LookOf(k, th).Colour); d < 18 {
						t.Errorf("%s, %s: measured %d and %s only ΔE %.1f apart", th, name, i, k, d)
					}
				}
			}
		}
	}
}

// TestMeasuredLooks: the first MeasuredLooks series each have a colour and
// dash pair no other has, neighbours differ in colour, the SVG dash and
// gonum's agree, and the words name the colour.
func TestMeasuredLooks(t *testing.T) {
	for _, th := range []Theme{Light, Dark} {
		seen := map[string]int{}
		for i := 0; i < MeasuredLooks; i++ {
			l := MeasuredLook(i, th)
			key := l.Colour + " " + l.Dash
			if j, ok := seen[key]; ok {
				t.Errorf("%s: measured %d and %d are both %s", th, i, j, key)
			}
			seen[key] = i
			if i > 0 && MeasuredLook(i-1, th).Colour == l.Colour {
				t.Errorf("%s: measured %d and %d share the colour %s", th, i-1, i, l.Colour)
			}
			st := newTheme(th).measuredLine(i)
			var nums []string
			for _, v := range st.Dashes {
				nums = append(nums, fmt.Sprint(float64(v)))
			}
			if want := strings.Join(nums, " "); want != strings.ReplaceAll(l.Dash, "none", "") {
				t.Errorf("%s %d: dash %q, gonum draws %q", th, i, l.Dash, want)
			}
			if hex(l.Colour) != st.Color {
				t.Errorf("%s %d: colour %s, gonum draws %v", th, i, l.Colour, st.Color)
			}
			name := MeasuredLookName(i, th)
			if !strings.HasPrefix(name, "a thick ") || name == MeasuredLookName(i+1, th) {
				t.Errorf("%s %d: look named %q", th, i, name)
			}
			if sw := MeasuredSwatch(i, th, 24, 10); !strings.Contains(sw, l.Colour) || wellFormed(sw) != nil {
				t.Errorf("%s %d: swatch %s", th, i, sw)
			}
		}
	}
}

// threeFiles are three measured series as the worker sends them.
func threeFiles() []Series {
	var out []Series
	for i, name := range []string{"a.hgrm", "b.hgrm", "c.hgrm"} {
		f := int64(i + 1)
		out = append(out, Series{Name: name, Class: "measured", Points: []Point{
			{0.5, f * 1e6}, {0.9, f * 2e6}, {0.99, f * 5e6}, {0.999, f * 2e7}, {1, f * 1e8}}})
	}
	return out
}

// TestThreeMeasuredDrawn: with three files beside a run, the spectrum and
// the CDF draw each in its own colour and dash (its line and its legend's
// thumb), name each in the legend, and the caption says how each is drawn.
func TestThreeMeasuredDrawn(t *testing.T) {
	res := bench(t)
	extra := append([]Series{{Name: "wrk", Class: "tool", Points: []Point{{0.5, 1e5}, {1, 2e8}}}}, threeFiles()...)
	for _, th := range []Theme{Light, Dark} {
		for _, k := range []Kind{Spectrum, Distribution} {
			ch := render(t, res, k, Options{Theme: th, Extra: extra, CDF: true})
			checkChart(t, fmt.Sprintf("%s %s with three files", k, th), ch)
			styles := newTheme(th).extraStyles(extra)
			for i := 1; i <= 3; i++ {
				l := MeasuredLook(i-1, th)
				stroke := "stroke:" + l.Colour + ";stroke-width:" + fmt.Sprintf("%.4g", float64(styles[i].Width))
				if l.Dash != "none" {
					stroke += ";stroke-dasharray:" + strings.ReplaceAll(l.Dash, " ", ",")
				}
				if n := strings.Count(ch.SVG, stroke+`"`); n != 2 {
					t.Errorf("%s %s: %s is drawn %d times with %q, want its line and its legend's thumb", k, th, extra[i].Name, n, stroke)
				}
				if !strings.Contains(ch.SVG, ">"+extra[i].Name+"</text>") {
					t.Errorf("%s %s: the legend does not name %s", k, th, extra[i].Name)
				}
				if want := extra[i].Name + " (" + MeasuredLookName(i-1, th) + ")"; !strings.Contains(ch.Caption, want) {
					t.Errorf("%s %s: the caption lacks %q: %s", k, th, want, ch.Caption)
				}
			}
			for i := 1; i <= 3; i++ {
				for j := i + 1; j <= 3; j++ {
					if styles[i].Color == styles[j].Color || fmt.Sprint(styles[i].Dashes) == fmt.Sprint(styles[j].Dashes) {
						t.Errorf("%s: %s and %s share a colour or a dash", th, extra[i].Name, extra[j].Name)
					}
				}
			}
		}
	}
}
