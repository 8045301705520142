package window

import (
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// TestTraceBenchStall1 is the animation's story for stall 1 of the bench preset.
func TestTraceBenchStall1(t *testing.T) {
	res := simtest.Run(t, "")
	from, to := StallWindow(res, 1)
	s := int64(1500e6) // stall 1 begins at 1.5 s
	if from >= s || to < s+200e6+200e6 {
		t.Fatalf("window [%d, %d) does not cover the stall and its drain", from, to)
	}
	open := TraceWindow(res, sim.OpenClient, from, to)
	var delayed []int64
	for _, r := range open.Requests {
		if r.Stall == 1 {
			delayed = append(delayed, r.Latency)
		}
	}
	if len(delayed) != 2000 {
		t.Fatalf("open: %d requests delayed by stall 1, want 2000", len(delayed))
	}
	for j, v := range delayed {
		if want := int64(200100e3 - int64(j)*100e3); v != want {
			t.Fatalf("open delayed %d: latency %d, want %d", j, v, want)
		}
	}
	closed := TraceWindow(res, sim.ClosedClient, from, to)
	var slow, late int
	for _, r := range closed.Requests {
		switch {
		case r.Latency == 200100e3:
			slow++
		case r.Send > r.Due:
			late++
			if r.Latency != 100e3 {
				t.Fatalf("closed late request %d records %d, want 100 µs", r.Index, r.Latency)
			}
		}
	}
	if slow != 1 || late != 1999 {
		t.Errorf("closed: %d slow samples and %d late sends, want 1 and 1999", slow, late)
	}
	if len(closed.Synthetic) != 1 || closed.Synthetic[0].Count != 999 || closed.Synthetic[0].Step != 200e3 || closed.Synthetic[0].From != 199900e3 {
		t.Errorf("closed correction: %+v, want 999 samples 200 µs apart from 199900 µs", closed.Synthetic)
	}
	// Counters: at the end of the window all are in; at the stall's end none of the delayed.
	end := open.CountsAt(to)
	if end.Slowest != 200100e3 || end.Above < 1990 {
		t.Errorf("open counters at the end: %+v", end)
	}
	mid := closed.CountsAt(s + 100e6)
	if mid.Slowest != 100e3 || mid.Waiting < 400 {
		t.Errorf("closed counters in the stall: %+v (the requests due meanwhile should be waiting)", mid)
	}
	paced := TraceWindow(res, sim.PacedClient, from, to)
	if len(paced.NeverSent) < 990 {
		t.Errorf("paced: %d skipped slots in the window, want about 1000", len(paced.NeverSent))
	}
	ev := open.Events()
	for i := 1; i < len(ev); i++ {
		if ev[i] <= ev[i-1] {
			t.Fatalf("events not sorted and distinct at %d", i)
		}
	}
	if len(ev) < 2000 { // at least every delayed reply, each at its own instant
		t.Errorf("open: %d events", len(ev))
	}
}
