package sim

import "math/bits"

// SortInt64s sorts a into increasing order. The result is slices.Sort's
// (int64 values that compare equal are the same value, so any correct sort
// gives the same slice); it exists so that app.wasm carries one int64 sort,
// not a generic pdqsort instantiation besides the ones the standard library
// brings. It is an introsort: quicksort with a median-of-three pivot and
// Hoare's partition (which splits runs of equal values evenly), insertion
// sort for short ranges and heapsort when the recursion runs too deep.
func SortInt64s(a []int64) {
	introSortInt64s(a, 2*bits.Len(uint(len(a))))
}

func introSortInt64s(a []int64, depth int) {
	for len(a) > 12 {
		if depth == 0 {
			heapSortInt64s(a)
			return
		}
		depth--
		hi, m := len(a)-1, (len(a)-1)/2
		if a[m] < a[0] {
			a[m], a[0] = a[0], a[m]
		}
		if a[hi] < a[0] {
			a[hi], a[0] = a[0], a[hi]
		}
		if a[hi] < a[m] {
			a[hi], a[m] = a[m], a[hi]
		}
		p := a[m]
		// Hoare: afterwards a[:j+1] <= p <= a[j+1:], and 0 <= j < hi
		// because the pivot is not the last element.
		i, j := -1, hi+1
		for {
			i++
			for a[i] < p {
				i++
			}
			j--
			for a[j] > p {
				j--
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
		}
		left, right := a[:j+1], a[j+1:]
		if len(left) < len(right) {
			introSortInt64s(left, depth)
			a = right
		} else {
			introSortInt64s(right, depth)
			a = left
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func heapSortInt64s(a []int64) {
	siftDown := func(root, n int) {
		for {
			child := 2*root + 1
			if child >= n {
				return
			}
			if child+1 < n && a[child] < a[child+1] {
				child++
			}
			if a[root] >= a[child] {
				return
			}
			a[root], a[child] = a[child], a[root]
			root = child
		}
	}
	for i := len(a)/2 - 1; i >= 0; i-- {
		siftDown(i, len(a))
	}
	for n := len(a) - 1; n > 0; n-- {
		a[0], a[n] = a[n], a[0]
		siftDown(0, n)
	}
}
