package tools_test

import (
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"testing"

	"omission/app/tools"
)

// TestDocTools holds the package comment's list of tools (doc.go, "# The
// tools": an item "- name: …" per tool) to Names: the same tools, in the
// same order.
func TestDocTools(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package comment")
	}
	_, section, ok := strings.Cut(f.Doc.Text(), "\n# The tools\n")
	if !ok {
		t.Fatal(`doc.go's package comment has no "# The tools" section`)
	}
	section, _, _ = strings.Cut(section, "\n# ")
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^\s*- ([a-z0-9-]+):`).FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	if want := tools.Names(); !slices.Equal(documented, want) {
		t.Errorf("doc.go's \"# The tools\" lists\n  %v\nNames (the registry) has\n  %v", documented, want)
	}
}
