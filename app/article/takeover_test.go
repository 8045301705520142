//go:build !wasm

package article

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"omission/app/charts"
	"omission/app/compute"
)

// TestKeptStateReadsBack: what the generator keeps of the article's state
// in the HTML reads back as the state itself, at the article's own values
// and at a reader's, so that the browser shows what computing it again
// would.
func TestKeptStateReadsBack(t *testing.T) {
	art := theArticle()
	c := compute.NewCache(16, compute.FigureRequests)
	for _, raw := range []string{"", "closed.stall=320ms&schedule.rate=8000", "closed.stall=5s&bogus=1"} {
		st := art.compute(c, raw)
		kept := art.keepState(raw, st)
		if kept == "" {
			t.Fatalf("%q: nothing kept", raw)
		}
		if strings.ContainsAny(kept, "\"\\&<>") {
			t.Errorf("%q: the kept state holds a character go-app's attribute quoting breaks", raw)
		}
		b, err := url.PathUnescape(kept) // web/page.js: decodeURIComponent
		if err != nil {
			t.Fatal(err)
		}
		got, q, err := art.readState([]byte(b))
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if q != raw {
			t.Errorf("kept for %q, read as for %q", raw, q)
		}
		if !reflect.DeepEqual(got, st) {
			t.Errorf("%q: the kept state reads back as\n%+v\nnot\n%+v", raw, got, st)
		}
		if n := len(st.views[1].nums) + len(st.views[2].nums); n == 0 {
			t.Errorf("%q: the state has no numbers to keep", raw)
		}
	}
	if _, _, err := art.readState([]byte(`{"q":"","views":[]}`)); err == nil {
		t.Error("a kept state without the article's sections is read")
	}
	if _, _, err := art.readState([]byte(`{"q":"","views":[`)); err == nil {
		t.Error("a kept state cut short is read")
	}
}

// TestKeptChartReadsBack: a figure's kept chart reads back as drawn, its
// SVG left to the HTML's image.
func TestKeptChartReadsBack(t *testing.T) {
	c := compute.NewCache(16, compute.FigureRequests)
	res, err := c.Run("stall=300ms&duration=4s")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []charts.Kind{charts.Spectrum, charts.LatencyTime} {
		ch, err := charts.Render(res, k, charts.Options{Width: articleFigureW})
		if err != nil {
			t.Fatal(err)
		}
		b, err := url.PathUnescape(keepChart("key", ch))
		if err != nil {
			t.Fatal(err)
		}
		drawn, got, err := readChart([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		want := *ch
		want.SVG = ""
		if drawn != "key" || !reflect.DeepEqual(*got, want) {
			t.Errorf("%v: the kept chart reads back as %q %+v", k, drawn, got)
		}
	}
	if _, _, err := readChart([]byte(`{"Chart":{}}`)); err == nil {
		t.Error("a kept chart that says not what it was drawn for is read")
	}
}
