package sim

// Running a Config: Run to the end, or a Runner in slices that picks the
// walk (walk.go), the long path (long.go) or the event engine
// (engine_run.go) and finishes the Result (result.go).

// Run simulates cfg to the end.
func Run(cfg Config) (*Result, error) {
	r, err := Start(cfg)
	if err != nil {
		return nil, err
	}
	for !r.Step(1 << 62) {
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return r.Result(), nil
}

// Runner simulates a Config in slices, so that a caller on a single thread
// (the browser) can yield between them.
//
// A deterministic run of up to ExactSamples requests a client walks every
// request and keeps them (ClientRun.Send and Done); a longer one takes the
// long path (long.go), which keeps counted runs instead; an event-driven one
// runs through the engine (engine_run.go).
type Runner struct {
	cfg     Config
	planned int64
	sims    [3]*clientSim
	cur     int
	res     *Result
	eng     *engineRun // event-driven configurations (engine_run.go)
	long    *longRun   // deterministic runs beyond ExactSamples (long.go)
}

// Start validates cfg and prepares a run.
func Start(cfg Config) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.EventDriven() {
		return &Runner{cfg: cfg, planned: int64(cfg.ExpectedArrivals()), eng: newEngineRun(cfg)}, nil
	}
	n := NewSchedule(cfg.Rate).Count(cfg.Duration)
	if n > ExactSamples {
		return &Runner{cfg: cfg, planned: n, long: newLongRun(cfg, n)}, nil
	}
	return startWalk(cfg, n), nil
}

// startWalk prepares the request-by-request walk of a deterministic run
// (the reference the long path is tested against).
func startWalk(cfg Config, n int64) *Runner {
	r := &Runner{cfg: cfg, planned: n}
	for c := range r.sims {
		r.sims[c] = newClientSim(Client(c), cfg, n)
	}
	return r
}

// Planned returns the number of requests each client's schedule holds.
func (r *Runner) Planned() int64 { return r.planned }

// Progress returns the requests simulated so far over all clients, and the
// total expected (the paced client may send fewer).
func (r *Runner) Progress() (done, total int64) {
	if r.eng != nil {
		return r.eng.progress()
	}
	if r.long != nil {
		return r.long.progress()
	}
	for _, s := range r.sims {
		done += s.i
	}
	return done, 3 * r.planned
}

// longStepCost is what one stretch of the long path costs of a Step budget,
// in requests: about what walking that many requests takes.
const longStepCost = 16

// Step simulates up to budget requests and reports whether every client has
// finished.
//
// An event-driven run counts its budget in events (one to three a request),
// a long deterministic run in stretches (one per longStepCost requests of the
// budget); both also stop when a limit refuses them: Err then says which.
func (r *Runner) Step(budget int64) bool {
	if r.eng != nil {
		return r.eng.step(budget)
	}
	if r.long != nil {
		return r.long.step(max(1, budget/longStepCost))
	}
	for r.cur < len(r.sims) && budget > 0 {
		s := r.sims[r.cur]
		if s.finished {
			r.cur++
			continue
		}
		before := s.i
		s.step(budget)
		budget -= s.i - before
	}
	return r.cur >= len(r.sims)
}

// Result finishes the run: distributions, metrics and checks.
//
// It returns nil when a limit refused the run (see Err).
func (r *Runner) Result() *Result {
	if r.res != nil {
		return r.res
	}
	for !r.Step(1 << 62) {
	}
	switch {
	case r.eng != nil:
		if r.eng.err != nil {
			return nil
		}
		r.res = r.eng.result()
	case r.long != nil:
		if r.long.err != nil {
			return nil
		}
		r.res = r.long.result()
	default:
		r.res = r.walkResult()
	}
	r.res.Hash = r.res.computeHash()
	return r.res
}

// walkResult builds the Result of a walked run from its per-request data.
func (r *Runner) walkResult() *Result {
	cfg := r.cfg
	sched := NewSchedule(cfg.Rate)
	st := newStalls(cfg)
	res := &Result{Config: cfg, Query: cfg.Query(), Planned: r.planned, Slot: sched.Interval(1), Exact: true}
	r.fillClients(res, st)
	var dists [NumKinds]*Dist
	for _, k := range []Kind{Closed, Paced, Open} {
		dists[k] = exactDist(res.Clients[k.Client()].latencies(cfg.Rate))
	}
	res.setRecordings(dists)
	res.Checks, res.Notes = checkResult(res, res.Notes)
	return res
}

// setRecordings fills the five recordings of a deterministic run from the
// distributions of closed, paced and open: the corrected ones are counted
// over them, exactly.
func (res *Result) setRecordings(dists [NumKinds]*Dist) {
	cfg := res.Config
	E, PE := cfg.ExpectedInterval(), cfg.PacedInterval()
	dists[Corrected] = countedCorrection(dists[Closed], E)
	dists[PacedCorrected] = countedCorrection(dists[Paced], PE)
	for _, k := range Kinds() {
		res.Recordings[k].setMetrics(k, dists[k], cfg, -1)
	}
	res.Recordings[Corrected].Interval = E
	res.Recordings[PacedCorrected].Interval = PE
}

// fillClients records what each client of a walked run did, with every
// request's times.
func (r *Runner) fillClients(res *Result, st stallSeries) {
	for c, s := range r.sims {
		cr := &res.Clients[c]
		*cr = ClientRun{Client: Client(c), Planned: r.planned, Sent: s.i, LastCompletion: s.last, StallsMet: st.Count(s.last)}
		cr.Done = s.fin[:s.i]
		if s.send != nil {
			cr.Send = s.send[:s.i]
		}
	}
}

// TraceResult finishes the run without its distributions, checks or hash:
// what the animation needs of a run (every request's times, or for a long
// run what simulates its windows again; the run's stalls, the corrections'
// intervals), at a fraction of Result's cost. An event-driven run's holds
// its per-request data when it kept them (up to ExactSamples arrivals). It
// is nil for a run a limit refused.
func (r *Runner) TraceResult() *Result {
	if r.eng != nil {
		for !r.Step(1 << 62) {
		}
		return r.eng.traceResult()
	}
	for !r.Step(1 << 62) {
	}
	cfg := r.cfg
	sched := NewSchedule(cfg.Rate)
	res := &Result{Config: cfg, Query: cfg.Query(), Planned: r.planned, Slot: sched.Interval(1), Exact: true}
	if r.long != nil {
		if r.long.err != nil {
			return nil
		}
		r.long.fillClients(res)
	} else {
		r.fillClients(res, newStalls(cfg))
	}
	for _, k := range Kinds() {
		res.Recordings[k].Kind = k
	}
	res.Recordings[Corrected].Interval = cfg.ExpectedInterval()
	res.Recordings[PacedCorrected].Interval = cfg.PacedInterval()
	return res
}

// Err returns the limit that refused a run, or nil.
func (r *Runner) Err() error {
	switch {
	case r.eng != nil:
		return r.eng.err
	case r.long != nil:
		return r.long.err
	}
	return nil
}
