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
	inputs[fieldIndex("stall")] = "300ms"
	if q := inputsQuery(inputs); q != "preset=bench&stall=300ms" {
		t.Errorf("stall 300ms gives %q", q)
	}
	cfg, err := sim.ParseQuery(inputsQuery(inputs))
	if err != nil || cfg.Query() != "stall=300ms" {
		t.Errorf("canonical %q, %v", cfg.Query(), err)
	}
	// Invalid values stay as typed, valid ones become canonical.
	inputs[fieldIndex("rate")] = "abc"
	inputs[fieldIndex("service")] = "0.2ms"
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
	spec := specOf("stall")
	for text, want := range map[string]int{"200ms": 8, "0s": 0, "10s": len(spec.Slider) - 1, "190ms": 8, "1h": len(spec.Slider) - 1, "abc": -1} {
		if got := sliderIndex(spec, text); got != want {
			t.Errorf("slider position of stall %s = %d, want %d", text, got, want)
		}
	}
	if got := sliderIndex(specOf("rate"), "5000"); specOf("rate").Slider[got] != "5000" {
		t.Errorf("rate 5000 at %d", got)
	}
}

// TestFieldSpecsFromSim: the controls are the simulator's fields, by name:
// the page has words only for fields the simulator has, every control reads
// back what it offers (a choice, a toggle's word, a slider's stop) and a
// choice field's select offers the simulator's choices.
func TestFieldSpecsFromSim(t *testing.T) {
	for name := range fieldWords {
		if _, ok := sim.LookupField(name); !ok {
			t.Errorf("the page has words for %q, no field of the simulator", name)
		}
	}
	for _, f := range sim.FieldTable() {
		spec := specOf(f.Name)
		if spec.Name != f.Name || spec.Label == "" || spec.Engine != f.Engine {
			t.Errorf("%s: spec %+v", f.Name, spec)
		}
		if f.Name == "preset" {
			continue // a row of buttons, one a preset
		}
		offered := append(append([]string(nil), spec.Choices...), spec.Slider...)
		if spec.Toggle != "" {
			offered = append(offered, spec.Toggle, spec.Fallback)
		}
		for _, text := range offered {
			if got, fe := sim.CanonicalField("bench", f.Name, text); fe != nil || got != text {
				t.Errorf("%s offers %q, which reads as %q (%v)", f.Name, text, got, fe)
			}
		}
		if f.Kind == sim.KindChoice && len(spec.Choices) != len(f.Choices) {
			t.Errorf("%s: a select of %v, the simulator's choices are %v", f.Name, spec.Choices, f.Choices)
		}
	}
}

// TestFieldWordsOnce: fieldWordList names each field once, as the map
// literal it replaces had to.
func TestFieldWordsOnce(t *testing.T) {
	if len(fieldWords) != len(fieldWordList) {
		seen := map[string]bool{}
		for _, w := range fieldWordList {
			if seen[w.name] {
				t.Errorf("fieldWordList has %q twice", w.name)
			}
			seen[w.name] = true
		}
	}
	if len(fieldWordList) == 0 {
		t.Fatal("fieldWordList is empty")
	}
}
