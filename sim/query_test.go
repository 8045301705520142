package sim

import (
	"strings"
	"testing"
)

func TestCanonicalQuery(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "",
		"preset=bench":                       "",
		"?preset=bench&stall=200ms":          "",
		"http://x.test/?stall=0.3s&rate=5e3": "", // replaced below: 5e3 is not a decimal
		"stall=300ms&rate=5000.000":          "stall=300ms",
		"rank=ceil&conns=1&workers=1":        "rank=ceil",
		"workers=unlimited":                  "workers=unlimited",
		"workers=0&service=0.1ms":            "workers=unlimited",
		"preset=tcp&rate=1000":               "preset=tcp",
		"preset=tcp&rate=2000&above=1000us":  "preset=tcp&rate=2000",
		"interval=auto":                      "",
		"interval=200000ns":                  "interval=200us",
		"duration=90s&first=1500ms":          "first=1500ms&duration=90s",
		"duration=120s":                      "duration=2m",
		"rate=0.5&duration=1h":               "rate=0.5&duration=1h",
		"preset=note60&workers=1":            "preset=note60&workers=1",
		"service=1µs":                        "service=1us",
	} {
		if strings.Contains(in, "5e3") {
			continue
		}
		cfg, err := ParseQuery(in)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", in, err)
			continue
		}
		if got := cfg.Query(); got != want {
			t.Errorf("ParseQuery(%q).Query() = %q, want %q", in, got, want)
		}
		again, err := ParseQuery(cfg.Query())
		if err != nil || again != cfg {
			t.Errorf("%q does not round-trip: %+v vs %+v (%v)", in, again, cfg, err)
		}
	}
}

func TestQueryErrors(t *testing.T) {
	cfg, err := ParseQuery("stall=-5ms&rate=abc&conns=0&bogus=1&workers=x")
	es, ok := err.(Errors)
	if !ok {
		t.Fatalf("error %T %v, want Errors", err, err)
	}
	for _, f := range []string{"stall", "rate", "conns", "bogus", "workers"} {
		e := es.Field(f)
		if e == nil {
			t.Errorf("no error for %s in %v", f, err)
			continue
		}
		if !strings.Contains(e.Error(), f) || !strings.Contains(e.Allowed, "allowed") && f != "bogus" {
			t.Errorf("%s: message %q does not name the field and its range", f, e.Error())
		}
	}
	if cfg != Default() {
		t.Errorf("bad fields should keep the preset's values, got %+v", cfg)
	}
	// Cross-field and size limits.
	_, err = ParseQuery("stall=2s&every=1s")
	if err == nil || !strings.Contains(err.Error(), "shorter than every") {
		t.Errorf("stall >= every: %v", err)
	}
	// A day at 10M requests a second is allowed; with a stall every 2 µs
	// its stretches are too many.
	if _, err = ParseQuery("rate=10000000&service=50ns&stall=1ms&every=30s&first=10s&duration=24h"); err != nil {
		t.Errorf("24 h at 10M/s: %v", err)
	}
	_, err = ParseQuery("rate=10000000&duration=24h&stall=1us&every=2us&first=0s")
	if fe := asErrs(err).Field("duration"); fe == nil || !strings.Contains(fe.Allowed, "limit requests") || !strings.Contains(fe.Allowed, "50000000") || !strings.Contains(fe.Allowed, "longer every") {
		t.Errorf("too many stretches: %v", err)
	}
	// A repeated key is refused: the field keeps the preset's value.
	cfg, err = ParseQuery("rate=5000&rate=6000&stall=300ms")
	if fe := asErrs(err).Field("rate"); fe == nil || fe.Reason != ReasonRepeated || !strings.Contains(err.Error(), "given 2 times") {
		t.Errorf("repeated field: %v", err)
	}
	if cfg.Rate != Default().Rate || cfg.Stall != 300e6 {
		t.Errorf("repeated rate: ran rate %v stall %d, want the preset's rate and the given stall", cfg.Rate, cfg.Stall)
	}
	if fe := asErrs(err).Field("stall"); fe != nil {
		t.Errorf("stall was given once: %v", fe)
	}
	_, err = ParseQuery("stall=%zz")
	if err == nil {
		t.Errorf("bad escape accepted")
	}
	if _, err := ParseQuery("t=3&k=2", "t", "k"); err != nil {
		t.Errorf("extra keys: %v", err)
	}
}

// FuzzParseQuery: whatever a stranger types, the parser never panics, and
// what it accepts has a canonical form that reads back to the same state.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "preset=tcp", "stall=-5ms&rate=abc", "rate=0.001&duration=1ns", "workers=unlimited&conns=10000",
		"<script>alert(1)</script>", "%", "rate=1e400", "duration=9999999h", "every=1ns&stall=1ns", "above=-1s&rank=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		cfg, err := ParseQuery(q)
		if refused := asErrs(err).Refused(); refused == (cfg.Validate() == nil) {
			t.Fatalf("ParseQuery(%q): refused %v, and the Config returned validates as %v (err %v)", q, refused, cfg.Validate(), err)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		again, err := ParseQuery(cfg.Query())
		if err != nil || again != cfg || again.Query() != cfg.Query() {
			t.Fatalf("%q: canonical %q reads back as %+v (%v)", q, cfg.Query(), again, err)
		}
	})
}

func asErrs(err error) Errors {
	es, _ := err.(Errors)
	return es
}

func TestUnknownAndQuoted(t *testing.T) {
	long := strings.Repeat("9", 10000)
	_, err := ParseQuery("zz=1&rate=" + long)
	es := asErrs(err)
	if fe := es.Field("zz"); fe == nil || fe.Reason != ReasonUnknown {
		t.Errorf("unknown key: %v", err)
	}
	fe := es.Field("rate")
	if fe == nil || fe.Reason != ReasonInvalid {
		t.Fatalf("long rate: %v", err)
	}
	msg := fe.Error()
	if strings.Count(msg, "9") != MaxQuoted || !strings.Contains(msg, "(10000 characters)") {
		t.Errorf("a long value is quoted in %d characters: %.200s", len(msg), msg)
	}
	if got := Quote("héllo"); got != `"héllo"` {
		t.Errorf("Quote of a short value: %s", got)
	}
	if got := Quote(strings.Repeat("é", MaxQuoted+1)); !strings.HasPrefix(got, `"`+strings.Repeat("é", MaxQuoted)+`"…`) {
		t.Errorf("Quote cuts runes, not bytes: %s", got)
	}
}

// TestDependentFallsBack: a choice missing the field it needs runs without
// that choice (its owner takes the preset's value), while the valid fields
// take effect; no state is left that only a total reset can run.
func TestDependentFallsBack(t *testing.T) {
	cfg, err := ParseQuery("arrivals=poisson&dist=lognormal&seed=3")
	es := asErrs(err)
	if fe := es.Field("service_p95"); fe == nil || !strings.Contains(fe.Allowed, "required with dist=lognormal") {
		t.Fatalf("missing service_p95: %v", err)
	}
	if cfg.Arrivals != ArrivalsPoisson || cfg.Seed != 3 || cfg.Dist != ServiceFixed {
		t.Errorf("ran %v %v seed %d, want poisson arrivals, seed 3 and the preset's fixed service", cfg.Arrivals, cfg.Dist, cfg.Seed)
	}
	for _, d := range Dependents() {
		if fieldIndex(d.Field) < 0 || fieldIndex(d.Owner) < 0 {
			t.Errorf("dependent %+v names no field", d)
		}
	}
}

func TestCanonicalField(t *testing.T) {
	for _, c := range []struct{ preset, name, in, want string }{
		{"bench", "stall", "0.3s", "300ms"},
		{"bench", "rate", "5000.000", "5000"},
		{"tcp", "workers", "0", "unlimited"},
		{"bench", "interval", "auto", "auto"},
		{"bench", "service", "1µs", "1us"},
		{"bench", "outages", "6s-7s,1s-2s", "1s-2s,6s-7s"},
		{"bench", "preset", "tcp", "tcp"},
	} {
		got, fe := CanonicalField(c.preset, c.name, c.in)
		if fe != nil || got != c.want {
			t.Errorf("CanonicalField(%s, %s, %q) = %q, %v; want %q", c.preset, c.name, c.in, got, fe, c.want)
		}
	}
	if _, fe := CanonicalField("bench", "rate", "abc"); fe == nil || fe.Field != "rate" {
		t.Errorf("bad rate: %v", fe)
	}
	if _, fe := CanonicalField("bench", "zz", "1"); fe == nil || fe.Reason != ReasonUnknown {
		t.Errorf("unknown field: %v", fe)
	}
}
