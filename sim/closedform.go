package sim

import (
	"fmt"
	"sort"
)

// This file derives the deterministic regime's numbers from the parameters
// alone. It shares no code with the simulator (walk.go, long.go, server.go): no loop
// here runs over requests, only over stalls or over a value range.

// Regime reports whether cfg is in the deterministic regime where every
// reported value of closed, open and corrected has a closed form, and if not,
// why not (one reason a line).
//
// The regime: one connection and one worker; the schedule interval T = 1/rate
// a whole number of nanoseconds; service S < T; stalls that begin at due
// instants (first and every multiples of T); each backlog drained before the
// next stall (every >= J·T, with J = ceil(L/(T-S)) requests delayed per
// stall); and the last stall's J delayed requests all inside the run.
func Regime(cfg Config) (ok bool, why []string) {
	if cfg.EventDriven() {
		return false, []string{"random arrivals or service times, a bounded queue, timeouts or outages: the closed forms cover the deterministic model only"}
	}
	if cfg.Conns != 1 {
		why = append(why, fmt.Sprintf("conns = %d: the closed forms assume one connection", cfg.Conns))
	}
	if cfg.Workers != 1 {
		why = append(why, "workers ≠ 1: the closed forms assume one worker serving first come first served")
	}
	if !NewSchedule(cfg.Rate).Exact() {
		why = append(why, "1/rate is not a whole number of nanoseconds, so due instants are rounded")
		return false, why
	}
	T := int64(1e12) / int64(cfg.Rate)
	S, L, P, F := cfg.Service, cfg.Stall, cfg.Every, cfg.First
	if S >= T {
		why = append(why, fmt.Sprintf("service %s ≥ interval %s: the server has no spare capacity to drain a backlog", FormatDuration(S), FormatDuration(T)))
		return false, why
	}
	if L > 0 {
		if F%T != 0 || P%T != 0 {
			why = append(why, "stalls do not begin at due instants (first and every must be multiples of 1/rate)")
		}
		J := ceilDiv(L, T-S)
		if P > 0 && P < J*T {
			why = append(why, fmt.Sprintf("every %s < J·T = %s: a backlog is still draining when the next stall begins", FormatDuration(P), FormatDuration(J*T)))
		}
		N := ceilDiv(cfg.Duration, T)
		if K := regimeStalls(F, P, (N-1)*T); K > 0 && F+(K-1)*P+(J-1)*T > (N-1)*T {
			why = append(why, "the last stall's backlog runs past the end of the schedule")
		}
	}
	return len(why) == 0, why
}

// regimeStalls counts stalls first + k·every that begin at or before t.
func regimeStalls(first, every, t int64) int64 {
	if first > t {
		return 0
	}
	if every == 0 {
		return 1
	}
	return (t-first)/every + 1
}

// Form is one recording's values derived in closed form.
type Form struct {
	Count, Max, Above int64
	Sum               u128
	P                 [5]int64
	Formula           map[string]string // metric -> formula in symbols, constants substituted
}

// Mean is the closed form's mean: its exact sum over its count.
func (f *Form) Mean() float64 { return f.Sum.div(f.Count) }

// ClientForm is one client's derived counters.
type ClientForm struct {
	Planned, Sent, Stalls, LastCompletion int64
}

// ClosedForms holds every value the regime determines.
type ClosedForms struct {
	T, S, L, P, F, N, K, J, E int64
	D                         int64 // T − S: the spare capacity a request leaves, the open loop's step
	Added                     int64 // samples the closed loop's correction adds per stall: floor((L+S)/E) − 1
	Recordings                map[Kind]*Form
	Clients                   map[Client]*ClientForm
	NotApplicable             map[Kind]string
}

// DeriveClosedForms computes the regime's values from the parameters. It
// returns nil when cfg is outside the regime.
func DeriveClosedForms(cfg Config) *ClosedForms {
	if ok, _ := Regime(cfg); !ok {
		return nil
	}
	T := int64(1e12) / int64(cfg.Rate)
	S, L, P, F, D := cfg.Service, cfg.Stall, cfg.Every, cfg.First, cfg.Duration
	N := ceilDiv(D, T)
	var K, J int64
	if L > 0 {
		K = regimeStalls(F, P, (N-1)*T)
		J = ceilDiv(L, T-S)
	}
	cf := &ClosedForms{T: T, S: S, L: L, P: P, F: F, N: N, K: K, J: J, E: cfg.ExpectedInterval(), D: T - S,
		Recordings: map[Kind]*Form{}, Clients: map[Client]*ClientForm{}, NotApplicable: map[Kind]string{}}
	cf.deriveTimeline()
	cf.deriveOpen(cfg)
	cf.deriveClosed(cfg)
	cf.deriveCorrected(cfg)
	cf.paced(cfg)
	return cf
}

// aboveOf is [v > a]: 1 when v is above a, else 0.
func aboveOf(v, a int64) int64 {
	if v > a {
		return 1
	}
	return 0
}

// maxLatency is the greatest latency of the closed, open and corrected
// recordings: L+S when a stall begins on the schedule (K > 0), else S.
func (cf *ClosedForms) maxLatency() int64 {
	if cf.K > 0 {
		return cf.L + cf.S
	}
	return cf.S
}

// deriveTimeline sets the closed and open clients' counters: they share one
// timeline, whose last completion is max((N-1)T + S, s_{K-1} + L + J·S).
func (cf *ClosedForms) deriveTimeline() {
	T, S, L, P, F, N, K, J := cf.T, cf.S, cf.L, cf.P, cf.F, cf.N, cf.K, cf.J
	last := (N-1)*T + S
	if K > 0 {
		if x := F + (K-1)*P + L + J*S; x > last {
			last = x
		}
	}
	for _, c := range []Client{ClosedClient, OpenClient} {
		cf.Clients[c] = &ClientForm{Planned: N, Sent: N, Stalls: K, LastCompletion: last}
	}
}

// deriveOpen derives the open client's recording: N-K·J samples of S and,
// per stall, L+S-j·d for j = 0..J-1 (d = T-S).
func (cf *ClosedForms) deriveOpen(cfg Config) {
	S, L, N, K, J, d, A := cf.S, cf.L, cf.N, cf.K, cf.J, cf.D, cfg.Above
	open := &Form{Count: N, Max: cf.maxLatency(), Formula: map[string]string{}}
	open.Sum = sumTerms([2]int64{S, N})
	open.Sum.addMul(uint64(K), uint64(J*L-d*J*(J-1)/2))
	if L+S > A {
		m := ceilDiv(L+S-A, d)
		if m > J {
			m = J
		}
		open.Above = K * m
	}
	open.Above += (N - K*J) * aboveOf(S, A)
	for i, p := range percentiles {
		r := RankOf(p.PPM, N, cfg.Rank)
		if r <= N-K*J {
			open.P[i] = S
		} else {
			t := ceilDiv(r-(N-K*J), K)
			open.P[i] = L + S - (J-t)*d
		}
	}
	cf.Recordings[Open] = open
}

// deriveClosed derives the closed client's recording: N-K samples of S, K
// samples of L+S.
func (cf *ClosedForms) deriveClosed(cfg Config) {
	S, L, N, K, A := cf.S, cf.L, cf.N, cf.K, cfg.Above
	closed := &Form{Count: N, Max: cf.maxLatency(), Formula: map[string]string{}}
	closed.Sum = sumTerms([2]int64{S, N}, [2]int64{L, K})
	closed.Above = (N-K)*aboveOf(S, A) + K*aboveOf(L+S, A)
	for i, p := range percentiles {
		if RankOf(p.PPM, N, cfg.Rank) <= N-K {
			closed.P[i] = S
		} else {
			closed.P[i] = L + S
		}
	}
	cf.Recordings[Closed] = closed
}

// deriveCorrected derives the closed client's corrected recording: each of
// the K samples G = L+S adds G-jE for j = 1..k. When S ≥ 2E the correction
// also adds to ordinary replies, and the recording is marked not applicable.
func (cf *ClosedForms) deriveCorrected(cfg Config) {
	S, L, N, K, E, A := cf.S, cf.L, cf.N, cf.K, cf.E, cfg.Above
	if S >= 2*E {
		cf.NotApplicable[Corrected] = fmt.Sprintf("service %s ≥ 2E = %s: the correction also adds samples to every ordinary reply, which the closed form does not cover", FormatDuration(S), FormatDuration(2*E))
		return
	}
	G := L + S
	var k int64
	if K > 0 && G >= 2*E {
		k = G/E - 1
	}
	cf.Added = k
	corr := &Form{Count: N + K*k, Max: cf.maxLatency(), Formula: map[string]string{}}
	corr.Sum = sumTerms([2]int64{S, N - K})
	// K · Σ_{j=0..k} (G - jE) = K·((k+1)G - E·k(k+1)/2)
	seq := mul128(uint64(k+1), uint64(G)).sub(triangle(E, k))
	for i := int64(0); i < K; i++ { // K is the number of stalls, not requests
		corr.Sum = addU128(corr.Sum, seq)
	}
	if K > 0 && G > A {
		m := ceilDiv(G-A, E)
		if m > k+1 {
			m = k + 1
		}
		corr.Above = K * m
	}
	corr.Above += (N - K) * aboveOf(S, A)
	cf.correctedPercentiles(corr, cfg.Rank, G, k)
	cf.Recordings[Corrected] = corr
}

// correctedPercentiles fills the corrected recording's percentiles from the
// ranks of its sorted values: the K·b values below S, then the N-K ordinary
// replies with the K·e values equal to S, then the K·a values above S.
func (cf *ClosedForms) correctedPercentiles(corr *Form, rank Rank, G, k int64) {
	S, N, K, E := cf.S, cf.N, cf.K, cf.E
	// Of the k+1 values G-jE: a above S, e equal to S, b below S.
	var a, e, b int64
	if K > 0 {
		a = ceilDiv(G-S, E)
		if a > k+1 {
			a = k + 1
		}
		if (G-S)%E == 0 && (G-S)/E <= k {
			e = 1
		}
		b = k + 1 - a - e
	}
	for i, p := range percentiles {
		r := RankOf(p.PPM, corr.Count, rank)
		switch {
		case r <= K*b:
			t := ceilDiv(r, K)
			corr.P[i] = G - (k-t+1)*E
		case r <= K*b+(N-K)+K*e:
			corr.P[i] = S
		default:
			t := ceilDiv(r-K*b-(N-K)-K*e, K)
			corr.P[i] = G - (a-t)*E
		}
	}
}

// paced derives the paced client stall by stall: between stalls it sends on
// its own slots anchor + i·T; the first send whose service a stall reaches is
// slow, and the schedule re-anchors at max(send + T, reply).
func (cf *ClosedForms) paced(cfg Config) {
	S, L, P, F, D := cf.S, cf.L, cf.P, cf.F, cfg.Duration
	if L > 0 && P > 0 && D+S > F && (D+S-F)/P >= maxPacedStalls {
		why := fmt.Sprintf("more than %d stalls: the paced client's stall-by-stall derivation is not run", maxPacedStalls)
		cf.NotApplicable[Paced], cf.NotApplicable[PacedCorrected] = why, why
		return
	}
	sent, slow, lastDone := cf.pacedSends(D)
	cf.Clients[PacedClient] = &ClientForm{Planned: cf.N, Sent: sent, LastCompletion: lastDone, Stalls: regimeStallsBefore(F, P, L, lastDone)}
	sort.Slice(slow, func(i, j int) bool { return slow[i] < slow[j] })
	cf.Recordings[Paced] = pacedSamples{S: S, sent: sent, slow: slow}.form(cfg.Above, cfg.Rank)
	PE := cfg.PacedInterval()
	if S >= 2*PE {
		cf.NotApplicable[PacedCorrected] = "service ≥ 2E: the correction adds samples to every ordinary reply"
	} else {
		cf.Recordings[PacedCorrected] = pacedSamples{S: S, e: PE, sent: sent, slow: slow}.form(cfg.Above, cfg.Rank)
	}
}

// pacedSends walks the paced client's sends before the duration D, stall by
// stall: it returns how many it sends, the latencies of its slow replies (in
// stall order) and its last completion (-1 when it sends nothing).
func (cf *ClosedForms) pacedSends(D int64) (sent int64, slow []int64, lastDone int64) {
	T, S, L, P, F := cf.T, cf.S, cf.L, cf.P, cf.F
	a := int64(0)
	lastDone = -1
	if L > 0 {
		for k := int64(0); ; k++ {
			s := F + k*P
			if (P == 0 && k > 0) || s >= D+S {
				break
			}
			// The first send the stall reaches: its service spans the stall's
			// start (x < s < x+S) or it starts inside the stall (x >= s).
			thr := s // the least x the stall reaches
			if S > 0 {
				thr = s - S + 1
			}
			var i int64
			if thr > a {
				i = ceilDiv(thr-a, T)
			}
			x := a + i*T
			if x >= D {
				break
			}
			if x >= s+L {
				continue // the stall fell between two sends
			}
			r := s + L + S
			if x < s {
				r = x + S + L
			}
			slow = append(slow, r-x)
			sent += i + 1
			lastDone = r
			a = x + T
			if r > a {
				a = r
			}
		}
	}
	rest := slotsBefore(a, D, T)
	sent += rest
	if rest > 0 {
		lastDone = a + (rest-1)*T + S
	}
	return sent, slow, lastDone
}

// slotsBefore counts the sends a + i·T before D.
func slotsBefore(a, D, T int64) int64 {
	if a >= D {
		return 0
	}
	return ceilDiv(D-a, T)
}

// pacedSamples is one paced recording's samples: sent-len(slow) replies of S
// (each adding k(S) corrected values, none: the form is derived only when
// S < 2E) and, per slow reply v, v-jE for j = 0..k(v), with E = e (e = 0:
// the uncorrected recording).
type pacedSamples struct {
	S, e, sent int64
	slow       []int64 // the slow replies' latencies
}

// added is k(v): the corrected values a reply of latency v adds.
func (ps pacedSamples) added(v int64) int64 {
	if ps.e <= 0 || v < 2*ps.e {
		return 0
	}
	return v/ps.e - 1
}

// countLE counts the samples at or below x.
func (ps pacedSamples) countLE(x int64) int64 {
	c := int64(0)
	if ps.S <= x {
		c = ps.sent - int64(len(ps.slow))
	}
	for _, v := range ps.slow {
		k := ps.added(v)
		if x >= v {
			c += k + 1
		} else if x >= v-k*ps.e {
			c += k + 1 - ceilDiv(v-x, ps.e)
		}
	}
	return c
}

// form derives the recording: count, sum and maximum from the samples, the
// count above A and each percentile by a search over values.
func (ps pacedSamples) form(A int64, rank Rank) *Form {
	S, e, K := ps.S, ps.e, int64(len(ps.slow))
	f := &Form{Formula: map[string]string{}}
	f.Count = ps.sent
	f.Sum.addMul(uint64(S), uint64(ps.sent-K))
	f.Max = S
	for _, v := range ps.slow {
		k := ps.added(v)
		f.Count += k
		f.Sum = addU128(f.Sum, mul128(uint64(k+1), uint64(v)).sub(triangle(e, k)))
		if v > f.Max {
			f.Max = v
		}
	}
	f.Above = f.Count - ps.countLE(A)
	for i, p := range percentiles {
		r := rank0(p.PPM, f.Count, rank)
		lo, hi := int64(0), f.Max
		for lo < hi { // a search over values, not a loop over requests
			m := lo + (hi-lo)/2
			if ps.countLE(m) >= r {
				hi = m
			} else {
				lo = m + 1
			}
		}
		f.P[i] = lo
	}
	return f
}

func rank0(ppm, n int64, r Rank) int64 { return RankOf(ppm, n, r) }

// maxPacedStalls bounds the stalls the paced derivation walks (its cost is
// a loop over stalls and a search over their slow replies).
const maxPacedStalls = 10000

// regimeStallsBefore counts stalls that begin before t.
func regimeStallsBefore(first, every, length, t int64) int64 {
	if length == 0 || t <= first {
		return 0
	}
	if every == 0 {
		return 1
	}
	return (t-1-first)/every + 1
}
