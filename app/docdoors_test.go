package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docPackageComment returns the package comment of dir's doc.go as go doc
// shows it.
func docPackageComment(t *testing.T, dir string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "doc.go"), nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatalf("%s/doc.go has no package comment", dir)
	}
	return f.Doc.Text()
}

// docDoors reads the table of app/doc.go's "# Packages" section: a line
// "<package>  <what it owns>; may import: <imports>" per package, the
// imports named without their app/ prefix (sim and sim/… as they are),
// "none" or "every package".
func docDoors(t *testing.T, comment string) map[string][]string {
	t.Helper()
	_, section, ok := strings.Cut(comment, "\n# Packages\n")
	if !ok {
		t.Fatal(`app/doc.go has no "# Packages" section`)
	}
	section, _, _ = strings.Cut(section, "\n# ")
	line := regexp.MustCompile(`^\t(\S+)\s+\S.*; may import: (.+)$`)
	out := map[string][]string{}
	for _, l := range strings.Split(section, "\n") {
		if !strings.HasPrefix(l, "\t") {
			continue
		}
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("app/doc.go: %q is not a line \"<package>  <what it owns>; may import: <imports>\"", l)
			continue
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("app/doc.go lists %s twice", m[1])
		}
		var deps []string
		switch m[2] {
		case "none":
		case "every package":
			deps = []string{"*"}
		default:
			for _, d := range strings.Split(m[2], ", ") {
				if d != "sim" && !strings.HasPrefix(d, "sim/") {
					d = "app/" + d
				}
				deps = append(deps, d)
			}
		}
		out[m[1]] = deps
	}
	return out
}

// docMayImport returns the project packages named in the "may import"
// sentences of a package comment: app/… paths, sim and sim/… paths.
func docMayImport(comment string) []string {
	text := strings.Join(strings.Fields(comment), " ")
	var out []string
	for {
		i := strings.Index(text, "may import")
		if i < 0 {
			break
		}
		text = text[i:]
		end := len(text)
		for _, stop := range []string{". ", ".\n"} {
			if j := strings.Index(text, stop); j >= 0 && j < end {
				end = j
			}
		}
		if strings.HasSuffix(text, ".") && end == len(text) {
			end--
		}
		for _, m := range regexp.MustCompile(`\bapp/[a-z/]+[a-z]|\bsim(/[a-z/]*[a-z])?\b`).FindAllString(text[:end], -1) {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
		text = text[end:]
	}
	return out
}

// docSorted returns a sorted copy.
func docSorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestDocDoors holds the documented doors to doors (doors_test.go): the
// table of app/doc.go lists every package of the map with the same
// imports, and each package's own doc.go names, in its "may import"
// sentences, exactly the project packages the map lets it import.
func TestDocDoors(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	documented := docDoors(t, docPackageComment(t, "."))
	for pkg, want := range doors {
		got, ok := documented[pkg]
		switch {
		case !ok:
			t.Errorf("app/doc.go's package table has no line for %s (doors: %v)", pkg, want)
		case !slices.Equal(docSorted(got), docSorted(want)):
			t.Errorf("app/doc.go says %s may import %v; doors (doors_test.go) says %v", pkg, got, want)
		}
	}
	for pkg := range documented {
		if _, ok := doors[pkg]; !ok {
			t.Errorf("app/doc.go's package table lists %s, which doors (doors_test.go) does not", pkg)
		}
	}
	for pkg, want := range doors {
		if pkg == "app" {
			continue // its table is the one above
		}
		got := docMayImport(docPackageComment(t, filepath.Join(root, pkg)))
		if !slices.Equal(docSorted(got), docSorted(want)) {
			t.Errorf("%s/doc.go's \"may import\" sentences name %v; doors (doors_test.go) says %v", pkg, got, want)
		}
	}
}
