package experiment

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// backlogStats is what the server's record says about the round trips of
// one run, split into the catch-up after a stall (a request the tool sent
// less than a millisecond after the previous reply on its connection was
// written: wrk2 paces each connection at least 2 ms apart here, so only a
// connection behind its schedule sends at once) and the rest.
type backlogStats struct {
	// toolIn: in the catch-up, the server's write of a reply to the
	// arrival of the next request on its connection (both loopback legs,
	// the tool's wake-up and parsing: the tool's own time per request).
	toolIn []float64
	// lateIn, lateOut: the reply's write − the model's reply time (what the
	// server itself adds), in the catch-up and outside it.
	lateIn, lateOut []float64
	// heldIn: arrival to write in the catch-up (the worker's queue, the
	// service and the lateness).
	heldIn []float64
}

// backlogOf reads the server's samples of a run, per connection in
// arrival order.
func backlogOf(samples []holdSample) backlogStats {
	byConn := map[int32][]holdSample{}
	for _, x := range samples {
		byConn[x.conn] = append(byConn[x.conn], x)
	}
	var b backlogStats
	for _, xs := range byConn {
		slices.SortFunc(xs, func(a, b holdSample) int { return int(a.arrival - b.arrival) })
		for i := 0; i+1 < len(xs); i++ {
			x, nx := xs[i], xs[i+1]
			late := float64(x.written - x.planned)
			if g := nx.arrival - x.written; g < 1e6 {
				b.toolIn = append(b.toolIn, float64(g))
				b.lateIn = append(b.lateIn, late)
				b.heldIn = append(b.heldIn, float64(x.written-x.arrival))
			} else {
				b.lateOut = append(b.lateOut, late)
			}
		}
	}
	return b
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

func mean(v []float64) float64 {
	var sum float64
	for _, x := range v {
		sum += x
	}
	return sum / float64(max(len(v), 1))
}

// TestWrk2Backlog measures, with the real wrk2 against the stalling
// server, what a round trip costs in the catch-up after a stall against
// one outside the stalls: the tool's share (the server's write to the next
// request's arrival on the connection) and the server's (arrival to
// write). It prints BENCH lines (OMISSION_EXPERIMENT=1; about 15 s);
// app/experiment/testdata/wrk2-backlog-*.txt keeps runs of it.
func TestWrk2Backlog(t *testing.T) {
	if os.Getenv("OMISSION_EXPERIMENT") == "" {
		t.Skip("runs the real wrk2 against the stalling server: set OMISSION_EXPERIMENT=1")
	}
	bin, err := FindTool("wrk2")
	if err != nil {
		t.Skip(err)
	}
	tool, _ := realToolByName("wrk2")
	for _, sc := range []struct{ name, query string }{
		{"c1_s100ms", "rate=500&stall=100ms&every=1s&first=500ms&duration=3s&conns=1"},
		{"c2_s100ms", "rate=500&stall=100ms&every=1s&first=500ms&duration=3s&conns=2"},
		{"c8_s100ms", "rate=800&stall=100ms&every=1s&first=500ms&duration=3s&conns=8"},
	} {
		cfg := config(t, sc.query)
		load0 := LoadAverage()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		srv, err := StartToolServer(ctx, cfg)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		args, err := tool.run.Args(cfg, srv.Addr(), "")
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		srv.mu.Lock()
		samples := slices.Clone(srv.stats)
		srv.mu.Unlock()
		srv.Close()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sc.name, err, out)
		}
		t.Logf("%s: wrk2 %v\n%s", sc.name, args, out)
		b := backlogOf(samples)
		if len(b.toolIn) == 0 || len(b.lateOut) == 0 {
			t.Fatalf("%s: %d round trips in the catch-up, %d outside: the record has no stall", sc.name, len(b.toolIn), len(b.lateOut))
		}
		pre := "wrk2_backlog." + sc.name
		fmt.Printf("BENCH %s.load_average %.2f load\n", pre, max(load0, LoadAverage()))
		for _, m := range []struct {
			name string
			v    []float64
		}{{"tool_catchup", b.toolIn}, {"late_catchup", b.lateIn}, {"late_outside", b.lateOut}, {"held_catchup", b.heldIn}} {
			fmt.Printf("BENCH %s.%s_mean %.0f ns\n", pre, m.name, mean(m.v))
			for _, q := range []float64{0.1, 0.5, 0.9, 0.99} {
				fmt.Printf("BENCH %s.%s_p%g %.0f ns\n", pre, m.name, 100*q, quantile(m.v, q))
			}
		}
		fmt.Printf("BENCH %s.samples %d catchup %d outside\n", pre, len(b.toolIn), len(b.lateOut))
	}
}
