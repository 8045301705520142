//go:build !wasm

package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserWorker: the page runs its simulations in a Web Worker, with
// the numbers of the native run; where no worker can start it runs them on
// its own thread, with the same numbers.
func TestBrowserWorker(t *testing.T) {
	s := startSite(t)
	want := nativeCells(t, "preset=tcp&stall=400ms")
	for _, noWorker := range []bool{false, true} {
		b := newBrowser(t)
		where := "worker"
		if noWorker {
			where = "page"
			b.do(t, "taking Worker away", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `delete window.Worker; window.Worker = undefined;`})
				return err
			}))
		}
		b.open(t, s.URL+"/?preset=tcp&stall=400ms")
		b.waitReady(t, "preset=tcp&stall=400ms")
		if got := eval[string](t, b, `document.getElementById("omission").dataset.compute`); got != where {
			t.Errorf("the page computes in %q, want %q", got, where)
		}
		sameCells(t, where, b.metrics(t), want)
		b.waitFor(t, "the charts", `document.querySelectorAll("section.charts [data-chart] img").length === 4`)
	}
	// An address longer than the program arguments wasm_exec.js holds
	// (a few kilobytes: the worker gets the page's address on its init
	// message): the worker starts and answers.
	b := newBrowser(t)
	b.open(t, s.URL+"/?preset=tcp&stall=400ms&zz="+strings.Repeat("9", 12000))
	b.waitReady(t, "preset=tcp&stall=400ms")
	if got := eval[string](t, b, `document.getElementById("omission").dataset.compute`); got != "worker" {
		t.Errorf("at a long address the page computes in %q, want the worker", got)
	}
	sameCells(t, "a long address", b.metrics(t), want)
}
