//go:build !wasm

package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"omission/app/fit"
)

// TestBrowserFileCheck (issue 39, "files that are cut are named as
// such"): the page shows a file's numbers as soon as its own reading
// (app.wasm, without the checks that a file is whole) has them, and asks
// fit.wasm at once whether the file is whole. A real wrk printout cut
// inside its percentile table is then named incomplete beside the file,
// with what it lacks as fit.Lacks says it natively, and its column in the
// results table and the charts' captions say INCOMPLETE; the whole
// printout is checked and its column says nothing more. No fit is asked for either.
func TestBrowserFileCheck(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(root, "app", "measure", "testdata", "real", "wrk-c2-d5s.txt")
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	// The first 8 lines: the header, the thread stats and three of the
	// four percentile rows.
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := filepath.Join(t.TempDir(), "wrk-cut.txt")
	if err := os.WriteFile(cut, bytes.Join(lines[:8], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	cutData, _ := os.ReadFile(cut)
	lacks, err := fit.Lacks("wrk-cut.txt", cutData)
	if err != nil || len(lacks) == 0 {
		t.Fatalf("fit.Lacks does not find the cut printout incomplete: %q, %v", lacks, err)
	}
	if l, err := fit.Lacks("wrk-c2-d5s.txt", data); err != nil || len(l) > 0 {
		t.Fatalf("fit.Lacks finds the whole printout incomplete: %q, %v", l, err)
	}

	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	type item struct{ Check, Text, Column string }
	itemOf := func(file string) item {
		return eval[item](t, b, `(() => { const li = document.querySelector('#measured li[data-file="`+file+`"]'), p = li.querySelector('.file-check');
			const th = [...document.querySelectorAll('th[data-extra^="measured"]')].find((th) => th.textContent.includes("`+file+`"));
			return {Check: p ? p.dataset.check : "", Text: p && !p.hidden ? p.textContent : "", Column: th ? th.textContent : ""}; })()`)
	}

	b.do(t, "choosing the cut file", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{cut}))
	li := `document.querySelector('#measured li[data-file="wrk-cut.txt"]')`
	b.waitFor(t, "the cut file checked", `!!`+li+` && ["incomplete", "whole", "unknown"].includes((`+li+`.querySelector('.file-check') || {dataset: {}}).dataset.check)`)
	got := itemOf("wrk-cut.txt")
	if got.Check != "incomplete" {
		t.Fatalf("the cut printout's check says %q (%q), want incomplete", got.Check, got.Text)
	}
	for _, l := range lacks {
		if !strings.Contains(got.Text, l) {
			t.Errorf("the page's word on the cut file %q does not say what fit.Lacks says it lacks: %q", got.Text, l)
		}
	}
	if !strings.Contains(got.Column, "INCOMPLETE") {
		t.Errorf("the cut file's column in the results table is %q: it does not say the file is incomplete", got.Column)
	}
	// The charts draw its distribution beside the run's: their captions
	// name it incomplete too (the page asks the worker to draw them again
	// when the check comes).
	b.waitFor(t, "the charts naming the cut file incomplete", `[...document.querySelectorAll('figcaption')].some((c) => c.textContent.includes("wrk-cut.txt (INCOMPLETE"))`)
	if eval[bool](t, b, `!!document.querySelector('#measured [data-fit]')`) {
		t.Error("a fit was asked though the reader asked none")
	}
	b.exec(t, `document.querySelector('#measured ul.files').scrollIntoView({block: "center"})`)
	b.screenshot(t, "filecheck-cut.png", false)

	b.do(t, "choosing the whole file", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{whole}))
	wli := `document.querySelector('#measured li[data-file="wrk-c2-d5s.txt"]')`
	b.waitFor(t, "the whole file checked", `!!`+wli+` && ["incomplete", "whole", "unknown"].includes((`+wli+`.querySelector('.file-check') || {dataset: {}}).dataset.check)`)
	got = itemOf("wrk-c2-d5s.txt")
	if got.Check != "whole" || got.Text != "" {
		t.Errorf("the whole printout's check says %q (%q), want whole, and nothing shown", got.Check, got.Text)
	}
	if got.Column == "" || strings.Contains(got.Column, "INCOMPLETE") || strings.Contains(got.Column, "checking") {
		t.Errorf("the whole file's column in the results table is %q", got.Column)
	}
	if c := itemOf("wrk-cut.txt"); c.Check != "incomplete" {
		t.Errorf("after a second file, the cut one's check says %q", c.Check)
	}
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowserFitJTL: a real JMeter JTL, which the page's build does not
// draw (its reader is fit.wasm's alone), is listed with why and still
// offered its fit, which is report -fit's.
func TestBrowserFitJTL(t *testing.T) {
	longOnly(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	li := fitInPage(t, b, root, filepath.Join("measure", "testdata", "real"), "jmeter-2.13-t2-d5s-header.jtl")
	if txt := eval[string](t, b, li+`.textContent`); !strings.Contains(txt, "does not draw a JMeter JTL") {
		t.Errorf("the JTL's list item does not say the page does not draw it: %.300s", txt)
	}
}
