package charts

import (
	"encoding/json"
	"reflect"
	"testing"

	"omission/app/internal/jsonfill"
)

// plainChart is a Chart that encoding/json decodes by reflection.
type plainChart Chart

// TestUnmarshalMatchesJSON: Chart's reader (decode.go) reads every field
// encoding/json writes as encoding/json reads it: a chart with every field
// filled, and each chart of a real run.
func TestUnmarshalMatchesJSON(t *testing.T) {
	var full Chart
	jsonfill.Fill(&full)
	chs := []*Chart{&full}
	all, err := RenderAll(run(t, "preset=tcp&stall=400ms"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	chs = append(chs, all...)
	for _, c := range chs {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var want plainChart
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		var got Chart
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(Chart(want), got) {
			t.Errorf("%v: the reader's chart differs from encoding/json's", c.Kind)
		}
	}
}
