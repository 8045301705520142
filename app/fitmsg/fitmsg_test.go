package fitmsg

import "testing"

// TestAllowed: the page renders the panel's elements and attributes it
// knows, and a link only to a path of this site.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want bool
	}{{"table", true}, {"a", true}, {"p", true}, {"script", false}, {"img", false}, {"iframe", false}, {"", false}, {"t d", false}, {"style", false}} {
		if got := Tag(c.tag); got != c.want {
			t.Errorf("Tag(%q) = %v", c.tag, got)
		}
	}
	for _, c := range []struct {
		name, value string
		want        bool
	}{
		{"class", "fit-panel", true}, {"data-metric", "fit.open_p99", true}, {"aria-labelledby", "x", true},
		{"href", "/?stall=1s", true}, {"href", "/omission/?stall=1s", true},
		{"href", "//evil.example/", false}, {"href", "/\\evil.example/", false}, {"href", "javascript:alert(1)", false},
		{"href", "https://evil.example/", false}, {"href", "", false},
		{"onclick", "alert(1)", false}, {"style", "x", false}, {"src", "/x", false}, {"data", "x", false},
	} {
		if got := Attr(c.name, c.value); got != c.want {
			t.Errorf("Attr(%q, %q) = %v", c.name, c.value, got)
		}
	}
}
