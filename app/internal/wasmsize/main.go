package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("top", 40, "how many packages to print")
	pkg := flag.String("pkg", "", "print this package's largest functions instead")
	bench := flag.String("bench", "", "print make bench's lines for this binary's name (BENCH site.NAME.code.PKG …) instead")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] FILE.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		if *bench != "" {
			err = benchLines(os.Stdout, b, *bench, *top)
		} else {
			err = report(os.Stdout, b, *top, *pkg)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// Sizes is a binary's code bytes by package, and its total size.
type Sizes struct {
	Total, Code, Data int
	ByPackage         map[string]int
	ByFunc            map[string]int
}

func report(w io.Writer, b []byte, top int, pkg string) error {
	s, err := Measure(b)
	if err != nil {
		return err
	}
	type row struct {
		pkg string
		n   int
	}
	var rows []row
	if pkg == "" {
		for p, n := range s.ByPackage {
			rows = append(rows, row{p, n})
		}
	} else {
		for f, n := range s.ByFunc {
			if pkgOf(f) == pkg {
				rows = append(rows, row{f, n})
			}
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].n != rows[j].n {
			return rows[i].n > rows[j].n
		}
		return rows[i].pkg < rows[j].pkg
	})
	fmt.Fprintf(w, "%d bytes: code %d, data %d\n", s.Total, s.Code, s.Data)
	for i, r := range rows {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%9d %5.1f%%  %s\n", r.n, 100*float64(r.n)/float64(s.Code), r.pkg)
	}
	return nil
}

// benchLines prints a binary's code by package as make bench's lines: its
// top packages, the rest as one figure, and the data section.
func benchLines(w io.Writer, b []byte, name string, top int) error {
	s, err := Measure(b)
	if err != nil {
		return err
	}
	pkgs := make([]string, 0, len(s.ByPackage))
	for p := range s.ByPackage {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if a, b := s.ByPackage[pkgs[i]], s.ByPackage[pkgs[j]]; a != b {
			return a > b
		}
		return pkgs[i] < pkgs[j]
	})
	rest := 0
	for i, p := range pkgs {
		if i >= top {
			rest += s.ByPackage[p]
			continue
		}
		fmt.Fprintf(w, "BENCH site.%s.code.%s %d bytes\n", name, strings.ReplaceAll(p, " ", "_"), s.ByPackage[p])
	}
	fmt.Fprintf(w, "BENCH site.%s.code.other_packages %d bytes\n", name, rest)
	fmt.Fprintf(w, "BENCH site.%s.data %d bytes\n", name, s.Data)
	return nil
}

// Measure reads a wasm module's sections.
func Measure(b []byte) (Sizes, error) {
	s := Sizes{Total: len(b), ByPackage: map[string]int{}, ByFunc: map[string]int{}}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return s, errors.New("not a wasm module")
	}
	var bodies []int
	names := map[int]string{}
	imported := 0
	for p := 8; p < len(b); {
		id := b[p]
		n, k := uleb(b[p+1:])
		start := p + 1 + k
		end := start + int(n)
		if end > len(b) {
			return s, errors.New("a section runs past the end")
		}
		sec := b[start:end]
		switch id {
		case 2: // imports: functions imported count before defined ones
			cnt, q := uleb(sec)
			for i := 0; i < int(cnt); i++ {
				for j := 0; j < 2; j++ { // module, field
					l, m := uleb(sec[q:])
					q += m + int(l)
				}
				kind := sec[q]
				q++
				switch kind {
				case 0:
					_, m := uleb(sec[q:])
					q += m
					imported++
				case 1:
					q++
					q += limits(sec[q:])
				case 2:
					q += limits(sec[q:])
				case 3:
					q += 2
				}
			}
		case 10:
			s.Code = len(sec)
			cnt, q := uleb(sec)
			for i := 0; i < int(cnt); i++ {
				l, m := uleb(sec[q:])
				bodies = append(bodies, int(l)+m)
				q += m + int(l)
			}
		case 11:
			s.Data = len(sec)
		case 0:
			nl, q := uleb(sec)
			if string(sec[q:q+int(nl)]) != "name" {
				break
			}
			for q += int(nl); q < len(sec); {
				sub := sec[q]
				sl, m := uleb(sec[q+1:])
				body := sec[q+1+m : q+1+m+int(sl)]
				q += 1 + m + int(sl)
				if sub != 1 {
					continue
				}
				cnt, r := uleb(body)
				for i := 0; i < int(cnt); i++ {
					idx, m := uleb(body[r:])
					r += m
					l, m2 := uleb(body[r:])
					r += m2
					names[int(idx)] = string(body[r : r+int(l)])
					r += int(l)
				}
			}
		}
		p = end
	}
	if len(names) == 0 {
		return s, errors.New("no name section: build without -ldflags=-s")
	}
	for i, n := range bodies {
		s.ByPackage[pkgOf(names[imported+i])] += n
		s.ByFunc[names[imported+i]] += n
	}
	return s, nil
}

func limits(b []byte) int {
	flag := b[0]
	_, m := uleb(b[1:])
	q := 1 + m
	if flag&1 != 0 {
		_, m = uleb(b[q:])
		q += m
	}
	return q
}

func uleb(b []byte) (uint64, int) {
	var v uint64
	for i, c := range b {
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return v, len(b)
}

// pkgOf is the package a Go symbol's name starts with. Go's wasm name
// section writes a package path's slashes as underscores:
// "gonum.org_v1_plot_vg.(*Canvas).Fill" is gonum.org/v1/plot/vg.
func pkgOf(name string) string {
	if name == "" {
		return "?"
	}
	from := 0
	if u := strings.IndexByte(name, '_'); u > 0 {
		if d := strings.IndexByte(name[:u], '.'); d > 0 && d+1 < u && name[d+1] >= 'a' && name[d+1] <= 'z' {
			from = u // a domain's dots (gonum.org) are not the package's end
		}
	}
	if i := strings.IndexByte(name[from:], '.'); i >= 0 {
		name = name[:from+i]
	}
	return strings.ReplaceAll(name, "_", "/")
}
