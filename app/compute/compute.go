package compute

import (
	"errors"
	"fmt"
	"omission/app/units"
	"sync"
	"sync/atomic"
	"time"

	"omission/app/view"
	"omission/sim"
	"omission/sim/sweep"
)

// Settings say how a caller runs simulations.
type Settings struct {
	// Simulate is false where no number may be shown for a query the caller
	// cannot know (the static generator prerenders one page for every
	// query); a Job is then never started.
	Simulate bool
	// Slice is how long a Job holds its thread before it yields, so that
	// input is handled and progress painted during long runs.
	Slice time.Duration
	// Prerender is true where the static generator renders the pages: a
	// page says its numbers are prerendered (the browser's app takes over).
	Prerender bool
}

// Browser are the settings of the page in a browser: simulations run, in
// slices of 12 ms.
func Browser(simulate bool) Settings {
	return Settings{Simulate: simulate, Slice: 12 * time.Millisecond}
}

// requestSeq numbers runs for the whole program, so that a result is never
// mistaken for another page instance's.
var requestSeq atomic.Int64

// NextSeq returns a new run number.
func NextSeq() int64 { return requestSeq.Add(1) }

// stepBudget is how many requests one Step call simulates; cancellation and
// the slice clock are checked between calls.
const stepBudget = 1 << 16

// ErrCancelled is the error of a cancelled Job.
var ErrCancelled error = cancelledError{}

type cancelledError struct{}

func (cancelledError) Error() string { return "cancelled by a newer request" }

// Job is one simulation in progress.
type Job struct {
	Seq    int64
	cancel chan struct{}
	r      *sim.Runner
	start  time.Time
	slice  time.Duration
}

// NewJob validates cfg and prepares a run.
func NewJob(seq int64, cfg sim.Config, s Settings) (*Job, error) {
	start := time.Now()
	r, err := sim.Start(cfg)
	if err != nil {
		return nil, err
	}
	return &Job{Seq: seq, cancel: make(chan struct{}), r: r, start: start, slice: s.Slice}, nil
}

// Cancel stops the run at its next check. It may be called more than once.
func (j *Job) Cancel() {
	select {
	case <-j.cancel:
	default:
		close(j.cancel)
	}
}

func (j *Job) cancelled() bool {
	select {
	case <-j.cancel:
		return true
	default:
		return false
	}
}

// Slice simulates for about the settings' slice time and reports whether
// every request is simulated.
func (j *Job) Slice() (bool, error) {
	t0 := time.Now()
	for {
		if j.cancelled() {
			return false, ErrCancelled
		}
		if j.r.Step(stepBudget) {
			return true, nil
		}
		if el := time.Since(j.start); el > sim.TimeBudget {
			return false, sim.ErrTimeBudget(units.Duration(el.Milliseconds()*1e6), units.Duration(int64(sim.TimeBudget)))
		}
		if time.Since(t0) >= j.slice {
			return false, nil
		}
	}
}

// Progress is the share of the requests simulated so far.
func (j *Job) Progress() float64 {
	done, total := j.r.Progress()
	if total <= 0 {
		return 0
	}
	return float64(done) / float64(total)
}

// Finish computes the result (distributions and checks, in one piece) and
// formats it for the page.
func (j *Job) Finish() (*view.View, error) {
	if j.cancelled() {
		return nil, ErrCancelled
	}
	// A run a limit stopped (the event engine's events or queued work) has
	// no result: its error names the limit.
	if err := j.r.Err(); err != nil {
		return nil, err
	}
	res := j.r.Result()
	if res == nil {
		return nil, errors.New("the simulation stopped without a result")
	}
	v := view.Build(j.Seq, res, 0)
	// The cost line reports the whole update: the run, the checks and the
	// formatting of what the page shows.
	v.SetCost(float64(time.Since(j.start).Microseconds()) / 1000)
	return v, nil
}

// RunAll runs cfg to the end, calling yield between slices: a whole run
// outside the page (tests, tools).
func RunAll(seq int64, cfg sim.Config, s Settings, yield func()) (*view.View, error) {
	j, err := NewJob(seq, cfg, s)
	if err != nil {
		return nil, err
	}
	for {
		done, err := j.Slice()
		if err != nil {
			return nil, err
		}
		if done {
			return j.Finish()
		}
		yield()
	}
}

// Cache runs whole queries at once and keeps the results of the last few:
// a result is a pure function of its canonical query, so a cached one is
// the same result. Its runs are not sliced, so it refuses queries over its
// limit and points to the visualiser.
type Cache struct {
	mu    sync.Mutex
	size  int
	limit float64 // the most requests a client a run may plan
	keys  []string
	res   map[string]*sim.Result

	sweeps    map[string]*sweep.Result // the last few sweeps (Sweep), by query and spec
	sweepKeys []string
}

// NewCache returns a cache of size results that runs queries of at most
// limit requests a client.
func NewCache(size int, limit float64) *Cache {
	return &Cache{size: size, limit: limit, res: map[string]*sim.Result{}}
}

// FigureRequests bounds the runs figures and embeds make at once.
const FigureRequests = 300_000

// Run parses and runs a query (the page keys allowed), reusing a cached
// result.
func (c *Cache) Run(q string, pageKeys ...string) (*sim.Result, error) {
	cfg, err := sim.ParseQuery(q, pageKeys...)
	if err != nil {
		return nil, err
	}
	if n := cfg.ExpectedArrivals(); n > c.limit {
		return nil, fmt.Errorf("this run plans about %.0f requests a client, more than the %.0f a figure draws at once: open it in the visualiser", n, c.limit)
	}
	key := cfg.Query()
	c.mu.Lock()
	res, ok := c.res[key]
	c.mu.Unlock()
	if ok {
		return res, nil
	}
	res, err = sim.Run(cfg)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.res[key] = res
	c.keys = append(c.keys, key)
	if len(c.keys) > c.size {
		delete(c.res, c.keys[0])
		c.keys = c.keys[1:]
	}
	return res, nil
}

// Sweep runs a sweep over the query q (the page keys allowed) at once,
// point by point (sweep.Sweep: each point's report is its own query's), and
// keeps the last few. A point that plans more requests a client than the
// cache runs at once is refused alone, with the reason; so is one that
// Validate refuses.
func (c *Cache) Sweep(q, spec string, pageKeys ...string) (*sweep.Result, error) {
	cfg, err := sim.ParseQuery(q, pageKeys...)
	if err != nil {
		return nil, err
	}
	sw, err := sweep.Parse(spec)
	if err != nil {
		return nil, err
	}
	key := cfg.Query() + "\x00" + sw.String()
	c.mu.Lock()
	res, ok := c.sweeps[key]
	c.mu.Unlock()
	if ok {
		return res, nil
	}
	res = sw.Result(cfg)
	res.Points = sw.Points(cfg, nil)
	for i := range res.Points {
		p := &res.Points[i]
		if n := p.Config.ExpectedArrivals(); p.Refused == "" && n > c.limit {
			p.Refused = fmt.Sprintf("this point plans about %.0f requests a client, more than the %.0f a figure runs at once: open it in the visualiser", n, c.limit)
		}
		p.Run()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sweeps == nil {
		c.sweeps = map[string]*sweep.Result{}
	}
	c.sweeps[key] = res
	c.sweepKeys = append(c.sweepKeys, key)
	if len(c.sweepKeys) > 4 {
		delete(c.sweeps, c.sweepKeys[0])
		c.sweepKeys = c.sweepKeys[1:]
	}
	return res, nil
}
