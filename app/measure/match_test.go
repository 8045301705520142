package measure

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestMatchersAreTheRegexps holds each hand matcher to the regular
// expression it stands for, on generated lines: half are a matching line
// whose pieces are each kept, dropped or replaced by another piece, half
// are random strings of the pieces.
func TestMatchersAreTheRegexps(t *testing.T) {
	hlog := regexp.MustCompile(`^(Tag=[^,]*,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST`)
	cases := []struct {
		re    string
		match func(string) []string
		shape []string // a matching line, in pieces
		parts []string // other pieces
	}{
		{hlog.String(), func(s string) []string {
			if matchHlogLine(s) {
				return []string{"match"}
			}
			return nil
		}, []string{"Tag=closed,", "0.127", ",", "1.0", ",", "3", ",", "HISTFAAAA"},
			[]string{"Tag=", "x", ",", ".", "12", "HIST", " "}},
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
			if c.re == hlog.String() && want != nil {
				want = []string{"match"}
			}
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
