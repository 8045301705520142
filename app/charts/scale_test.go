package charts

import (
	"math"
	"omission/app/units"
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

func TestPercentileScale(t *testing.T) {
	var s PercentileScale
	max := ninesToP(5) // 99.999%
	for _, c := range []struct{ p, want float64 }{
		{0, 0}, {0.9, 0.2}, {0.99, 0.4}, {0.999, 0.6}, {0.9999, 0.8}, {max, 1},
	} {
		if got := s.Normalize(0, max, c.p); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Normalize(0, 99.999%%, %g) = %g, want %g", c.p, got, c.want)
		}
	}
	// Never a panic, never NaN: p = 1, p > 1, p < 0, an empty range.
	for _, p := range []float64{1, 2, -1, math.Inf(1)} {
		if got := s.Normalize(0, max, p); math.IsNaN(got) {
			t.Errorf("Normalize(%g) = NaN", p)
		}
	}
	if got := s.Normalize(0.5, 0.5, 0.5); got != 0 {
		t.Errorf("empty range: %g", got)
	}
}

func TestPercentileTicks(t *testing.T) {
	ticks := PercentileTicks{}.Ticks(0, ninesToP(5))
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if len(ticks) != len(want)+5*2 {
		t.Errorf("%d ticks, want %d (2 minor per decade)", len(ticks), len(want)+5*2)
	}
	// 1/(1-p) = 2 is the first minor tick: p = 50%.
	if !slices.ContainsFunc(ticks, func(tk plot.Tick) bool { return math.Abs(tk.Value-0.5) < 1e-12 && tk.Label == "" }) {
		t.Errorf("no minor tick at 50%%")
	}
	every := PercentileTicks{Every: 2}.Ticks(0, ninesToP(5))
	labels = labels[:0]
	for _, tk := range every {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if !slices.Equal(labels, []string{"0%", "99%", "99.99%"}) {
		t.Errorf("every 2: %q", labels)
	}
	if got := PercentLabel(7); got != "99.99999%" {
		t.Errorf("PercentLabel(7) = %q", got)
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0 s"}, {1, "1 ns"}, {999, "999 ns"}, {1000, "1 µs"}, {100_000, "100 µs"},
		{199_900_000, "199.9 ms"}, {200_050_000, "200.1 ms"}, {1_250_000_000, "1.25 s"},
		{20_000_000_000, "20 s"}, {123_456, "123.5 µs"},
	} {
		if got := units.Duration(c.ns); got != c.want {
			t.Errorf("units.Duration(%d) = %q, want %q", c.ns, got, c.want)
		}
	}
}

func labelsOf(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestTickers(t *testing.T) {
	cases := []struct {
		name string
		tk   plot.Ticker
		min  float64
		max  float64
		want []string
	}{
		{"log latency", durationTicks{log: true}, 1e5, 2.6e8, []string{"100 µs", "1 ms", "10 ms", "100 ms"}},
		{"linear latency", durationTicks{n: 4}, 0, 216e6, []string{"0", "50 ms", "100 ms", "150 ms", "200 ms"}},
		{"time", durationTicks{n: 6}, 0, 20e9, []string{"0", "5 s", "10 s", "15 s", "20 s"}},
		{"short time", durationTicks{n: 6}, 0, 1e6, []string{"0", "0.2 ms", "0.4 ms", "0.6 ms", "0.8 ms", "1.0 ms"}},
		{"log share", shareTicks{log: true}, 1e-6, 1.6, []string{"0.0001%", "0.001%", "0.01%", "0.1%", "1%", "10%", "100%"}},
		{"cdf", shareTicks{}, 0, 1.02, []string{"0%", "20%", "40%", "60%", "80%", "100%"}},
		{"count", countTicks{}, 0, 1.08, []string{"0", "1"}},
		{"counts", countTicks{}, 0, 1081, []string{"0", "200", "400", "600", "800", "1000"}},
	}
	for _, c := range cases {
		if got := labelsOf(c.tk.Ticks(c.min, c.max)); !slices.Equal(got, c.want) {
			t.Errorf("%s [%g, %g]: %q, want %q", c.name, c.min, c.max, got, c.want)
		}
	}
	// Degenerate ranges give no panic.
	for _, tk := range []plot.Ticker{durationTicks{log: true}, durationTicks{}, shareTicks{}, shareTicks{log: true}, countTicks{}, PercentileTicks{}} {
		tk.Ticks(0, 0)
		tk.Ticks(1, 1)
		tk.Ticks(5, 1)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{units.Count(0), "0"}, {units.Count(999), "999"}, {units.Count(1000), "1,000"}, {units.Count(-1234567), "-1,234,567"},
		{units.Share(0.199), "19.9%"}, {units.Share(0.0002), "0.02%"}, {units.Share(1), "100%"}, {units.Share(0), "0%"},
		{units.Share(0.000201), "0.0201%"}, {sharePercent(1e-6), "0.0001%"}, {pname("p99_99"), "p99.99"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
