//go:build !wasm

package site

import "testing"

// TestSortAttrs: a body's start tags get their attributes in name order,
// values as strconv.Quote writes them (an escaped quote, a raw '>')
// kept whole; a doctype, a script's body, end tags, comments and values
// in single quotes are copied as they are.
func TestSortAttrs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<!DOCTYPE html><head><meta name="b" content="a"></head><body id="x" class="y"><p data-z="1" data-a="2">t</p></body>`,
			`<!DOCTYPE html><head><meta content="a" name="b"></head><body class="y" id="x"><p data-a="2" data-z="1">t</p></body>`},
		{`<body><div title="a \"q\" > b" aria-hidden class="c"></div></body>`,
			`<body><div aria-hidden class="c" title="a \"q\" > b"></div></body>`},
		{`<body><script type="m" async>if (a<b) { x = "<p z=1 a=2>" }</script><img src="s" alt="a"/></body>`,
			`<body><script async type="m">if (a<b) { x = "<p z=1 a=2>" }</script><img alt="a" src="s"/></body>`},
		{`<body><!-- <b z="1" a="2"> --><i z='1' a='2'>x</i></body>`,
			`<body><!-- <b z="1" a="2"> --><i z='1' a='2'>x</i></body>`},
		{`<body><p data-json="{\"b\":1,\"a\":\"\\\\\"}" b="1">`, `<body><p b="1" data-json="{\"b\":1,\"a\":\"\\\\\"}">`},
	} {
		if got := string(sortAttrs([]byte(c.in))); got != c.want {
			t.Errorf("sortAttrs(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
