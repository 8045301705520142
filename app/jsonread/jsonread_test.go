package jsonread

import (
	"encoding/json"
	"testing"
)

// TestStrings: every string encoding/json writes (its escapes of quotes,
// control characters, <, >, & and the line separators, and text outside
// the BMP) and the escapes JSON allows read back as encoding/json reads
// them.
func TestStrings(t *testing.T) {
	for _, s := range []string{"", "plain", `a "quoted" \ word`, "tab\tnew\nline\r\f\b", "<script>&amp;</script>", "\u2028\u2029", "µs ÷ × ≤ 😀", "\x01\x1f", "bad \xff byte"} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		r := New(b)
		if got := r.String(); got != want || r.End() != nil {
			t.Errorf("%s read as %q (%v), want %q", b, got, r.Err(), want)
		}
	}
	for in, want := range map[string]string{`"\/\u00e9\ud83d\ude00"`: "/é😀", `"\ud83d"`: "\ufffd", `"a\u0041"`: "aA"} {
		r := New([]byte(in))
		if got := r.String(); got != want || r.End() != nil {
			t.Errorf("%s read as %q (%v), want %q", in, got, r.Err(), want)
		}
	}
}

// TestValues: objects, arrays, numbers, booleans and nulls, with white
// space anywhere JSON allows it; Skip drops any value; a value the reader
// does not expect, or text after the value, is an error.
func TestValues(t *testing.T) {
	in := ` { "a" : [ 1 , -2 , 300 ] , "b" : { "c" : true , "d" : null } , "e" : "x" , "f" : [ ] , "g" : { } , "h" : 1.5e-3 , "i" : false , "j" : null } `
	r := New([]byte(in))
	var ints []int64
	var h float64
	var c, i bool
	var e, j string
	r.Object(func(k string) {
		switch k {
		case "a":
			r.Array(func() { ints = append(ints, r.Int()) })
		case "b":
			r.Object(func(k string) {
				if k == "c" {
					c = r.Bool()
				} else {
					r.Skip()
				}
			})
		case "e":
			e = r.String()
		case "h":
			h = r.Float()
		case "i":
			i = r.Bool()
		case "j":
			j = r.String()
		default:
			r.Skip()
		}
	})
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
	if len(ints) != 3 || ints[0] != 1 || ints[1] != -2 || ints[2] != 300 || !c || i || e != "x" || h != 1.5e-3 || j != "" {
		t.Errorf("ints %v, c %v, i %v, e %q, h %v, j %q", ints, c, i, e, h, j)
	}
	r = New([]byte(in))
	r.Skip()
	if err := r.End(); err != nil {
		t.Errorf("skip: %v", err)
	}
	for _, bad := range []string{`{"a" 1}`, `[1,]`, `"open`, `tru`, `{"a":1} x`, `[1 2]`, `3e2x`} {
		r := New([]byte(bad))
		r.Skip()
		if r.End() == nil {
			t.Errorf("%s read without an error", bad)
		}
	}
	r = New([]byte(`3e2`))
	if r.Int(); r.Err() == nil {
		t.Error("3e2 read as an integer")
	}
}
