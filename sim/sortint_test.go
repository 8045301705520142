package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortInt64s holds SortInt64s to slices.Sort on inputs of every shape
// that matters to a quicksort: random, few distinct values, sorted, reversed,
// all equal, organ pipe and the extremes, at lengths around the insertion
// sort's cut-off and large ones; and heapSortInt64s (the deep-recursion
// fallback) on its own.
func TestSortInt64s(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	gens := map[string]func(i, n int) int64{
		"random":   func(i, n int) int64 { return rng.Int64() - math.MaxInt64/2 },
		"few":      func(i, n int) int64 { return rng.Int64N(3) },
		"sorted":   func(i, n int) int64 { return int64(i) },
		"reversed": func(i, n int) int64 { return int64(n - i) },
		"equal":    func(i, n int) int64 { return 42 },
		"pipe":     func(i, n int) int64 { return int64(min(i, n-i)) },
		"extremes": func(i, n int) int64 { return []int64{math.MinInt64, math.MaxInt64, 0}[rng.IntN(3)] },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 3, 11, 12, 13, 14, 31, 100, 1000, 4097, 100000} {
			a := make([]int64, n)
			for i := range a {
				a[i] = gen(i, n)
			}
			want := slices.Clone(a)
			slices.Sort(want)
			got := slices.Clone(a)
			SortInt64s(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s, n = %d: SortInt64s differs from slices.Sort", name, n)
			}
			heap := slices.Clone(a)
			heapSortInt64s(heap)
			if !slices.Equal(heap, want) {
				t.Errorf("%s, n = %d: heapSortInt64s differs from slices.Sort", name, n)
			}
			shallow := slices.Clone(a)
			introSortInt64s(shallow, 1) // heapsort after one partition
			if !slices.Equal(shallow, want) {
				t.Errorf("%s, n = %d: introSortInt64s at depth 1 differs from slices.Sort", name, n)
			}
		}
	}
}

func BenchmarkSortInt64s(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int64, 100000)
	for i := range src {
		src[i] = rng.Int64N(1e6)
	}
	a := make([]int64, len(src))
	b.Run("SortInt64s", func(b *testing.B) {
		for range b.N {
			copy(a, src)
			SortInt64s(a)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for range b.N {
			copy(a, src)
			slices.Sort(a)
		}
	})
}
