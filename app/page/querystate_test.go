package page

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"omission/app/address"
	"omission/sim"
)

func TestReadQueryRule(t *testing.T) {
	st := readQuery("conns=0&rate=2000")
	if st.cfg.Rate != sim.RateOf(2000) || st.cfg.Conns != 1 || st.invalid.Field("conns") == nil || len(st.refused) > 0 {
		t.Errorf("conns=0&rate=2000: rate %v conns %d invalid %v refused %v", st.cfg.Rate, st.cfg.Conns, st.invalid, st.refused)
	}
	if st.query != "rate=2000&conns=0" || st.inputs[fieldIndex("conns")] != "0" || st.inputs[fieldIndex("rate")] != "2000" {
		t.Errorf("query %q, inputs %q", st.query, st.inputs)
	}

	st = readQuery("zz=1&stall=0.3s")
	if st.dropped.Field("zz") == nil || st.query != "stall=300ms" || st.inputs[fieldIndex("stall")] != "300ms" || len(st.invalid) > 0 {
		t.Errorf("unknown key: dropped %v query %q inputs %q", st.dropped, st.query, st.inputs)
	}

	st = readQuery("rate=5000&rate=6000&stall=300ms")
	if st.dropped.Field("rate") == nil || st.cfg.Rate != sim.RateOf(5000) || st.query != "stall=300ms" || st.inputs[fieldIndex("rate")] != "5000" {
		t.Errorf("repeated key: dropped %v rate %v query %q", st.dropped, st.cfg.Rate, st.query)
	}
	if msg := droppedNotice(st.dropped.Field("rate"), sim.Default()); !strings.Contains(msg, "5000,6000") || !strings.Contains(msg, "preset's value, 5000") {
		t.Errorf("notice %q", msg)
	}

	st = readQuery("arrivals=poisson&dist=lognormal")
	p95 := fieldIndex("service_p95")
	if st.invalid.Field("service_p95") == nil || st.inputs[fieldIndex("dist")] != "lognormal" || st.inputs[fieldIndex("arrivals")] != "poisson" || st.inputs[p95] != "" {
		t.Errorf("missing service_p95: invalid %v inputs %q", st.invalid, st.inputs)
	}
	if st.cfg.Dist != sim.ServiceFixed || st.cfg.Arrivals != sim.ArrivalsPoisson || !strings.Contains(st.query, "dist=lognormal") {
		t.Errorf("missing service_p95 runs %v %v, query %q", st.cfg.Arrivals, st.cfg.Dist, st.query)
	}
	// Giving the missing value makes the state valid: no trap.
	inputs := append([]string(nil), st.inputs...)
	inputs[p95] = "1ms"
	if fixed := readQuery(inputsQuery(inputs)); len(fixed.invalid) > 0 || fixed.cfg.Dist != sim.ServiceLognormal {
		t.Errorf("after service_p95=1ms: invalid %v dist %v", fixed.invalid, fixed.cfg.Dist)
	}

	// Over the simulator's limit (too many stretches for the long path), and
	// over the page's budget (within the simulator's).
	for _, q := range []string{"rate=10000000&duration=24h&stall=1us&every=2us&first=0s", "rate=10000000&service=1ns&stall=1ms&every=30ms&duration=24h"} {
		if st := readQuery(q); len(st.refused) == 0 || st.refused[0].Field != "duration" {
			t.Errorf("%s: refused %v", q, st.refused)
		}
	}
	if st := readQuery("anim=2&anim_t=1.6s&stall=300ms"); st.extra.Get("anim") != "2" || st.query != "stall=300ms" {
		t.Errorf("page keys: %v, %q", st.extra, st.query)
	}
}

// TestReadQueryFixedPoint: the query the URL is given back means the same
// run and the same messages, and drops nothing more (the view equals what
// loading its URL shows). Random queries mix valid, invalid, unknown and
// repeated keys.
func TestReadQueryFixedPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		q := randomQuery(r)
		a := readQuery(q)
		b := readQuery(a.query)
		if a.cfg != b.cfg || len(b.dropped) > 0 || b.query != a.query || fieldsOf(a.invalid) != fieldsOf(b.invalid) || fieldsOf(a.refused) != fieldsOf(b.refused) {
			t.Fatalf("%q → %q → %q: cfg equal %v, dropped %v, invalid %s / %s, refused %s / %s",
				q, a.query, b.query, a.cfg == b.cfg, b.dropped, fieldsOf(a.invalid), fieldsOf(b.invalid), fieldsOf(a.refused), fieldsOf(b.refused))
		}
		// The controls' own query reads as the URL's.
		c := readQuery(inputsQuery(a.inputs))
		if c.cfg != a.cfg || fieldsOf(c.invalid) != fieldsOf(a.invalid) {
			t.Fatalf("%q: the controls' query %q runs otherwise (invalid %s / %s)", q, inputsQuery(a.inputs), fieldsOf(a.invalid), fieldsOf(c.invalid))
		}
	}
}

func fieldsOf(es sim.Errors) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Field)
	}
	return strings.Join(s, ",")
}

// randomQuery draws a query of valid, invalid, unknown and repeated keys.
func randomQuery(r *rand.Rand) string {
	values := map[string][]string{
		"preset":      {"bench", "tcp", "note60", "clients10", "nope"},
		"rate":        {"1000", "2000.5", "0", "abc", "10000000"},
		"service":     {"10us", "1ms", "-1s", "25h", "0s"},
		"stall":       {"0s", "100ms", "2s", "x"},
		"every":       {"1s", "0s", "500ms"},
		"first":       {"0s", "1s", "oops"},
		"duration":    {"1s", "10s", "0s", "1h"},
		"interval":    {"auto", "1ms", "-1ms"},
		"conns":       {"1", "4", "0", "10001"},
		"workers":     {"1", "unlimited", "3", "-2"},
		"rank":        {"round", "ceil", "floor"},
		"arrivals":    {"poisson", "ramp", "burst", "constant", "wave"},
		"dist":        {"lognormal", "uniform", "exponential", "fixed"},
		"service_p95": {"2ms", "1ns"},
		"service_max": {"1ms", "0s"},
		"to":          {"3000", "-1"},
		"bursts":      {"1s-2s@9000", "2s-1s@5"},
		"seed":        {"7", "x"},
		"zz":          {"1"},
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	var parts []string
	for n := r.IntN(6); n > 0; n-- {
		k := keys[r.IntN(len(keys))]
		vs := values[k]
		parts = append(parts, k+"="+url.QueryEscape(vs[r.IntN(len(vs))]))
	}
	return strings.Join(parts, "&")
}

// TestCompanions: choosing a distribution or an arrival pattern that needs
// a companion value gives one that runs; leaving it clears it.
func TestCompanions(t *testing.T) {
	for _, d := range sim.Dependents() {
		st := readQuery("")
		inputs := append([]string(nil), st.inputs...)
		i := fieldIndex(d.Owner)
		inputs[i] = d.Choice
		withCompanions(inputs, i, st.cfg)
		got := readQuery(inputsQuery(inputs))
		if len(got.invalid) > 0 || len(got.refused) > 0 {
			t.Errorf("%s=%s with %s=%q: %v %v", d.Owner, d.Choice, d.Field, inputs[fieldIndex(d.Field)], got.invalid, got.refused)
		}
		if sim.Fields()[i] == "dist" && got.cfg.Dist == sim.ServiceFixed || sim.Fields()[i] == "arrivals" && got.cfg.Arrivals == sim.ArrivalsConstant {
			t.Errorf("%s=%s did not take effect", d.Owner, d.Choice)
		}
		inputs[i] = got.inputs[i]
		back := append([]string(nil), inputs...)
		back[i] = readQuery("").inputs[i]
		withCompanions(back, i, got.cfg)
		if again := readQuery(inputsQuery(back)); len(again.invalid) > 0 || again.cfg != st.cfg {
			t.Errorf("leaving %s=%s: %v, runs %+v", d.Owner, d.Choice, again.invalid, again.cfg)
		}
	}
}

// inputsQuery is the query the controls hold, written.
func inputsQuery(inputs []string) string { return inputsAddress(inputs, address.Address{}).String() }

// TestReadQueryOneEscaping: a valid value with ',' or '@' is written as the
// simulator writes it (unescaped), whether or not another field is invalid.
func TestReadQueryOneEscaping(t *testing.T) {
	for _, c := range []struct{ valid, invalid, want string }{
		{"outages=5s-6s,7s-8s", "rate=abc", "rate=abc&outages=5s-6s,7s-8s"},
		{"arrivals=burst&bursts=1s-2s@9000,3s-4s@5000", "conns=0", "conns=0&arrivals=burst&bursts=1s-2s@9000,3s-4s@5000"},
	} {
		alone := readQuery(c.valid)
		if len(alone.invalid) > 0 || alone.query != c.valid || alone.canon != c.valid {
			t.Errorf("%s: invalid %v, query %q, canon %q", c.valid, alone.invalid, alone.query, alone.canon)
		}
		// Escaped as url.QueryEscape writes it, the same value reads the
		// same and is written back as the simulator writes it.
		for _, q := range []string{c.valid + "&" + c.invalid, c.invalid + "&" + strings.NewReplacer(",", "%2C", "@", "%40").Replace(c.valid)} {
			st := readQuery(q)
			if len(st.invalid) != 1 || st.query != c.want || st.addr.String() != c.want {
				t.Errorf("%s: invalid %v, query %q, address %q, want %q", q, st.invalid, st.query, st.addr, c.want)
			}
		}
	}
}

// TestReadQueryCleanIsCanon: when nothing is invalid or refused, the URL's
// simulator fields are the canonical query, and each control holds the
// canonical writing of its field read on its own over the preset (what
// readFields takes from cfg instead of reading each field again).
func TestReadQueryCleanIsCanon(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	clean := 0
	for i := 0; i < 2000; i++ {
		q := randomQuery(r)
		st := readQuery(q)
		if len(st.invalid) > 0 || len(st.refused) > 0 {
			continue
		}
		clean++
		if st.query != st.canon {
			t.Fatalf("%q: the URL's fields %q, the canonical query %q", q, st.query, st.canon)
		}
		in := address.ParseAddress(q)
		for i, name := range fieldNames {
			v, ok := in.Given(name)
			if !ok || name == "preset" {
				continue
			}
			if canon, fe := sim.CanonicalField(st.inputs[fieldIndex("preset")], name, v); fe != nil || st.inputs[i] != canon {
				t.Fatalf("%q: %s shows %q, read on its own %q (%v)", q, name, st.inputs[i], canon, fe)
			}
		}
	}
	if clean < 200 {
		t.Fatalf("only %d of 2000 random queries are clean", clean)
	}
}

// TestReadQueryConflict: fields valid alone and not together are all
// marked, the controls and the URL keep the reader's values, and the state
// is refused: nothing runs (issue 26's reproductions).
func TestReadQueryConflict(t *testing.T) {
	for _, c := range []struct {
		q, want string            // the query, and the URL's fields after it
		marked  []string          // the fields in conflict
		boxes   map[string]string // what the controls show
	}{
		// Rate slid to 20000, then 100ms typed into "Stall every".
		{"rate=20000&every=100ms", "rate=20000&every=100ms", []string{"stall", "every"},
			map[string]string{"rate": "20000", "every": "100ms", "stall": "200ms"}},
		{"service=24h&stall=24h", "service=24h&stall=24h", []string{"stall", "every"},
			map[string]string{"service": "24h", "stall": "24h", "every": "1s"}},
		{"dist=lognormal&service_p95=50us", "dist=lognormal&service_p95=50us", []string{"service_p95", "service"},
			map[string]string{"dist": "lognormal", "service_p95": "50us", "service": "100us"}},
	} {
		st := readQuery(c.q)
		if st.query != c.want || st.addr.String() != c.want {
			t.Errorf("%s: the URL holds %q (address %q), want %q", c.q, st.query, st.addr, c.want)
		}
		for _, f := range c.marked {
			if fe := st.refused.Field(f); fe == nil || fe.Reason != sim.ReasonConflict {
				t.Errorf("%s: %s is not marked as a conflict: refused %v", c.q, f, st.refused)
			}
			if st.errs().Field(f) == nil {
				t.Errorf("%s: the controls get no message for %s", c.q, f)
			}
		}
		for f, v := range c.boxes {
			if got := st.inputs[fieldIndex(f)]; got != v {
				t.Errorf("%s: the %s box shows %q, want %q", c.q, f, got, v)
			}
		}
		r := refusalOf(st.refused)
		if !r.On || !r.Conflict || joinAnd(r.Fields) != joinAnd(c.marked) {
			t.Errorf("%s: refusal %+v", c.q, r)
		}
		if st.cfg == sim.Default() {
			t.Errorf("%s: the state holds the preset's run", c.q)
		}
	}
}

// TestReadQueryFallbackRefused: an invalid field takes the preset's value,
// and when the run is then over a limit (the simulator's or the page's
// budget), it is refused, not shown as the preset's run; the invalid text
// stays in the URL.
func TestReadQueryFallbackRefused(t *testing.T) {
	for _, q := range []string{
		"conns=abc&rate=10000000&duration=24h&stall=1us&every=2us&first=0s",
		"conns=abc&rate=10000000&service=1ns&stall=1ms&every=30ms&duration=24h",
	} {
		st := readQuery(q)
		if st.invalid.Field("conns") == nil || len(st.refused) == 0 || st.refused[0].Field != "duration" || st.refused[0].Reason != sim.ReasonLimit {
			t.Errorf("%s: invalid %v refused %v", q, st.invalid, st.refused)
		}
		if !strings.Contains(st.query, "conns=abc") || st.cfg.Rate != sim.MaxRate {
			t.Errorf("%s: URL %q, rate %v", q, st.query, st.cfg.Rate)
		}
		if r := refusalOf(st.refused); !r.On || r.Conflict || !strings.Contains(r.what(), "over a limit: change duration") {
			t.Errorf("%s: refusal %+v says %q", q, r, r.what())
		}
	}
}

// TestReadQueryRampWithoutTo: arrivals=ramp without to is marked and runs
// without the ramp until to is given; choosing ramp in the controls gives a
// to that runs.
func TestReadQueryRampWithoutTo(t *testing.T) {
	st := readQuery("arrivals=ramp&seed=3")
	fe := st.invalid.Field("to")
	if fe == nil || fe.Reason != sim.ReasonRequired || !strings.Contains(fe.Error(), "required with arrivals=ramp") || len(st.refused) > 0 {
		t.Fatalf("arrivals=ramp: invalid %v refused %v", st.invalid, st.refused)
	}
	if st.cfg.Arrivals != sim.ArrivalsConstant || st.cfg.Seed != 3 || st.inputs[fieldIndex("to")] != "" || st.inputs[fieldIndex("arrivals")] != "ramp" {
		t.Errorf("runs %v seed %d, boxes to %q arrivals %q", st.cfg.Arrivals, st.cfg.Seed, st.inputs[fieldIndex("to")], st.inputs[fieldIndex("arrivals")])
	}
	inputs := append([]string(nil), readQuery("").inputs...)
	i := fieldIndex("arrivals")
	inputs[i] = "ramp"
	withCompanions(inputs, i, sim.Default())
	if got := readQuery(inputsQuery(inputs)); len(got.invalid) > 0 || got.cfg.Arrivals != sim.ArrivalsRamp || got.cfg.RateTo != sim.RateOf(10000) {
		t.Errorf("choosing ramp: to %q, invalid %v, runs %v to %v", inputs[fieldIndex("to")], got.invalid, got.cfg.Arrivals, got.cfg.RateTo)
	}
	// At the largest rate, the companion stays in range.
	top := sim.Default()
	top.Rate = sim.MaxRate
	for _, f := range []string{"to", "bursts"} {
		if _, fe := sim.CanonicalField("bench", f, companionDefault(f, top)); fe != nil {
			t.Errorf("%s's default at the largest rate: %v", f, fe)
		}
	}
}
