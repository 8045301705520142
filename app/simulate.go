package main

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"omission/app/units"
	"omission/sim"
)

// How a simulation runs in the page.
//
// The page starts a run when its parameters change (never in Render). The
// first slice runs at once on the UI goroutine, inside the event that changed
// the parameters: a quick run (the presets take a few tens of milliseconds)
// is then painted in the frame that follows the event. go-app renders on a
// frame tick and picks at random among ready channel cases, so a result
// handed over by a dispatch from another goroutine tends to miss that frame
// and wait for the next tick, after a useless render.
//
// A run that needs more than one slice continues on its own goroutine. In
// the browser that goroutine shares the only thread: it yields to the browser
// between slices (input is handled, progress painted), and a newer parameter
// change cancels it. Its results come back to the UI goroutine by dispatch.
//
// Finished results are also published as the stateResult state (a
// resultView), for components that follow it with ctx.ObserveState. The page
// publishes a result once its headline and table are painted, so that the
// heavier figures never hold them back.
const (
	stateResult = "omission/result"
	stateProof  = "omission/proof"
)

// Status values of simStatus.
const (
	statusRunning   = "running"
	statusDone      = "done"
	statusFailed    = "failed"
	statusRefused   = "refused"
	statusCancelled = "cancelled"
)

// simStatus is where the latest run stands.
type simStatus struct {
	Seq      int64
	Status   string
	Err      string
	Progress float64 // 0 to 1, while running in slices
	Sliced   bool    // the run continues beyond its first slice
}

// requestSeq numbers runs for the whole program, so that a result is never
// mistaken for another page instance's.
var requestSeq atomic.Int64

func nextSeq() int64 { return requestSeq.Add(1) }

// sliceTime is how long a run may hold the browser's only thread before it
// yields, so that input is handled and progress painted during long runs.
var sliceTime = 12 * time.Millisecond

// stepBudget is how many requests one Step call simulates; cancellation and
// the slice clock are checked between calls.
const stepBudget = 1 << 16

// simRun is one simulation in progress.
type simRun struct {
	Seq    int64
	cancel chan struct{}
	r      *sim.Runner
	start  time.Time
}

type cancelledError struct{}

func (cancelledError) Error() string { return "cancelled by a newer request" }

var errCancelled error = cancelledError{}

// newRun validates cfg and prepares a run.
func newRun(seq int64, cfg sim.Config) (*simRun, error) {
	start := time.Now()
	r, err := sim.Start(cfg)
	if err != nil {
		return nil, err
	}
	return &simRun{Seq: seq, cancel: make(chan struct{}), r: r, start: start}, nil
}

// Cancel stops the run at its next check. It may be called more than once.
func (s *simRun) Cancel() {
	select {
	case <-s.cancel:
	default:
		close(s.cancel)
	}
}

func (s *simRun) cancelled() bool {
	select {
	case <-s.cancel:
		return true
	default:
		return false
	}
}

// slice simulates for about sliceTime and reports whether every request is
// simulated.
func (s *simRun) slice() (bool, error) {
	t0 := time.Now()
	for {
		if s.cancelled() {
			return false, errCancelled
		}
		if s.r.Step(stepBudget) {
			return true, nil
		}
		if el := time.Since(s.start); el > sim.TimeBudget {
			return false, sim.ErrTimeBudget(el, sim.TimeBudget)
		}
		if time.Since(t0) >= sliceTime {
			return false, nil
		}
	}
}

// progress is the share of the requests simulated so far.
func (s *simRun) progress() float64 {
	done, total := s.r.Progress()
	if total <= 0 {
		return 0
	}
	return float64(done) / float64(total)
}

// finish computes the result (distributions and checks, in one piece) and
// formats it for the page.
func (s *simRun) finish() (*resultView, error) {
	if s.cancelled() {
		return nil, errCancelled
	}
	// A run a limit stopped (the event engine's events or queued work) has
	// no result: its error names the limit.
	if err := s.r.Err(); err != nil {
		return nil, err
	}
	res := s.r.Result()
	if res == nil {
		return nil, errors.New("the simulation stopped without a result")
	}
	v := buildView(s.Seq, res, 0)
	// The cost line reports the whole update: the run, the checks and the
	// formatting of what the page shows.
	v.setCost(float64(time.Since(s.start).Microseconds()) / 1000)
	return v, nil
}

// simulate runs cfg to the end, yielding between slices: a whole run
// outside the page (tests, tools).
func simulate(seq int64, cfg sim.Config, yield func()) (*resultView, error) {
	s, err := newRun(seq, cfg)
	if err != nil {
		return nil, err
	}
	for {
		done, err := s.slice()
		if err != nil {
			return nil, err
		}
		if done {
			return s.finish()
		}
		yield()
	}
}

// setCost sets the wall time of the update and its line.
func (v *resultView) setCost(ms float64) {
	v.Cost.Ms = ms
	v.Cost.Text = fmt.Sprintf("Simulated %s requests (%s samples) in %s ms",
		units.Count(v.Cost.Requests), units.Count(v.Cost.Samples), units.Decimals(ms))
}
