package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// doors lists, for each package of the project, the project packages it may
// import (app/doc.go draws the same map, and each package's doc.go says its
// own line). A package not listed fails the test, so a new one is given its
// line here and in app/doc.go.
var doors = map[string][]string{
	"sim":                     {"sim/internal/hook", "sim/internal/stall"},
	"sim/internal/hook":       nil,
	"sim/internal/simtest":    {"sim", "sim/internal/hook"},
	"sim/internal/stall":      nil,
	"sim/sweep":               {"sim", "sim/internal/hook"},
	"sim/profile":             {"sim", "sim/internal/hook"},
	"sim/window":              {"sim", "sim/internal/hook", "sim/internal/stall"},
	"app/units":               nil,
	"app/charts":              {"app/jsonread", "app/units", "sim", "sim/sweep"},
	"app/ui":                  {"app/address", "app/charts", "app/units", "app/yield", "sim"},
	"app/view":                {"app/jsonread", "app/units", "sim"},
	"app/compute":             {"app/units", "app/view", "sim", "sim/sweep"},
	"app/measure":             {"sim"},
	"app/tools":               {"app/measure", "app/units", "sim", "sim/profile"},
	"app/experiment":          {"app/measure", "app/tools", "app/units", "sim"},
	"app/fit":                 {"app/fitmsg", "app/measure", "app/tools", "app/units", "sim"},
	"app/fitmsg":              nil,
	"app/address":             {"sim"},
	"app/yield":               nil,
	"app/jsonread":            nil,
	"app/internal/jsonfill":   nil,
	"app/internal/k6gauge":    nil,
	"app/wire":                nil,
	"app/anim":                {"app/address", "app/charts", "app/ui", "app/units", "app/view", "sim", "sim/window"},
	"app/article":             {"app/address", "app/anim", "app/charts", "app/compute", "app/jsonread", "app/ui", "app/units", "app/view", "sim", "sim/sweep", "sim/window"},
	"app/worker":              {"app/address", "app/charts", "app/compute", "app/jsonread", "app/measure", "app/tools", "app/view", "app/wire", "app/yield", "sim", "sim/sweep"},
	"app/page":                {"app/address", "app/anim", "app/charts", "app/compute", "app/fitmsg", "app/jsonread", "app/measure", "app/tools", "app/ui", "app/units", "app/view", "app/worker", "app/yield", "sim", "sim/sweep"},
	"app/internal/wasmbuild":  nil,
	"app/internal/stackfloor": nil,
	"app/internal/wasmsize":   nil,
	"app/internal/rawget":     nil,
	"app/internal/matchtest":  nil,
	"app/internal/rivalratio": nil,
	"app/internal/fitwasm":    {"app/fit", "app/fitmsg", "app/measure", "app/wire", "sim"},
	"app/site":                nil,
	"app/cli":                 {"app/address", "app/experiment", "app/fit", "app/measure", "app/site", "app/tools", "app/ui", "app/units", "app/view", "sim", "sim/sweep"},
	"app/routes":              {"app/article", "app/compute", "app/page"},
	"app/browser":             nil,
	"app":                     {"app/cli", "app/compute", "app/routes", "app/worker"},
}

// TestPackageDoors reads the imports of every non-test Go file of every
// package (for every build target: files are parsed, not built) and holds
// them to doors; and each package has a doc.go with its package comment.
func TestPackageDoors(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = walkGoFiles(root, func(pkg, path string) error {
		name := filepath.Base(path)
		allowed, ok := doors[pkg]
		if !ok {
			t.Errorf("%s: package %s has no line in doors (doors_test.go) nor in app/doc.go's map", pkg, pkg)
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			dep, ok := strings.CutPrefix(p, "omission/")
			if p == "omission" || ok && !slices.Contains(allowed, dep) && !slices.Contains(allowed, "*") {
				t.Errorf("%s/%s imports %s: %s may import only %v (doors_test.go, app/doc.go)", pkg, name, p, pkg, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range doors {
		if !seen[pkg] {
			t.Errorf("doors lists %s, which has no Go files", pkg)
			continue
		}
		doc, err := os.ReadFile(filepath.Join(root, pkg, "doc.go"))
		if err != nil {
			t.Errorf("%s has no doc.go saying what it owns and what it may import", pkg)
			continue
		}
		if !strings.Contains(string(doc), "// Package ") && !strings.Contains(string(doc), "// Command ") || !strings.Contains(string(doc), "may import") {
			t.Errorf("%s/doc.go: expected a package comment that says what the package may import", pkg)
		}
	}
}

// walkGoFiles calls f with the package (its path from root, "sim",
// "app/charts") and the path of every non-test Go file of the project under
// root, for every build target; modules of their own (the font subsets),
// testdata and the web assets are left out.
func walkGoFiles(root string, f func(pkg, path string) error) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "static" || name == "web" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (the font subsets)
			}
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		return f(filepath.ToSlash(rel), path)
	})
}
