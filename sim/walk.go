package sim

// The walk: a deterministic run of up to ExactSamples requests a client,
// simulated request by request and kept (ClientRun.Send and Done), each
// client on its own copy of the server (server.go). Runner (run.go) drives
// it in slices.

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
