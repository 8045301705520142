package sim_test

import (
	"math/rand/v2"
	"testing"

	. "omission/sim"
	"omission/sim/internal/simtest"
)

// TestInvariantsRandom: outside the regime too, every invariant holds.
func TestInvariantsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 150; n++ {
		cfg := simtest.RandomAny(r)
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Query(), err)
		}
		inv := 0
		for _, c := range res.Checks {
			if c.Kind == "invariant" {
				inv++
			}
			if !c.Pass {
				t.Errorf("%s: %s failed: want %v got %v", cfg.Query(), c.ID, c.Want, c.Got)
			}
		}
		if inv < 8 {
			t.Errorf("%s: %d invariants checked", cfg.Query(), inv)
		}
	}
}

// reference is a naive model of the server written apart from server.go: it
// walks an explicit list of stalls for every request.
type reference struct {
	stalls  [][2]int64 // [start, end)
	service int64
}

func newReference(c Config, horizon int64) *reference {
	ref := &reference{service: c.Service}
	if c.Stall == 0 {
		return ref
	}
	for s := c.First; s < horizon; s += c.Every {
		ref.stalls = append(ref.stalls, [2]int64{s, s + c.Stall})
		if c.Every == 0 {
			break
		}
	}
	return ref
}

func (ref *reference) serve(t int64) int64 {
	start := t
	for _, s := range ref.stalls {
		if s[0] <= start && start < s[1] {
			start = s[1]
		}
	}
	done := start + ref.service
	for _, s := range ref.stalls {
		if start < s[0] && s[0] < done {
			done += s[1] - s[0]
		}
	}
	return done
}

// TestAgainstReference compares every reply time with the naive model, for
// every client, on small random configurations.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for n := 0; n < 200; n++ {
		cfg := simtest.RandomAny(r)
		if NewSchedule(cfg.Rate).Count(cfg.Duration) > 400 {
			continue
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sched := res.Schedule()
		N := int(res.Planned)
		horizon := int64(0)
		for _, c := range res.Clients {
			horizon = max(horizon, c.LastCompletion+1)
		}
		ref := newReference(cfg, horizon)
		// The reference pools: a naive scan for the earliest free slot.
		earliest := func(free []int64) int {
			b := 0
			for i := range free {
				if free[i] < free[b] {
					b = i
				}
			}
			return b
		}
		workers := cfg.Workers
		if workers == 0 {
			workers = N + 1
		}
		check := func(name string, sends []int64, got *ClientRun) {
			wf := make([]int64, workers)
			for i := 0; i < len(sends); i++ {
				k := earliest(wf)
				ready := max(sends[i], wf[k])
				done := ref.serve(ready)
				wf[k] = done
				if got.Done[i] != done {
					t.Fatalf("%s %s: request %d ready %d: reply %d, reference %d", cfg.Query(), name, i, ready, got.Done[i], done)
				}
			}
		}
		// Open: sends at due times.
		opens := make([]int64, N)
		for i := range opens {
			opens[i] = sched.Due(int64(i))
		}
		check("open", opens, &res.Clients[OpenClient])
		// Closed: connection free times from the simulated replies; compare sends.
		cf := make([]int64, cfg.Conns)
		for i := 0; i < N; i++ {
			k := earliest(cf)
			send := max(sched.Due(int64(i)), cf[k])
			if res.Clients[ClosedClient].Send[i] != send {
				t.Fatalf("%s closed: request %d sent %d, reference %d", cfg.Query(), i, res.Clients[ClosedClient].Send[i], send)
			}
			cf[k] = res.Clients[ClosedClient].Done[i]
		}
		check("closed", res.Clients[ClosedClient].Send, &res.Clients[ClosedClient])
		// Paced: one connection, re-anchoring.
		// Slot k after the anchor is at anchor + round(k/rate); a late
		// reply restarts the schedule.
		p := &res.Clients[PacedClient]
		next, anchor, k := int64(0), int64(0), int64(0)
		i := 0
		for ; next < cfg.Duration; i++ {
			done := ref.serve(next)
			if i >= len(p.Done) || p.Send[i] != next || p.Done[i] != done {
				t.Fatalf("%s paced: send %d at %d: reference reply %d", cfg.Query(), i, next, done)
			}
			k++
			next = anchor + sched.Due(k)
			if done > next {
				next, anchor, k = done, done, 0
			}
		}
		if i != len(p.Done) {
			t.Fatalf("%s paced: sent %d, reference %d", cfg.Query(), len(p.Done), i)
		}
	}
}
