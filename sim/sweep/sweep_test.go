package sweep

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"omission/sim"
)

func TestParseSweep(t *testing.T) {
	for _, c := range []struct{ spec, canon, values string }{
		{"stall:0..900ms/4", "stall:0s..900ms/4", "0s 300ms 600ms 900ms"},
		{"stall:0..900ms/25ms", "stall:0s..900ms/25ms", "0s 25ms 50ms 75ms 100ms 125ms 150ms 175ms 200ms 225ms 250ms 275ms 300ms 325ms 350ms 375ms 400ms 425ms 450ms 475ms 500ms 525ms 550ms 575ms 600ms 625ms 650ms 675ms 700ms 725ms 750ms 775ms 800ms 825ms 850ms 875ms 900ms"},
		{"stall:0..100ms/30ms", "stall:0s..100ms/30ms", "0s 30ms 60ms 90ms"}, // a step stops at or before to
		{"stall:0..1s/3", "stall:0s..1s/3", "0s 500ms 1s"},
		{"stall:0..1ms/7", "stall:0s..1ms/7", "0s 166667ns 333333ns 500us 666667ns 833333ns 1ms"}, // rounded half up
		{"conns:1..64/x2", "conns:1..64/x2", "1 2 4 8 16 32 64"},
		{"conns:1..100/x2", "conns:1..100/x2", "1 2 4 8 16 32 64"},
		{"conns:10..100/x1.5", "conns:10..100/x1.5", "10 15 23 34 51 76"},
		{" rate:1000..5000/1000/s", "rate:1000..5000/1000/s", "1000 2000 3000 4000 5000"},
		{"rate:0.5..10/x1.5", "rate:0.5..10/x1.5", "0.5 0.75 1.125 1.688 2.531 3.797 5.695 8.543"},
		{"service:100us..0.3ms/3", "service:100us..300us/3", "100us 200us 300us"},
		{"queue:0..100/5", "queue:0..100/5", "0 25 50 75 100"},
		{"seed:1..3/3", "seed:1..3/3", "1 2 3"},
	} {
		s, err := Parse(c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		if s.String() != c.canon {
			t.Errorf("%s: canonical %q, want %q", c.spec, s.String(), c.canon)
		}
		if got := strings.Join(s.Values(), " "); got != c.values {
			t.Errorf("%s: values %s, want %s", c.spec, got, c.values)
		}
		again, err := Parse(s.String())
		if err != nil || !reflect.DeepEqual(again.Values(), s.Values()) || again.String() != s.String() {
			t.Errorf("%s: its canonical text %q reads back as %v, %v", c.spec, s.String(), again.Values(), err)
		}
	}
}

func TestParseSweepErrors(t *testing.T) {
	for _, c := range []struct{ spec, why string }{
		{"", "no field"},
		{"stall", "no field"},
		{"nope:1..2/2", `"nope" is no field of the query; a sweep moves one of rate, service, stall`},
		{"rank:round..ceil/2", "rank is a choice (round, ceil), not a number"},
		{"arrivals:constant..ramp/2", "arrivals is a choice"},
		{"outages:1s-2s..3s-4s/2", "outages is a list of windows"},
		{"stall:0..900ms", "no range from..to and form after it"},
		{"stall:0-900ms/3", "no range from..to"},
		{"stall:0..90h/3", `to "90h": allowed 0s to 24h`},
		{"stall:-1s..1s/3", `from "-1s": allowed 0s to 24h`},
		{"rate:0..5000/3", `from "0": allowed 0.001 to 10000000 requests per second`},
		{"stall:1s..1s/3", "from 1s must be below to 1s"},
		{"stall:1s..0s/3", "from 1s must be below to 0s"},
		{"stall:0..900ms/1", `"1" points: allowed 2 to 200 points`},
		{"stall:0..900ms/201", `"201" points: allowed 2 to 200 points`},
		{"stall:0..900ms/1us", "makes 900001 points: at most 200"},
		{"stall:0..900ms/0s", `the step "0s": allowed a duration above 0`},
		{"stall:0..900ms/fast", `the step "fast"`},
		{"rate:1000..5000/500", `"500" points: allowed 2 to 200 points`}, // a bare number is points; a rate's step is 500/s
		{"rate:1000..5000/5/m", `the step "5/m": allowed a rate above 0 with its unit, as 500/s`},
		{"conns:1..64/2x", `conns is a count, swept by a number of points (/10) or a factor (/x2)`},
		{"conns:1..64/x1", `the factor "x1": allowed x followed by a number above 1`},
		{"conns:1..64/x1.0001", `the factor "x1.0001"`},
		{"queue:0..100/x2", "a geometric series starts above 0 (from is 0)"},
		{"conns:1..5/10", "1 twice: the points repeat once rounded to whole numbers"},
		{"conns:1..10000/x1.001", "1 twice"},
		{"stall:1ms..24h/x1.01", "makes more than 200 points"},
		{"workers:0..5/3", `from "0" means workers=unlimited, not a number`},
		{"interval:0s..10ms/3", `from "0s" means interval=auto, not a number`},
	} {
		_, err := Parse(c.spec)
		if err == nil {
			t.Errorf("%q: no error", c.spec)
			continue
		}
		fe, ok := err.(*sim.FieldError)
		msg := err.Error()
		if !ok || fe.Field != "sweep" || !strings.HasPrefix(msg, "sweep: ") {
			t.Errorf("%q: %T %v, want a sim.FieldError on sweep", c.spec, err, err)
		}
		if c.spec != "" && !strings.Contains(msg, sim.Quote(c.spec)) {
			t.Errorf("%q: message does not quote the text: %s", c.spec, msg)
		}
		if !strings.Contains(msg, c.why) || !strings.Contains(msg, "allowed <field>:<from>..<to>/<n>") {
			t.Errorf("%q: message %q lacks %q or the allowed form", c.spec, msg, c.why)
		}
	}
}

// TestSweepPoints checks the points over a base: the field set, the rest
// kept, the canonical query, and a point refused alone (by Validate, by a
// budget) with its reason.
func TestSweepPoints(t *testing.T) {
	base, err := sim.ParseQuery("preset=tcp&duration=2s&every=1s&above=5ms")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("stall:0..1s/5")
	if err != nil {
		t.Fatal(err)
	}
	ps := s.Points(base, nil)
	want := []string{
		"preset=tcp&stall=0s&every=1s&duration=2s&above=5ms",
		"preset=tcp&stall=250ms&every=1s&duration=2s&above=5ms",
		"preset=tcp&every=1s&duration=2s&above=5ms",
		"preset=tcp&stall=750ms&every=1s&duration=2s&above=5ms",
		"preset=tcp&stall=1s&every=1s&duration=2s&above=5ms",
	}
	if len(ps) != len(want) {
		t.Fatalf("%d points, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		if p.Query != want[i] || p.Config.Query() != p.Query {
			t.Errorf("point %d: query %q, want %q", i, p.Query, want[i])
		}
		if p.PointReport != nil {
			t.Errorf("point %d: run by Points", i)
		}
	}
	if ps[2].Value != "500ms" || ps[2].X != 500e6 || ps[2].Config.Stall != 500e6 || ps[2].Config.Every != 1e9 {
		t.Errorf("point 2: %+v", ps[2])
	}
	for i := 0; i < 4; i++ {
		if ps[i].Refused != "" {
			t.Errorf("point %d refused: %s", i, ps[i].Refused)
		}
	}
	if r := ps[4].Refused; !strings.Contains(r, "stall") || !strings.Contains(r, "must be shorter than every") {
		t.Errorf("the 1s point: refused %q, want stall ≥ every", r)
	}

	// A budget refuses the long points one by one.
	d, err := Parse("duration:1s..64s/x4")
	if err != nil {
		t.Fatal(err)
	}
	b := sim.Budget{Where: "the test", Work: 1e6, Bytes: 1 << 30, Elsewhere: "elsewhere"}
	var ran, refused []string
	for _, p := range d.Points(base, &b) {
		if p.Refused == "" {
			ran = append(ran, p.Value)
		} else {
			refused = append(refused, p.Value)
			if p.Config.Within(b) == nil || !strings.Contains(p.Refused, "limit of the test") {
				t.Errorf("%s: refused %q", p.Value, p.Refused)
			}
		}
	}
	if len(ran) == 0 || len(refused) == 0 {
		t.Errorf("budget: ran %v, refused %v: want some of each", ran, refused)
	}
}

// TestSweepRunDeterministic runs one sweep twice: the same JSON.
func TestSweepRunDeterministic(t *testing.T) {
	base, _ := sim.ParseQuery("duration=1s")
	s, err := Parse("conns:1..8/x2")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(s.Run(base, nil))
	b, _ := json.Marshal(s.Run(base, nil))
	if string(a) != string(b) {
		t.Errorf("two runs of one sweep differ")
	}
	res := s.Run(base, nil)
	if res.Field != "conns" || res.Spec != "conns:1..8/x2" || res.Query != "duration=1s" || res.Value != "1" || res.Refused() != 0 || len(res.Points) != 4 {
		t.Errorf("result %+v", res)
	}
	if x, ok := res.BaseNumber(); !ok || x != 1 {
		t.Errorf("base number %v %v", x, ok)
	}
}

// sweepCase draws a random sweep of one field over a random base.
type sweepCase struct{ field, lo, hi string }

var sweepCases = []sweepCase{
	{"stall", "0", "1200ms"}, {"service", "10us", "900us"}, {"rate", "500", "8000"},
	{"conns", "1", "8"}, {"workers", "1", "4"}, {"first", "0", "900ms"},
	{"every", "300ms", "2s"}, {"above", "100us", "50ms"}, {"duration", "200ms", "1500ms"},
	{"interval", "1ms", "20ms"}, {"timeout", "1ms", "300ms"}, {"seed", "0", "1000"},
}

func randomSweep(rng *rand.Rand) (base, spec string) {
	parts := []string{"preset=" + []string{"bench", "tcp"}[rng.Intn(2)], fmt.Sprintf("duration=%dms", 300+rng.Intn(900))}
	if rng.Intn(3) == 0 {
		parts = parts[:1] // the preset's 20 s: long enough for runPoint to take the long path
	}
	switch rng.Intn(4) {
	case 0:
		parts = append(parts, fmt.Sprintf("conns=%d", 1+rng.Intn(4)))
	case 1:
		parts = append(parts, fmt.Sprintf("workers=%d", 1+rng.Intn(3)))
	case 2:
		parts = append(parts, "arrivals=poisson", fmt.Sprintf("seed=%d", rng.Intn(100)))
	}
	c := sweepCases[rng.Intn(len(sweepCases))]
	form := fmt.Sprint(2 + rng.Intn(5))
	switch {
	case rng.Intn(3) == 0 && c.lo != "0":
		form = []string{"x2", "x1.5", "x3"}[rng.Intn(3)]
	case rng.Intn(3) == 0 && c.field == "stall":
		form = fmt.Sprintf("%dms", 150+rng.Intn(300))
	}
	return strings.Join(parts, "&"), c.field + ":" + c.lo + ".." + c.hi + "/" + form
}

// TestSweepTruth holds every point of random sweeps to the report of its
// own query, run through the normal path: the same numbers to the digit
// (the JSON of every key the point keeps), and a refused point refused by
// that path too.
func TestSweepTruth(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	rounds := 40
	if testing.Short() {
		rounds = 6
	}
	// A budget smaller than the page's, so that some points pass it.
	b := sim.Budget{Where: "the test", Work: 1.5e7, Bytes: 512 << 20, Elsewhere: "a larger budget"}
	points, refused, event, long := 0, 0, 0, 0
	for r := 0; r < rounds; r++ {
		q, spec := randomSweep(rng)
		if r == 0 {
			q, spec = "preset=bench&duration=2s", "stall:0..1s/5" // stall 1s = every: refused
		}
		base, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		s, err := Parse(spec)
		if err != nil {
			if !strings.Contains(err.Error(), "twice") { // more points than whole numbers
				t.Fatalf("%s: %v", spec, err)
			}
			continue
		}
		res := s.Run(base, &b)
		for _, p := range res.Points {
			points++
			if p.Refused != "" {
				refused++
			} else if p.Engine == "event" {
				event++
			} else if pointTakesLong(p.Config) {
				long++
			}
			checkPoint(t, q+" sweep="+spec, s, p, b)
		}
	}
	t.Logf("%d points: %d refused, %d through the event engine, %d walked by Run and run by the long path here", points, refused, event, long)
	if !testing.Short() && (refused == 0 || event == 0 || long == 0 || refused+event+long == points) {
		t.Errorf("the random sweeps do not reach refused, event-driven, long-path and walked points")
	}
}

// checkPoint holds one point to its query's own report.
func checkPoint(t *testing.T, where string, s Sweep, p Point, b sim.Budget) {
	t.Helper()
	where += " at " + p.Value
	cfg, err := sim.ParseQuery(p.Query)
	if p.Refused != "" {
		if err == nil {
			if fe := cfg.Within(b); fe != nil {
				err = fe
			} else {
				_, err = sim.Run(cfg)
			}
		}
		if err == nil {
			t.Errorf("%s: refused (%s) but its query %q runs", where, p.Refused, p.Query)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: its query %q: %v", where, p.Query, err)
	}
	if got := fieldText(cfg, s.Field); got != p.Value {
		t.Errorf("%s: its query sets %s=%s", where, s.Field, got)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var full, mine map[string]json.RawMessage
	fj, _ := json.Marshal(res.Report())
	pj, _ := json.Marshal(p)
	if json.Unmarshal(fj, &full) != nil || json.Unmarshal(pj, &mine) != nil {
		t.Fatal("JSON")
	}
	for _, k := range []string{"hash", "engine", "exact", "planned", "clients", "recordings", "passed", "failed", "query"} {
		if string(mine[k]) != string(full[k]) || len(mine[k]) == 0 {
			t.Errorf("%s: %s is %s, its own report's %s", where, k, mine[k], full[k])
		}
	}
	if string(mine["value"]) != fmt.Sprintf("%q", p.Value) {
		t.Errorf("%s: value %s", where, mine["value"])
	}
}

// BenchmarkSweep is a 50-point sweep of the bench preset over the stall
// length, every point run: make bench prints it as sweep.bench_stall50.
func BenchmarkSweep(b *testing.B) {
	s, err := Parse("stall:0..900ms/50")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("bench_stall50", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if res := s.Run(sim.Default(), nil); res.Refused() != 0 || len(res.Points) != 50 {
				b.Fatal("not 50 points run")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms")
	})
}

// TestGeometricSeriesExact: the geometric series' own arithmetic (nat) is
// math/big's, for random ends and factors.
func TestGeometricSeriesExact(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 300; n++ {
		from, k := 1+rng.Int63n(1e9), 1001+rng.Int63n(5000)
		to := from * (2 + rng.Int63n(1e4))
		num, den := nat{uint64(from)}, nat{1}
		bn, bd := big.NewInt(from), big.NewInt(1)
		for i := 0; i < 200; i++ {
			q := new(big.Int).Add(new(big.Int).Mul(bn, big.NewInt(2)), bd)
			q.Quo(q, new(big.Int).Mul(bd, big.NewInt(2)))
			got, ok := num.roundQuo(den, uint64(to))
			if want := q.Cmp(big.NewInt(to)) <= 0; ok != want || ok && got != q.Int64() {
				t.Fatalf("from %d, k %d, to %d, step %d: got %d (%v), want %s", from, k, to, i, got, ok, q)
			}
			if !ok {
				break
			}
			num, den = num.mulWord(uint64(k)), den.mulWord(1000)
			bn.Mul(bn, big.NewInt(k))
			bd.Mul(bd, big.NewInt(1000))
		}
	}
}
