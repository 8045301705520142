package sim

// Retries in the event engine: the seed's retry policy, attempts and a
// fixed backoff. A call is one request of the client's schedule (the open
// loop's call i is due at i/rate; the closed loop's connection and the paced
// client send a call as before). Its first attempt is sent then; when an
// attempt fails at the client (rejected by a full queue, failed by an
// outage, or timed out) and the call has attempts left, the next attempt is
// sent a backoff later. The open loop's retries are extra sends beside its
// schedule; the closed loop's connection and the paced client wait for the
// call to end before their next call (the paced schedule then continues as
// after any late reply). A call ends with the first attempt answered in
// time, or failed with its last attempt's outcome.
//
// The server knows attempts only: each is a request with its own service
// time, and a timed-out attempt that the server goes on serving is wasted
// work. Recordings time calls, from the first attempt's send (the open
// loop: the due time, which is that send) to the final reply: what a user
// waits. The attempt latency times the successful attempt alone, from its
// own send: what a tool that retries inside, and records each attempt,
// would report.

// retryStats are a client's counts of attempts (retries on), beside the
// calls' outcomes of clientStats.
type retryStats struct {
	attempts                   int64 // attempts sent, first attempts included
	rejected, failed, timedOut int64 // attempts that ended so, the last of each call included
	maxAttempt                 int   // the most attempts one call sent
	inFlight                   int64 // attempts sent and not yet answered at the client
	areaFlight                 u128  // ∫ inFlight dt
	flight                     u128  // Σ (answer − send) over attempts
	lat                        []int64
	dist                       *Dist           // histogram mode: the successful attempts' latencies
	above                      int64           // histogram mode: of those, above the threshold
	backoffs                   int64           // retries scheduled
	trace                      []Attempt       // exact runs: every attempt of a call that sent more than one, in the order they ended
	traceCut                   bool            // the trace stopped at MaxAttemptTrace attempts
	wasted                     []WastedAttempt // exact runs: the attempts a worker finished after the client gave up on them, in the order they finished
}

// WastedAttempt is an attempt a worker served for a client that had given
// up on it (wasted work, exact runs with retries): its worker time is
// Finish − Start, and the worker went on with it, unseen by the client,
// from max(Start, GaveUp) to Finish.
type WastedAttempt struct {
	Call   int32 // the call's position in send order
	N      uint8 // the attempt's number, from 1
	Start  int64 // a worker took it (the trace's Start is later when a stall held its service back)
	GaveUp int64 // the client gave up on it (its timeout)
	Finish int64 // the worker finished it
}

// MaxAttemptTrace bounds a client's attempt trace (32 bytes an attempt): a
// run past it keeps the attempts that ended first, and says so
// (EngineClient.AttemptsCut).
const MaxAttemptTrace = 1 << 19

// Attempt is one attempt of a call that sent more than one (exact runs with
// retries), as the animation draws it: the call's first attempt is sent at
// the call's Send, each next one exactly a backoff after the previous one's
// End, and the last one's End and Outcome are the call's Done and Outcome.
type Attempt struct {
	Call    int32   // the call's position in send order
	N       uint8   // the attempt's number, from 1
	Outcome Outcome // how it ended at the client
	Send    int64   // when it left the client
	Start   int64   // when its service began (a worker took it, or the stall it was taken in ended); −1: no worker took it by End
	End     int64   // when the client learned its outcome
}

// Retried reports whether the call sent another attempt after this one, a
// backoff after its End.
func (a Attempt) Retried(attempts int) bool { return a.Outcome != OutcomeReply && int(a.N) < attempts }

// sent counts an attempt sent at the current instant.
func (rs *retryStats) sent(r *request) {
	rs.inFlight++
	rs.maxAttempt = max(rs.maxAttempt, int(r.attempt))
}

// attemptEnd takes the outcome of attempt id at the client. It reports
// whether the call goes on: the attempt failed and has attempts left, so
// the next one is scheduled a backoff later.
func (s *engSim) attemptEnd(id int32, o Outcome) bool {
	rs := &s.st.retry
	r := &s.reqs[id]
	rs.inFlight--
	rs.flight.add(uint64(s.now - r.send))
	if s.exact && (o != OutcomeReply || r.attempt > 1) {
		s.traceAttempt(r, o) // attempts ≥ 2: a failed first attempt is always retried
	}
	switch o {
	case OutcomeReply:
		s.recordAttempt(s.now - r.send)
		return false
	case OutcomeRejected:
		rs.rejected++
	case OutcomeFailed:
		rs.failed++
	case OutcomeTimedOut:
		rs.timedOut++
	}
	if r.attempt >= s.attempts {
		return false
	}
	next := request{index: r.index, attempt: r.attempt + 1, send: -1, ready: -1}
	nid := s.alloc() // may grow s.reqs: r is not used after this
	s.reqs[nid] = next
	s.first[nid] = s.first[id]
	rs.backoffs++
	if s.trace != nil {
		s.tracef("backoff #%d request %d attempt %d at %d", nid, next.index, next.attempt, s.now+s.backoff)
	}
	s.push(s.now+s.backoff, evRetry, nid)
	return true
}

// traceAttempt keeps attempt r's times, which ends at the current instant
// with outcome o. A worker took it before now when its ready instant is
// set; startT then holds its start, as no later attempt of its call exists
// yet and earlier ones waiting in the one queue started before it.
func (s *engSim) traceAttempt(r *request, o Outcome) {
	rs := &s.st.retry
	if len(rs.trace) >= MaxAttemptTrace {
		rs.traceCut = true
		return
	}
	start := int64(-1)
	if r.ready >= 0 {
		start = s.st.startT[r.index]
	}
	rs.trace = append(rs.trace, Attempt{Call: int32(r.index), N: r.attempt, Outcome: o, Send: r.send, Start: start, End: s.now})
}

// retry sends the next attempt of a call whose backoff has passed.
func (s *engSim) retry(id int32) {
	r := &s.reqs[id]
	r.send = s.now
	r.service = s.svc.next()
	s.st.ser.retried()
	if s.trace != nil {
		s.tracef("retry   #%d request %d attempt %d service %d", id, r.index, r.attempt, r.service)
	}
	s.arrive(id)
}

// recordAttempt adds a successful attempt's own latency.
func (s *engSim) recordAttempt(v int64) {
	rs := &s.st.retry
	if s.exact {
		rs.lat = append(rs.lat, v)
		return
	}
	if rs.dist == nil {
		rs.dist = &Dist{hist: newHist()}
	}
	rs.dist.record(v, 1)
	if v > s.above {
		rs.above++
	}
}

// RetryCounts are one client's attempts, with retries on (EngineClient).
type RetryCounts struct {
	Attempts    int64 // attempts sent, first attempts included
	Retries     int64 // attempts beyond the first: Attempts − calls
	FailedCalls int64 // calls whose last attempt failed (rejected + failed + timed out)
	// The attempts that ended so, the last of each call included.
	AttemptsRejected, AttemptsFailed, AttemptsTimedOut int64
	MaxAttempts                                        int // the most attempts one call sent
	// AttemptLatency is the latency of each successful attempt from its own
	// send (a call's recording times it from its first attempt).
	AttemptLatency Recording
}

// retryCounts builds a client's RetryCounts at the end of the run.
func (e *engineRun) retryCounts(c int) *RetryCounts {
	if !e.cfg.Retrying() {
		return nil
	}
	cs := &e.sims[c].st
	rs := &cs.retry
	rc := &RetryCounts{Attempts: rs.attempts, Retries: rs.attempts - cs.sent, FailedCalls: cs.rejected + cs.failed + cs.timedOut,
		AttemptsRejected: rs.rejected, AttemptsFailed: rs.failed, AttemptsTimedOut: rs.timedOut, MaxAttempts: rs.maxAttempt}
	d, above := rs.dist, int64(-1)
	switch {
	case e.exact:
		d = exactDist(rs.lat)
	case d == nil:
		d = exactDist(nil)
	default:
		above = rs.above
	}
	rc.AttemptLatency.setMetrics(clientKind(Client(c)), d, e.cfg, above)
	return rc
}
