package sim

import (
	"fmt"
	"math"
)

// The checks of an event-driven run. No closed form gives its percentiles,
// so it is checked against what theory guarantees whatever the randomness:
// the invariants of the model, Little's law on the run's own data (exactly),
// the closed-loop throughput bound (exactly), and, for Poisson arrivals with
// exponential service at c workers, the mean wait of Erlang C within a
// confidence band.

// Erlang C band: the run's requests in send order are cut into
// erlangBatches batches; the band is the batch means' standard error times
// Student's t with erlangBatches−1 degrees of freedom at 0.9995 (a
// two-sided 99.9 % band).
const (
	erlangBatches = 20
	erlangT       = 3.883 // t(0.9995; 19)
	// A batch must hold this many relaxation times of the queue,
	// ρ/(1−√ρ)² requests, for its mean to be close to independent.
	erlangRelax = 10
)

// ErlangC returns the probability that a request waits, and the mean wait in
// ns, of an M/M/c queue with arrival rate lambda per ns, mean service s ns
// and c workers; ok is false when the queue is not stable (λ·s ≥ c). It uses
// + − × ÷ only, so the bits are the same on every platform.
func ErlangC(lambda, s float64, c int) (pWait, wait float64, ok bool) {
	a := lambda * s // offered load in Erlangs
	if !(a < float64(c)) || c < 1 {
		return 0, 0, false
	}
	b := 1.0 // Erlang B by its recursion: B(k) = a·B(k−1) / (k + a·B(k−1))
	for k := 1; k <= c; k++ {
		ab := a * b
		b = ab / (float64(k) + ab)
	}
	rho := a / float64(c)
	pWait = b / (1 - float64(rho*(1-b)))
	return pWait, pWait * s / (float64(c) - a), true
}

func engineChecks(res *Result) []Check {
	cfg := res.Config
	er := res.Engine
	var out []Check
	add := func(c Check) { out = append(out, c) }
	for ci := range er.Clients {
		c := Client(ci)
		ec := &er.Clients[ci]
		st := ec.st
		name := c.String()
		answered := ec.Replies + ec.Rejected + ec.Failed + ec.TimedOut
		add(Check{ID: "inv.conservation." + name, Kind: "invariant", Quantity: name + ": every request sent has exactly one outcome",
			Formula:     "sent = replies + rejected + failed + timed out",
			Substituted: fmt.Sprintf("%d = %d + %d + %d + %d", ec.Sent, ec.Replies, ec.Rejected, ec.Failed, ec.TimedOut),
			Want:        float64(ec.Sent), Got: float64(answered), Pass: answered == ec.Sent && res.Recordings[clientKind(c)].Count == ec.Replies})
		if c != PacedClient {
			add(Check{ID: "inv.sent." + name, Kind: "invariant", Quantity: name + ": every request of the schedule is sent",
				Formula: "sent = planned", Substituted: fmt.Sprintf("%d = %d", ec.Sent, ec.Planned),
				Want: float64(ec.Planned), Got: float64(ec.Sent), Pass: ec.Sent == ec.Planned})
		}
		left := ec.Entered - st.completed - ec.FailedAtWorker
		add(Check{ID: "inv.drained." + name, Kind: "invariant", Quantity: name + ": every request that entered the server left it by the end of the run",
			Formula:     "entered − completed − failed at a worker = 0",
			Substituted: fmt.Sprintf("%d − %d − %d", ec.Entered, st.completed, ec.FailedAtWorker),
			Want:        0, Got: float64(left), Pass: left == 0})
		add(Check{ID: "inv.time_forward." + name, Kind: "invariant", Quantity: name + ": virtual time never goes backwards",
			Formula: "events taken from the heap earlier than the clock = 0", Substituted: fmt.Sprintf("%d events", st.events),
			Want: 0, Got: float64(st.backwards), Pass: st.backwards == 0})
		if T := ec.End; T > 0 && ec.Entered > 0 {
			n := float64(ec.Entered)
			tt := float64(T)
			areaSys := addU128(st.areaQ, st.areaBusy) // N(t) = waiting + in service
			add(Check{ID: "little." + name, Kind: "law", Quantity: name + ": Little's law at the server, L = λW, on the run's own data",
				Formula:     "L = ∫N(t)dt / T with N = waiting + in service; λ = n / T; W = Σ(leave − arrive) / n; L = λW exactly when every request has left",
				Substituted: fmt.Sprintf("T = %d ns, n = %d, ∫N(t)dt = %s request·ns, Σ(leave − arrive) = %s ns", T, ec.Entered, u128Text(areaSys), u128Text(st.sojourn)),
				Want:        n / tt * (st.sojourn.Float() / n), Got: areaSys.Float() / tt, Pass: areaSys == st.sojourn,
				Tolerance: "exact: the integer sums are compared"})
			add(Check{ID: "little.queue." + name, Kind: "law", Quantity: name + ": Little's law for the queue, Lq = λWq",
				Formula:     "Lq = ∫Q(t)dt / T; Wq = Σ(reach a worker − arrive) / n",
				Substituted: fmt.Sprintf("T = %d ns, n = %d, ∫Q(t)dt = %s request·ns, Σ wait = %s ns", T, ec.Entered, u128Text(st.areaQ), u128Text(st.waits)),
				Want:        n / tt * (st.waits.Float() / n), Got: st.areaQ.Float() / tt, Pass: st.areaQ == st.waits,
				Tolerance: "exact: the integer sums are compared"})
		}
		// The closed-loop bound: at most N requests in flight, so the
		// replies' latencies sum to at most N·span, and X ≤ N / mean.
		if c != OpenClient && ec.Replies > 0 && ec.Sent > 0 {
			N := int64(cfg.Conns)
			if c == PacedClient {
				N = 1
			}
			rec := &res.Recordings[clientKind(c)]
			span := st.lastAnswer - st.firstSend
			if span > 0 && rec.Mean > 0 {
				sum := rec.Dist.Sum()
				cap := mul128(uint64(N), uint64(span))
				add(Check{ID: "bound.throughput." + name, Kind: "bound", Quantity: name + ": throughput within the closed-loop bound N / mean latency",
					Formula:     "X = replies / (last answer − first send) ≤ N / mean latency, i.e. Σ latency ≤ N·(last answer − first send)",
					Substituted: fmt.Sprintf("N = %d, replies = %d, span = %d ns, mean = %.1f ns", N, ec.Replies, span, rec.Mean),
					Want:        float64(N) / rec.Mean * 1e9, Got: float64(ec.Replies) / float64(span) * 1e9,
					Pass: !u128Less(cap, sum), Tolerance: "a bound: got ≤ want (requests per second), compared in integers"})
			}
		}
	}
	out = append(out, erlangCheck(res)...)
	out = append(out, engineInvariants(res)...)
	out = append(out, retryChecks(res)...)
	out = append(out, slowThinkChecks(res)...)
	return out
}

// erlangApplies reports whether the open client's server is an M/M/c queue.
func erlangApplies(cfg Config) (bool, string) {
	switch {
	case cfg.Arrivals != ArrivalsPoisson || cfg.Dist != ServiceExponential:
		return false, "needs poisson arrivals and exponential service"
	case cfg.Workers < 1:
		return false, "needs a finite number of workers"
	case cfg.Stall != 0 || cfg.Outages.Len() > 0:
		return false, "stalls and outages are outside the M/M/c model"
	case cfg.Queue != 0:
		return false, "a bounded queue is M/M/c/K, not M/M/c"
	case cfg.Retrying():
		return false, "retries add arrivals that depend on the queue"
	}
	return true, ""
}

func erlangCheck(res *Result) []Check {
	cfg := res.Config
	if ok, _ := erlangApplies(cfg); !ok {
		return nil
	}
	ec := &res.Engine.Clients[OpenClient]
	b, note := erlangBand(cfg, ec.st)
	if note != "" {
		res.Notes = append(res.Notes, "erlang.open: no Erlang C check, "+note)
		return nil
	}
	return []Check{{ID: "erlang.open.wait", Kind: "statistical", Quantity: "open: mean wait for a worker against Erlang C (M/M/c)",
		Formula: "Wq = C(c, a)·S / (c − a), a = λS, C = B / (1 − ρ(1 − B)), B Erlang B by B_k = a·B_{k−1} / (k + a·B_{k−1})",
		Substituted: fmt.Sprintf("λ = %s/s, S = %s, c = %d, a = %.4f, ρ = %.4f, C = %.6f; band ±%.1f ns from %d batch means of %d requests",
			cfg.Rate, FormatDuration(cfg.Service), cfg.Workers, b.a, b.rho, b.pWait, b.half, erlangBatches, b.batch),
		Want: b.want, Got: b.got, Pass: math.Abs(b.got-b.want) <= b.half,
		Tolerance: fmt.Sprintf("99.9%% band: |got − want| ≤ t(0.9995; %d) · SE of %d batch means = %.1f ns", erlangBatches-1, erlangBatches, b.half)}}
}

type erlangResult struct {
	a, rho, pWait, want, got, half float64
	batch                          int
}

// erlangBand compares the open client's mean wait with Erlang C; note says
// why there is no comparison.
func erlangBand(cfg Config, st *clientStats) (erlangResult, string) {
	lambda := float64(cfg.Rate) / 1e12
	S := float64(cfg.Service)
	var b erlangResult
	var stable bool
	b.pWait, b.want, stable = ErlangC(lambda, S, cfg.Workers)
	b.a = lambda * S
	b.rho = b.a / float64(cfg.Workers)
	if !stable {
		return b, fmt.Sprintf("the queue is unstable (utilisation %.3f ≥ 1).", b.rho)
	}
	full := len(st.waitBlocks) - 1 // the last block may be partial
	if st.sent%waitBlock == 0 {
		full = len(st.waitBlocks)
	}
	per := full / erlangBatches // blocks per batch
	b.batch = per * waitBlock
	relax := b.rho / float64((1-math.Sqrt(b.rho))*(1-math.Sqrt(b.rho)))
	need := erlangRelax * relax
	if per < 1 || float64(b.batch) < need {
		return b, fmt.Sprintf("the run is too short for a confident band: %d requests; at utilisation %.3f each of the %d batches needs about %.0f.", st.sent, b.rho, erlangBatches, need)
	}
	var means [erlangBatches]float64
	var sum float64
	for i := range means {
		s := 0.0
		for k := i * per; k < (i+1)*per; k++ {
			s += st.waitBlocks[k]
		}
		means[i] = s / float64(b.batch)
		sum += means[i]
	}
	grand := sum / erlangBatches
	ss := 0.0
	for _, m := range means {
		ss += float64((m - grand) * (m - grand))
	}
	b.half = erlangT * math.Sqrt(ss/(erlangBatches-1)) / math.Sqrt(erlangBatches)
	b.got = st.waits.Float() / float64(st.entered)
	return b, ""
}

// engineInvariants are the model's relations between recordings.
func engineInvariants(res *Result) []Check {
	cfg := res.Config
	er := res.Engine
	var out []Check
	add := func(id, quantity, formula string, want, got float64, pass bool) {
		out = append(out, Check{ID: id, Kind: "invariant", Quantity: quantity, Formula: formula, Want: want, Got: got, Pass: pass})
	}
	for _, pair := range [][2]Kind{{Closed, Corrected}, {Paced, PacedCorrected}} {
		base, corr := &res.Recordings[pair[0]], &res.Recordings[pair[1]]
		if d := base.Dist; d.Sorted() != nil {
			var missing int64
			for _, v := range d.Sorted() {
				missing += CorrectionCount(v, corr.Interval)
			}
			add("inv."+pair[1].String()+".count", pair[1].String()+": count = base count + Σ missing", "count + Σ_v max(0, floor(v/E) − 1)",
				float64(base.Count+missing), float64(corr.Count), base.Count+missing == corr.Count)
		}
		add("inv."+pair[1].String()+".max", pair[1].String()+": the correction adds only smaller samples", "max(corrected) = max(recorded)",
			float64(base.Max), float64(corr.Max), base.Max == corr.Max)
	}
	cl := &res.Clients[ClosedClient]
	if cl.Send != nil {
		ok := int64(0)
		for i := range cl.Send {
			if cl.Send[i] >= er.Due[i] {
				ok++
			}
		}
		add("inv.due_ge_send", "closed: a request never leaves before it is due, so due-based latency ≥ send-based", "send_i ≥ due_i for all i",
			float64(len(cl.Send)), float64(ok), ok == int64(len(cl.Send)))
	}
	// One connection and one worker, nothing that fails a request and no
	// think time: the closed and open clients walk the same server timeline
	// (slowdowns included: each request starts at the same instant in both).
	if cfg.Conns == 1 && cfg.Workers == 1 && cfg.Queue == 0 && cfg.Timeout == 0 && cfg.Outages.Len() == 0 && !cfg.Thinking() {
		sameTimelineChecks(res, add, false)
	}
	return out
}
