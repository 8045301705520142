package view

import (
	"encoding/json"
	"reflect"
	"testing"

	"omission/app/internal/jsonfill"
	"omission/sim"
)

// plainView is a View that encoding/json decodes by reflection.
type plainView View

// TestUnmarshalMatchesJSON: View's reader (decode.go) reads every field
// encoding/json writes as encoding/json reads it: a view with every field
// filled, and the views of real runs.
func TestUnmarshalMatchesJSON(t *testing.T) {
	var full View
	jsonfill.Fill(&full)
	views := []*View{&full}
	for _, q := range []string{"preset=bench", "preset=tcp&stall=400ms", "arrivals=poisson&rate=2000&duration=2s&service=200us&attempts=3&timeout=5ms&outages=1s-1.2s"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, Build(7, res, 12.5))
	}
	for _, v := range views {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var want plainView
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		var got View
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(View(want), got) {
			t.Errorf("%q: the reader's view differs from encoding/json's:\n got %+v\nwant %+v", v.Query, got, View(want))
		}
	}
	var bad View
	if err := json.Unmarshal([]byte(`{"Seq":"x"}`), &bad); err == nil {
		t.Error("a string read as Seq")
	}
}
