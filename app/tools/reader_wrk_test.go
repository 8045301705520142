package tools

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestWrkMatchersAreTheRegexps holds each of wrk's hand matchers to the regular
// expression it stands for, on generated lines: half are a matching line
// whose pieces are each kept, dropped or replaced by another piece, half
// are random strings of the pieces.
func TestWrkMatchersAreTheRegexps(t *testing.T) {
	cases := []struct {
		re    string
		match func(string) []string
		shape []string // a matching line, in pieces
		parts []string // other pieces
	}{
		{`^\s*Latency\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+`, matchWrkLat,
			[]string{"    ", "Latency", "   ", "635.91", "us", "  ", "1.2", "ms", "\t", "12", "s", " ", "83.02%"},
			[]string{" ", "1.2.3", ".", "m", "h", "x", "sec"}},
		{`^\s*([0-9]+) requests in `, matchWrkReqs,
			[]string{"  ", "12345", " requests in ", "10.00s"},
			[]string{" ", "3", "requests", " in ", "x", "1.5"}},
		{`^\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)`, matchWrkErrs,
			[]string{"  ", "Socket errors: connect ", "0", ", read ", "12", ", write ", "3", ", timeout ", "45"},
			[]string{" ", ",", "x", "1.5"}},
		{`^\s*([0-9]+(?:\.[0-9]+)?)%\s+([0-9]+(?:\.[0-9]+)?)(us|ms|s|m|h)\s*$`, matchWrkPct,
			[]string{"  ", "99.900", "%", "   ", "1.50", "ms", " "},
			[]string{" ", "\t", "50", ".", "12", "us", "s", "m", "h", "x", "\r", "%"}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		re := regexp.MustCompile(c.re)
		pieces := append(append([]string(nil), c.shape...), c.parts...)
		hits := 0
		for i := range 100000 {
			var b strings.Builder
			if i%2 == 0 {
				for _, p := range c.shape {
					switch r.IntN(16) {
					case 0:
					case 1:
						b.WriteString(pieces[r.IntN(len(pieces))])
					default:
						b.WriteString(p)
					}
				}
			} else {
				for range r.IntN(14) {
					b.WriteString(pieces[r.IntN(len(pieces))])
				}
			}
			s := b.String()
			want, got := re.FindStringSubmatch(s), c.match(s)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: got %q, want %q", c.re, s, got, want)
			}
			if want != nil {
				hits++
			}
		}
		if hits < 1000 {
			t.Errorf("%s: only %d of the generated lines match: the test does not reach the matches", c.re, hits)
		}
	}
}
