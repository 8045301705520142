package main

import (
	"strings"
	"testing"
)

func TestPkgOf(t *testing.T) {
	for name, want := range map[string]string{
		"gonum.org_v1_plot_vg.__Canvas_.Fill":         "gonum.org/v1/plot/vg",
		"omission_app_page.__resultsTable_.Render":    "omission/app/page",
		"fmt.__pp_.doPrintf":                          "fmt",
		"runtime.mallocgc":                            "runtime",
		"github.com_HdrHistogram_hdrhistogram-go.New": "github.com/HdrHistogram/hdrhistogram-go",
		"encoding_json.Marshal":                       "encoding/json",
		"":                                            "?",
	} {
		if got := pkgOf(name); got != want {
			t.Errorf("pkgOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestMeasure reads a minimal module written here: a code section of two
// bodies and a name section naming them.
func TestMeasure(t *testing.T) {
	mod := []byte("\x00asm\x01\x00\x00\x00")
	// code: 2 bodies of 3 and 5 bytes (each with its 1-byte length).
	code := []byte{2, 2, 0, 0x0b, 4, 0, 1, 1, 0x0b}
	mod = append(mod, 10, byte(len(code)))
	mod = append(mod, code...)
	names := []byte{2, 0, 5}
	names = append(names, "a_b.f"...)
	names = append(names, 1, 5)
	names = append(names, "a_c.g"...)
	sub := append([]byte{1, byte(len(names))}, names...)
	custom := append([]byte{4}, "name"...)
	custom = append(custom, sub...)
	mod = append(mod, 0, byte(len(custom)))
	mod = append(mod, custom...)
	s, err := Measure(mod)
	if err != nil {
		t.Fatal(err)
	}
	if s.ByPackage["a/b"] != 3 || s.ByPackage["a/c"] != 5 {
		t.Errorf("by package %v, want a/b 3 and a/c 5", s.ByPackage)
	}
	if _, err := Measure([]byte("\x00asm\x01\x00\x00\x00")); err == nil {
		t.Error("a module without names was measured")
	}
	// make bench's lines: the top package, the rest in one figure, the data.
	var w strings.Builder
	if err := benchLines(&w, mod, "x_wasm", 1); err != nil {
		t.Fatal(err)
	}
	want := "BENCH site.x_wasm.code.a/c 5 bytes\nBENCH site.x_wasm.code.other_packages 3 bytes\nBENCH site.x_wasm.data 0 bytes\n"
	if w.String() != want {
		t.Errorf("bench lines:\n%s\nwant:\n%s", w.String(), want)
	}
}
