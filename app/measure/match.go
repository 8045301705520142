package measure

import "strings"

// The line pattern of an interval log, matched by hand rather than with
// package regexp, which app.wasm then does not link (about 58 KB after
// gzip); match_test.go holds it to regexp on generated lines. Scan is the
// scanner it uses, exported for the tools' readers (app/tools), whose
// matchers are written the same way.

// Scan walks a line from the left: S is the line, I the index of the
// next byte.
type Scan struct {
	S string
	I int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' } // RE2's \s
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Spaces consumes \s* and reports whether it took at least min.
func (c *Scan) Spaces(min int) bool {
	j := c.I
	for c.I < len(c.S) && isSpace(c.S[c.I]) {
		c.I++
	}
	return c.I-j >= min
}

// Lit consumes p if the line goes on with it.
func (c *Scan) Lit(p string) bool {
	if strings.HasPrefix(c.S[c.I:], p) {
		c.I += len(p)
		return true
	}
	return false
}

// Run consumes the longest run of bytes in set (at least one).
func (c *Scan) Run(ok func(byte) bool) (string, bool) {
	j := c.I
	for c.I < len(c.S) && ok(c.S[c.I]) {
		c.I++
	}
	return c.S[j:c.I], c.I > j
}

// Digits is [0-9]+.
func (c *Scan) Digits() (string, bool) { return c.Run(isDigit) }

// Dotted is [0-9.]+.
func (c *Scan) Dotted() (string, bool) {
	return c.Run(func(b byte) bool { return isDigit(b) || b == '.' })
}

// Decimal is [0-9]+(?:\.[0-9]+)?.
func (c *Scan) Decimal() (string, bool) {
	j := c.I
	if _, ok := c.Digits(); !ok {
		return "", false
	}
	if c.I+1 < len(c.S) && c.S[c.I] == '.' && isDigit(c.S[c.I+1]) {
		c.I++
		c.Digits()
	}
	return c.S[j:c.I], true
}

// Unit is (us|ms|s|m|h), the alternatives tried in that order.
func (c *Scan) Unit() (string, bool) {
	for _, u := range []string{"us", "ms", "s", "m", "h"} {
		if c.Lit(u) {
			return u, true
		}
	}
	return "", false
}

// matchHlogLine: ^(Tag=[^,]*,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST
func matchHlogLine(s string) bool {
	c := &Scan{S: s}
	if c.Lit("Tag=") {
		k := strings.IndexByte(s[c.I:], ',')
		if k < 0 {
			return false
		}
		c.I += k + 1
	}
	for range 3 {
		if _, ok := c.Dotted(); !ok || !c.Lit(",") {
			return false
		}
	}
	return c.Lit("HIST")
}
