package sim

import (
	"errors"
	"strings"
	"testing"
)

// TestEngineQueryCanonical: the engine's fields read and write in one
// canonical form, after today's fields, defaults omitted.
func TestEngineQueryCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"arrivals=constant&dist=fixed&queue=unbounded&timeout=0s&seed=0", ""},
		{"seed=007", "seed=7"},
		{"seed=18446744073709551615", "seed=18446744073709551615"},
		{"arrivals=poisson&rate=5000", "arrivals=poisson"},
		{"to=2500.5&arrivals=ramp", "arrivals=ramp&to=2500.5"},
		{"arrivals=ramp&to=0.001", "arrivals=ramp&to=0.001"},
		{"arrivals=burst&bursts=12s-13000ms@20000.000, 2s-2500ms@0", "arrivals=burst&bursts=2s-2500ms@0,12s-13s@20000"},
		{"dist=lognormal&service=1000us&service_p95=0.005s", "service=1ms&dist=lognormal&service_p95=5ms"},
		{"dist=uniform&service=0s&service_max=2ms", "service=0s&dist=uniform&service_max=2ms"},
		{"dist=exponential", "dist=exponential"},
		{"queue=0", "queue=0"},
		{"queue=250", "queue=250"},
		{"timeout=1500ms", "timeout=1500ms"},
		{"outages=20s-20.5s,5s-6s", "outages=5s-6s,20s-20500ms"},
		{"preset=tcp&arrivals=poisson&seed=3&timeout=20ms", "preset=tcp&arrivals=poisson&timeout=20ms&seed=3"},
	} {
		cfg, err := ParseQuery(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := cfg.Query(); got != tc.want {
			t.Errorf("%q: canonical %q, want %q", tc.in, got, tc.want)
		}
		again, err := ParseQuery(cfg.Query())
		if err != nil || again != cfg {
			t.Errorf("%q: the canonical form reads back as %+v (%v), not %+v", tc.in, again, err, cfg)
		}
	}
}

// TestEngineDefaultsKeepURLs: every URL of today means what it meant: no
// engine field is set, the run takes the fast path, and the canonical form
// is unchanged.
func TestEngineDefaultsKeepURLs(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "preset=note60-single&rank=ceil", "rate=333.333&conns=4&workers=unlimited&interval=auto", "preset=clients10&above=50ms"} {
		cfg := parse(t, q)
		if cfg.EventDriven() || cfg.Seed != 0 || cfg.Queue != 0 || cfg.Arrivals != ArrivalsConstant || cfg.Dist != ServiceFixed {
			t.Errorf("%q: engine fields set: %+v", q, cfg)
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Engine != nil {
			t.Errorf("%q: left the fast path", q)
		}
	}
	if got := parse(t, "rate=1000&workers=unlimited").Query(); got != "rate=1000&workers=unlimited" {
		t.Errorf("canonical form changed: %q", got)
	}
}

// TestEngineQueryErrors: every invalid value is named with its field, its
// value and the range allowed, all at once.
func TestEngineQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		q      string
		fields []string
		words  []string
	}{
		{"arrivals=gaussian", []string{"arrivals"}, []string{"gaussian", "constant, poisson, ramp or burst"}},
		{"seed=-1&seed2=3", []string{"seed", "seed2"}, []string{"0 to 18446744073709551615", "unknown parameter"}},
		{"seed=18446744073709551616", []string{"seed"}, []string{"18446744073709551616"}},
		{"to=5", []string{"to"}, []string{"only with arrivals=ramp"}},
		{"arrivals=ramp&to=20000000", []string{"to"}, []string{"0 to 10000000"}},
		{"arrivals=burst", []string{"bursts"}, []string{"required with arrivals=burst"}},
		{"arrivals=burst&bursts=5s-3s@10", []string{"bursts"}, []string{"5s-3s", "from < to"}},
		{"arrivals=burst&bursts=1s-3s@10,2s-4s@10", []string{"bursts"}, []string{"overlap"}},
		{"arrivals=burst&bursts=1s-30s@10", []string{"bursts", "duration"}, []string{"inside the duration", "end of every burst window (30s"}},
		{"bursts=1s-2s@10", []string{"bursts"}, []string{"only with arrivals=burst"}},
		{"dist=lognormal", []string{"service_p95"}, []string{"required with dist=lognormal"}},
		{"dist=lognormal&service_p95=50us", []string{"service_p95", "service"}, []string{"50us", "service (the median, 100us)", "at most service_p95 (50us)"}},
		{"dist=exponential&service=0s", []string{"service", "dist"}, []string{"mean", "1ns", "service is 0s"}},
		{"dist=uniform&service=2ms&service_max=1ms", []string{"service_max", "service"}, []string{"1ms", "the minimum, 2ms", "at most service_max (1ms)"}},
		{"arrivals=ramp", []string{"to"}, []string{"required with arrivals=ramp", "0.001 to 10000000"}},
		{"arrivals=ramp&to=0", []string{"to"}, []string{"required with arrivals=ramp"}},
		{"service_max=1ms", []string{"service_max"}, []string{"only with dist=uniform"}},
		{"dist=weibull", []string{"dist"}, []string{"weibull", "fixed, exponential, lognormal or uniform"}},
		{"queue=-2&timeout=-1s&outages=3s", []string{"queue", "timeout", "outages"}, []string{"0 to 1000000", "1ns to 24h", "not from-to"}},
		{"outages=1s-2s,1500ms-3s", []string{"outages"}, []string{"overlap"}},
		{"outages=" + strings.Repeat("1s-2s,", 16) + "1s-2s", []string{"outages"}, []string{"17 windows, at most 16"}},
		{"arrivals=poisson&rate=1000000&duration=20s", []string{"duration"}, []string{"limit arrivals", "10000000"}},
		// Field errors and the engine's cross-field errors together.
		{"arrivals=nope&to=5&service_max=1ms&seed=x", []string{"arrivals", "to", "service_max", "seed"}, nil},
	} {
		_, err := ParseQuery(tc.q)
		var es Errors
		if !errors.As(err, &es) {
			t.Errorf("%q: error %v is not Errors", tc.q, err)
			continue
		}
		for _, f := range tc.fields {
			if es.Field(f) == nil {
				t.Errorf("%q: no error names %s: %v", tc.q, f, err)
			}
		}
		if len(es) != len(tc.fields) {
			t.Errorf("%q: %d errors, want %d: %v", tc.q, len(es), len(tc.fields), err)
		}
		for _, w := range tc.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %q does not say %q", tc.q, err, w)
			}
		}
	}
}

// FuzzParseQueryEngine: whatever a stranger types, ParseQuery does not
// panic; what it accepts is valid, canonical and stable; and a small
// accepted configuration runs with every exact check passing.
func FuzzParseQueryEngine(f *testing.F) {
	for _, q := range []string{
		"", "arrivals=poisson&seed=1", "arrivals=ramp&to=0.001&rate=0.001", "arrivals=burst&bursts=0s-1ms@0,1ms-2ms@9999999&duration=2ms",
		"dist=lognormal&service=1ns&service_p95=24h", "dist=uniform&service=0s&service_max=0s", "queue=0&workers=1&conns=10000",
		"timeout=1ns&outages=0s-24h", "seed=18446744073709551615&arrivals=poisson&rate=0.001&duration=24h",
		"outages=1s-2s,%ZZ", "to=%2C&bursts=@@", "arrivals=poisson&rate=100&duration=1s&timeout=3ms&queue=2&outages=100ms-200ms",
		"preset=clients10&arrivals=poisson&duration=2s&dist=exponential",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		cfg, err := ParseQuery(q)
		if err != nil {
			if refused := asErrs(err).Refused(); refused == (cfg.Validate() == nil) {
				t.Fatalf("%q: refused %v, yet the Config returned beside the errors validates as %v", q, refused, cfg.Validate())
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%q: accepted but invalid: %v", q, err)
		}
		canon := cfg.Query()
		again, err := ParseQuery(canon)
		if err != nil || again != cfg || again.Query() != canon {
			t.Fatalf("%q: canonical %q reads back as %+v (%v)", q, canon, again, err)
		}
		if !cfg.EventDriven() || cfg.ExpectedArrivals() > 3000 || cfg.Duration > 100e9 {
			return
		}
		res, err := Run(cfg)
		if err != nil {
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("%q: %v", q, err)
			}
			return
		}
		for _, c := range res.Checks {
			if !c.Pass && c.Kind != "statistical" {
				t.Fatalf("%q: %s want %v got %v (%s)", q, c.ID, c.Want, c.Got, c.Substituted)
			}
		}
	})
}
