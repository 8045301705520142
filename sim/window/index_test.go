package window

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// checkIndex compares a TraceIndex with the TraceWindow it stands for, and
// checks that the four instants never decrease with the position.
func checkIndex(t *testing.T, res *sim.Result, c sim.Client, from, to int64) {
	t.Helper()
	tr := traceWindowRef(res, c, from, to) // built apart from the index
	if got := TraceWindow(res, c, from, to); got != nil && tr != nil {
		sameTrace(t, res.Query+" "+c.String(), got, tr)
	}
	x := TraceIndexOf(res, c, from, to)
	if tr == nil || x == nil {
		t.Fatalf("%s %s: trace %v, index %v", res.Query, c, tr != nil, x != nil)
	}
	if x.Len() != len(tr.Requests) {
		t.Fatalf("%s %s [%d, %d]: index holds %d requests, trace %d", res.Query, c, from, to, x.Len(), len(tr.Requests))
	}
	var syn []Synthetic
	var never []int64
	var prev TraceRequest
	for j := 0; j < x.Len(); j++ {
		got := x.At(j)
		if got != tr.Requests[j] {
			t.Fatalf("%s %s: request %d: index %+v, trace %+v", res.Query, c, j, got, tr.Requests[j])
		}
		if x.Due(j) != got.Due || x.Send(j) != got.Send || x.Start(j) != got.Start || x.Done(j) != got.Done || x.Latency(j) != got.Latency {
			t.Fatalf("%s %s: request %d: accessors disagree with At", res.Query, c, j)
		}
		if j > 0 && (got.Due < prev.Due || got.Send < prev.Send || got.Start < prev.Start || got.Done < prev.Done) {
			t.Fatalf("%s %s: request %d goes back in time: %+v after %+v", res.Query, c, j, got, prev)
		}
		if got.Send < got.Due || got.Start < got.Send || got.Done < got.Start {
			t.Fatalf("%s %s: request %d: instants out of order: %+v", res.Query, c, j, got)
		}
		prev = got
		if s, ok := x.Synthetic(j); ok {
			syn = append(syn, s)
		}
		first, n := x.NeverSentAfter(j)
		for k := int64(0); k < n; k++ {
			never = append(never, first+k*x.Slot())
		}
	}
	if len(syn) != len(tr.Synthetic) {
		t.Fatalf("%s %s: %d synthetic entries, trace %d", res.Query, c, len(syn), len(tr.Synthetic))
	}
	for k := range syn {
		if syn[k] != tr.Synthetic[k] {
			t.Fatalf("%s %s: synthetic %d: %+v, trace %+v", res.Query, c, k, syn[k], tr.Synthetic[k])
		}
	}
	if len(never) != len(tr.NeverSent) {
		t.Fatalf("%s %s: %d skipped slots, trace %d", res.Query, c, len(never), len(tr.NeverSent))
	}
	for k := range never {
		if never[k] != tr.NeverSent[k] {
			t.Fatalf("%s %s: skipped slot %d at %d, trace %d", res.Query, c, k, never[k], tr.NeverSent[k])
		}
	}
}

func TestTraceIndexBench(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "preset=clients10", "preset=note60", "preset=note60-single"} {
		res := simtest.Run(t, q)
		for k := 0; k < min(res.NumStalls(), 3); k++ {
			from, to := StallWindow(res, k)
			for c := range res.Clients {
				checkIndex(t, res, sim.Client(c), from, to)
			}
		}
	}
}

// TestTraceIndexMonotone: on random runs and random windows the index is the
// trace, and its instants never decrease with the position.
func TestTraceIndexMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	checked := 0
	for n := 0; n < 150; n++ {
		cfg := simtest.RandomAny(r)
		if sim.NewSchedule(cfg.Rate).Count(cfg.Duration) > 20000 {
			continue
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact {
			continue
		}
		checked++
		for k := 0; k < min(res.NumStalls(), 2); k++ {
			from, to := StallWindow(res, k)
			for c := range res.Clients {
				checkIndex(t, res, sim.Client(c), from, to)
			}
		}
		from := r.Int64N(cfg.Duration + 1)
		to := from + r.Int64N(cfg.Duration/2+1)
		for c := range res.Clients {
			checkIndex(t, res, sim.Client(c), from, to)
		}
	}
	if checked < 100 {
		t.Errorf("only %d random runs checked", checked)
	}
}

func TestTraceIndexNil(t *testing.T) {
	res := &sim.Result{Config: sim.Default()}
	if x := TraceIndexOf(res, sim.OpenClient, 0, 1); x != nil {
		t.Fatalf("an index without per-request data: %+v", x)
	}
}

// TestNeverSentTail: a paced client stuck in a stall longer than what is left
// of the run skips every slot to the end; the tail lists them.
func TestNeverSentTail(t *testing.T) {
	res := simtest.Run(t, "rate=1000&stall=1h&every=0s&first=1s&duration=30m&service=100us")
	from, to := StallWindow(res, 0)
	x := TraceIndexOf(res, sim.PacedClient, from, to)
	first, n := x.NeverSentTail()
	last := res.Clients[sim.PacedClient].Send[len(res.Clients[sim.PacedClient].Send)-1]
	if first != last+x.Slot() || first+(n-1)*x.Slot() >= res.Config.Duration || first+n*x.Slot() < res.Config.Duration {
		t.Fatalf("tail: %d slots from %d (last send %d, duration %d)", n, first, last, res.Config.Duration)
	}
	// With it, the paced client's skipped slots are all it planned and did not send.
	var between int64
	for j := 0; j < x.Len(); j++ {
		_, k := x.NeverSentAfter(j)
		between += k
	}
	if got, want := between+n, res.Clients[sim.PacedClient].Planned-res.Clients[sim.PacedClient].Sent; got < want-1 || got > want+1 {
		t.Errorf("skipped %d + %d slots, planned − sent = %d", between, n, want)
	}
	// A window that ends before the run: nothing after the window's end.
	if _, n := TraceIndexOf(res, sim.PacedClient, from, 10e9).NeverSentTail(); n > 10e9/int64(x.Slot()) {
		t.Errorf("%d tail slots in a 10 s window", n)
	}
	// The bench preset's paced client sends to the end: no tail in its windows.
	b := simtest.Run(t, "")
	for k := 0; k < b.NumStalls(); k++ {
		from, to := StallWindow(b, k)
		if _, n := TraceIndexOf(b, sim.PacedClient, from, to).NeverSentTail(); n != 0 {
			t.Errorf("bench stall %d: %d tail slots", k, n)
		}
	}
}

// pacedSkippedRef gives the paced client's skipped slots after its send i
// within [from, to], replaying its rule from the start of the run
// (stepPacedRounded): slot q after the anchor a is at a + Due(q); a reply
// after the next slot is late, and the send at the reply anchors the
// schedule again; the slots a late reply passes are never sent, and after
// the last send every slot before the duration is. It returns the first and
// how many.
func pacedSkippedRef(res *sim.Result) func(i int, from, to int64) (first, count int64) {
	cr := &res.Clients[sim.PacedClient]
	sched := res.Schedule()
	n := len(cr.Send)
	anchor, slot := make([]int64, n), make([]int64, n)
	a, k := cr.Send[0], int64(0)
	for i := 0; i < n; i++ {
		anchor[i], slot[i] = a, k
		if cr.Done[i] > a+sched.Due(k+1) {
			a, k = cr.Done[i], 0
		} else {
			k++
		}
	}
	return func(i int, from, to int64) (first, count int64) {
		end := min(res.Config.Duration, to+1)
		if i+1 < n {
			if cr.Done[i] <= anchor[i]+sched.Due(slot[i]+1) {
				return 0, 0 // on time
			}
			end = min(cr.Send[i+1], to)
		}
		for q := slot[i] + 1; anchor[i]+sched.Due(q) < end; q++ {
			if t := anchor[i] + sched.Due(q); t >= from {
				if count == 0 {
					first = t
				}
				count++
			}
		}
		return first, count
	}
}

// TestPacedSkippedSlots holds the index's skipped slots (NeverSentAfter,
// NeverSentTail) to the paced client's rule replayed from the run's start,
// for rates whose 1/rate is a whole number of nanoseconds and rates whose
// is not (where stepping by one rounded slot would drift).
func TestPacedSkippedSlots(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3000))
	qs := []string{"rate=3000&stall=0s&duration=10ms", "rate=3000&duration=3s", "rate=7000&duration=3s&service=300us",
		"duration=3s", "rate=3000&duration=3s&service=333333ns", "rate=3000&duration=2s&service=333334ns"}
	for range 40 {
		qs = append(qs, fmt.Sprintf("rate=%d&service=%dus&stall=%dms&every=%dms&first=%dms&duration=%dms",
			[]int{3000, 7000, 1000, 6000, 9999, 5000}[r.IntN(6)], 1+r.IntN(400), 1+r.IntN(150), 200+r.IntN(800), r.IntN(300), 500+r.IntN(1500)))
	}
	for _, q := range qs {
		res := simtest.Run(t, q)
		ref := pacedSkippedRef(res)
		end := res.Clients[sim.PacedClient].LastCompletion + 1
		for w := range 6 {
			from, to := int64(0), end
			if w > 0 {
				from = r.Int64N(end)
				to = from + 1 + r.Int64N(end-from)
			}
			x := TraceIndexOf(res, sim.PacedClient, from, to)
			var got, want int64
			for j := 0; j < x.Len(); j++ {
				f, n := x.NeverSentAfter(j)
				got += n
				if x.lo+j+1 < x.sent {
					wf, wn := ref(x.lo+j, from, to)
					want += wn
					if wn > 0 && f != wf {
						t.Fatalf("%s [%d, %d]: request %d's first skipped slot at %d, the paced client's rule %d", q, from, to, x.lo+j, f, wf)
					}
				}
			}
			if _, n := x.NeverSentTail(); n > 0 || x.hi == x.sent && x.hi > x.lo {
				got += n
				_, wn := ref(x.sent-1, from, to)
				want += wn
			}
			if got != want {
				t.Fatalf("%s [%d, %d]: %d skipped slots, the paced client's rule %d", q, from, to, got, want)
			}
		}
	}
}
