package sim

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// TestConflictRefuses: fields valid alone and not together are each named,
// with the other field and its value; the run is refused, and the Config
// returned keeps the reader's values, never the preset's in their stead.
func TestConflictRefuses(t *testing.T) {
	for _, c := range []struct {
		q     string
		pair  [2]string // the fields in conflict
		words [2]string // what each one's message says of the other
		kept  func(Config) bool
	}{
		// The page's reproduction: rate 20000, then every 100ms against the
		// preset's 200 ms stall.
		{"rate=20000&every=100ms", [2]string{"stall", "every"}, [2]string{"shorter than every (100ms)", "longer than stall (200ms)"},
			func(c Config) bool { return c.Rate == RateOf(20000) && c.Every == 100e6 && c.Stall == 200e6 }},
		// A stall over the preset's every, beside a service that is kept.
		{"service=24h&stall=24h", [2]string{"stall", "every"}, [2]string{"shorter than every (1s)", "longer than stall (24h)"},
			func(c Config) bool { return c.Service == MaxTime && c.Stall == MaxTime }},
		{"dist=lognormal&service_p95=50us", [2]string{"service_p95", "service"}, [2]string{"the median, 100us", "at most service_p95 (50us)"},
			func(c Config) bool { return c.Dist == ServiceLognormal && c.ServiceP95 == 50e3 }},
		{"arrivals=burst&bursts=1s-30s@10&seed=4", [2]string{"bursts", "duration"}, [2]string{"inside the duration (20s)", "burst window (30s"},
			func(c Config) bool { return c.Arrivals == ArrivalsBurst && c.Bursts.Len() == 1 && c.Seed == 4 }},
	} {
		cfg, err := ParseQuery(c.q)
		es := asErrs(err)
		if !es.Refused() {
			t.Errorf("%s: not refused: %v", c.q, err)
		}
		for i, f := range c.pair {
			fe := es.Field(f)
			if fe == nil || fe.Reason != ReasonConflict || fe.With != c.pair[1-i] || !strings.Contains(fe.Error(), c.words[i]) {
				t.Errorf("%s: %s is marked %+v, want a conflict with %s saying %q", c.q, f, fe, c.pair[1-i], c.words[i])
			}
		}
		if base, _ := PresetConfig(cfg.Preset); cfg == base || !c.kept(cfg) {
			t.Errorf("%s: the Config returned does not keep the reader's values: %+v", c.q, cfg)
		}
		if cfg.Validate() == nil {
			t.Errorf("%s: refused, yet its Config validates", c.q)
		}
	}
}

// TestFallbackThenRefused: a field invalid alone falls back to the preset's
// value, and when that value conflicts with the others, or the run then
// passes a limit, the run is refused, not replaced by the preset's.
func TestFallbackThenRefused(t *testing.T) {
	cfg, err := ParseQuery("every=abc&stall=2s")
	es := asErrs(err)
	if fe := es.Field("every"); fe == nil || fe.Reason != ReasonInvalid {
		t.Errorf("every=abc: %v", err)
	}
	if fe := es.Field("stall"); fe == nil || fe.Reason != ReasonConflict || !strings.Contains(fe.Allowed, "every (1s)") || !es.Refused() {
		t.Errorf("stall=2s beside the preset's every: %v", err)
	}
	if cfg.Stall != 2e9 {
		t.Errorf("stall %d, want the reader's 2s", cfg.Stall)
	}
	q := "conns=abc&rate=10000000&duration=24h&stall=1us&every=2us&first=0s"
	cfg, err = ParseQuery(q)
	es = asErrs(err)
	if es.Field("conns") == nil || es.Field("duration") == nil || es.Field("duration").Reason != ReasonLimit || !es.Refused() {
		t.Errorf("%s: %v", q, err)
	}
	if cfg == Default() || cfg.Rate != MaxRate || cfg.Duration != MaxDuration || cfg.Conns != 1 {
		t.Errorf("%s: returned %+v, want the reader's values with the preset's conns", q, cfg)
	}
	// Once the conflict is mended, the limit it hid is named.
	_, err = ParseQuery("service=24h&stall=24h&every=0s")
	if fe := asErrs(err).Field("service"); fe == nil || fe.Reason != ReasonLimit {
		t.Errorf("service=24h once the stall holds: %v", err)
	}
}

// TestValidateReportsAll: Validate names every problem at once, the rules
// between fields beside a field out of its range.
func TestValidateReportsAll(t *testing.T) {
	c := Default()
	c.Conns = 0
	c.Stall, c.Every = 2e9, 1e9
	c.Dist, c.ServiceP95 = ServiceLognormal, 1
	es := asErrs(c.Validate())
	for _, f := range []string{"conns", "stall", "every", "service_p95", "service"} {
		if es.Field(f) == nil {
			t.Errorf("%s is not named: %v", f, es)
		}
	}
}

// TestRequiredRunsWithout: a choice whose required companion is missing
// runs without that choice, marked; the others take effect.
func TestRequiredRunsWithout(t *testing.T) {
	for _, d := range Dependents() {
		if !d.Required {
			continue
		}
		q := d.Owner + "=" + d.Choice + "&seed=9&rate=2000"
		cfg, err := ParseQuery(q)
		es := asErrs(err)
		fe := es.Field(d.Field)
		if fe == nil || fe.Reason != ReasonRequired || !strings.Contains(fe.Allowed, "required with "+d.Owner+"="+d.Choice) || es.Refused() {
			t.Errorf("%s: %v", q, err)
		}
		if cfg.Validate() != nil || cfg.Seed != 9 || cfg.Rate != RateOf(2000) || cfg.Arrivals != ArrivalsConstant || cfg.Dist != ServiceFixed {
			t.Errorf("%s: runs %+v (%v)", q, cfg, cfg.Validate())
		}
	}
}

// soloValues are values of each field valid on its own, drawn from the
// table: a choice's names, and values of its kind over its range.
func soloValues(f *field) []string {
	var cand []string
	switch f.kind {
	case KindChoice:
		cand = f.choices
	case KindRate:
		cand = []string{"0", "0.001", "1", "1000", "20000", "10000000"}
	case KindDuration:
		cand = []string{"0s", "1ns", "50us", "100us", "1ms", "100ms", "200ms", "1s", "5s", "30s", "24h"}
	case KindCount:
		cand = []string{"0", "1", "2", "10", "10000", "1000000"}
	case KindWindows:
		cand = []string{"1s-2s@20000", "10s-30s@100", "1s-2s", "25s-26s"}
	}
	cand = append(cand, f.choices...)
	var out []string
	for _, v := range cand {
		if _, fe := CanonicalField("bench", f.name, v); fe == nil {
			out = append(out, v)
		}
	}
	return out
}

type given struct{ name, value string }

// TestConflictsFuzz: pairs and triples of fields, each value valid on its
// own. Either the query runs (no error, a Config that validates) or its
// errors hold to the rule: each names a field given, a companion of one or
// a conflict's partner of one; a conflict of the values given is never
// dropped, and refuses; a value no error names is kept (but a choice whose
// required companion is missing, which runs without it); a refused query
// never returns the preset's run in place of the reader's.
func TestConflictsFuzz(t *testing.T) {
	var all []given
	for i := range fieldTable {
		for _, v := range soloValues(&fieldTable[i]) {
			all = append(all, given{fieldTable[i].name, v})
		}
	}
	var runs, refused, conflicts int
	check := func(gs []given) {
		names := map[string]string{}
		parts := make([]string, len(gs))
		for i, g := range gs {
			if _, dup := names[g.name]; dup {
				return
			}
			names[g.name] = g.value
			parts[i] = g.name + "=" + url.QueryEscape(g.value)
		}
		q := strings.Join(parts, "&")
		cfg, err := ParseQuery(q)
		if err == nil {
			runs++
			if cfg.Validate() != nil {
				t.Fatalf("%s: accepted, yet %v", q, cfg.Validate())
			}
			return
		}
		es := asErrs(err)
		if es.Refused() {
			refused++
		} else if cfg.Validate() != nil {
			t.Fatalf("%s: not refused, yet its Config does not run: %v", q, cfg.Validate())
		}
		checkNamed(t, q, names, es)
		raw, _ := readQuery(q, nil)
		for _, fe := range raw.problems() {
			if fe.Reason != ReasonConflict {
				continue
			}
			conflicts++
			if !es.Refused() || es.Field(fe.Field) == nil {
				t.Fatalf("%s: the conflict %v is dropped: %v", q, fe, err)
			}
		}
		preset := names["preset"]
		if preset == "" {
			preset = "bench"
		}
		base, _ := PresetConfig(preset)
		differs := false
		for name, v := range names {
			f := lookup(name)
			canon, _ := CanonicalField(preset, name, v)
			if name == "preset" {
				continue
			}
			differs = differs || canon != f.get(base)
			if es.Field(name) == nil && !ownsRequired(es, name) && f.get(cfg) != canon {
				t.Fatalf("%s: %s=%s is named by no error, yet the run has %s", q, name, canon, f.get(cfg))
			}
		}
		if es.Refused() && differs && cfg == base {
			t.Fatalf("%s: refused, and returned the preset's Config", q)
		}
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			check([]given{all[i], all[j]})
		}
	}
	r := rand.New(rand.NewPCG(26, 1))
	for n := 0; n < 20000; n++ {
		check([]given{all[r.IntN(len(all))], all[r.IntN(len(all))], all[r.IntN(len(all))]})
	}
	t.Logf("%d values; %d queries ran, %d refused, %d conflicts seen", len(all), runs, refused, conflicts)
	if runs < 1000 || refused < 100 || conflicts < 100 {
		t.Fatalf("too few of each kind: %d ran, %d refused, %d conflicts", runs, refused, conflicts)
	}
}

// ownsRequired tells whether a choice of field is missing its required
// companion: it runs without that choice (its companion is named).
func ownsRequired(es Errors, field string) bool {
	for _, fe := range es {
		if fe.Reason == ReasonRequired && dependsOn[fe.Field] == field {
			return true
		}
	}
	return false
}

// checkNamed: each error names a field given, a companion of one (its
// owner or a dependent), a conflict's partner of one, or (a limit) the
// field to change.
func checkNamed(t *testing.T, q string, names map[string]string, es Errors) {
	t.Helper()
	_, presetGiven := names["preset"]
	for _, fe := range es {
		_, ok := names[fe.Field]
		_, withGiven := names[fe.With]
		switch {
		case ok, fe.Reason == ReasonLimit:
		case fe.Reason == ReasonConflict && (withGiven || presetGiven):
		case fe.Reason == ReasonRequired && names[dependsOn[fe.Field]] != "":
		default:
			t.Fatalf("%s: %v names a field not given, nor a companion or partner of one", q, fe)
		}
	}
}
