package sim

import "fmt"

// EngineResult is what the event engine adds to a Result; nil when the
// fast path of walk.go produced it.
type EngineResult struct {
	Seed    uint64
	Events  int64   // events processed over the three clients
	Due     []int64 // exact runs: the shared schedule, request by request
	Clients [3]EngineClient
	Series  *Series
	// plans is the paced client's, rebuilt on first use for the animation
	// (engine_trace.go). It holds a sync.Once: an EngineResult is made and
	// shared by pointer, never copied (go vet's copylocks would say so).
	plans pacedPlan
}

// EngineClient is one client's outcomes. Outcomes are counted at the
// client; Wasted, WastedNs and FailedAtWorker at its server.
type EngineClient struct {
	Planned        int64 // requests of the shared schedule (the paced client draws its own)
	Sent           int64
	Replies        int64 // answered in time: the samples of its recording
	Rejected       int64 // the queue was full
	Failed         int64 // an outage failed it
	TimedOut       int64 // the client gave up
	Wasted         int64 // services finished after the client gave up
	WastedNs       int64 // the worker time they took
	FailedAtWorker int64 // waiting requests an outage failed when a worker took them
	Entered        int64 // requests that entered the server (waited or were served)
	End            int64 // the last event of its run, wasted work included
	// Outcome says, per request in send order (exact runs), how it ended;
	// ClientRun.Done holds when the client learned it.
	Outcome []Outcome
	// Start holds, per request in send order (exact runs), when its service
	// began: when a worker took it, or the end of the stall it was taken in
	// (−1: never, it was rejected or failed first).
	Start []int64
	// Retry counts the attempts (nil without retries: attempts=1). With
	// retries the counts above are of calls (Sent, Replies, Rejected,
	// Failed, TimedOut: a call's last attempt), and those of the server
	// (Wasted, WastedNs, FailedAtWorker, Entered) of attempts; Outcome,
	// Start and the client's Send and Done are per call, Start being the
	// service start of its last attempt that reached a worker.
	Retry *RetryCounts
	// Attempts holds, in an exact run with retries, every attempt of each
	// call that sent more than one, in the order they ended (Attempt); a
	// call missing from it sent one attempt, the call itself. AttemptsCut:
	// the trace stopped at MaxAttemptTrace attempts.
	Attempts    []Attempt
	AttemptsCut bool
	// WastedAttempts holds, in an exact run with retries, each attempt a
	// worker finished after its client gave up on it, in the order they
	// finished (at most MaxAttemptTrace: every one of them is also an
	// attempt of Attempts, which is cut first).
	WastedAttempts []WastedAttempt
	// Slowed counts the services that started in a slowdown window, and
	// SlowExtraNs the time their factors added; Pauses the closed loop's
	// think pauses (0 for the paced and open clients, which do not think).
	Slowed, SlowExtraNs, Pauses int64
	st                          *clientStats
}

// The limits the engine applies; tests lower them to reach them quickly.
var (
	limitEvents = MaxEvents
	limitQueued = MaxQueued
	limitExact  = ExactSamples // mean arrivals a client up to which percentiles are exact
)

// engineRun is a Runner's event-driven run: the three clients one after
// the other, each in slices of events.
type engineRun struct {
	cfg    Config
	exact  bool
	sims   [3]*engSim
	cur    int
	events int64
	err    error
}

func newEngineRun(cfg Config) *engineRun {
	e := &engineRun{cfg: cfg, exact: cfg.ExpectedArrivals() <= float64(limitExact)}
	for c := range e.sims {
		e.sims[c] = newEngSim(Client(c), cfg, e.exact)
	}
	return e
}

// step processes up to budget events; it reports whether the run is over
// (finished or refused by a limit).
func (e *engineRun) step(budget int64) bool {
	for e.cur < len(e.sims) && budget > 0 && e.err == nil {
		s := e.sims[e.cur]
		if s.finished {
			e.cur++
			continue
		}
		n := min(budget, limitEvents-e.events+1)
		used := s.step(n)
		e.events += used
		budget -= used
		switch {
		case s.err != nil:
			e.err = s.err
		case e.events > limitEvents:
			e.err = &LimitError{Limit: "events", Need: fmt.Sprintf("the run needs more than %d events (a long corrected sequence counts as several)", limitEvents),
				Max: fmt.Sprint(limitEvents), Hint: "shorten the duration or lower the rate"}
		}
	}
	return e.cur >= len(e.sims) || e.err != nil
}

func (e *engineRun) progress() (done, total int64) {
	for _, s := range e.sims {
		done += s.st.sent
	}
	return done, int64(3 * e.cfg.ExpectedArrivals())
}

// result builds the Result of a finished run.
func (e *engineRun) result() *Result {
	cfg := e.cfg
	res := &Result{Config: cfg, Query: cfg.Query(), Slot: cfg.PacedSlot(), Exact: e.exact}
	er := &EngineResult{Seed: cfg.Seed, Events: e.events}
	res.Engine = er
	res.Planned = e.sims[OpenClient].st.planned
	ser := &Series{IntervalNs: SeriesInterval(cfg.Duration), ExactPercentiles: e.exact}
	ser.Points, ser.Truncated = e.sims[0].st.ser.points()
	dists := [NumKinds]*Dist{}
	E, PE := cfg.ExpectedInterval(), cfg.PacedInterval()
	for c, s := range e.sims {
		cs := &s.st
		e.setClient(res, c)
		if p, tr := cs.ser.points(); p > ser.Points {
			ser.Points, ser.Truncated = p, tr
		}
		if !e.exact {
			ser.Clients[c] = cs.ser.build(cfg.Workers, cfg.Rank, nil, nil)
			dists[clientKind(Client(c))] = cs.dist
			continue
		}
		lat := make([]int64, 0, cs.replies)
		at := make([]int64, 0, cs.replies)
		for i, o := range cs.outcome {
			if o == OutcomeReply {
				lat = append(lat, cs.doneT[i]-cs.sendT[i])
				at = append(at, cs.doneT[i])
			}
		}
		ser.Clients[c] = cs.ser.build(cfg.Workers, cfg.Rank, lat, at)
		dists[clientKind(Client(c))] = exactDist(lat)
	}
	// Every client's series has the same number of points.
	for c := range ser.Clients {
		ser.Clients[c] = padSeries(ser.Clients[c], ser.Points)
	}
	er.Series = ser
	if e.exact {
		er.Due = e.sims[OpenClient].st.sendT
		dists[Corrected] = correctedDist(dists[Closed], E)
		dists[PacedCorrected] = correctedDist(dists[Paced], PE)
		if !dists[Corrected].Exact() || !dists[PacedCorrected].Exact() {
			res.Exact = false
		}
	} else {
		dists[Corrected] = e.sims[ClosedClient].st.corr
		dists[PacedCorrected] = e.sims[PacedClient].st.corr
	}
	for _, k := range Kinds() {
		d := dists[k]
		exactAbove := int64(-1)
		if d.hist != nil && !e.exact {
			cs := &e.sims[k.Client()].st
			exactAbove = cs.aboveBase
			if k == Corrected || k == PacedCorrected {
				exactAbove = cs.aboveCorr
			}
		}
		res.Recordings[k].setMetrics(k, d, cfg, exactAbove)
	}
	res.Recordings[Corrected].Interval = E
	res.Recordings[PacedCorrected].Interval = PE
	res.Notes = append(res.Notes, engineNotes(res)...)
	res.Checks = engineChecks(res)
	return res
}

// clientKind is the recording of a client's own replies.
func clientKind(c Client) Kind {
	switch c {
	case PacedClient:
		return Paced
	case OpenClient:
		return Open
	}
	return Closed
}

// padSeries extends a client's series with empty intervals to n points.
func padSeries(s ClientSeries, n int) ClientSeries {
	pf := func(a []float64) []float64 {
		if a == nil {
			return nil
		}
		for len(a) < n {
			a = append(a, 0)
		}
		return a
	}
	pi := func(a []int64) []int64 {
		for len(a) < n {
			a = append(a, 0)
		}
		return a
	}
	s.QueueMean, s.Busy, s.Utilisation = pf(s.QueueMean), pf(s.Busy), pf(s.Utilisation)
	s.QueueMax, s.Replies, s.Rejected, s.Failed, s.TimedOut = pi(s.QueueMax), pi(s.Replies), pi(s.Rejected), pi(s.Failed), pi(s.TimedOut)
	s.P50, s.P90, s.P99, s.Max = pi(s.P50), pi(s.P90), pi(s.P99), pi(s.Max)
	if s.Retries != nil {
		s.Retries = pi(s.Retries)
	}
	return s
}

// engineNotes states how the run was made.
func engineNotes(res *Result) []string {
	cfg := res.Config
	var notes []string
	notes = append(notes, fmt.Sprintf("Event engine version %d, seed %d: %s arrivals, %s service times%s.",
		EngineVersion, cfg.Seed, cfg.Arrivals, cfg.Dist, engineExtras(cfg)))
	if !res.Exact {
		notes = append(notes, fmt.Sprintf("The run plans more than %d samples a recording: percentiles come from hdrhistogram-go histograms with %d significant digits (each within 0.1%% of its sample), and the time series' percentiles from buckets 1/64 wide; counts, means, maxima and counts above the threshold stay exact.", ExactSamples, HistogramSigf))
	}
	if s := res.Engine.Series; s != nil && s.Truncated {
		notes = append(notes, fmt.Sprintf("The time series stops after %d intervals of %s: the run drained for longer than its duration.", MaxSeriesPoints, FormatDuration(s.IntervalNs)))
	}
	return notes
}

func engineExtras(cfg Config) string {
	s := ""
	switch {
	case cfg.Queue == NoQueue:
		s += ", no waiting room"
	case cfg.Queue > 0:
		s += fmt.Sprintf(", a queue of %d", cfg.Queue)
	}
	if cfg.Timeout > 0 {
		s += ", client timeout " + FormatDuration(cfg.Timeout)
	}
	if cfg.Outages.Len() > 0 {
		s += ", outages " + cfg.Outages.String()
	}
	if cfg.Retrying() {
		s += fmt.Sprintf(", up to %d attempts a call %s apart", cfg.AttemptsPerCall(), FormatDuration(cfg.Backoff))
	}
	if cfg.Slowed() {
		s += ", slowdowns " + cfg.Slow.String()
	}
	switch {
	case cfg.ThinkMax > cfg.Think:
		s += ", the closed loop thinks " + FormatDuration(cfg.Think) + " to " + FormatDuration(cfg.ThinkMax) + " between calls"
	case cfg.Think > 0:
		s += ", the closed loop thinks " + FormatDuration(cfg.Think) + " between calls"
	}
	return s
}
