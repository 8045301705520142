package sim

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

// correctedAbove counts v and its corrected sequence strictly above a.
func correctedAbove(v, e, a int64) int64 {
	if v <= a {
		return 0
	}
	k := CorrectionCount(v, e)
	// j in [1,k] with v - j e > a  <=>  j e < v - a  <=>  j <= (v-a-1)/e
	m := (v - a - 1) / e
	if m > k {
		m = k
	}
	return 1 + m
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

// clientSim is one client driving its own copy of the server.
type clientSim struct {
	client   Client
	n        int64 // planned
	i        int64 // requests sent so far
	finished bool
	due      dueIter
	sv       server
	free     int64 // the single worker's free time
	conns    *minHeap
	workers  *minHeap
	next     int64 // paced: next send
	slot     int64 // paced: 1/rate
	anchor   int64 // paced, rounded slots: where its schedule restarted
	slots    dueIter
	rate     Rate
	duration int64
	last     int64
	base     int64   // index of buffer element 0 (a window re-simulated from the middle of a run)
	send     []int64 // every request (nil for the open loop, which sends when due)
	fin      []int64
}

func newClientSim(c Client, cfg Config, n int64) *clientSim {
	s := &clientSim{client: c, n: n, due: newDueIter(cfg.Rate), sv: newServer(cfg), duration: cfg.Duration, slot: cfg.PacedSlot(),
		slots: newDueIter(cfg.Rate), rate: cfg.Rate}
	s.fin = make([]int64, n)
	if c != OpenClient {
		s.send = make([]int64, n)
	}
	switch c {
	case ClosedClient:
		// One connection: at most one request is outstanding, so the
		// connection is the only thing to wait for (free). More connections
		// queue at the server only when there are fewer workers.
		if cfg.Conns > 1 {
			s.conns = newMinHeap(cfg.Conns)
			if cfg.Workers != 0 && cfg.Workers < cfg.Conns {
				s.workers = newMinHeap(cfg.Workers)
			}
		}
	case OpenClient:
		switch cfg.Workers {
		case 1:
		case 0:
			s.free = -1 // unlimited workers: every request starts at arrival
		default:
			s.workers = newMinHeap(cfg.Workers)
		}
	}
	return s
}

// step simulates up to budget more requests.
func (s *clientSim) step(budget int64) {
	end := s.n
	if s.i+budget < end {
		end = s.i + budget
	}
	switch {
	case s.client == PacedClient:
		s.stepPaced(end)
	case s.conns == nil && s.workers == nil:
		s.stepSingle(end)
	default:
		s.stepGeneral(end)
	}
	if s.i >= s.n || s.client == PacedClient && s.next >= s.duration {
		s.finished = true
	}
}

// stepSingle is the hot path for one connection (closed) or an open loop
// with one worker (free >= 0) or unlimited workers (free = -1): a request is
// ready at max(due, free). Its loop body is the seed's: the later of due and
// the previous reply, plus the service, with the stall path taken only when
// a stall is at or before the completion.
func (s *clientSim) stepSingle(end int64) {
	ns, free := s.sv.ns, s.free
	fin := s.fin[s.i-s.base : end-s.base]
	var send []int64
	if s.send != nil { // closed: record the send too
		send = s.send[s.i-s.base : end-s.base]
		send = send[:len(fin)]
	}
	unlimited := free < 0 // free stays -1: ready at the due time
	exact := s.due.dr == 0
	T, S := int64(s.due.dq), s.sv.service
	for j := 0; j < len(fin); {
		if exact {
			// Runs until a stall is at or before a completion.
			var k int
			q := int64(s.due.q)
			switch {
			case send != nil:
				k, q, free = fastClosed(send[j:], fin[j:], q, T, free, S, ns)
			case unlimited:
				k, q = fastUnlimited(fin[j:], q, T, S, ns)
			default:
				k, q, free = fastOpen(fin[j:], q, T, free, S, ns)
			}
			s.due.q = uint64(q)
			j += k
			if j == len(fin) {
				break
			}
		}
		// One request by the general path: any schedule, the stall model.
		t := max(int64(s.due.q), free)
		s.sv.ns = ns
		_, f := s.sv.serve(t)
		ns = s.sv.ns
		if send != nil {
			send[j] = t
		}
		fin[j] = f
		if !unlimited {
			free = f
		}
		s.due.next()
		j++
	}
	s.due.index = end
	s.sv.ns, s.free = ns, free
	if len(fin) > 0 && fin[len(fin)-1] > s.last {
		s.last = fin[len(fin)-1] // replies come in order on these paths
	}
	s.i = end
}

// fastClosed is seed 000's closed loop on an exact schedule (due = i·T):
// send = max(due, previous reply), reply = send + S, while no stall begins
// at or before a reply (ns is the next stall). It returns how many requests
// it simulated and the state after them.
func fastClosed(send, fin []int64, due, T, free, S, ns int64) (int, int64, int64) {
	send = send[:len(fin)]
	for j := range fin {
		t := max(due, free)
		f := t + S
		if f > ns || t >= ns {
			return j, due, free
		}
		send[j] = t
		fin[j] = f
		free = f
		due += T
	}
	return len(fin), due, free
}

// fastOpen is the open loop with one worker: the same walk, recording only
// the reply (the latency is taken from the due time).
func fastOpen(fin []int64, due, T, free, S, ns int64) (int, int64, int64) {
	for j := range fin {
		t := max(due, free)
		f := t + S
		if f > ns || t >= ns {
			return j, due, free
		}
		fin[j] = f
		free = f
		due += T
	}
	return len(fin), due, free
}

// fastUnlimited is the open loop with unlimited workers: each request starts
// when it is due.
func fastUnlimited(fin []int64, due, T, S, ns int64) (int, int64) {
	for j := range fin {
		f := due + S
		if f > ns || due >= ns {
			return j, due
		}
		fin[j] = f
		due += T
	}
	return len(fin), due
}

// stepGeneral handles N connections and W workers with heaps.
func (s *clientSim) stepGeneral(end int64) {
	for ; s.i < end; s.i++ {
		due := int64(s.due.q)
		send := due
		if s.conns != nil && s.conns.t[0] > send {
			send = s.conns.t[0]
		}
		ready := send
		if s.workers != nil && s.workers.t[0] > ready {
			ready = s.workers.t[0]
		}
		_, f := s.sv.serve(ready)
		if s.conns != nil {
			s.conns.replaceMin(f)
		}
		if s.workers != nil {
			s.workers.replaceMin(f)
		}
		if s.send != nil {
			s.send[s.i-s.base] = send
		}
		s.fin[s.i-s.base] = f
		if f > s.last {
			s.last = f
		}
		s.due.next()
	}
}

// stepPaced: one connection; after a reply at r to a send at t the next send
// is at max(t + 1/rate, r), while sends fall before the duration.
func (s *clientSim) stepPaced(end int64) {
	if s.due.dr != 0 {
		s.stepPacedRounded(end)
		return
	}
	for s.i < end && s.next < s.duration {
		b := s.i - s.base
		k, t := fastPaced(s.send[b:end-s.base], s.fin[b:end-s.base], s.next, s.slot, s.sv.service, s.sv.ns, s.duration)
		s.i += int64(k)
		s.next = t
		if k > 0 {
			s.last = s.fin[s.i-1-s.base]
		}
		if s.i >= end || t >= s.duration {
			break
		}
		// The stall path for one send.
		_, f := s.sv.serve(t)
		s.send[s.i-s.base] = t
		s.fin[s.i-s.base] = f
		s.last = f
		s.next = max(t+s.slot, f)
		s.i++
	}
}

// stepPacedRounded is the paced client when 1/rate is not a whole number of
// nanoseconds: slot k after the anchor (its first send, or the last late
// one) is at anchor + round(k/rate), so the rounding never accumulates.
func (s *clientSim) stepPacedRounded(end int64) {
	for ; s.i < end && s.next < s.duration; s.i++ {
		t := s.next
		_, f := s.sv.serve(t)
		s.send[s.i-s.base] = t
		s.fin[s.i-s.base] = f
		s.last = f
		s.slots.next()
		nx := s.anchor + int64(s.slots.q)
		if f > nx { // late: send at once and restart the schedule there
			s.anchor, s.slots, nx = f, newDueIter(s.rate), f
		}
		s.next = nx
	}
}

// fastPaced sends on the paced client's own slots while no stall begins at
// or before a reply; it returns how many it sent and the next send time.
func fastPaced(send, fin []int64, t, slot, S, ns, duration int64) (int, int64) {
	send = send[:len(fin)]
	for j := range fin {
		f := t + S
		if t >= duration || f > ns || t >= ns {
			return j, t
		}
		send[j] = t
		fin[j] = f
		t = max(t+slot, f)
	}
	return len(fin), t
}
