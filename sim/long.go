package sim

import (
	"fmt"
	"math/bits"
)

// The long fast path: the deterministic model (constant arrivals, fixed
// service) simulated without a request-by-request walk, for runs beyond
// ExactSamples requests a client.
//
// Replies never come out of order on this model (one FIFO server, a fixed
// service, stalls that pause every worker), so the slot a request waits for,
// among k connections or workers, is the one the request k places before it
// used: it is ready at max(due_i, done_{i−k}). The requests r, r+k, r+2k, …
// of one class then form a server of their own, and between stalls each
// class is in one of a few states that last: quiet (every request is served
// when due, all with one latency), busy (each waits for the one before it:
// replies S apart, an arithmetic run), or inside a stall. A class iterator
// (classIter) yields these stretches as segments, each found with a division
// or a binary search over the schedule, and the one request at a time that a
// stall reaches. The cost follows the stalls times the slots, not the
// requests; the recordings are counted runs (runs.go).
//
// The clients, as on the walk (walk.go):
//   - open: k = workers (unlimited: every request ready when due);
//   - closed, N connections: k = min(N, workers); its send is
//     max(due_i, done_{i−N}), which is the ready time when k = N, and needs
//     the class of request i − N otherwise (recordPaired);
//   - paced: one connection, its own slots (pacedIter).

// classIter walks class r of a timeline with k slots.
type classIter struct {
	sched   Schedule
	st      stallSeries
	S       int64
	r, k    int64
	chain   bool   // false: unlimited workers, every request ready when due (r = 0, k = 1)
	G       int64  // the least gap between due times k apart: floor(k/rate)
	alpha   uint64 // the due gap at stride k is G+1 when the remainder wraps (0: exact)
	C       uint64 // 2·rate
	members int64
	m, prev int64 // next member; done of member m−1
}

func newClassIter(cfg Config, n, r, k int64, chain bool) *classIter {
	sched := NewSchedule(cfg.Rate)
	R := uint64(cfg.Rate)
	A := 2 * uint64(k) * nsPerMilliRate
	it := &classIter{sched: sched, st: newStalls(cfg), S: cfg.Service, r: r, k: k, chain: chain,
		G: int64(A / (2 * R)), alpha: A % (2 * R), C: 2 * R}
	if n > r {
		it.members = (n - r + k - 1) / k
	}
	return it
}

type segKind uint8

const (
	segQuiet segKind = iota // ready = due, done = due + c
	segConst                // ready = due, done = c: unlimited workers, due inside a stall
	segBusy                 // ready = d + p·S, done = ready + S, for p = 0 … n−1
	segOne                  // one request: ready and done
)

// seg is members m0 … m0+n−1 of a class.
type seg struct {
	kind        segKind
	m0, n       int64
	c, d        int64
	ready, done int64 // segOne
}

// index returns the request index of member m.
func (it *classIter) index(m int64) int64 { return it.r + m*it.k }

// doneAt returns the reply of member m of segment g.
func (it *classIter) doneAt(g *seg, m int64) int64 {
	switch g.kind {
	case segQuiet:
		return it.sched.Due(it.index(m)) + g.c
	case segConst:
		return g.c
	case segBusy:
		return g.d + (m-g.m0+1)*it.S
	}
	return g.done
}

// readyAt returns when member m of segment g reached a worker.
func (it *classIter) readyAt(g *seg, m int64) int64 {
	switch g.kind {
	case segQuiet, segConst:
		return it.sched.Due(it.index(m))
	case segBusy:
		return g.d + (m-g.m0)*it.S
	}
	return g.ready
}

// next fills g with the next segment of the class; false at its end.
func (it *classIter) next(g *seg) bool {
	m := it.m
	if m >= it.members {
		return false
	}
	i := it.index(m)
	due := it.sched.Due(i)
	ready, busy := due, false
	if it.chain && m > 0 && it.prev > due {
		ready, busy = it.prev, true
	}
	ns := it.st.FirstEndingAfter(ready)
	start, done := it.st.ServeFrom(ready, it.S, ns, never)
	left := it.members - m
	*g = seg{kind: segOne, m0: m, n: 1, ready: ready, done: done}
	switch {
	case busy && start == ready && done == ready+it.S:
		// Each waits for the one before: ready_p = ready + p·S, untouched
		// by the stall at ns while ready_p + S ≤ ns, and busy while due_p
		// is before ready_p.
		cnt := left
		if ns != never && it.S > 0 {
			cnt = min(cnt, (ns-it.S-ready)/it.S+1)
		}
		cnt = it.busyEnd(i, due, ready, cnt)
		g.kind, g.n, g.d = segBusy, cnt, ready
		it.prev = ready + cnt*it.S
	case !busy && start == ready:
		// Served when due, with one latency c until the stalls' zone ends.
		c := done - due
		cnt := left
		if end := it.st.ZoneEnd(ready, ns, it.S); end != never {
			cnt = min(cnt, (it.sched.Count(end)-i+it.k-1)/it.k)
		}
		if it.chain && c > it.G {
			// The next is quiet only if it is due at least c later.
			w := int64(0)
			if c == it.G+1 {
				w = it.wraps(i)
			}
			cnt = min(cnt, w+1)
		}
		g.kind, g.n, g.c = segQuiet, cnt, c
		it.prev = it.sched.Due(it.index(m+cnt-1)) + c
	case !busy && !it.chain:
		// Due inside the stall [ns, ns+L): all start when it ends.
		cnt := min(left, it.sched.Count(ns+it.st.Length)-i)
		g.kind, g.n, g.c = segConst, cnt, done
		it.prev = done
	default:
		it.prev = done
	}
	it.m += g.n
	return true
}

// busyEnd returns how many of the cnt members from i (the first, due at due,
// ready at ready > due) stay busy: member p waits while
// due(i + p·k) < ready + p·S.
func (it *classIter) busyEnd(i, due, ready, cnt int64) int64 {
	S, G := it.S, it.G
	if S > G || cnt <= 1 {
		return cnt // due gaps of at most G+1 ≤ S: the wait never shrinks
	}
	if it.alpha == 0 { // exact: due(i + p·k) = due + p·G
		if G == S {
			return cnt
		}
		return min(cnt, ceilDiv(ready-due, G-S))
	}
	// due(i + p·k) − p·S never decreases (gaps ≥ G ≥ S): the first p with
	// due(i + p·k) ≥ ready + p·S, by bisection.
	lo, hi := int64(1), cnt
	for lo < hi {
		p := lo + (hi-lo)/2
		if it.sched.Due(i+p*it.k) >= ready+p*S {
			hi = p
		} else {
			lo = p + 1
		}
	}
	return lo
}

// wraps returns how many members from the one at index i in a row have a
// due gap of G+1 to the next: while the remainder (2i·10¹²+R) mod 2R stays
// at or above C − α it drops by C − α a step.
func (it *classIter) wraps(i int64) int64 {
	if it.alpha == 0 {
		return 0
	}
	rho := dueRemainder(it.sched, i)
	if rho < it.C-it.alpha {
		return 0
	}
	return int64(rho / (it.C - it.alpha))
}

// dueRemainder is (2i·10¹² + R) mod 2R: the remainder of due(i)'s division.
func dueRemainder(s Schedule, i int64) uint64 {
	R := uint64(s.rate)
	hi, lo := bits.Mul64(uint64(i), 2*nsPerMilliRate)
	lo, c := bits.Add64(lo, R, 0)
	hi += c
	_, rem := bits.Div64(hi%(2*R), lo, 2*R)
	return rem
}

// pacedIter walks the paced client: one connection, a send on its own slots
// anchor + due(j) (j counted from the anchor), and when a reply is late the
// next send at once, which restarts the slots there.
type pacedIter struct {
	sched         Schedule
	st            stallSeries
	S, D, n       int64
	G1            int64 // floor(1/rate)
	exactSlot     bool  // 1/rate is whole: every gap is G1
	t, anchor, j  int64 // the next send, at anchor + due(j) when on its slots
	sent          int64
	wrap0, span0  int64 // S = G1+1 on a rounded schedule: sends a period, and its length
	periodicKnown bool
}

func newPacedIter(cfg Config, n int64) *pacedIter {
	sched := NewSchedule(cfg.Rate)
	return &pacedIter{sched: sched, st: newStalls(cfg), S: cfg.Service, D: cfg.Duration, n: n,
		G1: int64(nsPerMilliRate / uint64(cfg.Rate)), exactSlot: sched.Exact()}
}

// pacedSeg is a stretch of the paced client's sends: n sends of latency S
// (quiet) or one send at t answered at done.
type pacedSeg struct {
	quiet        bool
	n            int64
	first, lastT int64 // quiet: the first and last send
	t, done      int64 // one
}

func (p *pacedIter) next(g *pacedSeg) bool {
	if p.t >= p.D || p.sent >= p.n {
		return false
	}
	t := p.t
	ns := p.st.FirstEndingAfter(t)
	start, done := p.st.ServeFrom(t, p.S, ns, never)
	if start != t || done != t+p.S {
		// A send the stall reaches.
		*g = pacedSeg{n: 1, t: t, done: done}
		p.sent++
		p.j++
		nx := p.anchor + p.sched.Due(p.j)
		if done > nx { // late: send at once, and restart the slots there
			p.anchor, p.j, nx = done, 0, done
		}
		p.t = nx
		return true
	}
	// Sends before lim are untouched by the stall at ns, and before the end.
	lim := p.D
	if ns != never {
		lim = min(lim, ns-max(p.S-1, 0))
	}
	g0 := pacedSeg{quiet: true, first: t}
	switch {
	case p.S <= p.G1: // never late: every slot before lim
		cnt := min(p.sched.Count(lim-p.anchor)-p.j, p.n-p.sent)
		g0.n, g0.lastT = cnt, p.anchor+p.sched.Due(p.j+cnt-1)
		p.j += cnt
		p.t = p.anchor + p.sched.Due(p.j)
	case p.exactSlot || p.S > p.G1+1: // always late: back to back, S apart
		cnt := min(ceilDiv(lim-t, p.S), p.n-p.sent)
		g0.n, g0.lastT = cnt, t+(cnt-1)*p.S
		p.t = t + cnt*p.S
		p.anchor, p.j = p.t, 0
	default: // S = G1+1: on its slots while the gaps are G1+1, then late once
		g0.n, g0.lastT = p.periodic(lim)
	}
	p.sent += g0.n
	*g = g0
	return true
}

// periodic sends on the slots of a rounded schedule when S = floor(1/rate)+1:
// from slot j the sends stay on their slots while the gaps are S (w of them
// in a row, wraps of the due remainder), the next gap is S−1 and that reply
// is late: the slots restart at it, and from then on each period is the same
// w₀+1 sends over due(w₀) + S. It sends everything before lim.
func (p *pacedIter) periodic(lim int64) (cnt, lastT int64) {
	slotWraps := func(j int64) int64 { // gaps of G1+1 in a row from slot j
		it := classIter{sched: p.sched, alpha: nsPerMilliRate * 2 % (2 * uint64(p.sched.rate)), C: 2 * uint64(p.sched.rate)}
		return it.wraps(j)
	}
	if !p.periodicKnown {
		p.wrap0 = slotWraps(0)
		p.span0 = p.sched.Due(p.wrap0) + p.S
		p.periodicKnown = true
	}
	left := p.n - p.sent
	for left > 0 && p.t < lim {
		w := slotWraps(p.j)
		if p.j == 0 && p.anchor+p.span0 <= lim {
			// Whole periods: each w₀+1 sends, its last one due(w₀) after
			// its anchor, all before lim.
			per := p.wrap0 + 1
			m := min((lim-1-p.anchor-p.sched.Due(p.wrap0))/p.span0+1, left/per)
			if m > 0 {
				cnt += m * per
				left -= m * per
				lastT = p.anchor + (m-1)*p.span0 + p.sched.Due(p.wrap0)
				p.anchor += m * p.span0
				p.t = p.anchor
				continue
			}
		}
		// Part of a period: slots j … j+w, those before lim.
		k := min(p.sched.Count(lim-p.anchor)-p.j, w+1, left)
		cnt += k
		left -= k
		lastT = p.anchor + p.sched.Due(p.j+k-1)
		if k == w+1 { // its last reply is late: the slots restart there
			p.anchor, p.j = lastT+p.S, 0
			p.t = p.anchor
			continue
		}
		p.j += k
		p.t = p.anchor + p.sched.Due(p.j)
	}
	return cnt, lastT
}

// longTallies are the per-request invariants of a long run, counted while
// simulating (checks.go reads the same from the per-request data of an
// exact run).
type longTallies struct {
	dueGeSend    int64 // closed requests sent no earlier than due
	closedOK     bool  // closed: sends in order within each slot, no reply sooner than S
	pacedOK      bool  // paced: sends in order, one at a time, no reply sooner than S
	sameReplies  int64 // one connection, one worker: requests answered at the same instant by closed and open
	haveSame     bool
	expandedRuns int64
}

// longClient is one client's long run.
type longClient struct {
	c            Client
	rs           runSet
	sent, last   int64
	k            int64 // classes
	r            int64 // the class being walked
	it, pair     *classIter
	cur          classCursor
	paced        *pacedIter
	covered      int64 // requests simulated so far
	lastSend     int64 // paced: the previous send (time order)
	lastDone     int64
	prevClassEnd int64  // closed: last send of the previous segment of the class
	segHash      uint64 // a hash of the stretches walked (closed and open)
	finished     bool
}

// longRun is a Runner's long deterministic run.
type longRun struct {
	cfg      Config
	n        int64
	sched    Schedule
	clients  [3]*longClient
	cur      int
	work     int64 // segments and one-at-a-time requests so far
	err      error
	tal      longTallies
	gN       int64 // the least due gap N requests apart (closed, N connections)
	compared bool  // the closed and open timelines were compared (one connection, one worker)
}

// longSlots returns a client's slots: k and whether requests chain.
func longSlots(cfg Config, c Client) (k int64, chain bool) {
	switch c {
	case OpenClient:
		if cfg.Workers == 0 {
			return 1, false
		}
		return int64(cfg.Workers), true
	case ClosedClient:
		k := int64(cfg.Conns)
		if cfg.Workers != 0 && cfg.Workers < cfg.Conns {
			k = int64(cfg.Workers)
		}
		return k, true
	}
	return 1, true
}

func newLongRun(cfg Config, n int64) *longRun {
	l := &longRun{cfg: cfg, n: n, sched: NewSchedule(cfg.Rate), tal: longTallies{closedOK: true, pacedOK: true}}
	l.gN = int64(uint64(cfg.Conns) * nsPerMilliRate / uint64(cfg.Rate))
	for c := range l.clients {
		lc := &longClient{c: Client(c)}
		if Client(c) == PacedClient {
			lc.paced = newPacedIter(cfg, n)
			lc.k = 1
			lc.lastSend, lc.lastDone = -1, -1
		} else {
			lc.k, _ = longSlots(cfg, Client(c))
		}
		l.clients[c] = lc
	}
	l.tal.haveSame = cfg.Conns == 1 && cfg.Workers == 1
	return l
}

// step does up to budget units of work (segments, or requests one at a time);
// it reports whether the run is over.
func (l *longRun) step(budget int64) bool {
	for l.cur < len(l.clients) && budget > 0 && l.err == nil {
		lc := l.clients[l.cur]
		if lc.finished {
			l.cur++
			continue
		}
		used := l.stepClient(lc, budget)
		budget -= used
		l.work += used
		if runs := l.runsKept(); runs > maxLongRuns {
			l.err = &LimitError{Limit: "runs", Need: fmt.Sprintf("more than %d distinct counted runs of samples (stalls at ever-different phases of the schedule keep runs that never merge)", runs),
				Max: fmt.Sprint(maxLongRuns), Hint: "stalls on the schedule's grid (every a multiple of 1/rate), fewer stalls, or a shorter duration"}
		}
		if l.work+l.tal.expandedRuns > MaxRequests {
			l.err = &LimitError{Limit: "requests", Need: fmt.Sprintf("the run needs more than %d stretches over its clients (stalls met × connections or workers)", MaxRequests),
				Max: fmt.Sprint(MaxRequests), Hint: "fewer stalls (a longer every), fewer connections or workers, or a shorter duration"}
		}
	}
	if l.cur >= len(l.clients) && l.tal.haveSame && !l.compared {
		// One connection, one worker: the closed and open clients walked
		// one timeline if they met the same stretches (their streams'
		// hashes agree); else count the replies they share one by one.
		l.compared = true
		if cl, op := l.clients[ClosedClient], l.clients[OpenClient]; cl.segHash == op.segHash && cl.covered == op.covered {
			l.tal.sameReplies = cl.covered
		} else {
			l.compareTimelines()
		}
	}
	return l.cur >= len(l.clients) || l.err != nil
}

// maxLongRuns bounds the counted runs a long run keeps over its clients
// (about 64 bytes each with their index).
const maxLongRuns = 1 << 23

// runsKept returns the counted runs kept so far.
func (l *longRun) runsKept() int {
	n := 0
	for _, lc := range l.clients {
		n += lc.rs.len()
	}
	return n
}

func (l *longRun) progress() (done, total int64) {
	for _, lc := range l.clients {
		done += lc.covered
	}
	return done, 3 * l.n
}

// stepClient walks up to budget segments of one client.
func (l *longRun) stepClient(lc *longClient, budget int64) int64 {
	if lc.c == PacedClient {
		return l.stepPaced(lc, budget)
	}
	used := int64(0)
	for used < budget {
		if lc.it == nil {
			if lc.r >= lc.k {
				lc.finished = true
				return used
			}
			k, chain := longSlots(l.cfg, lc.c)
			lc.it = newClassIter(l.cfg, l.n, lc.r, k, chain)
			lc.prevClassEnd = -1
			if lc.c == ClosedClient && int64(l.cfg.Conns) > k {
				N := int64(l.cfg.Conns)
				rr := ((lc.r-N)%k + k) % k
				lc.pair = newClassIter(l.cfg, l.n, rr, k, true)
				lc.cur = classCursor{it: lc.pair}
				lc.cur.ok = lc.pair.next(&lc.cur.g)
			}
		}
		var g seg
		if !lc.it.next(&g) {
			lc.it, lc.pair = nil, nil
			lc.r++
			continue
		}
		used++
		lc.covered += g.n
		l.record(lc, &g)
	}
	return used
}

// record adds a segment's latencies to its client's recording.
func (l *longRun) record(lc *longClient, g *seg) {
	it := lc.it
	i0 := it.index(g.m0)
	lastDone := it.doneAt(g, g.m0+g.n-1)
	lc.last = max(lc.last, lastDone)
	lc.sent += g.n
	if l.tal.haveSame {
		lc.segHash = hashSeg(lc.segHash, g)
	}
	switch lc.c {
	case OpenClient: // latency = done − due
		switch g.kind {
		case segQuiet:
			lc.rs.add(g.c, 0, g.n, 1)
		case segConst:
			addDueShaped(&lc.rs, l.sched, g.c, 0, i0, it.k, g.n, 1)
		case segBusy:
			addDueShaped(&lc.rs, l.sched, g.d+it.S, it.S, i0, it.k, g.n, 1)
		default:
			lc.rs.add(g.done-l.sched.Due(i0), 0, 1, 1)
		}
	case ClosedClient:
		if lc.pair != nil {
			l.recordPaired(lc, g)
			return
		}
		// k = N: the send is the ready time, latency = done − ready.
		switch g.kind {
		case segQuiet:
			lc.rs.add(g.c, 0, g.n, 1)
		case segBusy:
			lc.rs.add(it.S, 0, g.n, 1)
		default:
			lc.rs.add(g.done-g.ready, 0, 1, 1)
		}
		l.tallySends(lc, g.m0, g.n, it.readyAt(g, g.m0), it.readyAt(g, g.m0+g.n-1), min(it.doneAt(g, g.m0)-it.readyAt(g, g.m0), it.doneAt(g, g.m0+g.n-1)-it.readyAt(g, g.m0+g.n-1)))
	}
}

// tallySends checks a stretch of closed sends: first and last send (they
// never decrease within a stretch: due times, or S apart), no earlier than
// due (the difference is monotone within a stretch: endpoints suffice), in
// order after the previous stretch of the class, and no reply sooner than S.
func (l *longRun) tallySends(lc *longClient, m0, n, first, last, minLat int64) {
	it := lc.it
	d0, d1 := l.sched.Due(it.index(m0)), l.sched.Due(it.index(m0+n-1))
	if first >= d0 && last >= d1 {
		l.tal.dueGeSend += n
	}
	if first < lc.prevClassEnd || last < first || minLat < l.cfg.Service {
		l.tal.closedOK = false
	}
	lc.prevClassEnd = last
}

// classCursor reads a class iterator's segments for members that never
// decrease.
type classCursor struct {
	it *classIter
	g  seg
	ok bool
}

// at returns the segment holding member m, or nil past the class.
func (c *classCursor) at(m int64) *seg {
	for c.ok && m >= c.g.m0+c.g.n {
		c.ok = c.it.next(&c.g)
	}
	if !c.ok || m < c.g.m0 {
		return nil
	}
	return &c.g
}

// recordPaired is the closed client with fewer workers than connections:
// request i is sent at max(due_i, done_{i−N}), the reply of the request N
// before it, in class rr of the same timeline (lc.pair, read by lc.cur).
func (l *longRun) recordPaired(lc *longClient, g *seg) {
	it := lc.it
	N := int64(l.cfg.Conns)
	off := (it.r - N - lc.pair.r) / it.k // member m of class r pairs with member m+off of class rr
	switch g.kind {
	case segQuiet:
		// Ready when due, so sent when due: done_{i−N} ≤ done_{i−k} ≤ due.
		lc.rs.add(g.c, 0, g.n, 1)
		l.tallySends(lc, g.m0, g.n, l.sched.Due(it.index(g.m0)), l.sched.Due(it.index(g.m0+g.n-1)), g.c)
		return
	case segOne:
		l.pairedOne(lc, g, off, g.m0)
		return
	}
	// Busy: ready_p = d + p·S, done_p = ready_p + S.
	end := g.m0 + g.n
	m := g.m0
	if m+off < 0 {
		m1 := min(end, -off)
		l.pairedDueRun(lc, g, m, m1)
		m = m1
	}
	for m < end {
		h := lc.cur.at(m + off)
		if h == nil {
			l.pairedOne(lc, g, off, m)
			m++
			continue
		}
		pe := min(end, h.m0+h.n-off) // members of g this pair segment covers
		switch h.kind {
		case segQuiet:
			if h.c <= l.gN { // due_i − due_{i−N} ≥ floor(N/rate) ≥ c: sent when due
				l.pairedDueRun(lc, g, m, pe)
			} else {
				l.pairedEach(lc, g, off, m, pe)
			}
		case segBusy:
			l.pairedBusy(lc, g, h, off, m, pe)
		default:
			l.pairedEach(lc, g, off, m, pe)
		}
		m = pe
	}
}

// pairedSend returns when member m of the walked class is sent:
// max(due_i, done_{i−N}), or due_i when request i−N is before the run.
func (l *longRun) pairedSend(lc *longClient, off, m int64) int64 {
	due := l.sched.Due(lc.it.index(m))
	if m+off < 0 {
		return due
	}
	h := lc.cur.at(m + off)
	return max(due, lc.pair.doneAt(h, m+off))
}

// pairedOne records member m of segment g on its own.
func (l *longRun) pairedOne(lc *longClient, g *seg, off, m int64) {
	s, d := l.pairedSend(lc, off, m), lc.it.doneAt(g, m)
	lc.rs.add(d-s, 0, 1, 1)
	l.tallySends(lc, m, 1, s, s, d-s)
	l.tal.expandedRuns++
}

// pairedEach records members m0 … m1−1 of segment g one at a time.
func (l *longRun) pairedEach(lc *longClient, g *seg, off, m0, m1 int64) {
	for m := m0; m < m1; m++ {
		l.pairedOne(lc, g, off, m)
	}
}

// pairedDueRun records members m0 … m1−1 of the busy segment g, all sent
// when due: latency done − due.
func (l *longRun) pairedDueRun(lc *longClient, g *seg, m0, m1 int64) {
	if m1 <= m0 {
		return
	}
	it, S := lc.it, l.cfg.Service
	n := m1 - m0
	addDueShaped(&lc.rs, l.sched, it.doneAt(g, m0), S, it.index(m0), it.k, n, 1)
	l.tal.expandedRuns += n
	l.tallySends(lc, m0, n, l.sched.Due(it.index(m0)), l.sched.Due(it.index(m1-1)), min(it.doneAt(g, m0)-l.sched.Due(it.index(m0)), it.doneAt(g, m1-1)-l.sched.Due(it.index(m1-1))))
}

// pairedBusy records members m … pe−1 of the busy segment g whose requests
// N before are in the busy pair segment h. done_{i−N} = h.d +
// (m+off−h.m0+1)·S grows by S a member, as done_i does; due_i − done_{i−N}
// is monotone (gaps ≥ G ≥ S, or ≤ G+1 ≤ S): split where it changes sign,
// the members sent at done_{i−N} (one latency) on one side, those sent when
// due on the other.
func (l *longRun) pairedBusy(lc *longClient, g, h *seg, off, m, pe int64) {
	it := lc.it
	rising := l.cfg.Service <= it.G
	lo, hi := m, pe
	for lo < hi { // the first member where the order flips
		x := lo + (hi-lo)/2
		sentDue := l.sched.Due(it.index(x)) >= lc.pair.doneAt(h, x+off)
		if sentDue == rising {
			hi = x
		} else {
			lo = x + 1
		}
	}
	if rising { // [m, lo) sent at done_{i−N}: latency constant
		if lo > m {
			lat := it.doneAt(g, m) - lc.pair.doneAt(h, m+off)
			lc.rs.add(lat, 0, lo-m, 1)
			l.tallySends(lc, m, lo-m, lc.pair.doneAt(h, m+off), lc.pair.doneAt(h, lo-1+off), lat)
		}
		l.pairedDueRun(lc, g, lo, pe)
	} else {
		l.pairedDueRun(lc, g, m, lo)
		if pe > lo {
			lat := it.doneAt(g, lo) - lc.pair.doneAt(h, lo+off)
			lc.rs.add(lat, 0, pe-lo, 1)
			l.tallySends(lc, lo, pe-lo, lc.pair.doneAt(h, lo+off), lc.pair.doneAt(h, pe-1+off), lat)
		}
	}
}

// stepPaced walks up to budget segments of the paced client.
func (l *longRun) stepPaced(lc *longClient, budget int64) int64 {
	p := lc.paced
	used := int64(0)
	var g pacedSeg
	for used < budget {
		if !p.next(&g) {
			lc.finished = true
			break
		}
		used++
		lc.covered += g.n
		lc.sent += g.n
		S := l.cfg.Service
		if g.quiet {
			lc.rs.add(S, 0, g.n, 1)
			if g.first < lc.lastSend || g.first < lc.lastDone || g.lastT < g.first {
				l.tal.pacedOK = false
			}
			lc.lastSend, lc.lastDone = g.lastT, g.lastT+S
		} else {
			lc.rs.add(g.done-g.t, 0, 1, 1)
			if g.t < lc.lastSend || g.t < lc.lastDone || g.done-g.t < S {
				l.tal.pacedOK = false
			}
			lc.lastSend, lc.lastDone = g.t, g.done
		}
		lc.last = lc.lastDone
	}
	return used
}

// hashSeg folds a stretch into a hash, a word at a time (FNV-1a's scheme on
// 64-bit words, each word then mixed by SplitMix64's finaliser).
func hashSeg(h uint64, g *seg) uint64 {
	for _, v := range [...]int64{int64(g.kind), g.m0, g.n, g.c, g.d, g.ready, g.done} {
		h = (h ^ uint64(v)) * 0x100000001b3
		h ^= h >> 29
		h *= 0xbf58476d1ce4e5b9
	}
	return h
}

// compareTimelines counts, with one connection and one worker, the requests
// the closed and open clients answer at the same instant: their timelines,
// walked again side by side, segment by segment.
func (l *longRun) compareTimelines() {
	a := newClassIter(l.cfg, l.n, 0, 1, true)
	b := newClassIter(l.cfg, l.n, 0, 1, true)
	var ga, gb seg
	okA, okB := a.next(&ga), b.next(&gb)
	same := int64(0)
	for okA && okB {
		if ga == gb {
			same += ga.n
		} else {
			// Member by member over the overlap, then resynchronise.
			hi := min(ga.m0+ga.n, gb.m0+gb.n)
			for m := max(ga.m0, gb.m0); m < hi; m++ {
				if a.doneAt(&ga, m) == b.doneAt(&gb, m) {
					same++
				}
			}
		}
		switch ea, eb := ga.m0+ga.n, gb.m0+gb.n; {
		case ea == eb:
			okA, okB = a.next(&ga), b.next(&gb)
		case ea < eb:
			okA = a.next(&ga)
		default:
			okB = b.next(&gb)
		}
	}
	l.tal.sameReplies = same
}
