package sim

// What a run gives: the Result, its clients' runs and its five recordings,
// whatever path made it (run.go).

// Client indexes the three load generators.
type Client int

const (
	ClosedClient Client = iota // waits for each reply before the next send
	PacedClient                // sleeps to its next slot; when late, sends at once and re-anchors
	OpenClient                 // sends every request when it is due
)

var clientNames = [...]string{"closed", "paced", "open"}

func (c Client) String() string { return clientNames[c] }

// Kind indexes the five recordings, in display order.
type Kind int

const (
	Closed Kind = iota
	Paced
	Open
	Corrected
	PacedCorrected
	NumKinds
)

var kindNames = [...]string{"closed", "paced", "open", "corrected", "paced_corrected"}

func (k Kind) String() string { return kindNames[k] }

// Kinds returns every recording kind in display order.
func Kinds() []Kind { return []Kind{Closed, Paced, Open, Corrected, PacedCorrected} }

// Client returns the client whose replies a recording holds.
func (k Kind) Client() Client {
	switch k {
	case Paced, PacedCorrected:
		return PacedClient
	case Open:
		return OpenClient
	}
	return ClosedClient
}

// ClientRun is what one client did.
type ClientRun struct {
	Client         Client
	Planned        int64 // requests the schedule holds
	Sent           int64 // requests the client sent
	StallsMet      int64 // stalls that began before its last reply
	LastCompletion int64 // its last reply
	// Per request, in send order, when the run is exact (nil otherwise):
	// Send[i] when it left (nil for the open loop, which sends at Due(i)) and
	// Done[i] when its reply arrived.
	Send, Done []int64
}

// Latency returns the recorded latency of request i (exact runs only).
func (c *ClientRun) Latency(i int, s Schedule) int64 {
	if c.Send == nil {
		return c.Done[i] - s.Due(int64(i))
	}
	return c.Done[i] - c.Send[i]
}

// latencies returns every recorded latency in send order (exact runs),
// walking the schedule with additions rather than a division per request.
func (c *ClientRun) latencies(rate Rate) []int64 {
	lat := make([]int64, len(c.Done))
	if c.Send != nil {
		for i := range lat {
			lat[i] = c.Done[i] - c.Send[i]
		}
		return lat
	}
	due := newDueIter(rate)
	for i := range lat {
		lat[i] = c.Done[i] - int64(due.q)
		due.next()
	}
	return lat
}

// Recording is one data set and its metrics.
type Recording struct {
	Kind     Kind
	Interval int64 // the expected interval E of a corrected recording
	Dist     *Dist
	Count    int64
	Mean     float64
	P        [5]int64 // at Percentiles
	Max      int64
	Above    int64 // samples strictly above Config.Above
}

// setMetrics fills a recording's metrics from its distribution. exactAbove,
// when not negative, is the above-threshold count a histogram recording kept
// exactly while it was recorded.
func (rec *Recording) setMetrics(k Kind, d *Dist, cfg Config, exactAbove int64) {
	rec.Kind, rec.Dist = k, d
	rec.Count, rec.Mean, rec.Max = d.Count(), d.Mean(), d.Max()
	for i, p := range percentiles {
		rec.P[i] = d.Percentile(p.PPM, cfg.Rank)
	}
	rec.Above = exactAbove
	if exactAbove < 0 {
		rec.Above = d.CountAbove(cfg.Above)
	}
}

// Share returns Above as a fraction of Count.
func (r *Recording) Share() float64 {
	if r.Count == 0 {
		return 0
	}
	return float64(r.Above) / float64(r.Count)
}

// PercentileOfSent returns the percentile ppm over sent calls of which the
// recording holds the answered ones (Count), a call never answered counted as
// slower than any answer. ok is false when that rank falls on an unanswered
// call or nothing was sent. With every call answered it is the percentile of
// the recording itself.
func (r *Recording) PercentileOfSent(ppm, sent int64, rank Rank) (v int64, ok bool) {
	if sent <= r.Count {
		if r.Count == 0 || r.Dist == nil {
			return 0, false
		}
		return r.Dist.Percentile(ppm, rank), true
	}
	k := RankOf(ppm, sent, rank)
	if k > r.Count || r.Dist == nil {
		return 0, false
	}
	return r.Dist.ValueAtRank(k), true
}

// Result is a finished simulation.
type Result struct {
	Config     Config
	Query      string
	Planned    int64
	Slot       int64 // 1/rate, rounded to a nanosecond
	Exact      bool  // percentiles are exact sample values
	Clients    [3]ClientRun
	Recordings [NumKinds]Recording
	Checks     []Check
	Notes      []string
	// Hash is the SHA-256 of the result's canonical JSON (hash.go):
	// the same query gives the same hash natively and in WebAssembly.
	Hash string
	// Engine is what the event engine adds (engine_run.go); nil on the fast path.
	Engine *EngineResult

	long   *longTallies // a long run's per-request invariants (it keeps no per-request data)
	cf     *ClosedForms // closedForms: derived once
	cfDone bool
}

// Recording returns the named recording, or nil.
func (r *Result) Recording(name string) *Recording {
	for i := range r.Recordings {
		if r.Recordings[i].Kind.String() == name {
			return &r.Recordings[i]
		}
	}
	return nil
}

// Schedule returns the run's request schedule.
func (r *Result) Schedule() Schedule { return NewSchedule(r.Config.Rate) }
