package window

import (
	"testing"

	"omission/sim/internal/simtest"
)

// TestWindowSlowdowns: the animation's window marks exactly the columns a
// slowdown window overlaps ([from, to) against each column's [edge, next
// edge)), names the first one it shows, and marks none without slow=.
func TestWindowSlowdowns(t *testing.T) {
	marked := 0
	for _, q := range []string{"rate=200&duration=10s&stall=300ms&every=3s&first=1s&service=1ms&slow=1.2s-1.5s@x3,4.1s-4.2s@x1.5", "preset=bench&slow=2s-2.2s@x2,9s-10s@x1.5", "preset=bench"} {
		res := simtest.Run(t, q)
		n := AnimWindows(res)
		if n == 0 {
			t.Fatalf("%s: no window to animate", q)
		}
		for k := 1; k <= min(n, 4); k++ {
			m, err := Summarise(res, k)
			if err != nil {
				t.Fatalf("%s window %d: %v", q, k, err)
			}
			label := ""
			for c := range WindowColumns {
				lo, hi := m.Edges[c], m.Edges[c+1] // [lo, hi)
				want := false
				for _, w := range res.Config.SlowWindows() {
					if w.From < hi && lo < w.To && w.From <= m.To && w.To > m.From {
						want = true
						if label == "" {
							label = "slowed ×" + w.Rate.String()
						}
					}
				}
				if m.Slowed[c] != want {
					t.Fatalf("%s window %d [%d, %d]: column %d [%d, %d) slowed %v, want %v", q, k, m.From, m.To, c, lo, hi, m.Slowed[c], want)
				}
				if want {
					marked++
				}
			}
			if m.SlowLabel != label {
				t.Errorf("%s window %d: label %q, want %q", q, k, m.SlowLabel, label)
			}
		}
	}
	if marked == 0 {
		t.Fatal("no window of these runs shows a slowdown: the test checks nothing")
	}
}
