package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, three levels up.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", dir)
	}
	return dir
}

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
}

// TestPatchesApply applies every edit to the file in the module cache: the
// sums match, each edit matches once, the result is Go, and it imports
// none of the packages the patch leaves out.
func TestPatchesApply(t *testing.T) {
	needGo(t)
	b := &builder{goCmd: "go", root: root(t), log: &bytes.Buffer{}}
	for _, p := range patches {
		m, err := b.listModule(p.Module)
		if err != nil {
			t.Fatal(err)
		}
		if m.Version != p.Version {
			t.Fatalf("%s is at %s, patches.go is for %s", p.Module, m.Version, p.Version)
		}
		for _, f := range p.Files {
			orig, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(f.Name)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit(orig, f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(got, orig) {
				t.Errorf("%s: the edits change nothing", f.Name)
			}
			file, err := parser.ParseFile(token.NewFileSet(), f.Name, got, parser.ImportsOnly|parser.ParseComments)
			if err != nil {
				t.Fatalf("%s after the edits: %v", f.Name, err)
			}
			if !inBrowserBuild(got) {
				continue // the browser build leaves the whole file out
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, lo := range p.MustNotLink {
					if path == lo {
						t.Errorf("%s still imports %s", f.Name, lo)
					}
				}
			}
		}
	}
}

// inBrowserBuild reports whether a Go file's build constraint keeps it in a
// js/wasm build.
func inBrowserBuild(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			if err != nil {
				return true
			}
			return expr.Eval(func(tag string) bool {
				return tag == "js" || tag == "wasm" || tag == "gc" || strings.HasPrefix(tag, "go1.")
			})
		}
	}
	return true
}

// TestEditRefuses checks that a changed file or an ambiguous edit stops the
// build rather than being patched blindly.
func TestEditRefuses(t *testing.T) {
	orig := []byte("package x\n\nvar a = 1\nvar a2 = 1\n")
	f := filePatch{Name: "x.go", SHA256: "0000", Edits: []textEdit{{Old: "= 1", New: "= 2"}}}
	if _, err := edit(orig, f); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("another file: %v", err)
	}
	f.SHA256 = sha(orig)
	if _, err := edit(orig, f); err == nil || !strings.Contains(err.Error(), "matches 2 times") {
		t.Errorf("an edit matching twice: %v", err)
	}
	f.Edits = []textEdit{{Old: "var a2 = 1\n", New: ""}}
	got, err := edit(orig, f)
	if err != nil || string(got) != "package x\n\nvar a = 1\n" {
		t.Errorf("edit = %q, %v", got, err)
	}
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestBrowserBuildLeavesOut prepares the patched copies in a temporary
// cache and lists app.wasm's packages with them: none that the patches
// leave out is linked, and the charts still get gonum's text package.
func TestBrowserBuildLeavesOut(t *testing.T) {
	needGo(t)
	if testing.Short() {
		t.Skip("copies two modules and runs go list")
	}
	var log bytes.Buffer
	b := &builder{goCmd: "go", root: root(t), cache: t.TempDir(), log: &log}
	modfile, err := b.prepare()
	if err != nil {
		t.Fatal(err)
	}
	tags := tagsOf([]string{"-trimpath", "-tags", "minimal", "-o", "web/app.wasm", "./app"})
	if !slices.Equal(tags, []string{"-tags=minimal"}) {
		t.Fatalf("tagsOf: %q", tags)
	}
	if err := b.checkLeftOut(modfile, tags, []string{"./app"}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-modfile="+modfile, "-tags=minimal", "-deps", "./app")
	cmd.Env, cmd.Dir = wasmEnv(), b.root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := "\n" + string(out)
	for _, want := range []string{"\ngonum.org/v1/plot/text\n", "\ncodeberg.org/go-latex/latex/font/ttf\n", "\ngithub.com/maxence-charriere/go-app/v10/pkg/app\n"} {
		if !strings.Contains(deps, want) {
			t.Errorf("app.wasm no longer links %s", strings.TrimSpace(want))
		}
	}
	// Without the patches, the same list has what they leave out: the
	// check above is not vacuous.
	plain := exec.Command("go", "list", "-tags=minimal", "-deps", "./app")
	plain.Env, plain.Dir = wasmEnv(), b.root
	out, err = plain.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range patches {
		for _, lo := range p.MustNotLink {
			if !strings.Contains("\n"+string(out), "\n"+lo+"\n") {
				t.Errorf("the unpatched build does not link %s: the patch for %s may be needless", lo, p.Module)
			}
		}
	}
	if !strings.Contains(log.String(), "without its HTTP server") {
		t.Errorf("log: %q", log.String())
	}
}

// TestTagHasSeparator runs the function the hdrhistogram-go patch adds
// beside regexp.MatchString(".[, \\r\\n].", tag), the test it replaces, on
// every string of up to four bytes drawn from the bytes that matter.
func TestTagHasSeparator(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"regexp\"\n)\n\n" + tagHasSeparatorSource + `
func main() {
	alphabet := []string{"a", ",", " ", "\r", "\n", "é", "\xff"}
	n, bad := 0, 0
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		want, _ := regexp.MatchString(".[, \\r\\n].", s)
		if tagHasSeparator(s) != want {
			bad++
			fmt.Printf("%q: regexp says %v\n", s, want)
		}
		n++
		if depth < 4 {
			for _, c := range alphabet {
				walk(s+c, depth+1)
			}
		}
	}
	walk("", 0)
	fmt.Printf("%d strings\n", n)
	if bad > 0 {
		os.Exit(1)
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "main.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO111MODULE=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "2801 strings") {
		t.Errorf("expected 2801 strings walked:\n%s", out)
	}
}

// TestHdrEncodeUnchanged runs testdata/hdrencode natively with the patched
// copy of hdrhistogram-go and with the original: Encode and the log
// writer's lines are the same bytes, so the browser build's writeBE helpers
// (patches.go) write what binary.Write did.
func TestHdrEncodeUnchanged(t *testing.T) {
	needGo(t)
	if testing.Short() {
		t.Skip("copies the patched modules and runs go twice")
	}
	b := &builder{goCmd: "go", root: root(t), cache: t.TempDir(), log: io.Discard}
	modfile, err := b.prepare()
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", append(append([]string{"run"}, args...), "./app/internal/wasmbuild/testdata/hdrencode")...)
		cmd.Dir = b.root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go run %q: %v\n%s", args, err, stderr.String())
		}
		return string(out)
	}
	patched, plain := run("-modfile="+modfile), run()
	if n := strings.Count(plain, "HISTFAAA"); n != 10 {
		t.Fatalf("expected 10 encodings (5 histograms, each alone and in the log), got %d:\n%s", n, plain)
	}
	if patched != plain {
		t.Errorf("the patched Encode differs:\npatched:\n%s\noriginal:\n%s", patched, plain)
	}
}

// TestChartFontsTrueType: the fonts app.wasm parses (the Liberation subsets
// that take the place of codeberg.org/go-fonts/liberation) all have
// TrueType outlines, which the browser build's sfnt still reads; a CFF
// ("OTTO") font would fail to parse there.
func TestChartFontsTrueType(t *testing.T) {
	fonts, err := filepath.Glob(filepath.Join(root(t), "app", "charts", "fonts", "liberation", "*", "*.ttf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fonts) != 12 {
		t.Fatalf("expected the 12 Liberation subsets, found %d", len(fonts))
	}
	for _, f := range fonts {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 4 || (string(b[:4]) != "\x00\x01\x00\x00" && string(b[:4]) != "true") {
			t.Errorf("%s: not a TrueType font (starts %q)", f, b[:min(4, len(b))])
		}
	}
}

// TestChartsWithPatchedModules runs the charts' tests natively against the
// patched copies (tags minimal, as app.wasm, and noasm, since the copies
// hold no assembly): their text widths and drawings come out the same
// through the patched sfnt, which reads TrueType outlines only.
func TestChartsWithPatchedModules(t *testing.T) {
	needGo(t)
	if testing.Short() {
		t.Skip("copies the patched modules and runs the charts' tests")
	}
	b := &builder{goCmd: "go", root: root(t), cache: t.TempDir(), log: io.Discard}
	modfile, err := b.prepare()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-tags=minimal,noasm", "-modfile="+modfile, "./app/charts")
	cmd.Dir = b.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
