package sim

import (
	"slices"
	"testing"
)

// fieldConfigs are configurations that between them set every field away
// from its zero value, each valid.
func fieldConfigs(t *testing.T) []Config {
	t.Helper()
	var out []Config
	for _, p := range Presets() {
		out = append(out, p.Config)
	}
	for _, q := range []string{
		"arrivals=ramp&to=3000.5&timeout=20ms&queue=0&seed=18446744073709551615&interval=3ms&rank=ceil",
		"arrivals=burst&bursts=5s-6s@20000,1s-2s@0.5&outages=12s-12500ms,3s-4s&queue=100&workers=unlimited",
		"dist=lognormal&service=1ms&service_p95=8ms&conns=10&workers=8&above=0s",
		"dist=uniform&service=1ms&service_max=3ms&preset=tcp&first=0s&every=0s&stall=0s",
		"dist=exponential&arrivals=poisson&duration=90s",
	} {
		cfg, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		out = append(out, cfg)
	}
	return out
}

// unreadDefaults are the canonical texts of a default that the field
// refuses as input: the query never writes them (a value equal to the
// preset's is left out), and service_p95=0s has always been refused (the
// lognormal's p95 is at least 1ns; none is the field left out).
var unreadDefaults = map[string]string{"service_p95": "0s"}

// TestFieldsRoundTrip: every field's canonical text reads back, over its
// preset, to the same text and the same Config field, and CanonicalField
// writes it as it is.
func TestFieldsRoundTrip(t *testing.T) {
	for _, cfg := range fieldConfigs(t) {
		base, _ := PresetConfig(cfg.Preset)
		for i := range fieldTable {
			f := &fieldTable[i]
			text := f.get(cfg)
			got := cfg
			f.reset(&got, base)
			if f.name != "preset" && f.get(got) != f.get(base) {
				t.Errorf("%s: reset gives %q, want the preset's %q", f.name, f.get(got), f.get(base))
			}
			if u, ok := unreadDefaults[f.name]; ok && u == text && text == f.get(base) {
				if f.read(&got, text) == nil {
					t.Errorf("%s=%s reads: drop it from unreadDefaults", f.name, text)
				}
				continue
			}
			if fe := f.read(&got, text); fe != nil {
				t.Errorf("%s: its canonical text %q does not read: %v", f.name, text, fe)
				continue
			}
			if f.name != "preset" && got != cfg {
				t.Errorf("%s=%q reads to %+v, want %+v", f.name, text, got, cfg)
			}
			if again := f.get(got); again != text {
				t.Errorf("%s: %q reads and writes as %q", f.name, text, again)
			}
			if c, fe := CanonicalField(cfg.Preset, f.name, text); fe != nil || c != text {
				t.Errorf("CanonicalField(%q, %s, %q) = %q, %v", cfg.Preset, f.name, text, c, fe)
			}
		}
		if again, err := ParseQuery(cfg.Query()); err != nil || again != cfg {
			t.Errorf("%q does not round-trip: %+v (%v)", cfg.Query(), again, err)
		}
	}
}

// TestFieldsValuesInStep: Values()[i] is field i's text: setting field i
// alone changes Values at i and nowhere else, and Query names it alone.
func TestFieldsValuesInStep(t *testing.T) {
	other := map[FieldKind]string{KindDuration: "3ms", KindRate: "7", KindCount: "3"}
	names := Fields()
	if len(names) != len(Default().Values()) {
		t.Fatalf("%d fields, %d values", len(names), len(Default().Values()))
	}
	for i, name := range names {
		info, ok := LookupField(name)
		if !ok || info.Name != name {
			t.Fatalf("LookupField(%s) = %+v, %v", name, info, ok)
		}
		text := other[info.Kind]
		switch {
		case name == "preset":
			continue // a preset changes every field: TestFieldsRoundTrip
		case info.Kind == KindChoice:
			text = info.Choices[len(info.Choices)-1]
		case name == "bursts":
			text = "1s-2s@5"
		case name == "outages":
			text = "1s-2s"
		case name == "slow":
			text = "1s-2s@x3"
		}
		cfg := Default()
		if fe := lookup(name).read(&cfg, text); fe != nil {
			t.Fatalf("%s=%s: %v", name, text, fe)
		}
		before, after := Default().Values(), cfg.Values()
		for j := range after {
			if (j == i) != (after[j] != before[j]) {
				t.Errorf("%s=%s: value %d (%s) went from %q to %q", name, text, j, names[j], before[j], after[j])
			}
		}
		if want := name + "=" + queryEscape(after[i]); cfg.Query() != want {
			t.Errorf("%s=%s: query %q, want %q", name, text, cfg.Query(), want)
		}
	}
}

// TestFieldTable: the page's view of the table is a copy, in Fields order,
// with every choice field's choices and the engine's fields last.
func TestFieldTable(t *testing.T) {
	table := FieldTable()
	names := Fields()
	engine := false
	for i, f := range table {
		if f.Name != names[i] {
			t.Errorf("row %d is %s, Fields says %s", i, f.Name, names[i])
		}
		if f.Doc == "" {
			t.Errorf("%s has no doc", f.Name)
		}
		if f.Kind == KindChoice && len(f.Choices) < 2 {
			t.Errorf("%s: a choice of %v", f.Name, f.Choices)
		}
		if engine && !f.Engine {
			t.Errorf("%s, a model's field, follows the engine's", f.Name)
		}
		engine = f.Engine
	}
	if got, _ := LookupField("arrivals"); !slices.Equal(got.Choices, arrivalNames[:]) || !got.Engine {
		t.Errorf("arrivals: %+v", got)
	}
	if got, _ := LookupField("workers"); !slices.Equal(got.Choices, []string{"unlimited"}) || got.Engine || got.Kind != KindCount {
		t.Errorf("workers: %+v", got)
	}
	table[0].Choices[0] = "changed"
	if again, _ := LookupField("preset"); again.Choices[0] == "changed" {
		t.Error("FieldTable hands out the table's own choices")
	}
	if _, ok := LookupField("nope"); ok {
		t.Error("LookupField found an unknown field")
	}
}
