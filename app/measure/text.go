package measure

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"
)

// Line is one line of a text file, N its 1-based number.
type Line struct {
	N    int
	Text string
}

// SplitLines cuts data at \n, dropping a \r before it.
func SplitLines(data []byte) []Line {
	var out []Line
	n := 0
	for len(data) > 0 {
		n++
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		out = append(out, Line{n, string(l)})
	}
	return out
}

// field is a whitespace-separated token with its 1-based column.
type field struct {
	col  int
	text string
}

// fields splits s at spaces and tabs, keeping each token's column.
func fields(s string) []field {
	var out []field
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, field{i + 1, s[i:j]})
		}
		i = j
	}
	return out
}

// Decimal is an exact non-negative decimal: mant / 10^scale.
type Decimal struct {
	mant  uint64
	scale int
}

// ParseDecimal reads digits with at most one point ("12", "0.125", ".5").
// It refuses signs, exponents and more than 19 significant digits.
func ParseDecimal(s string) (Decimal, error) {
	if s == "" {
		return Decimal{}, fmt.Errorf("expected a number, found nothing")
	}
	var d Decimal
	seenPoint, digits := false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !seenPoint:
			seenPoint = true
		case c >= '0' && c <= '9':
			if d.mant == 0 && c == '0' {
				if seenPoint {
					d.scale++
				}
				digits++
				continue
			}
			if d.mant > (1<<64-1-9)/10 {
				return Decimal{}, fmt.Errorf("expected a number of at most 19 significant digits, found %q", s)
			}
			d.mant = d.mant*10 + uint64(c-'0')
			if seenPoint {
				d.scale++
			}
			digits++
		default:
			return Decimal{}, fmt.Errorf("expected a non-negative decimal number, found %q", s)
		}
	}
	if digits == 0 {
		return Decimal{}, fmt.Errorf("expected a number, found %q", s)
	}
	return d, nil
}

var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// Ns returns d × unitNs rounded to a whole nanosecond (halves up), exactly.
func (d Decimal) Ns(unitNs uint64) (int64, error) {
	hi, lo := bits.Mul64(d.mant, unitNs)
	if d.scale >= len(pow10) {
		// Beyond 19 decimals: the value is below 1 ns per unit for any unit
		// here; reduce the product first.
		for s := d.scale; s >= len(pow10); s-- {
			hi, lo = div128(hi, lo, 10)
		}
		d.scale = len(pow10) - 1
	}
	p := pow10[d.scale]
	lo, c := bits.Add64(lo, p/2, 0)
	hi += c
	if hi >= p {
		return 0, fmt.Errorf("value out of range")
	}
	q, _ := bits.Div64(hi, lo, p)
	if q > 1<<62 {
		return 0, fmt.Errorf("value out of range")
	}
	return int64(q), nil
}

func div128(hi, lo, d uint64) (uint64, uint64) {
	qh := hi / d
	ql, _ := bits.Div64(hi%d, lo, d)
	return qh, ql
}

// Float returns d as a float64 (for percentiles and ratios).
func (d Decimal) Float() float64 {
	f := float64(d.mant)
	for s := d.scale; s > 0; s-- {
		f /= 10
	}
	return f
}

// decimals returns how many digits follow the point in s.
func decimals(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// ParseInt reads a non-negative integer of at most 18 digits.
func ParseInt(s string) (int64, error) {
	if s == "" || len(s) > 18 {
		return 0, fmt.Errorf("expected a count, found %q", s)
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("expected a count (digits only), found %q", s)
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, nil
}
