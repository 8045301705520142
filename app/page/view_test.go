package page

import (
	"testing"

	"omission/app/view"
	"omission/sim"
)

// benchView is the formatted bench preset, seed 000's run.
func benchView(t *testing.T) *view.View {
	t.Helper()
	res, err := sim.Run(sim.Default())
	if err != nil {
		t.Fatal(err)
	}
	return view.Build(1, res, 12.5)
}

func TestQueriesFromControls(t *testing.T) {
	inputs := sim.Default().Values()
	if q := inputsQuery(inputs); q != "preset=bench" {
		t.Errorf("bench controls give %q", q)
	}
	inputs[fStall] = "300ms"
	if q := inputsQuery(inputs); q != "preset=bench&stall=300ms" {
		t.Errorf("stall 300ms gives %q", q)
	}
	cfg, err := sim.ParseQuery(inputsQuery(inputs))
	if err != nil || cfg.Query() != "stall=300ms" {
		t.Errorf("canonical %q, %v", cfg.Query(), err)
	}
	// Invalid values stay as typed, valid ones become canonical.
	inputs[fRate] = "abc"
	inputs[fService] = "0.2ms"
	_, err = sim.ParseQuery(inputsQuery(inputs))
	errs := asErrors(err)
	if errs.Field("rate") == nil {
		t.Fatalf("rate=abc accepted: %v", err)
	}
	if q := readQuery(inputsQuery(inputs)).query; q != "rate=abc&service=200us&stall=300ms" {
		t.Errorf("the URL of controls holding an invalid value is %q", q)
	}
}

func TestSliderIndex(t *testing.T) {
	spec := fieldSpecs["stall"]
	for text, want := range map[string]int{"200ms": 8, "0s": 0, "10s": len(spec.Slider) - 1, "190ms": 8, "1h": len(spec.Slider) - 1, "abc": -1} {
		if got := sliderIndex(spec, text); got != want {
			t.Errorf("slider position of stall %s = %d, want %d", text, got, want)
		}
	}
	if got := sliderIndex(fieldSpecs["rate"], "5000"); fieldSpecs["rate"].Slider[got] != "5000" {
		t.Errorf("rate 5000 at %d", got)
	}
}
