package page

import (
	"encoding/json"
	"reflect"
	"testing"

	"omission/app/charts"
	"omission/app/view"
	"omission/sim"
)

// TestReadPrerendered: the takeover's reader of data-prerender
// (readPrerendered, without reflection) reads what encoding/json reads
// from the same JSON: the view and its charts, a missing chart included;
// a cut JSON is an error.
func TestReadPrerendered(t *testing.T) {
	cfg, err := sim.ParseQuery("preset=tcp&stall=400ms")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	chs, err := charts.RenderAll(res, charts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chs {
		ch.SVG = "" // as prerenderData writes them
	}
	pr := prerendered{View: view.Build(3, res, 1.5), Charts: append(chs, nil)}
	b, err := json.Marshal(pr)
	if err != nil {
		t.Fatal(err)
	}
	var want prerendered
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got, err := readPrerendered(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("readPrerendered differs from encoding/json")
	}
	if _, err := readPrerendered(b[:len(b)/2]); err == nil {
		t.Error("half the JSON was read without an error")
	}
}
