package sim

import "strconv"

// Report is the machine-readable summary of a Result: the report command's
// JSON, and what the page and tests read.
type Report struct {
	Query      string                  `json:"query"`
	Planned    int64                   `json:"planned"`
	SlotNs     int64                   `json:"slot_ns"`
	Exact      bool                    `json:"exact"`
	Clients    map[string]ClientReport `json:"clients"`
	Recordings map[string]RecReport    `json:"recordings"`
	Checks     []Check                 `json:"checks"`
	Passed     int                     `json:"passed"`
	Failed     int                     `json:"failed"`
	Notes      []string                `json:"notes"`

	// Added by the engine issue (engineReport; the hash: hash.go).
	Hash          string            `json:"hash"`           // SHA-256 of the result (Result.Hash)
	EngineVersion int               `json:"engine_version"` // EngineVersion
	Engine        string            `json:"engine"`         // "fast" (walk.go, long.go) or "event" (engine.go)
	Seed          string            `json:"seed"`           // decimal: JSON numbers lose 64-bit integers
	Params        map[string]string `json:"params"`         // every parameter, defaults included
	Limits        map[string]int64  `json:"limits"`
	NotModelled   []string          `json:"not_modelled"`
	Series        *SeriesReport     `json:"series,omitempty"` // event runs: the charts' time series
}

// ClientReport is one client's counters.
type ClientReport struct {
	Planned          int64 `json:"planned"`
	Sent             int64 `json:"sent"`
	Stalls           int64 `json:"stalls"`
	LastCompletionNs int64 `json:"last_completion_ns"`
	// Outcomes other than a reply (event runs; 0 on the fast path).
	Rejected     int64 `json:"rejected"`
	Failed       int64 `json:"failed"`
	TimedOut     int64 `json:"timed_out"`
	Wasted       int64 `json:"wasted"`         // services finished after the client gave up
	WastedWorkNs int64 `json:"wasted_work_ns"` // the worker time they took
	// Retry counts the attempts of a run with retries (attempts > 1; absent
	// otherwise). Then sent and the outcomes above are of calls, the wasted
	// services of attempts.
	Retry *RetryReport `json:"retry,omitempty"`
	// Slowdown counts the services that started in a slowdown window (a run
	// with slow only); Think the closed loop's pauses (think only).
	Slowdown *SlowdownReport `json:"slowdown,omitempty"`
	Think    *ThinkReport    `json:"think,omitempty"`
}

// SlowdownReport is one client's services started in a slowdown window and
// the time their factors added to them.
type SlowdownReport struct {
	Services int64 `json:"services"`
	ExtraNs  int64 `json:"extra_ns"`
}

// ThinkReport is the closed loop's pauses: how many, their sum, the
// shortest and the longest.
type ThinkReport struct {
	Pauses  int64 `json:"pauses"`
	TotalNs int64 `json:"total_ns"`
	MinNs   int64 `json:"min_ns"`
	MaxNs   int64 `json:"max_ns"`
}

// RetryReport is one client's attempts (EngineClient.Retry).
type RetryReport struct {
	Calls            int64 `json:"calls"`              // = sent
	Attempts         int64 `json:"attempts"`           // first attempts included
	Retries          int64 `json:"retries"`            // attempts − calls
	Completed        int64 `json:"completed"`          // calls answered in time: the recording's count
	FailedCalls      int64 `json:"failed_calls"`       // calls whose last attempt failed
	AttemptsRejected int64 `json:"attempts_rejected"`  // attempts a full queue rejected
	AttemptsFailed   int64 `json:"attempts_failed"`    // attempts an outage failed
	AttemptsTimedOut int64 `json:"attempts_timed_out"` // attempts the client gave up on
	MaxAttempts      int   `json:"max_attempts"`       // the most one call sent
	// AttemptLatency is the successful attempts' latency from their own
	// send, as a tool that retries inside would record it.
	AttemptLatency RecReport `json:"attempt_latency"`
}

// Tail is a latency record's headline numbers: its percentiles, in
// Percentiles() order, and its maximum, in ns, under the report's JSON keys.
// Every record of latencies the project writes (a recording's report, a
// tool's printout, a measured file, a real run) carries it: one type, one
// set of keys. T is int64, or *int64 where a file or printout may not say
// (nil).
type Tail[T int64 | *int64] struct {
	P50Ns   T `json:"p50_ns"`
	P90Ns   T `json:"p90_ns"`
	P99Ns   T `json:"p99_ns"`
	P999Ns  T `json:"p99_9_ns"`
	P9999Ns T `json:"p99_99_ns"`
	MaxNs   T `json:"max_ns"`
}

// Ps returns the percentiles' fields in Percentiles() order, to fill or read.
func (t *Tail[T]) Ps() [NumPercentiles]*T {
	return [NumPercentiles]*T{&t.P50Ns, &t.P90Ns, &t.P99Ns, &t.P999Ns, &t.P9999Ns}
}

// TailOf is the Tail of percentiles p (in Percentiles() order) and max.
func TailOf(p [NumPercentiles]int64, max int64) Tail[int64] {
	return Tail[int64]{P50Ns: p[P50], P90Ns: p[P90], P99Ns: p[P99], P999Ns: p[P999], P9999Ns: p[P9999], MaxNs: max}
}

// RecReport is one recording's metrics.
type RecReport struct {
	Count  int64   `json:"count"`
	MeanNs float64 `json:"mean_ns"`
	Tail[int64]
	Above      int64   `json:"above"`
	AboveShare float64 `json:"above_share"`
	IntervalNs int64   `json:"interval_ns,omitempty"`
	Exact      bool    `json:"exact"`
}

// Report summarises the result.
func (r *Result) Report() Report {
	rep := Report{Query: r.Query, Planned: r.Planned, SlotNs: r.Slot, Exact: r.Exact,
		Clients: map[string]ClientReport{}, Recordings: map[string]RecReport{}, Checks: r.Checks, Notes: r.Notes}
	for _, c := range r.Clients {
		rep.Clients[c.Client.String()] = ClientReport{Planned: c.Planned, Sent: c.Sent, Stalls: c.StallsMet, LastCompletionNs: c.LastCompletion}
	}
	for i := range r.Recordings {
		rep.Recordings[r.Recordings[i].Kind.String()] = r.Recordings[i].report()
	}
	rep.Passed, _ = r.Passed()
	rep.Failed = len(r.Checks) - rep.Passed
	if rep.Checks == nil {
		rep.Checks = []Check{}
	}
	if rep.Notes == nil {
		rep.Notes = []string{}
	}
	r.engineReport(&rep)
	return rep
}

func (rec *Recording) report() RecReport {
	return RecReport{Count: rec.Count, MeanNs: rec.Mean, Tail: TailOf(rec.P, rec.Max), Above: rec.Above, AboveShare: rec.Share(), IntervalNs: rec.Interval, Exact: rec.Dist.Exact()}
}

// Params returns every parameter's canonical text by query name, defaults
// included, except those of a field a later engine version added, listed
// only when set (field.added). The preset is only a starting point and is
// not among them.
func (c Config) Params() map[string]string {
	m := map[string]string{}
	base := Default()
	for i := range fieldTable {
		f := &fieldTable[i]
		v := f.get(c)
		if f.name == "preset" || f.added > 0 && v == f.get(base) {
			continue // a later field at its default: see field.added
		}
		m[f.name] = v
	}
	return m
}

// SeriesReport is the report's form of a Series.
type SeriesReport struct {
	IntervalNs       int64                   `json:"interval_ns"`
	Points           int                     `json:"points"`
	Truncated        bool                    `json:"truncated"`
	ExactPercentiles bool                    `json:"exact_percentiles"`
	Clients          map[string]ClientSeries `json:"clients"`
}

// engineReport fills the report's additions of the engine issue.
func (r *Result) engineReport(rep *Report) {
	rep.Hash = r.Hash
	rep.EngineVersion = EngineVersion
	rep.Engine = "fast"
	rep.Seed = strconv.FormatUint(r.Config.Seed, 10)
	rep.Params = r.Config.Params()
	rep.Limits = Limits()
	rep.NotModelled = NotModelled()
	if r.Engine == nil {
		return
	}
	rep.Engine = "event"
	for c := range r.Engine.Clients {
		ec := &r.Engine.Clients[c]
		cr := rep.Clients[Client(c).String()]
		cr.Rejected, cr.Failed, cr.TimedOut, cr.Wasted, cr.WastedWorkNs = ec.Rejected, ec.Failed, ec.TimedOut, ec.Wasted, ec.WastedNs
		if rc := ec.Retry; rc != nil {
			cr.Retry = &RetryReport{Calls: ec.Sent, Attempts: rc.Attempts, Retries: rc.Retries, Completed: ec.Replies, FailedCalls: rc.FailedCalls,
				AttemptsRejected: rc.AttemptsRejected, AttemptsFailed: rc.AttemptsFailed, AttemptsTimedOut: rc.AttemptsTimedOut,
				MaxAttempts: rc.MaxAttempts, AttemptLatency: rc.AttemptLatency.report()}
		}
		if st := ec.st; r.Config.Slowed() && st != nil {
			cr.Slowdown = &SlowdownReport{Services: st.slowed, ExtraNs: st.slowExtraNs}
		}
		if st := ec.st; r.Config.Thinking() && Client(c) == ClosedClient && st != nil {
			cr.Think = &ThinkReport{Pauses: st.thinks, TotalNs: st.thinkNs, MinNs: min(st.thinkMin, st.thinkMax), MaxNs: st.thinkMax}
		}
		rep.Clients[Client(c).String()] = cr
	}
	if s := r.Engine.Series; s != nil {
		sr := &SeriesReport{IntervalNs: s.IntervalNs, Points: s.Points, Truncated: s.Truncated, ExactPercentiles: s.ExactPercentiles, Clients: map[string]ClientSeries{}}
		for c := range s.Clients {
			sr.Clients[Client(c).String()] = s.Clients[c]
		}
		rep.Series = sr
	}
}
