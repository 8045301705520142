//go:build !wasm

package browser

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"omission/app/measure"
)

// TestBrowserDownloads clicks the page's download buttons and holds each
// file the browser saves to the export command's output for the same
// query, byte for byte: the worker writes them from the run it computed.
// Each file is named after its run (its preset and the first digits of the
// result's hash, the same natively): another run's files have other names,
// and the same run's files the same.
func TestBrowserDownloads(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	dir := t.TempDir()
	const q = "duration=5s"
	b.open(t, s.URL+"/?"+q)
	b.do(t, "allowing downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
		})
		return err
	}))
	b.waitReady(t, q)
	run := measure.RunName("", mustRun(t, q).Hash)
	for _, c := range []struct {
		button, file string
		args         []string
	}{
		{"hgrm/open", "omission-" + run + "-open.hgrm", []string{"-format", "hgrm", "-recording", "open"}},
		{"hgrm/corrected", "omission-" + run + "-corrected.hgrm", []string{"-format", "hgrm", "-recording", "corrected"}},
		{"hlog/", "omission-" + run + ".hlog", []string{"-format", "hlog"}},
		{"csv/", "omission-" + run + ".csv", []string{"-format", "csv"}},
	} {
		var want, stderr bytes.Buffer
		if err := runCLI(&want, &stderr, append(append([]string{"export"}, c.args...), q)); err != nil {
			t.Fatalf("export %v: %v %s", c.args, err, stderr.String())
		}
		b.exec(t, `document.querySelector('[data-export="`+c.button+`"]').click()`)
		got := waitFile(t, filepath.Join(dir, c.file))
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the page saved %d bytes, the export command writes %d, and they differ", c.file, len(got), want.Len())
		}
		b.waitFor(t, "the download's status", `document.querySelector("#downloads .status").textContent.startsWith("Saved `+c.file+` (")`)
	}
	// Another run: another name. The first again: its first name.
	saved := func(q string) string {
		b.open(t, s.URL+"/?"+q)
		b.waitReady(t, q)
		b.exec(t, `document.querySelector('[data-export="hgrm/open"]').click()`)
		b.waitFor(t, "the download's status", `document.querySelector("#downloads .status").textContent.startsWith("Saved ")`)
		status := eval[string](t, b, `document.querySelector("#downloads .status").textContent`)
		name, _, _ := strings.Cut(strings.TrimPrefix(status, "Saved "), " (")
		return name
	}
	const other = "stall=300ms&duration=5s" // canonical, as waitReady wants it
	if name, want := saved(other), "omission-"+measure.RunName("", mustRun(t, other).Hash)+"-open.hgrm"; name != want || name == "omission-"+run+"-open.hgrm" {
		t.Errorf("%s saved as %q, want %q (the first run's was omission-%s-open.hgrm)", other, name, want, run)
	}
	if name := saved(q); name != "omission-"+run+"-open.hgrm" {
		t.Errorf("%s saved again as %q, the first time omission-%s-open.hgrm", q, name, run)
	}
	if errs := con.errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// waitFile waits for the browser to finish saving a file and reads it.
func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path + ".crdownload"); err != nil {
			if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
				return b
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s was not saved", path)
	return nil
}
