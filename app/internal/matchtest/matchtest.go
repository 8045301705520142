package matchtest

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// Case is one matcher and the regular expression it stands for.
type Case struct {
	Re    string                // the expression
	Match func(string) []string // the hand matcher: the submatches, or nil
	Bool  bool                  // Match answers only whether the line matches (any non-nil result)
	Shape []string              // a matching line, in pieces
	Parts []string              // other pieces
}

// Check holds each case's matcher to its expression on 100,000 generated
// lines: half are a matching line whose pieces are each kept, dropped or
// replaced by another piece, half are random strings of the pieces. It
// fails when a matcher and its expression differ on a line, or when fewer
// than 1,000 lines match (the generator would not reach the matches).
func Check(t *testing.T, cases []Case) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		re := regexp.MustCompile(c.Re)
		pieces := append(append([]string(nil), c.Shape...), c.Parts...)
		hits := 0
		for i := range 100000 {
			var b strings.Builder
			if i%2 == 0 {
				for _, p := range c.Shape {
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
			want, got := re.FindStringSubmatch(s), c.Match(s)
			same := reflect.DeepEqual(got, want)
			if c.Bool {
				same = (got != nil) == (want != nil)
			}
			if !same {
				t.Fatalf("%s on %q: got %q, want %q", c.Re, s, got, want)
			}
			if want != nil {
				hits++
			}
		}
		if hits < 1000 {
			t.Errorf("%s: only %d of the generated lines match: the test does not reach the matches", c.Re, hits)
		}
	}
}
