package sim

import (
	"fmt"
	"math"
)

// Cost is what a run will take, estimated from its Config before it starts.
// Callers with a budget of their own (the browser page) refuse a run whose
// estimate exceeds it, as Validate refuses what exceeds the simulator's
// limits; the estimate reads no clock, so it is the same everywhere.
type Cost struct {
	Requests int64   // requests per client (planned, or the mean arrivals)
	Path     string  // "exact", "long" or "event": how they are simulated
	Stalls   int64   // stalls that begin before the schedule's end
	Work     float64 // estimated work, in nanoseconds of a native run on a typical machine
	Bytes    float64 // estimated peak memory of the result, in bytes
}

// Per-request costs of each path, all in (the three clients, distributions,
// checks, hash), measured natively with the report command: 2 M requests a
// client on the exact path (0.13 s, 111 MB), 1 M and 4 M Poisson arrivals
// through the engine (0.26 s, 230 MB; 4 s, 361 MB); the long path per
// stretch (BenchmarkLong). A browser runs WebAssembly about three times slower.
const (
	costExact        = 70.0   // ns a planned request
	costLong         = 150.0  // ns a stretch of the long path (Config.longWork), counted runs and all
	costLongFixed    = 2e6    // ns a long run takes whatever its stretches (results, checks, hash)
	bytesLong        = 64.0   // bytes a stretch, at most (identical runs merge)
	costEvent        = 300.0  // the event engine, per arrival, exact percentiles
	costEventHist    = 1000.0 // beyond ExactSamples
	bytesExact       = 60.0   // send and reply times, latencies, sorted copies
	bytesEvent       = 240.0  // per arrival up to ExactSamples
	bytesEventBeyond = 60.0   // per arrival beyond
)

// Estimate returns the cost of running c. c must be valid.
func (c Config) Estimate() Cost {
	n := NewSchedule(c.Rate).Count(c.Duration)
	cost := Cost{Requests: n, Stalls: newStalls(c).Count(c.Duration)}
	switch {
	case c.EventDriven():
		a := int64(math.Round(c.ExpectedArrivals()))
		cost.Requests, cost.Path = a, "event"
		exact := float64(min(a, ExactSamples))
		beyond := float64(a) - exact
		cost.Work = costEvent*exact + costEventHist*beyond
		cost.Bytes = bytesEvent*exact + bytesEventBeyond*beyond
	case n <= ExactSamples:
		cost.Path = "exact"
		cost.Work = costExact * float64(n)
		cost.Bytes = bytesExact * float64(n)
	default:
		// The long path: its work follows the stalls met times the slots
		// (BenchmarkLong: a day at 10M requests a second in about 3 ms).
		w := c.longWork(n, c.longEnd(n, min(c.fastEnd(n), maxVirtualTime)))
		cost.Path = "long"
		cost.Work = costLongFixed + costLong*w
		cost.Bytes = 1 << 20
		if s := NewSchedule(c.Rate); c.Stall == 0 || c.Every == 0 || !s.Exact() || c.Every%s.Interval(1) != 0 {
			// Stalls at ever-different phases of the schedule: their runs
			// differ and are all kept (those of a repeating phase merge).
			cost.Bytes += bytesLong * w
		}
	}
	return cost
}

// Budget is the most a caller lets one run cost.
type Budget struct {
	Where string  // who sets it, for the message: "the page"
	Work  float64 // as Cost.Work
	Bytes float64 // as Cost.Bytes
	// Elsewhere says where a larger run can go instead, for the message.
	Elsewhere string
}

// PageBudget is what the browser page runs: about 4 s of native work (some
// 12 s of WebAssembly, shown with a progress bar and a Cancel button) and a
// result of at most 512 MiB. The report command has no budget beyond the
// simulator's limits.
func PageBudget() Budget {
	return Budget{Where: "the page", Work: 4e9, Bytes: 512 << 20,
		Elsewhere: "the command line runs it (go run ./app report 'QUERY')"}
}

// Within reports whether the run fits the budget; when it does not, the
// error names the field to change (duration), the limit and what to change.
func (c Config) Within(b Budget) *FieldError {
	cost := c.Estimate()
	if cost.Work <= b.Work && cost.Bytes <= b.Bytes {
		return nil
	}
	perReq := cost.Work / float64(max(cost.Requests, 1))
	most := int64(b.Work / perReq)
	if cost.Bytes > b.Bytes {
		most = min(most, int64(b.Bytes/(cost.Bytes/float64(max(cost.Requests, 1)))))
	}
	what := "requests a client"
	if cost.Path == "event" {
		what = "arrivals a client"
	}
	return &FieldError{Field: "duration", Value: FormatDuration(c.Duration), Reason: ReasonLimit, Allowed: fmt.Sprintf(
		"limit of %s: this run plans %d %s on the %s path, %s; it runs at most about %d %s at these settings: shorten the duration or lower the rate, or %s",
		b.Where, cost.Requests, what, cost.Path, overBudget(cost, b), most, what, b.Elsewhere)}
}

// overBudget words the part of the budget a run exceeds, with its own
// figure: the work, the memory, or both.
func overBudget(cost Cost, b Budget) string {
	const mib = 1 << 20
	work := fmt.Sprintf("about %.3g s of work, over its budget of %.3g s", cost.Work/1e9, b.Work/1e9)
	mem := fmt.Sprintf("about %.0f MiB of memory for its result, over its budget of %.0f MiB", cost.Bytes/mib, b.Bytes/mib)
	switch {
	case cost.Work > b.Work && cost.Bytes > b.Bytes:
		return work + ", and " + mem
	case cost.Bytes > b.Bytes:
		return mem + " (its work, about " + fmt.Sprintf("%.3g s", cost.Work/1e9) + ", is within the budget)"
	}
	return work
}
