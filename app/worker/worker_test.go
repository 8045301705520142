package worker

import (
	"testing"
	"time"

	"omission/app/charts"
	"omission/app/compute"
	"omission/sim"
)

// collect gathers the responses of a Local client.
type collect struct{ got []Response }

func (c *collect) deliver(r Response) { c.got = append(c.got, r) }

func TestLocalInline(t *testing.T) {
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	l.Send(Request{ID: 7, Gen: 1, Query: "preset=tcp", Charts: ChartsOptions{Width: 480}})
	var views, drawn int
	for _, r := range c.got {
		if r.ID != 7 {
			t.Fatalf("response for %d", r.ID)
		}
		if r.View != nil {
			views++
			if r.View.Query != "preset=tcp" || r.View.Result == nil || r.View.CellByID("open.p99") == nil {
				t.Errorf("view %q", r.View.Query)
			}
		}
		if r.Chart != nil {
			if r.Gen != 1 || r.Chart.Width != 480 || r.Chart.Kind != charts.Kinds()[drawn] {
				t.Errorf("chart %d: %v at %d px, gen %d", drawn, r.Chart.Kind, r.Chart.Width, r.Gen)
			}
			drawn++
		}
	}
	last := c.got[len(c.got)-1]
	if views != 1 || drawn != 4 || !last.Done || last.Charts != 4 {
		t.Fatalf("%d views, %d charts, last %+v", views, drawn, last)
	}
	// A redraw of the same result runs nothing: no view, four charts.
	c.got = nil
	l.Send(Request{ID: 7, Gen: 2, Query: "preset=tcp", Charts: ChartsOptions{Width: 320, Linear: true, Dark: true}, Redraw: true})
	for _, r := range c.got {
		if r.View != nil {
			t.Error("a redraw ran again")
		}
	}
	if len(c.got) != 5 || c.got[0].Chart == nil || c.got[0].Chart.Width != 320 {
		t.Errorf("redraw: %d responses", len(c.got))
	}
	// A query that cannot run says why and ends.
	c.got = nil
	l.Send(Request{ID: 8, Query: "rate=10000000&duration=24h&stall=1us&every=2us&first=0s"}) // over the limit of stretches
	if len(c.got) != 1 || c.got[0].Err == "" || !c.got[0].Done {
		t.Errorf("refused query: %+v", c.got)
	}
}

// TestNewerSupersedes: a request that arrives while one runs in slices
// stops it; only the newer one's result comes.
func TestNewerSupersedes(t *testing.T) {
	out := make(chan Response, 1024)
	var l *Local
	sent := false
	l = NewLocal(compute.Settings{Simulate: true, Slice: time.Millisecond}, false, func(r Response) { out <- r }, func() {
		if !sent {
			sent = true
			l.Send(Request{ID: 2, Query: "preset=tcp"})
		}
	})
	big := "rate=100000&duration=20s" // two million requests a client: many slices
	l.Send(Request{ID: 1, Query: big})
	deadline := time.After(60 * time.Second)
	for {
		select {
		case r := <-out:
			if r.View != nil && r.ID == 1 {
				t.Fatal("the superseded run finished")
			}
			if r.Done && r.ID == 2 {
				return
			}
		case <-deadline:
			t.Fatal("no answer")
		}
	}
}

func TestChartOptions(t *testing.T) {
	o := chartOptions(charts.Spectrum, ChartsOptions{Width: 300, Dark: true, Linear: true})
	if o.Theme != charts.Dark || o.Y != charts.YLinear || o.Width != 300 {
		t.Errorf("spectrum options %+v", o)
	}
	if o := chartOptions(charts.Distribution, ChartsOptions{Linear: true}); o.Y == charts.YLinear {
		t.Error("the histogram's share axis stays log when the latency axes go linear")
	}
	_ = sim.Default
}
