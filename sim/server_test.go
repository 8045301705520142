package sim

import (
	"math/rand/v2"
	"testing"
)

// TestServiceStartClosedForm: the closed form gives the instant the stall
// model's own walk back over the stalls gives, on services the server
// computed, whatever the number of stalls they span.
func TestServiceStartClosedForm(t *testing.T) {
	walk := func(st stallSeries, done, S int64) int64 {
		cur, rest := done, S
		for j := st.Count(done) - 1; j >= 0 && rest > 0; j-- {
			s := st.Start(j)
			end := s + st.Length
			if end <= cur-rest {
				break
			}
			rest -= cur - end
			cur = s
		}
		return cur - rest
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		c := Default()
		c.Stall = 1 + r.Int64N(50)
		c.Every = []int64{0, c.Stall + 1 + r.Int64N(100)}[r.IntN(2)]
		c.First = r.Int64N(200)
		c.Service = r.Int64N(400)
		sv := newServer(c)
		ready := r.Int64N(300)
		start, done := sv.serve(ready)
		got, want := sv.st.ServiceStart(done, c.Service), walk(sv.st, done, c.Service)
		if got != want || got != start {
			t.Fatalf("stall %d every %d first %d service %d ready %d: served [%d, %d), closed form %d, walk %d",
				c.Stall, c.Every, c.First, c.Service, ready, start, done, got, want)
		}
	}
}
