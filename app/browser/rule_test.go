//go:build !wasm

package browser

// Tests of the one rule across the site's pages (issue 26, item 9) in
// headless Chromium: the article and the embeds drop unknown and repeated
// keys from their URL at once with the visualiser's notice, an embed quotes
// a figure it does not know, and the visualiser's number boxes step with the
// arrow keys.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// notices reads the texts of a page's notices (ul.notices).
func (b *browser) notices(t testing.TB, root string) []string {
	t.Helper()
	return eval[[]string](t, b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.textContent)`, root+" ul.notices li"))
}

// TestBrowserRuleArticle: the article opened with an unknown key, a key of
// a field its section does not adjust and a value given twice keeps only
// what it takes in the URL (replaced, no new history entry) and says what
// it dropped, in the visualiser's words; the value it took is in effect.
func TestBrowserRuleArticle(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/article/")
	b.waitFor(t, "the article ready", readerPages[1].ready)
	entries := eval[int](t, b, `history.length`)
	b.open(t, s.URL+"/article/?paced.stall=1s&bogus=1&closed.rate=9&closed.stall=300ms&closed.stall=400ms")
	b.waitFor(t, "the article ready", readerPages[1].ready)
	b.waitFor(t, "the URL cleaned", `location.search === "?paced.stall=1s"`)
	if n := eval[int](t, b, `history.length`); n != entries+1 {
		t.Errorf("cleaning the URL added a history entry: %d after the page's own, %d before it", n, entries)
	}
	got := strings.Join(b.notices(t, "main.article"), "\n")
	for _, want := range []string{
		`Ignored "bogus": not a parameter of this page; it was removed from the address.`,
		`Ignored "closed.rate": not a parameter of this page; it was removed from the address.`,
		`closed.stall was given more than once ("300ms,400ms"), so neither value was taken and the key was removed from the address. The section keeps the article's value, 200 ms.`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the article's notices:\n%s\nwant one reading %q", got, want)
		}
	}
	if ns := eval[string](t, b, `document.querySelector('main.article [data-key="closed.stall"]').dataset.ns`); ns != "200000000" {
		t.Errorf("the closed section's stall is %s ns, not the article's 200 ms", ns)
	}
	if ns := eval[string](t, b, `document.querySelector('main.article [data-key="paced.stall"]').dataset.ns`); ns != "1000000000" {
		t.Errorf("the paced section's stall is %s ns, not the 1 s asked for", ns)
	}
}

// TestBrowserRuleEmbed: an embed names a figure it does not know with the
// value quoted and the figures allowed; one with an unknown key and an
// invalid field draws its figure at the preset's value, says why, and keeps
// the text as typed in its URL without the unknown key.
func TestBrowserRuleEmbed(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/embed/?figure=bogus")
	b.waitFor(t, "the embed's message", `document.querySelector("main.embed[data-live=true] p.error") !== null`)
	const want = `figure: "bogus" is not allowed: allowed spectrum, distribution, latency-time, queue-depth, landscape or animation`
	if got := eval[string](t, b, `document.querySelector("main.embed p.error").textContent`); got != want {
		t.Errorf("figure=bogus says %q, want %q", got, want)
	}

	b.open(t, s.URL+"/embed/?figure=spectrum&zz=1&rate=lots")
	b.waitFor(t, "the spectrum drawn", readerPages[2].ready)
	b.waitFor(t, "the URL cleaned", `location.search === "?rate=lots&figure=spectrum"`)
	got := b.notices(t, "main.embed")
	if len(got) != 2 || !strings.HasPrefix(got[0], `rate: "lots" is not allowed: `) || !strings.Contains(got[0], "the preset's value, 5000") ||
		got[1] != `Ignored "zz": not a parameter of this page; it was removed from the address.` {
		t.Errorf("the embed's notes: %q", got)
	}
	if q := eval[string](t, b, `document.querySelector("main.embed [data-chart]").dataset.query || ""`); q != "" {
		t.Errorf("the spectrum runs %q, not the preset's", q)
	}
	if href := eval[string](t, b, `document.querySelector("main.embed .embed-credit a").getAttribute("href")`); !strings.HasSuffix(href, "/?rate=lots") {
		t.Errorf("the visualiser's link %q does not carry the rate as typed", href)
	}
}

// TestBrowserRuleRateArrows: ArrowUp in the Rate box steps the rate along
// the article's ladder (5000 → 6250), runs it and writes it in the URL,
// replacing the history entry; Page Down goes three rungs down; the hint
// says the arrows step it.
func TestBrowserRuleRateArrows(t *testing.T) {
	longOnly(t)
	s := startSite(t)
	b := newBrowser(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	if hint := eval[string](t, b, `document.getElementById("hint-rate").textContent`); !strings.Contains(hint, "↑ ↓ step it") {
		t.Errorf("the rate's hint %q does not say the arrows step it", hint)
	}
	entries := eval[int](t, b, `history.length`)
	b.showField(t, "rate")
	b.exec(t, `document.getElementById("in-rate").focus()`)
	b.do(t, "ArrowUp", chromedp.KeyEvent(kb.ArrowUp))
	b.waitFor(t, "the rate one rung up", `document.getElementById("in-rate").value === "6250"`)
	b.waitReady(t, "rate=6250") // the result shown is the new rate's run
	b.waitFor(t, "the URL with the new rate", `location.search === "?rate=6250&show=params"`)
	b.do(t, "PageDown", chromedp.KeyEvent(kb.PageDown))
	b.waitReady(t, "rate=3200")
	b.waitFor(t, "the URL with the rate three rungs down", `location.search === "?rate=3200&show=params" && document.getElementById("in-rate").value === "3200"`)
	if n := eval[int](t, b, `history.length`); n != entries {
		t.Errorf("stepping added history entries: %d, then %d", entries, n)
	}
	if focused := eval[string](t, b, `document.activeElement.id`); focused != "in-rate" {
		t.Errorf("the focus moved to %q", focused)
	}
}
