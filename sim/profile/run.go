package profile

import (
	"fmt"

	"omission/sim"
)

// The profile runner plays one Profile against the query's server. Every
// send is an event on one heap ordered by (time, sequence), the sequence
// being the order in which events were scheduled, so sends reach the server
// in time order: the ready times that server.serve needs never decrease
// (a request is ready at the later of its send and the first free worker,
// and both only grow). A request's service is known when it is served (the
// query's, or with a service distribution the next draw of its "service"
// stream, as the event engine draws one for each request it makes), so a
// send's reply is known then; the connection's next move is an event at
// that reply.

const (
	pFree  uint8 = iota // connection c is free at t: at its start, after a reply or a failure
	pSend               // connection c sends request q at t (a reserved slot, or a retry)
	pTimer              // wrk2: the event loop's wait times out at t (stale unless its seq is wakeSeq)
	pDue                // the schedule's next slot is due at t (unbounded clients, VU pools)
)

type pEvent struct {
	t       int64
	seq     uint64
	kind    uint8
	replied bool // pFree: the connection just got a reply
	c, q    int32
}

type pHeap []pEvent

func (h pHeap) less(i, j int) bool {
	return h[i].t < h[j].t || h[i].t == h[j].t && h[i].seq < h[j].seq
}

func (h *pHeap) push(e pEvent) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *pHeap) pop() pEvent {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s.less(r, l) {
			m = r
		}
		if !s.less(m, i) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// pConn is one connection's (or virtual user's) pacing state.
type pConn struct {
	started bool
	// Reanchor: slot j is at anchor + due(off + j·N) − due(off).
	anchor, off, j int64
	// SkipTicks: the index of the last tick taken.
	used int64
	// Wrk2Pace, in microseconds as wrk2 counts (src/wrk.c, struct connection).
	start, complete, cusTime, completeAtCUS, lastBatch uint64
	caughtUp                                           bool
	// FortioPace: the index of the connection's current call.
	call int64
	// Quota: the window of its last send and its sends in it.
	window, made int64
}

type pReq struct {
	intended int64
	attempts int32
}

type profileRunner struct {
	cfg   sim.Config
	p     Profile
	sched sim.Schedule
	// serve hands the server a request sent at t and returns its reply
	// (sim's stall model, service and workers: hook.Server).
	serve   func(t int64) int64
	random  bool // a service distribution: a draw per request
	ev      pHeap
	seq     uint64
	conns   []pConn
	reqs    []pReq
	vus     []int64 // VUPool: free times, a min-heap
	vusMade int
	next    int64        // the next slot of the shared schedule
	dues    func() int64 // the shared schedule's due instants, one a call (hook.Dues)
	due     int64        // the due instant of slot next
	planned int64
	thr     float64 // wrk2: requests per µs per connection
	fn      int64   // fortio: calls per connection
	// wrk2's event loop (one thread for every connection): each
	// connection's timer, the instant the loop last started to wait, and
	// the sequence of its pending time-out (wrk2Wake).
	timers  []wrk2Timer
	timerID int64
	loopAt  int64
	wakeSeq uint64
	fq      float64 // fortio: calls per second per connection
	// TokenBucket: the tokens the bucket holds (below 0: reserved) and the
	// fill tick it last counted to.
	bucket, bucketTick int64
	out                *Result
}

// Run plays p against cfg's server (the stall model, service and
// workers of the closed, paced and open clients) and returns what the load
// generator sent and recorded. cfg must be valid and on the fast path's
// deterministic model; a profile whose run could exceed MaxSends is
// refused before it starts.
func Run(cfg sim.Config, p Profile) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p = p.resolve(cfg)
	if err := p.validate(cfg); err != nil {
		return nil, err
	}
	r := &profileRunner{cfg: cfg, p: p, sched: sim.NewSchedule(p.Rate), serve: server(cfg), dues: dues(p.Rate),
		out: &Result{Profile: p}, random: cfg.Dist != sim.ServiceFixed}
	r.due = r.dues()
	r.planned = r.sched.Count(p.Duration)
	// Room for every send the run can make (its bound, checked by
	// validate), so that the per-request slices grow no more than once.
	if n := int(min(p.maxSends(cfg), float64(MaxSends))); n > 0 {
		o := r.out
		o.Intended, o.Send, o.Done = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
		o.Conn, r.reqs = make([]int32, 0, n), make([]pReq, 0, n)
	}
	switch p.Send {
	case SkipTicks:
		r.planned = int64(p.Conns) * ((p.Duration - 1) / p.Period)
	case Wrk2Pace:
		r.thr = wrk2Float(p.Rate, p.Conns)
		r.planned = wrk2Planned(p)
	case Reanchor:
		switch {
		case p.Period > 0: // each connection's slots are k·Period < Duration
			r.planned = int64(p.Conns) * ((p.Duration + p.Period - 1) / p.Period)
		case p.Aligned: // each connection's slots are due(k·Conns) < Duration
			n := int64(p.Conns)
			r.planned = n * ((r.planned + n - 1) / n)
		}
	case TokenBucket:
		r.bucket = p.Quantum // NewBucketWithQuantum: availableTokens: capacity
	case Uniform:
		k := int64(0)
		r.dues = func() int64 { k++; return k * p.Period }
		r.due = r.dues()
		r.planned = p.Duration / p.Period
	case Shards:
		r.dues = shardDues(p.Quantum, p.Duration/1e9)
		r.due = r.dues()
		r.planned = p.Quantum
	case FortioPace:
		r.fn = fortioCalls(p) / int64(p.Conns)
		r.fq = float64(p.Rate) / 1000 / float64(p.Conns)
		r.planned = r.fn * int64(p.Conns)
	}
	switch p.Conc {
	case Unbounded, VUPool:
		if r.planned > 0 {
			r.push(pEvent{t: r.due, kind: pDue})
		}
		if p.Conc == VUPool {
			r.vus = make([]int64, p.Conns, p.MaxVUs)
			r.vusMade = p.Conns
		}
	case Connections:
		r.conns = make([]pConn, p.Conns)
		if p.Send == Wrk2Pace {
			// src/wrk.c 280: aeCreateTimeEvent(loop, i * 5, delayed_initial_connect, …)
			r.timers = make([]wrk2Timer, p.Conns)
			for c := range r.timers {
				r.arm(int32(c), 0, p.Stagger/1e6*int64(c), false, true)
			}
			r.wrk2Wake(0)
			break
		}
		var starts []int64
		if p.Spread > 0 {
			starts = ShardStarts(p.Conns, p.Spread)
		}
		for c := range r.conns {
			t := int64(c) * p.Stagger
			if starts != nil {
				t = starts[c]
			}
			r.push(pEvent{t: t, kind: pFree, c: int32(c)})
		}
	}
	for len(r.ev) > 0 {
		r.step(r.ev.pop())
		if r.random && r.out.Attempts > MaxSends {
			// validate bounds a random service's sends at its mean only.
			return nil, &sim.FieldError{Field: "duration", Value: sim.FormatDuration(p.Duration), Reason: sim.ReasonLimit, Allowed: fmt.Sprintf(
				"limit tool sends: a tool profile sends at most %d requests; with this service's draws this one sent more (shorten the duration, lower the rate or the connections)", MaxSends)}
		}
	}
	r.finish()
	return r.out, nil
}

func (r *profileRunner) push(e pEvent) {
	e.seq = r.seq
	r.seq++
	r.ev.push(e)
}

func (r *profileRunner) newReq(intended int64) int32 {
	r.reqs = append(r.reqs, pReq{intended: intended})
	return int32(len(r.reqs) - 1)
}

// attempt sends request q at t. It returns when the sender is free again
// and whether a reply came; free is -1 while a retry keeps it busy.
func (r *profileRunner) attempt(c int32, q int32, t int64) (free int64, ok bool) {
	o, p := r.out, &r.p
	rq := &r.reqs[q]
	o.Attempts++
	if rq.attempts == 0 {
		o.Sent++
	} else {
		o.Retries++
	}
	rq.attempts++
	done := r.serve(t) + p.Client             // the tool's own time per request (Profile.Client)
	if p.Timeout > 0 && done-t >= p.Timeout { // a reply at exactly the timeout is late
		o.TimedOut++
		fail := t + p.Timeout
		if int(rq.attempts) < p.Attempts {
			r.push(pEvent{t: fail + p.Backoff, kind: pSend, c: c, q: q})
			return -1, false
		}
		o.Failed++
		o.Fails = append(o.Fails, Fail{Intended: rq.intended, Send: t, At: fail, Conn: c})
		return fail, false
	}
	o.Intended = append(o.Intended, rq.intended)
	o.Send = append(o.Send, t)
	o.Done = append(o.Done, done)
	o.Conn = append(o.Conn, c)
	return done, true
}

func (r *profileRunner) step(e pEvent) {
	switch e.kind {
	case pSend:
		if free, ok := r.attempt(e.c, e.q, e.t); free >= 0 {
			r.push(pEvent{t: free, kind: pFree, replied: ok, c: e.c})
		}
	case pDue:
		r.dispatch(e.t)
	case pTimer:
		if e.seq == r.wakeSeq {
			r.wrk2Wake(e.t)
		}
	case pFree:
		r.free(e.c, e.t, e.replied)
	}
}

// dispatch sends the schedule's slot due at t: at once (unbounded), or on a
// free virtual user, or not at all (dropped).
func (r *profileRunner) dispatch(t int64) {
	p := &r.p
	switch p.Conc {
	case Unbounded:
		r.attempt(-1, r.newReq(t), t)
	case VUPool:
		if len(r.vus) > 0 && r.vus[0] <= t {
			free, _ := r.attempt(-1, r.newReq(t), t)
			r.vus[0] = free
			siftDown64(r.vus, 0)
		} else {
			r.out.DroppedAt = append(r.out.DroppedAt, t)
			if r.vusMade < p.MaxVUs {
				// k6 starts one more VU in the background; it is ready for
				// the next iteration, this one is dropped.
				r.vusMade++
				r.vus = append(r.vus, t)
				siftUp64(r.vus, len(r.vus)-1)
			}
		}
	}
	r.next++
	r.due = r.dues()
	if r.next < r.planned {
		r.push(pEvent{t: r.due, kind: pDue})
	}
}

// free decides a free connection's next send under its rule.
func (r *profileRunner) free(c int32, t int64, replied bool) {
	p := &r.p
	D := p.Duration
	switch p.Send {
	case BackToBack:
		if t < D {
			r.sendAt(c, t, t)
		}
	case CatchUp:
		if r.next >= r.planned {
			return
		}
		due := r.due
		s := max(due, t)
		if !p.SendsAll && s >= D {
			return
		}
		r.next++
		r.due = r.dues()
		r.sendAt(c, s, due)
	case Reanchor:
		r.freeReanchor(c, t)
	case SkipTicks:
		r.freeSkipTicks(c, t)
	case Wrk2Pace:
		// A reply is a file event: the loop wakes at t, reads it, then
		// runs its due timers and waits again (aeProcessEvents).
		if replied {
			if t >= D { // response_complete: now >= stop_at stops the loop
				return
			}
			r.conns[c].complete++
			r.wrk2Check(c, t, false)
		}
		r.wrk2Wake(t)
	case FortioPace:
		r.freeFortio(c, t)
	case TokenBucket:
		r.freeBucket(c, t)
	case Quota:
		r.freeQuota(c, t)
	}
}

// freeQuota is autocannon's _doRequest with a rate (lib/httpClient.js
// 157-176: a request while reqsMadeThisSecond < rate, else paused) and its
// reset (67-73: every second, reqsMadeThisSecond = 0 and a paused client
// sends): connection c's share of each window, the rest at the next
// window's start; nothing is sent at or after the duration.
func (r *profileRunner) freeQuota(c int32, t int64) {
	p, cs := &r.p, &r.conns[c]
	share := p.Quantum / int64(p.Conns)
	if int64(c) < p.Quantum%int64(p.Conns) {
		share++
	}
	if w := t / p.Period; w != cs.window {
		cs.window, cs.made = w, 0
	}
	s := t
	if cs.made >= share {
		cs.window, cs.made = cs.window+1, 0
		s = cs.window * p.Period
	}
	cs.made++
	if s < p.Duration {
		r.sendAt(c, s, s)
	}
}

// freeBucket is bombardier's worker with --rate (bombardier.go 259-268:
// pace, then the request; limiter.go 47-62): it takes a token of the
// bucket every connection shares and waits for it (juju/ratelimit v1.0.2,
// ratelimit.go 275-323 take and adjustavailableTokens: the tokens of the
// ticks since the last count, up to the capacity; short of one, the tick
// that brings it); a wait past the duration ends in the barrier's done,
// unsent.
func (r *profileRunner) freeBucket(c int32, t int64) {
	p := &r.p
	tick := t / p.Period
	if r.bucket < p.Quantum {
		r.bucket = min(r.bucket+(tick-r.bucketTick)*p.Quantum, p.Quantum)
	}
	r.bucketTick = tick
	r.bucket--
	s := t
	if r.bucket < 0 {
		s = (tick + (-r.bucket+p.Quantum-1)/p.Quantum) * p.Period
	}
	if s < p.Duration {
		r.sendAt(c, s, s)
	}
}

// sendAt schedules connection c's send at at, of a request intended at
// intended.
func (r *profileRunner) sendAt(c int32, at, intended int64) {
	r.push(pEvent{t: at, kind: pSend, c: c, q: r.newReq(intended)})
}

// freeReanchor: connection c sends on its own slots; late, it sends at once
// and its slots start again there (Aligned: every connection's slots start
// at 0).
func (r *profileRunner) freeReanchor(c int32, t int64) {
	p, cs := &r.p, &r.conns[c]
	var nx int64
	if !cs.started {
		cs.started = true
		if !p.Aligned {
			cs.off = int64(c)
		}
		cs.anchor = r.sched.Due(cs.off)
		if p.Period > 0 {
			cs.anchor = 0
		}
		nx = cs.anchor
	} else {
		cs.j++
		if p.Period > 0 {
			nx = cs.anchor + cs.j*p.Period
		} else {
			nx = cs.anchor + r.sched.Due(cs.off+cs.j*int64(p.Conns)) - r.sched.Due(cs.off)
		}
		if t > nx { // late: send at once, and the slots start again here
			cs.anchor, cs.off, cs.j = t, 0, 0
			nx = t
		}
	}
	if nx < p.Duration {
		r.sendAt(c, nx, nx)
	}
}

// freeSkipTicks: connection c waits for its ticker; a tick that came while
// it was busy waits in the channel, later ones are dropped.
func (r *profileRunner) freeSkipTicks(c int32, t int64) {
	p, cs := &r.p, &r.conns[c]
	P := p.Period
	j := cs.used + 1
	tick, s := j*P, j*P
	if tick <= t {
		s, cs.used = t, t/P
	} else {
		cs.used = j
	}
	if s < p.Duration {
		r.sendAt(c, s, tick)
	}
}

// freeFortio is periodic/periodic.go 803–866 runOne: call 0 at the start;
// after each call the next index, skipped while late with -nocatchup; sleep
// to its target (a negative sleep returns at once); past the end a
// connection stops, unless at its first two or last call.
func (r *profileRunner) freeFortio(c int32, t int64) {
	p, cs := &r.p, &r.conns[c]
	if cs.started {
		for {
			cs.call++
			if cs.call >= r.fn {
				return
			}
			if !p.NoCatchUp || r.fortioDue(cs.call) >= t {
				break
			}
		}
	}
	cs.started = true
	due := r.fortioDue(cs.call)
	s := max(due, t)
	if s > p.Duration && cs.call >= 2 && cs.call != r.fn-1 {
		return
	}
	r.sendAt(c, s, due)
}

// fortioDue is the target of call i from the start, in ns:
// time.Duration(int64((i + i/(n−1)) / perThreadQPS · 1e9)) (periodic.go
// 841–846).
func (r *profileRunner) fortioDue(i int64) int64 {
	sec := (float64(i) + float64(i)/float64(r.fn-1)) / r.fq
	return int64(sec * 1e9)
}

// wrk2Timer is one connection's ae time event: due once the millisecond
// clock reaches when (ns, a whole millisecond), fired in the order of
// processTimeEvents (the newest first: aeCreateTimeEvent puts it at the
// head of the list, src/ae.c 187–188). when < 0: none.
type wrk2Timer struct {
	when, id int64
	connect  bool // delayed_initial_connect; otherwise delay_request
}

// arm sets connection c's timer at t for ms milliseconds:
// aeAddMillisecondsToNow (src/ae.c 159–171) adds them to the millisecond
// clock, ⌊t/1 ms⌋ + ms. A timer that fired and asked for more milliseconds
// keeps its place (again); a new one goes to the head of the list.
func (r *profileRunner) arm(c int32, t, ms int64, again, connect bool) {
	tm := &r.timers[c]
	if !again {
		tm.id = r.timerID
		r.timerID++
	}
	tm.when, tm.connect = (t/1e6+ms)*1e6, connect
}

// wrk2Wake is one turn of wrk2's event loop after it woke at t (src/ae.c
// aeProcessEvents 322–396; a reply's file event is handled first, by the
// caller): the due timers fire, newest first (processTimeEvents 241–307:
// now_ms ≥ when_ms, restarting from the head), then the loop waits in
// epoll_wait for the nearest timer with a timeout of whole milliseconds,
// when_ms − now_ms (src/ae.c 345–356, src/ae_epoll.c 107–108):
// it wakes that many milliseconds after t, so the fraction of a
// millisecond at which it started waiting carries over (a timer set for
// m ms fires m ms after it was set when nothing else wakes the loop), or
// earlier at a reply.
func (r *profileRunner) wrk2Wake(t int64) {
	for {
		due := -1
		for c := range r.timers {
			if tm := r.timers[c]; tm.when >= 0 && tm.when <= t && (due < 0 || tm.id > r.timers[due].id) {
				due = c
			}
		}
		if due < 0 {
			break
		}
		tm := &r.timers[due]
		tm.when = -1
		cs := &r.conns[due]
		if tm.connect {
			// delayed_initial_connect: c->thread_start = time_us(); the
			// connection becomes writable and socket_writeable asks
			// usec_to_next_send (connect time is not modelled).
			cs.started, cs.caughtUp = true, true
			cs.start = uint64(t / 1000)
		}
		r.wrk2Check(int32(due), t, !tm.connect)
	}
	r.loopAt = t
	next := int64(-1)
	for _, tm := range r.timers {
		if tm.when >= 0 && (next < 0 || tm.when < next) {
			next = tm.when
		}
	}
	if next < 0 {
		r.wakeSeq = ^uint64(0)
		return
	}
	wake := t + (next/1e6-t/1e6)*1e6 // next > t: at least a millisecond
	r.push(pEvent{t: wake, kind: pTimer})
	r.wakeSeq = r.seq - 1
}

// wrk2Check is socket_writeable / delay_request (src/wrk.c 474–482,
// 597–611): send now if usec_to_next_send says so, else set the
// connection's timer for msec_to_wait = round(usec/1000.0 + 0.5)
// milliseconds, which is ⌊usec/1000⌋ + 1. fired: delay_request, whose
// timer is kept and re-armed by its return value; otherwise a new timer.
func (r *profileRunner) wrk2Check(c int32, t int64, fired bool) {
	if t >= r.p.Duration {
		return
	}
	cs := &r.conns[c]
	now := uint64(t / 1000)
	w := cs.usecToNextSend(now, r.thr)
	if w == 0 {
		cs.lastBatch = cs.complete // complete_at_last_batch_start
		// expected_latency_start = thread_start + complete_at_last_batch_start / throughput
		intended := int64(uint64(float64(cs.start)+float64(cs.lastBatch)/r.thr)) * 1000
		r.push(pEvent{t: t, kind: pSend, c: c, q: r.newReq(intended)})
		return
	}
	r.arm(c, t, int64(w/1000+1), fired, false)
}

// usecToNextSend is wrk2's usec_to_next_send (src/wrk.c 433–472): the
// schedule is start + complete/throughput; once behind, it catches up at
// twice the throughput from the moment it fell behind.
func (cs *pConn) usecToNextSend(now uint64, thr float64) uint64 {
	next := uint64(float64(cs.start) + float64(cs.complete)/thr)
	if next > now {
		cs.caughtUp = true
		return next - now
	}
	if cs.caughtUp {
		cs.caughtUp = false
		cs.cusTime = now
		cs.completeAtCUS = cs.complete
	}
	since := cs.complete - cs.completeAtCUS
	next = uint64(float64(cs.cusTime) + float64(since)/(thr*2))
	if next > now {
		return next - now
	}
	return 0
}

// finish applies the recording rules: the end of recording, the clock's
// resolution, the largest recordable latency and the calibration.
func (r *profileRunner) finish() {
	o, p := r.out, &r.p
	n := len(o.Done)
	o.Rec = make([]bool, n)
	lat := make([]int64, n)
	for i := range o.Done {
		if p.RecordUntil > 0 && o.Done[i] >= p.RecordUntil {
			continue
		}
		o.Replies++
		o.End = max(o.End, o.Done[i])
		from := o.Send[i]
		if p.FromIntended {
			from = o.Intended[i]
		}
		v := (o.Done[i]/p.Clock - from/p.Clock) * p.Clock
		if p.RecordMax > 0 && v > p.RecordMax {
			continue
		}
		o.Rec[i], lat[i] = true, v
	}
	if p.Calibrate > 0 {
		for T := p.Calibrate; T < p.Duration; T += p.CalibrateRetry {
			any := false
			for i, ok := range o.Rec {
				if ok && o.Done[i] < T {
					any = true
					break
				}
			}
			if any {
				o.Calibrated = T
				for i := range o.Rec {
					if o.Done[i] < T {
						o.Rec[i] = false
					}
				}
				break
			}
			if p.CalibrateRetry <= 0 {
				break
			}
		}
	}
	if n > 0 {
		o.Latency = lat[:0] // compacted in place: index len ≤ i
	}
	for i, ok := range o.Rec {
		if ok {
			o.Latency = append(o.Latency, lat[i])
		}
	}
	o.Recorded = int64(len(o.Latency))
	o.Dist = exactDist(append([]int64(nil), o.Latency...))
	switch p.Send {
	case BackToBack:
		o.Planned = o.Sent
	default:
		o.Planned = max(r.planned, o.Sent)
	}
	o.Dropped = o.Planned - o.Sent
}

func siftUp64(h []int64, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown64(h []int64, i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if l+1 < n && h[l+1] < h[l] {
			m = l + 1
		}
		if h[i] <= h[m] {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
