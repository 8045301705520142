package profile

import (
	"fmt"
	"slices"
	"testing"

	"omission/sim"
)

// wrk2's timer on pace, in closed form: on one connection with round trip
// R (service + client) and no stall, the reply to send k−1 comes at
// reply = send_{k−1} + R; usec_to_next_send gives w = due_k − reply µs;
// the timer of m = ⌊w/1000⌋ + 1 ms fires m ms after it was set (nothing
// else wakes the loop), so send k leaves L_k = m·1000 − w µs after its due
// time. With due times 2000 µs apart, L_k = ((L_{k−1} + R) mod 1000), a
// zero being 1000: L_k = ((k·R − 1) mod 1000) + 1, a sawtooth over the
// millisecond; wrk2 times each request from its due time, so latency_k =
// L_k + R.
func TestProfileWrk2TimerSawtooth(t *testing.T) {
	for _, c := range []struct{ service, client int64 }{{130e3, 0}, {100e3, 71e3}, {250e3, 0}} {
		cfg := hand(sim.RateOf(500), c.service, 0, 0, 0, 400e6, 1)
		pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: 1, Send: Wrk2Pace, FromIntended: true, Clock: 1000, Client: c.client})
		R := (c.service + c.client) / 1000 // µs
		thr := wrk2Float(sim.RateOf(500), 1)
		if len(pr.Send) != 200 {
			t.Fatalf("%+v: %d sends, want 200", c, len(pr.Send))
		}
		L := int64(0)
		for k := range pr.Send {
			due := int64(uint64(float64(k) / thr)) // thread_start 0: the first connect timer fires at 0
			if k > 0 {
				reply := pr.Done[k-1] / 1000
				w := due - reply
				L = (w/1000+1)*1000 - w
				if due-int64(uint64(float64(k-1)/thr)) == 2000 {
					if want := (int64(k)*R-1)%1000 + 1; L != want {
						t.Fatalf("%+v: send %d: lateness %d µs, the sawtooth %d", c, k, L, want)
					}
				}
			}
			if pr.Send[k] != (due+L)*1000 || pr.Intended[k] != due*1000 || pr.Latency[k] != (L+R)*1000 {
				t.Fatalf("%+v: send %d at %d ns (intended %d, latency %d), want %d µs (due %d µs, latency %d µs)",
					c, k, pr.Send[k], pr.Intended[k], pr.Latency[k], due+L, due, L+R)
			}
		}
	}
}

// wrk2's catch-up after a stall, in closed form. One connection, round
// trip R = service + client, due times I apart: the request sent inside
// the stall [F, E) is held to E and its reply comes at E + R. wrk2 falls
// behind at that send (usec_to_next_send: its due time has passed, so
// catch_up_start_time is the send itself), and its catch-up schedule at
// twice the rate, send + j·I/2, is behind the replies too while I/2 > R
// grows slower than the backlog: so each backlogged request leaves the
// moment the previous reply is in, one at a time, and the k-th backlogged
// reply (the held one first) comes at E + k·R. Request k, due at
// t1 + (k−1)·I, is sent at once while that is not after reply k−1:
// K = 1 + ⌊(E − t1)/(I − R)⌋ replies in all, latency_k = E + k·R − t1 −
// (k−1)·I. Request K+1 waits for its timer.
//
// With N connections and one worker, the held requests are answered in
// the order they arrived, and while every connection is catching up (and
// the client's time is at most (N−1)·service) the worker is never idle:
// the connection whose held request was j-th gets its k-th reply at E +
// ((k−1)·N + j)·service + client. With a worker per connection each
// connection is alone: E + k·R.
func TestProfileWrk2CatchUp(t *testing.T) {
	for _, c := range []struct {
		conns, workers  int
		service, client int64
		rate            sim.Rate
	}{
		{1, 1, 100e3, 0, sim.RateOf(500)},
		{1, 1, 100e3, 30e3, sim.RateOf(500)},
		{1, 0, 200e3, 96e3, sim.RateOf(250)},
		{2, 0, 100e3, 71e3, sim.RateOf(500)},
		{2, 1, 100e3, 0, sim.RateOf(500)},
		{2, 1, 100e3, 60e3, sim.RateOf(500)},
		{4, 1, 100e3, 250e3, sim.RateOf(1000)},
	} {
		name := fmt.Sprintf("%d conns, %d workers, service %d, client %d", c.conns, c.workers, c.service, c.client)
		const F, D = 20_000_500e3 / 1000, 40e6 // ns: a stall from 20.0005 ms for 40 ms
		E := int64(F + D)
		cfg := hand(c.rate, c.service, D, F, 0, 150e6, c.workers)
		pr := mustRun(t, cfg, Profile{Conc: Connections, Conns: c.conns, Send: Wrk2Pace, Stagger: 5e6, FromIntended: true, Clock: 1000, Client: c.client})
		I := int64(c.conns) * 1e9 / (int64(c.rate) / 1000) // ns between a connection's due times
		R := c.service + c.client
		// Each connection's requests in send order; the held one is the
		// first whose reply is after the stall.
		type held struct{ conn, first int }
		var hs []held
		byConn := map[int32][]int{}
		for i := range pr.Send {
			byConn[pr.Conn[i]] = append(byConn[pr.Conn[i]], i)
		}
		for cn := int32(0); cn < int32(c.conns); cn++ {
			idx := byConn[cn]
			h := slices.IndexFunc(idx, func(i int) bool { return pr.Done[i] > E })
			if h < 0 || pr.Send[idx[h]] < F || pr.Send[idx[h]] >= E {
				t.Fatalf("%s: connection %d: no request sent inside the stall", name, cn)
			}
			hs = append(hs, held{int(cn), h})
		}
		slices.SortFunc(hs, func(a, b held) int {
			return int(pr.Send[byConn[int32(a.conn)][a.first]] - pr.Send[byConn[int32(b.conn)][b.first]])
		})
		shared := c.workers == 1 && c.conns > 1
		if shared && c.client > int64(c.conns-1)*c.service {
			t.Fatalf("%s: the closed form needs the client's time at most (N−1)·service", name)
		}
		reply := func(j, k int) int64 { // j: 1-based rank of the held request; k: 1-based
			if shared {
				return E + (int64(k-1)*int64(c.conns)+int64(j))*c.service + c.client
			}
			return E + int64(k)*R
		}
		// K per connection: request k ≥ 2 leaves at once while its due time
		// is not after reply k−1. With a shared worker the closed form
		// holds while every connection is still catching up.
		Ks := make([]int, len(hs))
		kMin := 1 << 30
		for j, h := range hs {
			t1 := pr.Intended[byConn[int32(h.conn)][h.first]]
			k := 1
			for t1+int64(k)*I <= reply(j+1, k) {
				k++
			}
			Ks[j] = k
			if !shared && k != 1+int((E-t1)/(I-R)) {
				t.Fatalf("%s: K %d, the closed form %d", name, k, 1+(E-t1)/(I-R))
			}
			kMin = min(kMin, k)
		}
		for j, h := range hs {
			idx := byConn[int32(h.conn)][h.first:]
			t1 := pr.Intended[idx[0]]
			last := Ks[j]
			if shared {
				last = kMin
			}
			if last < 10 {
				t.Fatalf("%s: only %d backlogged replies: the stall is too short to show the catch-up", name, last)
			}
			for k := 1; k <= last; k++ {
				i := idx[k-1]
				if pr.Done[i] != reply(j+1, k) {
					t.Fatalf("%s: connection %d, backlogged reply %d at %d ns, want %d", name, h.conn, k, pr.Done[i], reply(j+1, k))
				}
				if k > 1 && (pr.Send[i] != pr.Done[idx[k-2]] || pr.Intended[i] != t1+int64(k-1)*I) {
					t.Fatalf("%s: connection %d, request %d sent at %d (intended %d), want at the reply %d (intended %d)",
						name, h.conn, k, pr.Send[i], pr.Intended[i], pr.Done[idx[k-2]], t1+int64(k-1)*I)
				}
				if lat := reply(j+1, k) - t1 - int64(k-1)*I; pr.Latency[i] != lat/1000*1000 {
					t.Fatalf("%s: connection %d, request %d: latency %d, want %d", name, h.conn, k, pr.Latency[i], lat)
				}
			}
			if !shared {
				i := idx[last]
				if pr.Send[i] <= pr.Done[idx[last-1]] || pr.Intended[i] != t1+int64(last)*I {
					t.Fatalf("%s: connection %d: request %d after the catch-up sent at %d, the reply before it %d", name, h.conn, last+1, pr.Send[i], pr.Done[idx[last-1]])
				}
			}
		}
	}
}
