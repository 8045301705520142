package tools

import "testing"

// TestWrk2CatchUpRoundTrip: after a stall each wrk2 connection works
// through its backlog one round trip at a time: behind its schedule,
// usec_to_next_send says "now" at every reply (src/wrk.c 433–472; its
// catch-up rate, twice the connection's, is far above one request per
// round trip here), and response_complete re-arms the writable event at
// once (src/wrk.c 548–551), so the next request leaves at the reply. What
// the connections' backlogs cost together depends on how much of the round
// trip the server spends.
//
// Hand check, 2 connections at 500/s (connection 0's slots at 500 + 4k ms,
// connection 1's at 501.4 + 4k: its start is staggered 5 ms and its first
// timer fired late), a 100 ms stall from 500 ms that holds each
// connection's slot-0 request, a round trip of 200 µs. A catch-up send
// leaves at its connection's previous reply while its slot is due by then.
// With the whole round trip as the server's service time (one worker: the
// plain fit) the two take turns at the server, 400 µs a round: connection
// 0's k-th leaves at 600.2 + 0.4(k−1), its slot 500 + 4k due by then for
// k ≤ 27; connection 1's at 600.4 + 0.4(k−1) for 501.4 + 4k, k ≤ 27: 54
// sends, the last 10.8 ms after the stall. With the server's 100 µs and
// the client's 100 µs (the client-time fit) their round trips overlap:
// connection 0's k-th at 600.2 + 0.2(k−1), k ≤ 26; connection 1's at
// 600.3 + 0.2(k−1), k ≤ 25: 51 sends, the last 5.2 ms after.
//
// The real wrk2 on the kept 09:01 sweep
// (app/experiment/testdata/predict-runs-all-2026-12-02c.json, the server's
// arrivals) drained its backlog in 6.4 ms at 2 connections (100 ms stalls)
// and 3.8 ms at 8 (50 ms stalls); the client-time model in 5.9 and 3.8 ms,
// the plain model in 12.2 and 16.5 ms.
func TestWrk2CatchUpRoundTrip(t *testing.T) {
	// drain returns, over both connections, the catch-up sends (each at
	// its connection's previous reply, after the reply to the request the
	// stall held) and when the last of them left, after the stall's end.
	drain := func(service, client int64) (ns int64, n int) {
		cfg := mustConfig(t, "rate=500&stall=100ms&first=500ms&duration=1s&conns=2")
		cfg.Service = service
		o, err := RunClient(cfg, "wrk2", client)
		if err != nil {
			t.Fatal(err)
		}
		pr := o.Run
		end := cfg.First + cfg.Stall
		for c := range int32(2) {
			prev := int64(-1) // the connection's last reply, from the held one on
			for i, s := range pr.Send {
				if pr.Conn[i] != c {
					continue
				}
				switch {
				case prev < 0 && s < end && pr.Done[i] >= end:
					prev = pr.Done[i] // the request the stall held
				case prev >= 0 && s == prev:
					n++
					ns = max(ns, s-end)
					prev = pr.Done[i]
				case prev >= 0:
					prev = 1 << 62 // back on its schedule: a timer sent it
				}
			}
		}
		return ns, n
	}
	if ns, n := drain(200_000, 0); n != 54 || ns != 10_800_000 {
		t.Errorf("round trip on the server: %d catch-up sends, the last %d ns after the stall; want 54, 10.8 ms", n, ns)
	}
	if ns, n := drain(100_000, 100_000); n != 51 || ns != 5_200_000 {
		t.Errorf("half the round trip the client's: %d catch-up sends, the last %d ns after the stall; want 51, 5.2 ms", n, ns)
	}
}
