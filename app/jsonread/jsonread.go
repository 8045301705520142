package jsonread

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Reader reads one JSON value from its bytes, in document order. A read
// that meets something else than it expects records the first error
// (Err) and returns the zero value; every later read does nothing.
type Reader struct {
	b   []byte
	i   int
	err error
}

// New returns a reader of b.
func New(b []byte) *Reader { return &Reader{b: b} }

// Err is the first error met, or, once the value has been read, an error
// if anything but white space follows it.
func (r *Reader) Err() error { return r.err }

// End records an error if anything but white space follows the value read.
func (r *Reader) End() error {
	r.space()
	if r.err == nil && r.i != len(r.b) {
		r.fail("text after the value")
	}
	return r.err
}

func (r *Reader) fail(what string) {
	if r.err == nil {
		r.err = errors.New("jsonread: " + what + " at byte " + strconv.Itoa(r.i))
	}
	r.i = len(r.b)
}

func (r *Reader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next byte that is not white space, or 0 at the end.
func (r *Reader) peek() byte {
	r.space()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *Reader) expect(c byte) bool {
	if r.peek() != c {
		r.fail("want " + strconv.QuoteRune(rune(c)))
		return false
	}
	r.i++
	return true
}

// Null reads a null if one comes next, and reports whether it did.
func (r *Reader) Null() bool {
	if r.peek() == 'n' && r.literal("null") {
		return true
	}
	return false
}

func (r *Reader) literal(s string) bool {
	if len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s {
		r.i += len(s)
		return true
	}
	r.fail("want " + s)
	return false
}

// Object reads an object (or null), calling field with each key; field
// must read the key's value (Skip one it does not know).
func (r *Reader) Object(field func(key string)) {
	if r.Null() || !r.expect('{') {
		return
	}
	if r.peek() == '}' {
		r.i++
		return
	}
	for r.err == nil {
		key := r.String()
		if !r.expect(':') {
			return
		}
		field(key)
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.fail("want , or }")
		}
	}
}

// Array reads an array (or null), calling elem for each element, which it
// must read.
func (r *Reader) Array(elem func()) {
	if r.Null() || !r.expect('[') {
		return
	}
	if r.peek() == ']' {
		r.i++
		return
	}
	for r.err == nil {
		elem()
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return
		default:
			r.fail("want , or ]")
		}
	}
}

// Strings reads an array of strings (or null).
func (r *Reader) Strings() []string {
	var out []string
	r.Array(func() { out = append(out, r.String()) })
	return out
}

// String reads a string (a null reads as "").
func (r *Reader) String() string {
	if r.Null() || !r.expect('"') {
		return ""
	}
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			s := string(r.b[start:r.i])
			r.i++
			return s
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			r.fail("control character in a string")
			return ""
		default:
			r.i++
		}
	}
	r.fail("unterminated string")
	return ""
}

// escaped reads the rest of a string that holds an escape, from start.
func (r *Reader) escaped(start int) string {
	out := append([]byte(nil), r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return string(out)
		case c < 0x20:
			r.fail("control character in a string")
			return ""
		case c != '\\':
			out = append(out, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.b) {
			break
		}
		r.i += 2
		switch e := r.b[r.i-1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			c := r.hex4()
			if utf16.IsSurrogate(c) {
				c2 := rune(-1)
				if r.i+1 < len(r.b) && r.b[r.i] == '\\' && r.b[r.i+1] == 'u' {
					save := r.i
					r.i += 2
					if c2 = r.hex4(); utf16.DecodeRune(c, c2) == utf8.RuneError {
						r.i, c2 = save, -1
					}
				}
				if c2 < 0 {
					c = utf8.RuneError
				} else {
					c = utf16.DecodeRune(c, c2)
				}
			}
			out = utf8.AppendRune(out, c)
		default:
			r.fail("bad escape")
			return ""
		}
	}
	r.fail("unterminated string")
	return ""
}

func (r *Reader) hex4() rune {
	if r.i+4 > len(r.b) {
		r.fail("short \\u escape")
		return 0
	}
	v, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
	if err != nil {
		r.fail("bad \\u escape")
		return 0
	}
	r.i += 4
	return rune(v)
}

// number returns the bytes of the number that comes next.
func (r *Reader) number() string {
	r.space()
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			r.i++
			continue
		}
		break
	}
	if r.i == start {
		r.fail("want a number")
	}
	return string(r.b[start:r.i])
}

// Int reads an integer (a null reads as 0).
func (r *Reader) Int() int64 {
	if r.Null() {
		return 0
	}
	n, err := strconv.ParseInt(r.number(), 10, 64)
	if err != nil {
		r.fail("want an integer")
	}
	return n
}

// Float reads a number (a null reads as 0).
func (r *Reader) Float() float64 {
	if r.Null() {
		return 0
	}
	f, err := strconv.ParseFloat(r.number(), 64)
	if err != nil {
		r.fail("want a number")
	}
	return f
}

// Bool reads true or false (a null reads as false).
func (r *Reader) Bool() bool {
	switch r.peek() {
	case 't':
		return r.literal("true")
	case 'f':
		r.literal("false")
		return false
	case 'n':
		r.literal("null")
		return false
	}
	r.fail("want true or false")
	return false
}

// Raw reads any value and returns its bytes (nil after an error), for a
// value read otherwise (encoding/json, for a rare one).
func (r *Reader) Raw() []byte {
	r.space()
	start := r.i
	r.Skip()
	if r.err != nil {
		return nil
	}
	return r.b[start:r.i]
}

// Skip reads any value and drops it.
func (r *Reader) Skip() {
	switch r.peek() {
	case '{':
		r.Object(func(string) { r.Skip() })
	case '[':
		r.Array(r.Skip)
	case '"':
		_ = r.String()
	case 't', 'f':
		r.Bool()
	case 'n':
		r.literal("null")
	default:
		r.number()
	}
}
