package worker

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omission/app/charts"
	"omission/app/compute"
	"omission/app/measure"
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

// TestExport: a file asked for is written from the result the worker keeps,
// the same bytes as measure's export of a native run; it is refused for a
// query other than the last run's, and an export that arrives while a run
// is in progress is answered without superseding it.
func TestExport(t *testing.T) {
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	const q = "duration=2s"
	l.Send(Request{ID: 1, Query: q})
	res, err := sim.Run(mustParse(t, q))
	if err != nil {
		t.Fatal(err)
	}
	set, err := measure.FromResult(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Export{{"hgrm", "open"}, {"hlog", ""}, {"csv", ""}, {"hlog", "paced"}} {
		c.got = nil
		l.Send(Request{ID: 1, Query: q, Export: &e})
		if len(c.got) != 1 || c.got[0].Export == nil {
			t.Fatalf("%v: %d responses", e, len(c.got))
		}
		f := c.got[0].Export
		var want bytes.Buffer
		if err := set.Export(&want, e.Format, e.Recording, PageCSVRows); err != nil {
			t.Fatal(err)
		}
		if f.Err != "" || !bytes.Equal(f.Data, want.Bytes()) || f.Size != want.Len() || f.Name != measure.FileName(measure.RunName("", res.Hash), e.Format, e.Recording) {
			t.Errorf("%v: %q, %d bytes (%s), want %d", e, f.Name, f.Size, f.Err, want.Len())
		}
		if e.Format == "csv" && !f.Samples {
			t.Errorf("a 2 s run's CSV holds every sample")
		}
	}
	for _, e := range []Export{{"hgrm", ""}, {"png", ""}, {"hgrm", "fast"}} {
		c.got = nil
		l.Send(Request{ID: 1, Query: q, Export: &e})
		if f := c.got[0].Export; f.Err == "" || f.Data != nil {
			t.Errorf("%v: written (%d bytes), want an error", e, f.Size)
		}
	}
	// Another run's file has another name; the same run's, the same.
	names := map[string]string{}
	for _, q := range []string{"duration=2s&stall=300ms", q, "duration=2s&stall=300ms"} {
		c.got = nil
		l.Send(Request{ID: 4, Query: q})
		l.Send(Request{ID: 4, Query: q, Export: &Export{"hgrm", "open"}})
		name := c.got[len(c.got)-1].Export.Name
		if prev, ok := names[q]; ok && prev != name {
			t.Errorf("%s: named %q, then %q", q, prev, name)
		}
		names[q] = name
	}
	if names[q] == names["duration=2s&stall=300ms"] || !strings.HasPrefix(names[q], "omission-bench-") {
		t.Errorf("two runs' files: %v", names)
	}
	c.got = nil
	l.Send(Request{ID: 2, Query: "preset=tcp", Export: &Export{"hgrm", "open"}})
	if f := c.got[0].Export; f.Err == "" {
		t.Errorf("an export of a query not run was written")
	}

	// Asked while the charts are drawn: answered between two of them, and
	// the drawing goes on to the end.
	var srv *server
	injected := false
	srv = newServer(compute.Settings{Simulate: true, Slice: time.Hour}, c.deliver, func() {
		if srv.last != nil && !injected {
			injected = true
			srv.in <- Request{ID: 3, Query: q, Export: &Export{"hgrm", "closed"}}
		}
	})
	c.got = nil
	if next := srv.handle(Request{ID: 3, Query: q, Charts: ChartsOptions{Width: 300}}); next != nil {
		t.Fatalf("the export superseded the drawing: %+v", next)
	}
	var exported, charts int
	for _, r := range c.got {
		if r.Export != nil && r.Export.Err == "" && r.Export.Name == "omission-bench-"+res.Hash[:8]+"-closed.hgrm" {
			exported++
		}
		if r.Chart != nil {
			charts++
		}
	}
	if !injected || exported != 1 || charts != 4 || !c.got[len(c.got)-1].Done {
		t.Errorf("injected %v: %d exports, %d charts, done %v", injected, exported, charts, c.got[len(c.got)-1].Done)
	}
}

func mustParse(t *testing.T, q string) sim.Config {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestMeasuredKept: the worker keeps the files of the page's list, in its
// order, and forgets one the page removed; each file's distributions are
// drawn as measured series named after it, and as incomplete where the
// page says the fit's check found it cut.
func TestMeasuredKept(t *testing.T) {
	var c collect
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, c.deliver, func() {})
	read := func(name string) File {
		data, err := os.ReadFile(filepath.Join("..", "measure", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return File{Name: name, Data: string(data)}
	}
	names := func() []string {
		var out []string
		for _, f := range l.s.files {
			out = append(out, f.Name)
		}
		return out
	}
	l.Send(Request{ID: 1, Query: "preset=tcp", Import: []File{read("java.hgrm"), read("export.hgrm"), read("vegeta.json")},
		Measured: []string{"java.hgrm", "export.hgrm", "vegeta.json"}})
	if got := names(); len(got) != 3 || got[0] != "java.hgrm" || got[2] != "vegeta.json" {
		t.Fatalf("kept %q", got)
	}
	var series []string
	for _, s := range l.s.extra(Request{Measured: []string{"java.hgrm", "export.hgrm", "vegeta.json"}}) {
		if s.Class == "measured" {
			series = append(series, s.Name)
		}
	}
	if len(series) != 3 || series[0] != "java.hgrm" || series[1] != "export.hgrm" || series[2] != "vegeta.json" {
		t.Errorf("measured series %q", series)
	}
	// The fit's check found export.hgrm cut: its series says so, the
	// others do not.
	series = nil
	for _, s := range l.s.extra(Request{Measured: []string{"java.hgrm", "export.hgrm", "vegeta.json"}, Incomplete: []string{"export.hgrm"}}) {
		if s.Class == "measured" {
			series = append(series, s.Name)
		}
	}
	if len(series) != 3 || series[0] != "java.hgrm" || series[1] != "export.hgrm"+IncompleteWords || series[2] != "vegeta.json" {
		t.Errorf("measured series with export.hgrm found cut: %q", series)
	}
	// The page removed export.hgrm, then imported oha's JSON.
	l.Send(Request{ID: 2, Query: "preset=tcp", Import: []File{read("oha-constructed.json")},
		Measured: []string{"java.hgrm", "vegeta.json", "oha-constructed.json"}})
	if got := names(); len(got) != 3 || got[0] != "java.hgrm" || got[1] != "vegeta.json" || got[2] != "oha-constructed.json" {
		t.Errorf("after a removal and an import, kept %q", got)
	}
}
