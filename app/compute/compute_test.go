package compute

import (
	"strings"
	"testing"
	"time"

	"omission/sim"
)

var settings = Browser(true)

func TestSimulateCancelAndSlices(t *testing.T) {
	big := sim.Default()
	big.Duration = 200e9 // a million requests per client: several slices
	run, err := NewJob(1, big, settings)
	if err != nil {
		t.Fatal(err)
	}
	run.Cancel()
	run.Cancel() // twice is fine
	if _, err := run.Slice(); err != ErrCancelled {
		t.Fatalf("a cancelled run's slice returned %v", err)
	}
	if _, err := run.Finish(); err != ErrCancelled {
		t.Fatalf("a cancelled run finished: %v", err)
	}
	// Slices of a single Step each: the run must yield between them.
	yields := 0
	v, err := RunAll(2, big, Settings{Simulate: true, Slice: time.Nanosecond}, func() { yields++ })
	if err != nil {
		t.Fatal(err)
	}
	if want := 2_000_000 / stepBudget; yields < want {
		t.Errorf("a run of three million requests in slices of %d yielded %d times, want at least %d", stepBudget, yields, want)
	}
	if v.Seq != 2 || v.Cost.Ms <= 0 || v.Cost.Requests < 2e6 {
		t.Fatalf("seq %d cost %+v", v.Seq, v.Cost)
	}
	v, err = RunAll(3, sim.Default(), settings, func() {})
	if err != nil || v.CellByID("open.p99").Exact != "195100000" {
		t.Fatalf("bench: %v %v", err, v.CellByID("open.p99"))
	}
	bad := sim.Default()
	bad.Conns = 0
	if _, err := RunAll(4, bad, settings, func() {}); err == nil {
		t.Fatal("an invalid configuration ran")
	}
}

func TestCache(t *testing.T) {
	c := NewCache(2, FigureRequests)
	a, err := c.Run("preset=tcp&anim=1", "anim")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := c.Run("preset=tcp"); b != a {
		t.Error("the same canonical query ran twice")
	}
	c.Run("stall=300ms")
	c.Run("stall=400ms")
	if b, _ := c.Run("preset=tcp"); b == a {
		t.Error("the cache kept more than its size")
	}
	if _, err := c.Run("rate=100000&duration=20s"); err == nil {
		t.Error("a run over the figure limit ran")
	}
}

// TestLimitError: a run a limit stops mid-way ends in an error that names
// the limit, never in a nil result handed to the page.
func TestLimitError(t *testing.T) {
	cfg, err := sim.ParseQuery("arrivals=poisson&rate=1000000&duration=3s&service=1s&stall=0s&seed=1")
	if err != nil {
		t.Fatal(err)
	}
	v, err := RunAll(1, cfg, settings, func() {})
	if err == nil || v != nil {
		t.Fatalf("view %v, error %v: want a limit", v, err)
	}
	if !strings.Contains(err.Error(), "limit ") {
		t.Errorf("error %q does not name the limit", err)
	}
}

// TestCacheBounded: figures and embeds run their query at once, so a large
// one is refused with a pointer to the visualiser instead of holding the
// page.
func TestCacheBounded(t *testing.T) {
	c := NewCache(2, FigureRequests)
	if _, err := c.Run("duration=10m"); err == nil || !strings.Contains(err.Error(), "visualiser") {
		t.Errorf("a 3M-request figure: %v", err)
	}
	if res, err := c.Run("preset=tcp"); err != nil || res == nil {
		t.Errorf("a small figure: %v", err)
	}
}

// TestCacheSweep: a figure's sweep runs each point as its own query (the
// same report as the cache's run of it), refuses a point over the cache's
// limit alone, and keeps the sweep.
func TestCacheSweep(t *testing.T) {
	c := NewCache(4, 30_000)
	sw, err := c.Sweep("duration=2s", "duration:1s..8s/3")
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Points) != 3 || sw.Points[2].Refused == "" || !strings.Contains(sw.Points[2].Refused, "more than the 30000 a figure runs at once") {
		t.Fatalf("points %+v", sw.Points)
	}
	for _, p := range sw.Points[:2] {
		res, err := c.Run(p.Query)
		if err != nil {
			t.Fatal(err)
		}
		if p.PointReport == nil || p.Hash != res.Hash || p.Recordings["open"] != res.Report().Recordings["open"] {
			t.Errorf("point %s differs from its own run", p.Query)
		}
	}
	if again, _ := c.Sweep("duration=2s&sweep=x", "duration:1s..8s/3", "sweep"); again != sw {
		t.Error("the sweep was run again")
	}
	if _, err := c.Sweep("duration=2s", "rank:round..ceil/2"); err == nil || !strings.HasPrefix(err.Error(), "sweep: ") {
		t.Errorf("a bad spec: %v", err)
	}
}
