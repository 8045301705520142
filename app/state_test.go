package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoExportedVars parses every non-test Go file of the project (sim and
// app, for every build target) and fails on an exported package-level var:
// a table an importer could change. A package hands out state as a func
// returning a copy, or keeps it unexported.
//
// The one exception is a sentinel error, ErrX = errors.New(…) (or a var
// of type error): Go's convention (io.EOF), compared with errors.Is, and
// what callers of sim and app/compute already match on.
func TestNoExportedVars(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = walkGoFiles(root, func(pkg, path string) error {
		if pkg != "sim" && pkg != "app" && !strings.HasPrefix(pkg, "app/") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if name.IsExported() && !sentinelError(vs, i) {
						t.Errorf("%s: exported package-level var %s: make it a func returning a copy, or unexported", fset.Position(name.Pos()), name.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files read under %s", files, root)
	}
}

// sentinelError reports whether the i-th name of vs is an ErrX declared as
// an error or made by errors.New or fmt.Errorf.
func sentinelError(vs *ast.ValueSpec, i int) bool {
	if !strings.HasPrefix(vs.Names[i].Name, "Err") {
		return false
	}
	if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "error" {
		return true
	}
	if vs.Type != nil || i >= len(vs.Values) {
		return false
	}
	call, ok := vs.Values[i].(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}
