package charts

import (
	"fmt"
	"strings"
	"testing"

	"omission/sim"
)

// TestHex parses every colour of the palettes and looks back.
func TestHex(t *testing.T) {
	var all []string
	for _, th := range []Theme{Light, Dark} {
		p := Colours(th)
		all = append(all, p.Background, p.Ink, p.Grid, p.Stall)
		for _, k := range sim.Kinds() {
			all = append(all, LookOf(k, th).Colour)
		}
	}
	all = append(all, "#000000", "#FFFFFF", "#0a0B0c")
	for _, s := range all {
		c := hex(s)
		if got := fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B); !equalFold(got, s) || c.A != 255 {
			t.Errorf("hex(%q) = %+v", s, c)
		}
	}
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
