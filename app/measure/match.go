package measure

import "strings"

// The line patterns of wrk's output and of an interval log, matched by hand
// rather than with package regexp, which app.wasm then does not link (about
// 58 KB after gzip). Each matcher returns what regexp's FindStringSubmatch
// would for the pattern in its comment (whole match first, then the groups),
// or nil; match_test.go holds them to regexp on generated lines.

// scan walks a line from the left.
type scan struct {
	s string
	i int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' } // RE2's \s
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// spaces consumes \s* and reports whether it took at least min.
func (c *scan) spaces(min int) bool {
	j := c.i
	for c.i < len(c.s) && isSpace(c.s[c.i]) {
		c.i++
	}
	return c.i-j >= min
}

func (c *scan) lit(p string) bool {
	if strings.HasPrefix(c.s[c.i:], p) {
		c.i += len(p)
		return true
	}
	return false
}

// run consumes the longest run of bytes in set (at least one).
func (c *scan) run(ok func(byte) bool) (string, bool) {
	j := c.i
	for c.i < len(c.s) && ok(c.s[c.i]) {
		c.i++
	}
	return c.s[j:c.i], c.i > j
}

func (c *scan) digits() (string, bool) { return c.run(isDigit) }

// dotted is [0-9.]+.
func (c *scan) dotted() (string, bool) {
	return c.run(func(b byte) bool { return isDigit(b) || b == '.' })
}

// decimal is [0-9]+(?:\.[0-9]+)?.
func (c *scan) decimal() (string, bool) {
	j := c.i
	if _, ok := c.digits(); !ok {
		return "", false
	}
	if c.i+1 < len(c.s) && c.s[c.i] == '.' && isDigit(c.s[c.i+1]) {
		c.i++
		c.digits()
	}
	return c.s[j:c.i], true
}

// unit is (us|ms|s|m|h), the alternatives tried in that order.
func (c *scan) unit() (string, bool) {
	for _, u := range []string{"us", "ms", "s", "m", "h"} {
		if c.lit(u) {
			return u, true
		}
	}
	return "", false
}

// matchWrkLat: ^\s*Latency\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+
func matchWrkLat(s string) []string {
	c := &scan{s: s}
	c.spaces(0)
	if !c.lit("Latency") || !c.spaces(1) {
		return nil
	}
	m := []string{""}
	for range 3 {
		num, ok1 := c.dotted()
		u, ok2 := c.unit()
		if !ok1 || !ok2 || !c.spaces(1) {
			return nil
		}
		m = append(m, num, u)
	}
	m[0] = s[:c.i]
	return m
}

// matchWrkReqs: ^\s*([0-9]+) requests in
func matchWrkReqs(s string) []string {
	c := &scan{s: s}
	c.spaces(0)
	n, ok := c.digits()
	if !ok || !c.lit(" requests in ") {
		return nil
	}
	return []string{s[:c.i], n}
}

// matchWrkErrs: ^\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)
func matchWrkErrs(s string) []string {
	c := &scan{s: s}
	c.spaces(0)
	m := []string{""}
	for _, p := range []string{"Socket errors: connect ", ", read ", ", write ", ", timeout "} {
		if !c.lit(p) {
			return nil
		}
		n, ok := c.digits()
		if !ok {
			return nil
		}
		m = append(m, n)
	}
	m[0] = s[:c.i]
	return m
}

// matchWrkPct: ^\s*([0-9]+(?:\.[0-9]+)?)%\s+([0-9]+(?:\.[0-9]+)?)(us|ms|s|m|h)\s*$
func matchWrkPct(s string) []string {
	c := &scan{s: s}
	c.spaces(0)
	p, ok := c.decimal()
	if !ok || !c.lit("%") || !c.spaces(1) {
		return nil
	}
	v, ok1 := c.decimal()
	u, ok2 := c.unit()
	if !ok1 || !ok2 {
		return nil
	}
	c.spaces(0)
	if c.i != len(s) {
		return nil
	}
	return []string{s, p, v, u}
}

// matchHlogLine: ^(Tag=[^,]*,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST
func matchHlogLine(s string) bool {
	c := &scan{s: s}
	if c.lit("Tag=") {
		k := strings.IndexByte(s[c.i:], ',')
		if k < 0 {
			return false
		}
		c.i += k + 1
	}
	for range 3 {
		if _, ok := c.dotted(); !ok || !c.lit(",") {
			return false
		}
	}
	return c.lit("HIST")
}
