package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmbuild:", err)
		os.Exit(1)
	}
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("wasmbuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	goCmd := fs.String("go", "go", "the go command")
	cache := fs.String("cache", "", "where the patched module copies go (default: the user cache directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("no go build arguments: wasmbuild -- -o web/app.wasm ./app")
	}
	if *cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory (%v): pass -cache", err)
		}
		*cache = dir
	}
	b := &builder{goCmd: *goCmd, root: ".", cache: filepath.Join(*cache, "omission-wasmbuild"), log: stdout}
	modfile, err := b.prepare()
	if err != nil {
		return err
	}
	cmd := exec.Command(b.goCmd, append([]string{"build", "-modfile=" + modfile}, fs.Args()...)...)
	cmd.Env = wasmEnv()
	cmd.Dir = b.root
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v", err)
	}
	return b.checkLeftOut(modfile, tagsOf(fs.Args()), packagesOf(fs.Args()))
}

// wasmEnv is the environment of a js/wasm build.
func wasmEnv() []string { return append(os.Environ(), "GOOS=js", "GOARCH=wasm") }

// tagsOf returns go build's -tags flag among its arguments, as one
// argument, so that go list sees the packages the build links (gonum/plot
// links its raster canvases unless built with the minimal tag).
func tagsOf(args []string) []string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "-tags="); ok {
			return []string{"-tags=" + v}
		}
		if a == "-tags" && i+1 < len(args) {
			return []string{"-tags=" + args[i+1]}
		}
	}
	return nil
}

// packagesOf returns the package patterns among go build's arguments (the
// arguments after the flags; a flag's value is never a pattern here because
// flags are written -flag=value or take no value, as in the Makefile).
func packagesOf(args []string) []string {
	var pkgs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && flagTakesValue(a) && i+1 < len(args) {
				i++
			}
			continue
		}
		pkgs = append(pkgs, a)
	}
	return pkgs
}

// flagTakesValue reports whether a go build flag written without "=" takes
// the next argument as its value.
func flagTakesValue(flag string) bool {
	switch strings.TrimLeft(flag, "-") {
	case "o", "tags", "ldflags", "gcflags", "asmflags", "mod", "modfile", "overlay", "pgo", "p", "pkgdir", "toolexec", "buildmode", "compiler", "gccgoflags", "installsuffix", "covermode", "coverpkg", "C":
		return true
	}
	return false
}

// builder prepares the patched copies and the go.mod that uses them.
type builder struct {
	goCmd string
	root  string // the main module's directory
	cache string
	log   io.Writer
}

// module is what go list -m says of a dependency.
type module struct {
	Path, Version, Dir string
	Replace            *module
}

// prepare writes (once) the patched copy of every module in patches and a
// go.mod replacing each by its copy, and returns that go.mod's path.
func (b *builder) prepare() (string, error) {
	mainMod, err := os.ReadFile(filepath.Join(b.root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("run it from the repository root: %v", err)
	}
	mainSum, err := os.ReadFile(filepath.Join(b.root, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	var replaces strings.Builder
	for _, p := range patches {
		m, err := b.listModule(p.Module)
		if err != nil {
			return "", err
		}
		if m.Replace != nil {
			return "", fmt.Errorf("%s is already replaced (by %s): the patch in patches.go is for the published module", p.Module, m.Replace.Path)
		}
		if m.Version != p.Version {
			return "", fmt.Errorf("%s is at %s, but patches.go patches %s: check the patch against the new version and update it", p.Module, m.Version, p.Version)
		}
		dir, err := b.copyPatched(m, p)
		if err != nil {
			return "", fmt.Errorf("%s@%s: %w", p.Module, p.Version, err)
		}
		fmt.Fprintf(&replaces, "\nreplace %s %s => %s\n", p.Module, p.Version, dir)
		fmt.Fprintf(b.log, "wasmbuild: %s %s without %s\n", p.Module, p.Version, p.LeftOut)
	}
	mod := append(append([]byte{}, mainMod...), replaces.String()...)
	sum := sha256.Sum256(mod)
	dir := filepath.Join(b.cache, "modfile-"+hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	modfile := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), mainSum, 0o644); err != nil {
		return "", err
	}
	return modfile, nil
}

func (b *builder) listModule(path string) (*module, error) {
	cmd := exec.Command(b.goCmd, "list", "-m", "-json", path)
	cmd.Dir = b.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	var m module
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("go list -m %s: %v", path, err)
	}
	if m.Dir == "" && m.Replace == nil {
		// Not downloaded yet: go mod download fetches it.
		dl := exec.Command(b.goCmd, "mod", "download", "-json", path+"@"+m.Version)
		dl.Dir = b.root
		dl.Stderr = &stderr
		out, err := dl.Output()
		if err != nil {
			return nil, fmt.Errorf("go mod download %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
		}
		if err := json.Unmarshal(out, &m); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// copyPatched returns the directory of m's patched copy, writing it first
// if it is not there yet.
func (b *builder) copyPatched(m *module, p modulePatch) (string, error) {
	key := sha256.New()
	fmt.Fprintf(key, "%s@%s\n", p.Module, p.Version)
	for _, f := range p.Files {
		fmt.Fprintf(key, "%s %s\n", f.Name, f.SHA256)
		for _, e := range f.Edits {
			fmt.Fprintf(key, "%q %q\n", e.Old, e.New)
		}
	}
	name := strings.NewReplacer("/", "_", "~", "_").Replace(p.Module) + "@" + p.Version + "-" + hex.EncodeToString(key.Sum(nil)[:6])
	dst := filepath.Join(b.cache, name)
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err == nil {
		return dst, nil
	}
	if err := os.MkdirAll(b.cache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(b.cache, name+".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := copyModule(m.Dir, tmp); err != nil {
		return "", err
	}
	for _, f := range p.Files {
		if err := applyFile(m.Dir, tmp, f); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, statErr := os.Stat(filepath.Join(dst, "go.mod")); statErr == nil {
			return dst, nil // another build wrote it meanwhile
		}
		return "", err
	}
	return dst, nil
}

// copyModule copies a module's go.mod, go.sum, licence files and every Go
// source file that is not a test, leaving out nested modules and testdata.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel != "." {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		name := d.Name()
		keep := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
		if rel == name {
			keep = keep || name == "go.mod" || name == "go.sum" || strings.HasPrefix(name, "LICENSE")
		}
		if !keep {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// applyFile checks the original of f and writes its edited copy.
func applyFile(srcDir, dstDir string, f filePatch) error {
	orig, err := os.ReadFile(filepath.Join(srcDir, filepath.FromSlash(f.Name)))
	if err != nil {
		return err
	}
	got, err := edit(orig, f)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dstDir, filepath.FromSlash(f.Name)), got, 0o644)
}

// edit applies f's edits to orig, which must be the file f was written for.
func edit(orig []byte, f filePatch) ([]byte, error) {
	sum := sha256.Sum256(orig)
	if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
		return nil, fmt.Errorf("%s has SHA-256 %s, not %s: it is not the file patches.go edits", f.Name, got, f.SHA256)
	}
	s := string(orig)
	for i, e := range f.Edits {
		if n := strings.Count(s, e.Old); n != 1 {
			return nil, fmt.Errorf("%s: edit %d matches %d times, want once: %.60q", f.Name, i, n, e.Old)
		}
		s = strings.Replace(s, e.Old, e.New, 1)
	}
	return []byte(s), nil
}

// checkLeftOut fails when a package the patches leave out, or a native-only
// one, is linked into pkgs, naming who imports it.
func (b *builder) checkLeftOut(modfile string, tags, pkgs []string) error {
	if len(pkgs) == 0 {
		return nil
	}
	args := append([]string{"list", "-modfile=" + modfile, "-deps", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}"}, tags...)
	args = append(args, pkgs...)
	cmd := exec.Command(b.goCmd, args...)
	cmd.Env = wasmEnv()
	cmd.Dir = b.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -deps: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	importers := make(map[string][]string)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			importers[imp] = append(importers[imp], pkg)
		}
		importers[pkg] = append(importers[pkg], "")
	}
	var bad []string
	mustNot := append([]string{}, nativeOnly...)
	for _, p := range patches {
		mustNot = append(mustNot, p.MustNotLink...)
	}
	for _, lo := range mustNot {
		by, ok := importers[lo]
		if !ok {
			continue
		}
		var names []string
		for _, n := range by {
			if n != "" {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		bad = append(bad, fmt.Sprintf("%s (imported by %s)", lo, strings.Join(names, ", ")))
	}
	if len(bad) > 0 {
		return fmt.Errorf("app.wasm links what the patches leave out: %s", strings.Join(bad, "; "))
	}
	return nil
}
