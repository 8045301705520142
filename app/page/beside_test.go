//go:build !wasm

package page

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
	"omission/app/measure"
	"omission/app/tools"
	"omission/app/worker"
	"omission/sim"
)

// TestToolCardTexts: every tool's card says what it does in its sentences
// for people, with its rule in formulas behind "The rule"; locust's p99 at
// the bench preset, which its rounding makes 0, is shown as locust prints
// it, with why.
func TestToolCardTexts(t *testing.T) {
	for _, name := range tools.Names() {
		o, err := tools.Run(sim.Default(), name)
		if err != nil {
			t.Fatal(err)
		}
		h := flat(app.HTMLString(toolCard(o, nil)))
		for _, want := range []string{
			`<p class="mechanics">` + html.EscapeString(o.Plain) + "<a",
			`<details class="tool-rule"><summary>The rule</summary><p class="rule">` + html.EscapeString(o.Mechanics) + `</p></details>`,
		} {
			if !strings.Contains(h, want) {
				t.Errorf("%s: the card lacks %s:\n%s", name, want, h)
			}
		}
		zero := strings.Contains(h, `class="zero-why"`)
		if zero != (o.P99Ns == 0) {
			t.Errorf("%s: p99 %d, a word on why it is 0: %v", name, o.P99Ns, zero)
		}
		if o.P99Ns != 0 && !strings.Contains(h, `data-ns="`+strconv.FormatInt(o.P99Ns, 10)+`"`) {
			t.Errorf("%s: the card does not carry its p99 %d", name, o.P99Ns)
		}
	}
	o, err := tools.Run(sim.Default(), "locust")
	if err != nil {
		t.Fatal(err)
	}
	h := flat(app.HTMLString(toolCard(o, nil)))
	for _, want := range []string{
		`<code>0</code>ms, as locust prints it</dd>`, // flat drops the space after </code>
		`<p class="zero-why">Why 0 ms: locust keeps each response time in whole milliseconds`,
		`a reply of half a millisecond or less is kept as 0 ms.</p>`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("locust's card lacks %s:\n%s", want, h)
		}
	}
	zeroDd := false
	for _, a := range tags(h, "dd") {
		zeroDd = zeroDd || a["data-metric"] == "tools.locust.p99" && a["data-ns"] == "0" && a["class"] == "zero"
	}
	if !zeroDd {
		t.Error("locust's p99 is not marked as its rounding's 0")
	}
	if strings.Contains(h, "0 s<") {
		t.Errorf("locust's card still says 0 s:\n%s", h)
	}
}

// TestPageToolsPointer: the first screen points to the tools panel, a skip
// link reaches it, and the table shows locust's 0 as locust prints it.
func TestPageToolsPointer(t *testing.T) {
	e, p, _ := mountPage(t)
	visit(e, p, "tools=locust")
	h := app.HTMLString(p)
	var pointer, skip bool
	for _, a := range tags(h, "a") {
		if a["href"] != "#tools" || a["data-jump"] != "1" {
			continue
		}
		switch {
		case a["id"] == "to-tools":
			pointer = true
		case a["class"] == "skip-link":
			skip = true
		}
	}
	if !pointer || !skip {
		t.Errorf("pointer to #tools %v, skip link %v", pointer, skip)
	}
	if !strings.Contains(h, fmt.Sprintf("What %d real load tools would have printed ↓</a>", len(toolBrands()))) ||
		!strings.Contains(h, ">Skip to the tools&#39; printouts</a>") {
		t.Error("the pointer's or the skip link's words")
	}
	sections := 0
	for _, a := range tags(h, "section") {
		if a["id"] == "tools" {
			sections++
		}
	}
	if sections != 1 {
		t.Errorf("%d sections #tools to point to", sections)
	}
	found := false
	for _, a := range tags(h, "td") {
		if a["data-metric"] == "tools.locust.p99" {
			found = true
			if a["data-ns"] != "0" || !strings.Contains(a["title"], "locust prints 0: locust keeps each response time in whole milliseconds") {
				t.Errorf("locust's p99 cell %v", a)
			}
		}
	}
	shown := regexp.MustCompile(`<td [^>]*data-metric="tools.locust.p99"[^>]*>0 ms</td>`).MatchString(flat(h))
	if !found || !shown {
		t.Errorf("locust's p99 cell found %v, shown as 0 ms %v", found, shown)
	}
}

// flat is encoded HTML without go-app's line breaks and indents.
func flat(h string) string { return regexp.MustCompile(`\s*\n\s*`).ReplaceAllString(h, "") }

// readable is a file read with n distributions.
func readable(name string, n int) worker.Measured {
	m := worker.Measured{Name: name, Format: "HdrHistogram percentile distribution"}
	for i := 0; i < n; i++ {
		m.Summaries = append(m.Summaries, measure.Summary{Label: "d" + strconv.Itoa(i)})
	}
	return m
}

// TestBesideKeep: the page keeps worker.MaxFiles files; one more replaces
// the oldest with a notice naming both, a file of the same name replaces
// the earlier one with a notice, and files that could not be read never
// push out one that could.
func TestBesideKeep(t *testing.T) {
	var b beside
	for _, n := range []string{"a.hgrm", "b.hgrm", "c.hgrm"} {
		if got := b.keep(readable(n, 1)); got != "" {
			t.Errorf("keeping %s: notice %q", n, got)
		}
	}
	if got := b.keep(worker.Measured{Name: "bad.txt", Err: "unknown format"}); got != "" || len(b.files) != 4 {
		t.Errorf("a file that could not be read: notice %q, %d files", got, len(b.files))
	}
	got := b.keep(readable("d.hgrm", 1))
	if want := "The page compares at most 3 files: d.hgrm replaces a.hgrm, the oldest."; got != want {
		t.Errorf("the fourth file: notice %q, want %q", got, want)
	}
	if got := b.keep(readable("c.hgrm", 2)); got != "c.hgrm replaces the file of the same name read before." {
		t.Errorf("a file of the same name: notice %q", got)
	}
	var names []string
	for _, f := range b.files {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "b.hgrm bad.txt d.hgrm c.hgrm" {
		t.Errorf("kept %v", names)
	}
}

// TestImportPanelList: each file kept is listed with a swatch of each of
// its distributions, in the order the worker draws them, and a button that
// names the file it removes.
func TestImportPanelList(t *testing.T) {
	files := []worker.Measured{readable("wrk2.txt", 2), {Name: "bad.txt", Err: "unknown format"}, readable("java.hgrm", 1), readable("k6.json", 1)}
	h := app.HTMLString(&importPanel{IFiles: listFiles(files, nil, charts.Light)})
	if n := strings.Count(h, "<li "); n != 4 {
		t.Errorf("%d items, want 4", n)
	}
	for _, f := range files {
		if !strings.Contains(h, `>Remove `+f.Name+`</button>`) {
			t.Errorf("no button removes %s", f.Name)
		}
	}
	looks := 0
	for _, a := range tags(h, "img") {
		if a["class"] != "swatch" {
			continue
		}
		if a["data-look"] != strconv.Itoa(looks) || !strings.HasSuffix(a["alt"], charts.MeasuredLookName(looks, charts.Light)) || !strings.HasPrefix(a["src"], "data:image/svg+xml;base64,") {
			t.Errorf("swatch %d: %v", looks, a)
		}
		looks++
	}
	if looks != 4 {
		t.Errorf("%d swatches, want 4 (wrk2.txt's two, java.hgrm's, k6.json's)", looks)
	}
	if !strings.Contains(h, `alt="d0: a thick solid line in ink"`) {
		t.Error("a file of two distributions does not say which swatch is which")
	}
}
