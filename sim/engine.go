package sim

import (
	"fmt"
	"math"
	"strings"
)

// EngineVersion numbers the rules of the model (QUERY.md states them). A
// change to any rule that can move a number is a new version; the version is
// in every report and in its hash. Version 2 added retries (attempts,
// backoff); a run without them gives the numbers of version 1. Slowdowns
// and think time (slow, think, think_max) came within version 2: they add
// rules for fields no earlier query could hold and change none, so every
// query of before keeps its run and its hash, and a query with them is told
// apart by its params (listed only when set).
const EngineVersion = 2

// This file is the general engine: a discrete-event simulation of one
// server driven by one client, on a virtual clock of whole nanoseconds. All
// events of a client's run sit in one binary heap ordered by (time,
// sequence), the sequence being the order in which they were scheduled. The
// engine reads no clock and starts no goroutine; its random numbers come
// from rng.go. Each client (closed, paced, open) drives its own copy of the
// server, as on the fast path (walk.go), and draws the same streams: the
// shared arrival schedule and the service time of its k-th request.
//
// The server. W workers (or unlimited) serve first come, first served from
// one queue of capacity Q (unbounded, none, or n waiting). A request that
// finds every worker busy and the queue full is rejected at once. The stall
// model of server.go holds unchanged: a request that reaches a worker inside
// a stall starts when the stall ends; a stall that begins strictly inside a
// service lengthens it by the stall; one that begins exactly as a service
// ends leaves it alone; a stall freezes every worker. An outage window
// fails, at once, every request that arrives during it and every waiting
// request that reaches a worker during it; a request already held by a
// worker goes on.
//
// The client timeout. When a request has not been answered T after it was
// sent (a reply at exactly T is late), the client gives up: the attempt
// fails at the client, which goes on as after any answer. The server does
// not know: it serves the request anyway, and that service is wasted work.
//
// Slowdowns. A request whose service starts inside a slowdown window
// (from-to@xk) takes k times its service (rounded to the nanosecond); the
// start is the instant the worker begins it, after a stall it waited for.
// A service that starts before a window and runs into it keeps its length.
//
// Think time. After a call of the closed client ends (a reply, or its
// failure), its connection pauses for the think time (fixed, or uniform
// between think and think_max) before it may send again, as a user reads a
// page before the next click; no pause follows the schedule's last request.
// The paced and open clients do not think: they send on their schedules.
//
// Retries (engine_retry.go). A request of the schedule is a call; with
// attempts > 1 a call whose attempt fails (rejected, failed by an outage or
// timed out) sends another attempt of it after the backoff, until one is
// answered in time or the attempts are spent. Every attempt is a request at
// the server, with its own service time.

type evKind uint8

const (
	evArrive  evKind = iota // the next request of the schedule is due
	evPaced                 // the paced client sends
	evDone                  // a worker finishes a request
	evTimeout               // a request's deadline at the client
	evRetry                 // a failed call's next attempt, after the backoff
	evThink                 // a closed-loop connection's think time is over
)

var evNames = [...]string{"arrive", "paced", "done", "timeout", "retry", "think"}

// event is 16 bytes: its time, and a key that packs the sequence (high
// bits), the kind and the request slot. Sequences are unique, so ordering
// by (t, key) is ordering by (t, sequence).
type event struct {
	t   int64
	key uint64 // seq<<27 | kind<<24 | id
}

const (
	idBits   = 24
	kindBits = 3
	maxSlot  = 1<<idBits - 1 // requests in flight at one server copy
)

func (e *event) kind() evKind { return evKind(e.key >> idBits & (1<<kindBits - 1)) }
func (e *event) id() int32    { return int32(e.key & maxSlot) }
func (e *event) seq() uint64  { return e.key >> (idBits + kindBits) }

// eventHeap is a binary min-heap of events by (t, seq). Sifts move a hole
// and write the moving event once.
type eventHeap []event

func before(a, b *event) bool { return a.t < b.t || a.t == b.t && a.key < b.key }

// b2i is 1 for true, 0 for false; the compiler makes it a SETcc, no branch.
func b2i(b bool) int {
	x := 0
	if b {
		x = 1
	}
	return x
}

// beforeBit is before as 0 or 1, computed without branches: the heap's
// comparisons of random times would mispredict half of the time.
func beforeBit(a, b *event) int {
	return b2i(a.t < b.t) | b2i(a.t == b.t)&b2i(a.key < b.key)
}

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !before(&e, &a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
}

// removeTop drops the minimum.
func (h *eventHeap) removeTop() {
	a := *h
	n := len(a) - 1
	e := a[n]
	*h = a[:n]
	if n > 0 {
		h.down(e)
	}
}

// replaceTop puts e in the minimum's place and restores the order: the pop
// and the push of an event that schedules another, in one sift.
func (h *eventHeap) replaceTop(e event) { h.down(e) }

// down sifts e from the root.
func (h *eventHeap) down(e event) {
	a := *h
	n := len(a)
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if l+1 < n {
			m += beforeBit(&a[l+1], &a[l])
		}
		if !before(&a[m], &e) {
			break
		}
		a[i] = a[m]
		i = m
	}
	a[i] = e
}

// Outcome is how a request ended for its client.
type Outcome uint8

const (
	OutcomeReply    Outcome = iota // answered by the server in time
	OutcomeRejected                // the queue was full
	OutcomeFailed                  // an outage failed it
	OutcomeTimedOut                // the client gave up
	outcomePending
)

var outcomeNames = [...]string{"reply", "rejected", "failed", "timed_out", "pending"}

func (o Outcome) String() string { return outcomeNames[o] }

// request is one attempt in flight at a server copy: index is its call's
// position in send order (with retries, engSim.first holds the send of the
// call's first attempt, beside it: a request stays 48 bytes).
type request struct {
	send, ready, doneAt int64
	index               int64
	service             int64
	queued, served      bool // waiting; the server has finished with it
	answered, timer     bool // the client has its outcome; a timeout event is pending
	attempt             uint8
}

// clientStats are what one client's run produced.
type clientStats struct {
	planned, sent                       int64
	replies, rejected, failed, timedOut int64
	wasted, wastedNs, failedAtWorker    int64
	entered, completed                  int64
	firstSend, lastAnswer, end          int64
	areaQ, areaBusy                     u128 // ∫ waiting dt, ∫ busy workers dt (their sum: ∫ at the server dt)
	sojourn, waits                      u128
	waitBlocks                          []float64 // sum of waits per block of waitBlock requests (send order)
	backwards                           int64     // events popped earlier than the clock: must stay 0
	events                              int64
	sendT, doneT, startT                []int64 // exact mode, per request in send order
	outcome                             []Outcome
	dist, corr                          *Dist // histogram mode
	aboveBase, aboveCorr                int64
	ser                                 *seriesAcc
	usefulNs                            int64 // worker time of the services answered in time
	retry                               retryStats
	slowed, slowExtraNs                 int64   // services started in a slowdown window, and the time k added to them
	svcT                                []int64 // exact mode with slowdowns, per request in send order: its drawn service
	thinks, thinkNs                     int64   // the closed loop's pauses, and their sum
	thinkMin, thinkMax                  int64   // the shortest and the longest pause drawn
}

const waitBlock = 1024

// engSim is one client driving its own copy of the server.
type engSim struct {
	client Client
	cfg    Config
	exact  bool
	heap   eventHeap
	// The client's own next event (an arrival, or the paced client's send):
	// at most one is pending at a time, so it waits beside the heap, which
	// then holds only replies and timeouts. The order is the same: every
	// event is taken in (time, sequence) order.
	own      event
	hasOwn   bool
	seq      uint64
	now      int64
	finished bool
	err      error
	trace    *strings.Builder

	arr             arrivals
	svc             serviceGen
	paced           variateBuf // the paced client's own gaps
	next            int64      // due time of the next request of the schedule
	haveNext, armed bool

	workers, busy int
	qcap          int // -1 unbounded
	queue         []int32
	qhead         int
	stalls        server // the stall model of server.go, with the drain horizon
	outages       []Window
	outIdx        int
	horizon       int64

	reqs  []request
	first []int64 // with retries: per slot, the send of its call's first attempt
	free  []int32

	inTry    bool  // closed: closedTry is running
	nIdle    int   // closed: idle connections
	plan     int64 // paced: the next send of its own schedule (-1 none)
	anchor   int64 // paced, constant arrivals: where its schedule restarted
	slots    int64 // paced, constant arrivals: its slots since the anchor
	timeout  int64
	duration int64
	corrE    int64
	above    int64
	retrying bool  // attempts > 1
	attempts uint8 // attempts per call
	backoff  int64
	slow     []Burst // slowdown windows, Rate their factor ×1000
	slowIdx  int
	think    int64      // the shortest pause of the closed loop (0: none)
	thinkAdd int64      // think_max − think: the uniform pause's span
	thinkG   variateBuf // the pauses' draws ("think" stream)

	nextB    int64 // the series' next interval boundary
	hole     bool  // the top of the heap is the event being handled
	extra    int64 // work beyond the current event, in events (histogram-mode corrections)
	maxSends int64 // paced, constant arrivals: at most the schedule's count, as on the fast path

	st clientStats
}

func newEngSim(c Client, cfg Config, exact bool) *engSim {
	horizon := cfg.Duration + MaxDrain
	s := &engSim{client: c, cfg: cfg, exact: exact, workers: cfg.Workers, qcap: -1,
		stalls: newServer(cfg), outages: cfg.OutageWindows(), horizon: horizon,
		timeout: cfg.Timeout, duration: cfg.Duration, above: cfg.Above, plan: -1,
		retrying: cfg.Retrying(), attempts: uint8(cfg.AttemptsPerCall()), backoff: cfg.Backoff}
	s.stalls.horizon = horizon
	if c == ClosedClient && cfg.Thinking() {
		s.think = cfg.Think
		if cfg.ThinkMax > cfg.Think {
			s.thinkAdd = cfg.ThinkMax - cfg.Think
			s.thinkG = newVariateBuf(newStream(cfg.Seed, "think"), (*xoshiro).uniform)
		}
		s.st.thinkMin = math.MaxInt64
	}
	s.slow = cfg.SlowWindows()
	switch {
	case cfg.Queue == NoQueue:
		s.qcap = 0
	case cfg.Queue > 0:
		s.qcap = cfg.Queue
	}
	s.arr = newArrivals(cfg, newStream(cfg.Seed, "arrivals"))
	s.svc = newServiceGen(cfg, newStream(cfg.Seed, "service"))
	s.paced = newVariateBuf(newStream(cfg.Seed, "paced"), nil)
	s.st.ser = newSeriesAcc(cfg, exact)
	s.nextB = s.st.ser.nextB
	s.corrE = cfg.ExpectedInterval()
	if c == PacedClient {
		s.corrE = cfg.PacedInterval()
	}
	if !exact {
		s.st.dist = &Dist{hist: newHist()}
		if c != OpenClient {
			s.st.corr = &Dist{hist: newHist()}
		}
	}
	// The schedule's count is needed before the run only for sizing.
	guess := int(cfg.ExpectedArrivals()*1.01) + 16
	if exact {
		if guess > int(ExactSamples+ExactSamples/16) {
			guess = int(ExactSamples)
		}
		s.st.sendT = make([]int64, 0, guess)
		s.st.doneT = make([]int64, 0, guess)
		s.st.startT = make([]int64, 0, guess)
		s.st.outcome = make([]Outcome, 0, guess)
		if len(s.slow) > 0 {
			s.st.svcT = make([]int64, 0, guess)
		}
	}
	switch c {
	case ClosedClient:
		s.nIdle = cfg.Conns
		s.pull()
		if s.haveNext {
			s.pushOwn(s.next, evArrive)
			s.armed = true
		}
	case OpenClient:
		s.pull()
		if s.haveNext {
			s.pushOwn(s.next, evArrive)
		}
	case PacedClient:
		s.pushOwn(0, evPaced)
		s.maxSends = math.MaxInt64
		if cfg.Arrivals == ArrivalsConstant {
			s.maxSends = NewSchedule(cfg.Rate).Count(cfg.Duration)
		}
	}
	return s
}

// pull reads the due time of the next request of the shared schedule.
func (s *engSim) pull() {
	s.next, s.haveNext = s.arr.next()
	if s.haveNext {
		s.st.planned++
	}
}

// pushOwn schedules the client's own next event: an arrival or a paced
// send, always before the duration (so inside the drain horizon). It waits
// beside the heap.
func (s *engSim) pushOwn(t int64, k evKind) {
	s.seq++
	e := event{t: t, key: s.seq<<(idBits+kindBits) | uint64(k)<<idBits}
	if s.hasOwn { // never: at most one is pending (kept correct all the same)
		s.heap.push(e)
		return
	}
	s.own, s.hasOwn = e, true
}

// push schedules a reply or a timeout.
func (s *engSim) push(t int64, k evKind, id int32) {
	if t > s.horizon {
		s.refuse(&LimitError{Limit: "drain", Need: fmt.Sprintf("the %s client's backlog runs past %s", s.client, FormatDuration(s.horizon)),
			Max: FormatDuration(MaxDrain) + " after the duration", Hint: "add workers, lower the rate, or set a queue capacity or a timeout"})
		return
	}
	s.seq++
	e := event{t: t, key: s.seq<<(idBits+kindBits) | uint64(k)<<idBits | uint64(id)}
	if s.hole { // the event being handled still holds the top: take its place
		s.hole = false
		s.heap.replaceTop(e)
		return
	}
	s.heap.push(e)
}

// pending reports whether an event is still to come.
func (s *engSim) pending() bool { return len(s.heap) > 0 || s.hasOwn }

func (s *engSim) refuse(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *engSim) tracef(format string, args ...any) {
	fmt.Fprintf(s.trace, "%12d %-6s ", s.now, s.client)
	fmt.Fprintf(s.trace, format, args...)
	s.trace.WriteByte('\n')
}

// step processes up to budget events; it reports how many it used.
func (s *engSim) step(budget int64) int64 {
	used := int64(0)
	tracing := s.trace != nil
	for used < budget {
		// The next event is the earlier of the heap's top and the client's
		// own. A heap event stays at the top while it is handled; the first
		// event it schedules replaces it (one sift instead of two), else it
		// is removed.
		var ev event
		switch {
		case len(s.heap) > 0 && (!s.hasOwn || before(&s.heap[0], &s.own)):
			ev = s.heap[0]
			s.hole = true
		case s.hasOwn:
			ev, s.hasOwn = s.own, false
		default:
			s.st.events += used
			if s.err == nil {
				s.finish()
			}
			return used
		}
		if ev.t != s.now {
			s.advance(ev.t)
		}
		id := ev.id()
		if tracing {
			s.tracef("%-7s #%d seq %d (queue %d, busy %d)", evNames[ev.kind()], id, ev.seq(), len(s.queue)-s.qhead, s.busy)
		}
		switch ev.kind() {
		case evArrive:
			if s.client == OpenClient {
				due := s.next
				s.pull()
				if s.haveNext {
					s.pushOwn(s.next, evArrive)
				}
				s.send(due)
			} else {
				s.armed = false
				s.closedTry()
			}
		case evPaced:
			s.send(s.now)
		case evDone:
			s.done(id)
		case evTimeout:
			s.reqs[id].timer = false
			if !s.reqs[id].answered {
				s.answer(id, OutcomeTimedOut) // may send (and grow s.reqs)
			}
			if s.reqs[id].served {
				s.release(id)
			}
		case evRetry:
			s.retry(id)
		case evThink:
			s.nIdle++
			s.closedTry()
		}
		if s.hole {
			s.hole = false
			s.heap.removeTop()
		}
		used += 1 + s.extra
		s.extra = 0
		if s.err != nil {
			break
		}
	}
	s.st.events += used
	if s.err == nil && !s.pending() {
		s.finish()
	}
	return used
}

// advance moves the clock to t, integrating the number of requests at the
// server (waiting and in service), the queue and the busy workers; the
// series takes a snapshot of the integrals at each interval boundary.
func (s *engSim) advance(t int64) {
	if t < s.now {
		s.st.backwards++
		return
	}
	for t >= s.nextB {
		s.accumulate(s.nextB)
		s.nextB = s.st.ser.cross(s.st.areaQ, s.st.areaBusy, int64(len(s.queue)-s.qhead))
	}
	s.accumulate(t)
}

func (s *engSim) accumulate(t int64) {
	dt := uint64(t - s.now)
	addProd(&s.st.areaQ, uint64(len(s.queue)-s.qhead), dt)
	addProd(&s.st.areaBusy, uint64(s.busy), dt)
	if s.retrying {
		addProd(&s.st.retry.areaFlight, uint64(s.st.retry.inFlight), dt)
	}
	s.now = t
}

// closedTry sends due requests on idle connections, and arms an arrival
// event for the next due request while a connection idles.
func (s *engSim) closedTry() {
	if s.inTry {
		return
	}
	s.inTry = true
	for s.nIdle > 0 && s.haveNext && s.next <= s.now && s.err == nil {
		s.nIdle--
		due := s.next
		s.pull()
		s.send(due)
	}
	s.inTry = false
	if s.nIdle > 0 && s.haveNext && !s.armed {
		s.pushOwn(s.next, evArrive)
		s.armed = true
	}
}

func (s *engSim) alloc() int32 {
	if n := len(s.free); n > 0 {
		id := s.free[n-1]
		s.free = s.free[:n-1]
		return id
	}
	s.reqs = append(s.reqs, request{})
	if s.retrying {
		s.first = append(s.first, 0)
	}
	if len(s.reqs) > maxSlot { // an event holds a slot in idBits bits (the arrivals limit keeps far below)
		s.refuse(&LimitError{Limit: "queued", Need: fmt.Sprintf("more than %d requests in flight at the %s client's server", maxSlot, s.client),
			Max: fmt.Sprint(maxSlot), Hint: "set a queue capacity, a timeout, or fewer workers"})
	}
	return int32(len(s.reqs) - 1)
}

func (s *engSim) release(id int32) { s.free = append(s.free, id) }

func (s *engSim) inOutage(t int64) bool {
	for s.outIdx < len(s.outages) && s.outages[s.outIdx].To <= t {
		s.outIdx++
	}
	return s.outIdx < len(s.outages) && s.outages[s.outIdx].From <= t
}

// send is the client sending the next request at the current instant; due
// is when the schedule wanted it (the open client: now).
func (s *engSim) send(due int64) {
	k := s.st.sent
	s.st.sent++
	if k == 0 {
		s.st.firstSend = s.now
	}
	id := s.alloc()
	r := &s.reqs[id]
	*r = request{send: s.now, index: k, service: s.svc.next(), ready: -1, attempt: 1}
	if s.retrying {
		s.first[id] = s.now
	}
	if s.exact {
		s.st.sendT = append(s.st.sendT, s.now)
		s.st.doneT = append(s.st.doneT, -1)
		s.st.startT = append(s.st.startT, -1)
		s.st.outcome = append(s.st.outcome, outcomePending)
		if s.st.svcT != nil {
			s.st.svcT = append(s.st.svcT, -1)
		}
	}
	if s.client == PacedClient {
		if s.arr.kind == ArrivalsConstant {
			// Slot k after the anchor is at anchor + round(k/rate): the
			// rounding does not accumulate.
			s.slots++
			s.plan = s.anchor + NewSchedule(s.cfg.Rate).Interval(s.slots)
		} else {
			s.plan = s.arr.after(s.now, &s.paced)
		}
	}
	if s.trace != nil {
		s.tracef("send    #%d request %d due %d service %d", id, k, due, r.service)
	}
	s.arrive(id)
}

// arrive is attempt id reaching the server at the current instant: it
// fails at once in an outage, is rejected when the queue is full, and
// otherwise takes a worker or waits, with its deadline at the client.
func (s *engSim) arrive(id int32) {
	r := &s.reqs[id]
	s.st.retry.attempts++
	if s.retrying {
		s.st.retry.sent(r)
	}
	switch {
	case len(s.outages) > 0 && s.inOutage(s.now):
		r.served = true
		s.answer(id, OutcomeFailed)
		s.release(id)
		return
	case s.workers == 0 || s.busy < s.workers:
		s.st.entered++
		s.start(id)
	case s.qcap >= 0 && len(s.queue)-s.qhead >= s.qcap:
		r.served = true
		s.answer(id, OutcomeRejected)
		s.release(id)
		return
	default:
		s.st.entered++
		r.queued = true
		s.enqueue(id)
	}
	if s.timeout > 0 {
		r = &s.reqs[id]
		if !r.answered && (r.queued || r.doneAt-r.send >= s.timeout) {
			r.timer = true
			s.push(r.send+s.timeout, evTimeout, id)
		}
	}
}

func (s *engSim) enqueue(id int32) {
	if s.qhead > 0 && s.qhead*2 >= len(s.queue) { // compact the consumed half
		n := copy(s.queue, s.queue[s.qhead:])
		s.queue = s.queue[:n]
		s.qhead = 0
	}
	s.queue = append(s.queue, id)
	q := len(s.queue) - s.qhead
	s.st.ser.queued(int64(q))
	if q > limitQueued {
		s.refuse(&LimitError{Limit: "queued", Need: fmt.Sprintf("%d requests wait at the %s client's server at %s", q, s.client, FormatDuration(s.now)),
			Max: fmt.Sprint(limitQueued), Hint: "set a queue capacity, add workers or lower the rate"})
	}
}

// start gives request id a worker at the current instant.
func (s *engSim) start(id int32) {
	r := &s.reqs[id]
	r.ready = s.now
	r.queued = false
	s.busy++
	begin, done := s.stalls.serveFor(s.now, r.service)
	if len(s.slow) > 0 {
		if k := s.slowAt(begin); k != RateOf(1) {
			longer := SlowedService(r.service, k)
			s.st.slowed++
			s.st.slowExtraNs += longer - r.service
			begin, done = s.stalls.serveFor(s.now, longer) // the same instant: the same start
			if s.trace != nil {
				s.tracef("slow    #%d request %d service %d ×%s = %d", id, r.index, r.service, k, longer)
			}
		}
		if s.exact {
			s.st.svcT[r.index] = r.service
		}
	}
	if s.exact {
		s.st.startT[r.index] = begin
	}
	r.doneAt = done
	s.addWait(r.index, s.now-r.send)
	s.push(done, evDone, id)
}

// slowAt returns the factor (×1000) of the slowdown window holding t, which
// never decreases from call to call (a service starts at the clock, or at
// the end of the stall it waited for).
func (s *engSim) slowAt(t int64) Rate {
	for s.slowIdx < len(s.slow) && s.slow[s.slowIdx].To <= t {
		s.slowIdx++
	}
	if s.slowIdx < len(s.slow) && s.slow[s.slowIdx].From <= t {
		return s.slow[s.slowIdx].Rate
	}
	return RateOf(1)
}

// thinkFor is the closed loop's next pause, counted.
func (s *engSim) thinkFor() int64 {
	d := s.think
	if s.thinkAdd > 0 {
		d = roundNs(float64(s.think) + float64(float64(s.thinkAdd)*s.thinkG.next()))
	}
	s.st.thinks++
	s.st.thinkNs += d
	s.st.thinkMin, s.st.thinkMax = min(s.st.thinkMin, d), max(s.st.thinkMax, d)
	return d
}

func (s *engSim) addWait(index, w int64) {
	s.st.waits.add(uint64(w))
	b := int(uint64(index) / waitBlock)
	if b >= len(s.st.waitBlocks) {
		s.st.waitBlocks = append(s.st.waitBlocks, make([]float64, b+1-len(s.st.waitBlocks))...)
	}
	s.st.waitBlocks[b] += float64(w)
}

// done is a worker finishing request id: it takes the next waiting request,
// then the client gets its reply (unless it gave up).
func (s *engSim) done(id int32) {
	s.busy--
	s.st.completed++
	r := &s.reqs[id]
	w := s.now - r.ready
	r.served = true
	s.st.sojourn.add(uint64(s.now - r.send))
	if s.qhead < len(s.queue) {
		s.dispatch()
	}
	// Fields() one by one, never the struct as a whole (a wide load over the
	// byte just stored stalls), and afresh after answer: a closed client
	// sends on its answer, and s.reqs may grow.
	switch r := &s.reqs[id]; {
	case r.answered:
		s.wastedWork(id)
	case s.timeout > 0 && s.now-r.send >= s.timeout:
		s.answer(id, OutcomeTimedOut) // the reply is at the deadline: late
		s.wastedWork(id)
	default:
		s.st.usefulNs += w
		s.answer(id, OutcomeReply)
	}
	if !s.reqs[id].timer {
		s.release(id)
	}
}

// wastedWork counts a service whose client had given up.
func (s *engSim) wastedWork(id int32) {
	r := &s.reqs[id]
	s.st.wasted++
	s.st.wastedNs += s.now - r.ready
	if rs := &s.st.retry; s.retrying && s.exact && len(rs.wasted) < MaxAttemptTrace {
		// The client gave up at its timeout (the timer's instant), or at
		// this reply when it came exactly at the deadline.
		rs.wasted = append(rs.wasted, WastedAttempt{Call: int32(r.index), N: r.attempt, Start: r.ready, GaveUp: min(r.send+s.timeout, s.now), Finish: s.now})
	}
	if s.trace != nil {
		s.tracef("wasted  #%d request %d worker time %d", id, r.index, s.now-r.ready)
	}
}

// dispatch hands waiting requests to free workers at the current instant.
func (s *engSim) dispatch() {
	for s.qhead < len(s.queue) && (s.workers == 0 || s.busy < s.workers) {
		id := s.queue[s.qhead]
		s.qhead++
		if len(s.outages) > 0 && s.inOutage(s.now) {
			r := &s.reqs[id]
			r.queued, r.served = false, true
			s.st.failedAtWorker++
			s.st.sojourn.add(uint64(s.now - r.send))
			s.addWait(r.index, s.now-r.send)
			if !r.answered {
				s.answer(id, OutcomeFailed)
			}
			if !s.reqs[id].timer {
				s.release(id)
			}
			continue
		}
		s.start(id)
	}
	if s.qhead == len(s.queue) {
		s.queue, s.qhead = s.queue[:0], 0
	}
}

// answer gives request id's client its outcome at the current instant.
func (s *engSim) answer(id int32, o Outcome) {
	r := &s.reqs[id]
	r.answered = true
	t := s.now
	s.st.lastAnswer = t
	if s.trace != nil {
		s.tracef("answer  #%d request %d %s latency %d", id, r.index, o, t-r.send)
	}
	if s.retrying && s.attemptEnd(id, o) {
		return // the call goes on with another attempt after the backoff
	}
	switch o {
	case OutcomeReply:
		s.st.replies++
		lat := t - r.send
		if s.retrying {
			lat = t - s.first[id] // the call, from its first attempt
		}
		s.record(lat)
	case OutcomeRejected:
		s.st.rejected++
	case OutcomeFailed:
		s.st.failed++
	case OutcomeTimedOut:
		s.st.timedOut++
	}
	s.st.ser.answered(o)
	if s.exact {
		s.st.doneT[r.index] = t
		s.st.outcome[r.index] = o
	}
	switch s.client {
	case ClosedClient:
		if s.think > 0 && s.haveNext {
			s.push(t+s.thinkFor(), evThink, 0) // the connection is idle after its pause
			return
		}
		s.nIdle++
		s.closedTry()
	case PacedClient:
		next := s.plan
		if next >= 0 && t > next {
			next = t // late: send at once and restart the schedule there
			s.anchor, s.slots = t, 0
		}
		if next >= 0 && next < s.duration && s.st.sent < s.maxSends {
			s.pushOwn(next, evPaced)
		}
	}
}

// record adds one reply's latency to the client's recording.
func (s *engSim) record(v int64) {
	if s.exact {
		return // built from the per-request arrays at the end
	}
	s.st.ser.sample(v)
	s.st.dist.record(v, 1)
	if v > s.above {
		s.st.aboveBase++
	}
	if s.st.corr != nil {
		// Writing the corrected sequence into the histogram costs about
		// one event per four values: charge it, so that a Step slice stays
		// short and the events limit bounds the whole run.
		s.extra += CorrectionCount(v, s.corrE) / 4
		recordCorrected(s.st.corr, v, 1, s.corrE)
		s.st.aboveCorr += correctedAbove(v, s.corrE, s.above)
	}
}

func (s *engSim) finish() {
	s.finished = true
	s.st.end = s.now
	s.st.ser.close(s.now, s.st.areaQ, s.st.areaBusy)
}
