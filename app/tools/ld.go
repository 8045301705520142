package tools

import (
	"math/big"
	"strings"
)

// wrk and wrk2 summarise in C's long double, which on x86-64 (where Debian's
// wrk runs) is the x87 80-bit format: a 64-bit significand, each operation
// rounded to nearest even. ld emulates it with math/big at precision 64, so
// the digits they print are the digits we print.
type ld struct{ f *big.Float }

func newLD() *big.Float { return new(big.Float).SetPrec(64).SetMode(big.ToNearestEven) }

func ldInt(n int64) ld      { return ld{newLD().SetInt64(n)} }
func ldF(x float64) ld      { return ld{newLD().SetFloat64(x)} }
func (a ld) add(b ld) ld    { return ld{newLD().Add(a.f, b.f)} }
func (a ld) sub(b ld) ld    { return ld{newLD().Sub(a.f, b.f)} }
func (a ld) mul(b ld) ld    { return ld{newLD().Mul(a.f, b.f)} }
func (a ld) quo(b ld) ld    { return ld{newLD().Quo(a.f, b.f)} }
func (a ld) sqrt() ld       { return ld{newLD().Sqrt(a.f)} }
func (a ld) cmp(b ld) int   { return a.f.Cmp(b.f) }
func (a ld) float() float64 { v, _ := a.f.Float64(); return v }

// fixed is printf's "%.<p>Lf": the exact binary value rounded to p
// decimals, halves to even (glibc).
func (a ld) fixed(p int) string { return a.f.Text('f', p) }

// cUnits is wrk's units table (src/units.c 11–39).
type cUnits struct {
	scale int64
	base  string
	units []string
}

var (
	timeUnitsUs = cUnits{1000, "us", []string{"ms", "s"}}
	timeUnitsS  = cUnits{60, "s", []string{"m", "h"}}
	binaryUnits = cUnits{1024, "", []string{"K", "M", "G", "T", "P"}}
	metricUnits = cUnits{1000, "", []string{"k", "M", "G", "T", "P"}}
)

// formatUnits is wrk's format_units (src/units.c 41–56): divide while the
// amount is at least 0.85 of the scale and a further unit exists.
func formatUnits(n ld, m cUnits, p int) string {
	amt := n
	unit := m.base
	scale := ldF(float64(m.scale) * 0.85) // int * double: a double
	for i := 0; i+1 < len(m.units) && amt.cmp(scale) >= 0; i++ {
		amt = amt.quo(ldInt(m.scale))
		unit = m.units[i]
	}
	return amt.fixed(p) + unit
}

func formatTimeUs(n ld) string {
	u := timeUnitsUs
	if n.cmp(ldInt(1000000)) >= 0 {
		n = n.quo(ldInt(1000000))
		u = timeUnitsS
	}
	return formatUnits(n, u, 2)
}

func formatTimeS(n ld) string  { return formatUnits(n, timeUnitsS, 0) }
func formatMetric(n ld) string { return formatUnits(n, metricUnits, 2) }
func formatBinary(n ld) string { return formatUnits(n, binaryUnits, 2) }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// printUnits is wrk's print_units (src/wrk.c 550–561): the text right
// aligned in width less the padding, cut to that width, then the padding
// of two spaces less one for each of the last two characters that is a
// letter.
func printUnits(b *strings.Builder, n ld, f func(ld) string, width int) {
	msg := f(n)
	pad := 2
	if len(msg) > 0 && isAlpha(msg[len(msg)-1]) {
		pad--
	}
	if len(msg) > 1 && isAlpha(msg[len(msg)-2]) {
		pad--
	}
	width -= pad
	if len(msg) > width {
		msg = msg[:width]
	}
	b.WriteString(strings.Repeat(" ", width-len(msg)) + msg + "  "[:pad])
}

// padLeft right-aligns s in w columns (printf "%*s").
func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}
