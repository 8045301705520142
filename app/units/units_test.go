package units

import (
	"math"
	"slices"
	"testing"
)

func TestDuration(t *testing.T) {
	for ns, want := range map[float64]string{
		0: "0 s", 1: "1 ns", 999: "999 ns", 1000: "1 µs", 100e3: "100 µs", 195.1e6: "195.1 ms",
		1234567: "1.235 ms", 1.25e9: "1.25 s", 999.4e9: "999.4 s", 1000e9: "16.67 min",
		445499980.2e9: "5156 d", 3600e9 * 24: "24 h", -20e6: "-20 ms", 149963.759: "150 µs", 149123: "149.1 µs",
		16786114.35: "16.79 ms", 200100000: "200.1 ms", 1001000000: "1.001 s", 20e9: "20 s",
		math.NaN(): "—", math.Inf(1): "—",
	} {
		if got := Duration(ns); got != want && !(math.IsNaN(ns) && got == "—") {
			t.Errorf("Duration(%v) = %q, want %q", ns, got, want)
		}
	}
	if got := DurationSig(195.1e6, 3); got != "195 ms" {
		t.Errorf("3 digits: %q", got)
	}
}

// TestAppendDuration: AppendDuration writes what Duration does after what
// dst holds (a point in it is not the number's), without allocating.
func TestAppendDuration(t *testing.T) {
	for _, ns := range []float64{0, 1, 999, 1000, 100e3, 195.1e6, 1234567, 1.25e9, 1000e9, 3600e9 * 24, -20e6, 149963.759, math.NaN()} {
		if got, want := string(AppendDuration([]byte("t 1.0 ("), ns)), "t 1.0 ("+Duration(ns); got != want {
			t.Errorf("AppendDuration(%v) = %q, want %q", ns, got, want)
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = AppendDuration(buf[:0], 195.1e6) }); n != 0 {
		t.Errorf("AppendDuration allocates %v times", n)
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Count(100000), "100,000"}, {Count(-1234567), "-1,234,567"}, {Count(12), "12"},
		{Exact(195100000), "195,100,000"}, {Exact(149963.759), "149,963.759"}, {ExactNs(1e3), "1,000 ns"},
		{Share(0.3982), "39.8%"}, {Share(0.0002), "0.02%"}, {Share(0.00025), "0.025%"}, {Share(0.000201), "0.0201%"}, {Share(1), "100%"}, {Share(0), "0%"},
		{Decimals(12.3456), "12.35"}, {Decimals(195.12), "195.1"}, {Decimals(0.0004), "0"},
		{Bytes(812), "812 B"}, {Bytes(3669), "3.67 kB"}, {Bytes(int64(14_912_345)), "14.9 MB"}, {Bytes(999_600), "1 MB"}, {Bytes(1000), "1 kB"},
		{Raw(0.1), "0.1"}, {Plural(1, "worker"), "1 worker"}, {Plural(1000, "stall"), "1,000 stalls"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		num, den float64
		want     string
		ok       bool
	}{{1951e5, 1e5, "1951×", true}, {19.5, 1, "19.5×", true}, {1, 1, "1×", true}, {0, 0, "1×", true}, {1, 0, "—", false}} {
		if got, ok := Ratio(c.num, c.den); got != c.want || ok != c.ok {
			t.Errorf("Ratio(%v, %v) = %q %v", c.num, c.den, got, ok)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct {
		span float64
		n    int
		want float64
	}{{100, 10, 10}, {100, 4, 20}, {100, 3, 50}, {1, 1, 1}, {0, 5, 1}, {7e9, 6, 1e9}} {
		if got := NiceStep(c.span, c.n); got != c.want {
			t.Errorf("NiceStep(%v, %d) = %v, want %v", c.span, c.n, got, c.want)
		}
	}
}

// TestLadder: the ladder's round numbers in range, the small counts first,
// and a step as a spin button takes it (off the ladder to a neighbour, no
// further than an end).
func TestLadder(t *testing.T) {
	if got := Ladder(1, 100, 1, 0); !slices.Equal(got, []int64{1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50, 80, 100}) {
		t.Errorf("Ladder(1, 100, 1, 0) = %v", got)
	}
	if got := Ladder(1, 20, 1, 10); !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 20}) {
		t.Errorf("Ladder(1, 20, 1, 10) = %v", got)
	}
	if got := Ladder(4000_000, 10000_000, 1000, 0); !slices.Equal(got, []int64{4000_000, 5000_000, 6250_000, 8000_000, 10000_000}) {
		t.Errorf("rates: %v", got)
	}
	l := []int64{10, 20, 50}
	for _, c := range []struct {
		v     int64
		steps int
		want  int64
	}{{20, 1, 50}, {20, -1, 10}, {15, 1, 20}, {15, -1, 10}, {60, 1, 60}, {60, -1, 50}, {5, -1, 5}, {5, 1, 10}, {10, 5, 50}, {50, -9, 10}} {
		if got := Step(l, c.v, c.steps); got != c.want {
			t.Errorf("Step(%v, %d, %d) = %d, want %d", l, c.v, c.steps, got, c.want)
		}
	}
}
