package sim

// The per-request invariants of a deterministic run (checks.go) come from
// the per-request data of a walked run, or from what a long run counted
// while it simulated (long.go): the same numbers either way.

// requestTallies are the counts behind inv.due_ge_send and inv.time_forward.
type requestTallies struct {
	requests, dueGeSend int64 // closed requests, and those sent no earlier than due
	closedOK, pacedOK   bool  // closed, paced: virtual time never goes backwards
}

// requestTallies returns the per-request counts, and false when the run has
// neither its requests nor a long run's counts.
func (r *Result) requestTallies() (requestTallies, bool) {
	cfg := r.Config
	cl, pa := &r.Clients[ClosedClient], &r.Clients[PacedClient]
	if r.long != nil {
		return requestTallies{requests: cl.Sent, dueGeSend: r.long.dueGeSend, closedOK: r.long.closedOK, pacedOK: r.long.pacedOK}, true
	}
	if !r.Exact || cl.Done == nil {
		return requestTallies{}, false
	}
	t := requestTallies{requests: int64(len(cl.Done)), closedOK: true, pacedOK: true}
	dues := newDueIter(cfg.Rate)
	prev := int64(-1)
	for i := range cl.Done {
		due := int64(dues.q)
		dues.next()
		if cl.Send[i] >= due {
			t.dueGeSend++
		}
		if cl.Send[i] < prev || cl.Done[i]-cl.Send[i] < cfg.Service {
			t.closedOK = false
		}
		prev = cl.Send[i]
	}
	prev = -1
	for i := range pa.Done {
		if pa.Send[i] < prev || pa.Done[i]-pa.Send[i] < cfg.Service || (i > 0 && pa.Send[i] < pa.Done[i-1]) {
			t.pacedOK = false
		}
		prev = pa.Send[i]
	}
	return t, true
}

// sameReplies returns, for one connection and one worker, how many requests
// the closed and open clients answer at the same instant, of how many; false
// without per-request data or counts.
func (r *Result) sameReplies() (requests, same int64, ok bool) {
	cl, op := &r.Clients[ClosedClient], &r.Clients[OpenClient]
	if r.long != nil && r.long.haveSame {
		return cl.Sent, r.long.sameReplies, true
	}
	if cl.Done == nil || op.Done == nil {
		return 0, 0, false
	}
	for i := range cl.Done {
		if i < len(op.Done) && cl.Done[i] == op.Done[i] {
			same++
		}
	}
	return int64(len(cl.Done)), same, true
}

// correctionTotal returns Σ CorrectionCount(v, e) over the samples of an
// exact Dist, and false for a histogram.
func correctionTotal(d *Dist, e int64) (int64, bool) {
	switch {
	case d.hist != nil:
		return 0, false
	case d.runs != nil:
		var n int64
		for _, r := range d.runs {
			if r.step == 0 {
				n += r.mult * r.n * CorrectionCount(r.v, e)
				continue
			}
			for j := int64(0); j < r.n; j++ {
				n += r.mult * CorrectionCount(r.v+j*r.step, e)
			}
		}
		return n, true
	case d.groups != nil:
		return 0, false // a corrected Dist: its base holds the samples
	}
	var n int64
	for _, v := range d.sorted {
		n += CorrectionCount(v, e)
	}
	return n, true
}

// fillClients records what each client of a long run did (no per-request
// times: res.long marks a run whose windows are simulated again).
func (l *longRun) fillClients(res *Result) {
	st := newStalls(l.cfg)
	for c, lc := range l.clients {
		res.Clients[c] = ClientRun{Client: Client(c), Planned: l.n, Sent: lc.sent, LastCompletion: lc.last, StallsMet: st.Count(lc.last)}
	}
	tal := l.tal
	res.long = &tal
}

// result builds a long run's Result.
func (l *longRun) result() *Result {
	cfg := l.cfg
	res := &Result{Config: cfg, Query: cfg.Query(), Planned: l.n, Slot: l.sched.Interval(1), Exact: true}
	var dists [NumKinds]*Dist
	l.fillClients(res)
	for c, lc := range l.clients {
		dists[clientKind(Client(c))] = lc.rs.dist()
	}
	res.setRecordings(dists)
	res.Checks, res.Notes = checkResult(res, res.Notes)
	return res
}
