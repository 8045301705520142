package profile

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"omission/sim"
)

// A Profile describes a load generator as a few mechanics: how many
// requests it can have in flight, when it sends, what it subtracts, what it
// keeps, and what it does after a failure. The runner (run.go) plays
// it against the query's server: the same stall model, service and workers
// as the closed, paced and open clients of sim's walk.go. The tools that these
// mechanics come from are described, with the source lines they follow, in
// omission/app/tools.
type Profile struct {
	Conc   Concurrency
	Conns  int // connections, virtual users pre-allocated, or (Unbounded) ignored
	MaxVUs int // VUPool: the most virtual users it grows to (at least Conns)

	Send SendRule
	// Rate is the schedule's rate over all connections together (0: the
	// query's rate). Unused by BackToBack.
	Rate sim.Rate
	// Period is SkipTicks' ticker period of each connection (0: Conns/rate),
	// TokenBucket's fill interval, Quota's window, Uniform's arrival
	// interval, or an Aligned Reanchor's period per connection.
	Period int64
	// Quantum is TokenBucket's tokens a Period, and the most it holds, or
	// Quota's requests a window over all connections.
	Quantum int64
	// Duration is the run length (0: the query's duration). First sends
	// happen only before it, unless SendsAll.
	Duration int64
	// SendsAll sends every planned request however late (the closed and
	// open clients of walk.go); otherwise nothing is sent at or after Duration.
	SendsAll bool
	// Stagger starts connection i at i·Stagger (wrk2: 5 ms, a timer of
	// whole milliseconds on its event loop, so Wrk2Pace counts it in ms).
	Stagger int64
	// Aligned: Reanchor's connections all start their slots at 0, on
	// due(k·Conns), rather than connection c at due(c) (locust starts all
	// its users at once).
	Aligned bool
	// Spread starts the connections at their shard of the first Spread ns,
	// cut into whole milliseconds as Gatling's Shard.shards cuts them
	// (ShardStarts): Gatling's closed injection spreads its first users
	// over its first batch of 1 s. 0: Stagger.
	Spread int64
	// NoCatchUp: FortioPace skips the calls whose time has passed rather
	// than sending them late (fortio -nocatchup).
	NoCatchUp bool

	// FromIntended records reply − intended time; otherwise reply − send.
	FromIntended bool
	// Clock is the resolution of the tool's timestamps in ns (1000: a
	// microsecond clock, as gettimeofday in wrk): a latency is
	// (⌊end/Clock⌋ − ⌊start/Clock⌋)·Clock. 0 or 1: exact.
	Clock int64
	// RecordUntil: replies at or after it are not counted or recorded (wrk
	// stops its event loop at the duration; k6 after its graceful stop).
	// 0: every reply counts.
	RecordUntil int64
	// RecordMax: latencies above it are not recorded (wrk's array ends at its
	// timeout and counts the rest as timeouts). 0: no bound.
	RecordMax int64
	// Calibrate, when positive, discards every sample recorded before the
	// first instant Calibrate + k·CalibrateRetry (k = 0, 1, …) at which some
	// sample had been recorded, if that instant falls inside the run (wrk2
	// resets its histograms after 10 s + 5 ms per connection).
	Calibrate, CalibrateRetry int64

	// Timeout: an attempt not answered Timeout after its send fails at the
	// client (a reply at exactly Timeout is late); the server still serves
	// it. 0: none.
	Timeout int64
	// Attempts per request (at least 1) and the fixed Backoff before a retry,
	// as seed 002's retry policy. Retries are sent on the same connection.
	Attempts int
	Backoff  int64

	// Client is the tool's own time per request in ns: a reply reaches it
	// Client after the server wrote it, and its connection or worker is
	// busy until then (loopback, system calls, parsing, wake-ups; issue 27:
	// a real tool's round trip outside stalls is the service time plus
	// this, and a closed loop's request count follows it). The server is
	// free meanwhile. 0: none.
	Client int64
}

// Concurrency is how a load generator holds requests in flight.
type Concurrency uint8

const (
	// Connections: Conns connections, each with one request in flight.
	Connections Concurrency = iota
	// VUPool: Conns virtual users at the start; an iteration that finds none
	// free is dropped and one more is started, up to MaxVUs (k6's
	// constant-arrival-rate executor, with DropLate). With Uniform
	// arrivals and MaxVUs = Conns it is a cap: an arrival while Conns
	// requests are out is skipped (Artillery's maxVusers).
	VUPool
	// Unbounded: a worker for every due request.
	Unbounded
)

var concNames = [...]string{"connections", "vu-pool", "unbounded"}

func (c Concurrency) String() string {
	if int(c) < len(concNames) {
		return concNames[c]
	}
	return fmt.Sprintf("Concurrency(%d)", c)
}

// SendRule is when a load generator sends.
type SendRule uint8

const (
	// BackToBack: the next request leaves as soon as the reply is in, until
	// the duration; there is no schedule.
	BackToBack SendRule = iota
	// CatchUp: request i of the schedule leaves at the later of its due time
	// and the first free connection (seed 000's closed loop; a queue of
	// tickets served by connections).
	CatchUp
	// Reanchor: connection c sends on its own slots due(c + k·Conns); when a
	// reply comes after the next slot it sends at once and restarts its
	// slots there, so the slots it missed are never sent (seed 001's paced
	// client).
	// With a Period (Aligned), each connection's slots are k·Period from
	// its anchor instead, whatever the rate (JMeter's Constant Throughput
	// Timer: a whole-millisecond period per thread).
	Reanchor
	// SkipTicks: each connection waits for its ticker, which ticks every
	// Period from the start; ticks while it is busy are dropped except one,
	// which it takes at once (Go's time.Tick, as hey -q).
	SkipTicks
	// Wrk2Pace: wrk2's usec_to_next_send on each connection (its schedule
	// counts replies; when behind it catches up at twice the rate, counted
	// from the send at which it fell behind, so after a stall each
	// connection sends its backlog one round trip at a time), with wrk2's
	// millisecond timers on one event loop for all connections (a timer of
	// m ms fires m ms after it was set, or at the loop's first wake after
	// its millisecond: run.go wrk2Wake).
	Wrk2Pace
	// DropLate: iteration i starts at its due time on a free virtual user,
	// or is dropped (k6 constant-arrival-rate: dropped_iterations).
	DropLate
	// FortioPace: fortio's periodic runner on each connection, all starting
	// at 0: n = ⌊qps·duration⌋ / Conns calls, call i due at
	// (i + i/(n−1)) / (qps/Conns) (the last at the duration). A late call
	// leaves as soon as the previous one is done, so a connection catches
	// up its own missed calls one after another, or with NoCatchUp skips
	// them; a connection still behind after the duration stops, but for its
	// last call.
	FortioPace
	// TokenBucket: before each request a connection takes a token of a
	// bucket all connections share, and waits for it: the bucket starts
	// full, holds at most Quantum tokens and gains Quantum every Period
	// from the start; a connection that finds none reserves one of a tick
	// to come and sends at that tick (bombardier --rate: juju/ratelimit's
	// Bucket.Take). A token not due before the duration is never sent.
	// After a stall the connections find the bucket full: Quantum requests
	// leave at once, and those the stall held back are never sent.
	TokenBucket
	// Quota: each connection sends back to back, but at most its share of
	// Quantum requests in each window of Period from the start (connection
	// i's: ⌊Quantum/Conns⌋, one more for i < Quantum mod Conns); one that
	// has sent its share waits for the next window and sends at its start
	// (autocannon -R: lib/httpClient.js 67-73 and 157-176, its counter
	// reset every second by setInterval). A stall costs no sends while the
	// window's share still fits after it.
	Quota
	// Uniform: arrival k, for k = 1 to ⌊Duration/Period⌋, is due at
	// k·Period (the first one Period after the start, not at it), and an
	// unbounded client sends it then: Artillery's arrivals.uniform process
	// (a Nanotimer interval of the phase's 1000/arrivalRate ms, in whole
	// µs), each arrival a new virtual user. A VUPool client sends it then
	// or, with every virtual user out, skips it (Artillery's maxVusers).
	Uniform
	// Shards: Gatling's open injection of Quantum users over the
	// Duration's whole seconds: second s holds its shard of them and
	// spreads it over its 1000 milliseconds the same way (ShardSum), each
	// user due at the start of its millisecond, the first at 0; an
	// unbounded client sends each then (a new virtual user).
	Shards
)

var sendNames = [...]string{"back-to-back", "catch-up", "re-anchor", "skip-ticks", "wrk2", "drop", "fortio", "token-bucket", "quota", "uniform", "shards"}

func (s SendRule) String() string {
	if int(s) < len(sendNames) {
		return sendNames[s]
	}
	return fmt.Sprintf("SendRule(%d)", s)
}

// MaxSends bounds the requests one profile run may send (with its
// retries): the runner keeps every request exactly.
const MaxSends = int64(2_000_000)

// resolve fills the profile's defaults from the query.
func (p Profile) resolve(cfg sim.Config) Profile {
	if p.Rate == 0 {
		p.Rate = cfg.Rate
	}
	if p.Duration == 0 {
		p.Duration = cfg.Duration
	}
	if p.Conns == 0 {
		p.Conns = cfg.Conns
	}
	if p.Conc == VUPool && p.MaxVUs < p.Conns {
		p.MaxVUs = p.Conns
	}
	if p.Clock <= 1 {
		p.Clock = 1
	}
	if p.Attempts < 1 {
		p.Attempts = 1
	}
	if p.Send == SkipTicks && p.Period == 0 {
		p.Period = sim.NewSchedule(p.Rate).Interval(int64(p.Conns))
	}
	return p
}

// fixedService is c with a fixed service of its first parameter: what
// remains of the event engine's fields once the service distribution,
// which the profile runner draws as the engine does, is set aside.
func fixedService(c sim.Config) sim.Config {
	c.Dist, c.ServiceP95, c.ServiceMax = sim.ServiceFixed, 0, 0
	return c
}

// validate refuses a profile that cannot run on cfg, naming the field and
// the limit.
func (p Profile) validate(cfg sim.Config) error {
	bad := func(field, value, allowed string) error {
		reason := sim.ReasonInvalid
		if strings.HasPrefix(allowed, "limit") {
			reason = sim.ReasonLimit
		}
		return &sim.FieldError{Field: field, Value: value, Allowed: allowed, Reason: reason}
	}
	if fixed := fixedService(cfg); fixed.EventDriven() {
		return bad("tools", "", "the tool profiles model the schedule's arrivals and the stalling server with a fixed or a random service only: random arrivals, a queue capacity, a client timeout, outages, slowdowns, retries and think time (the event engine's other fields) are not supported by them")
	}
	switch {
	case p.Conc > Unbounded:
		return bad("profile", p.Conc.String(), "unknown concurrency")
	case p.Send > Shards:
		return bad("profile", p.Send.String(), "unknown send rule")
	case p.Conc != Unbounded && (p.Conns < 1 || p.Conns > sim.MaxConns):
		return bad("conns", fmt.Sprint(p.Conns), fmt.Sprintf("allowed 1 to %d connections or virtual users", sim.MaxConns))
	case p.Conc == VUPool && p.MaxVUs > sim.MaxConns:
		return bad("conns", fmt.Sprint(p.MaxVUs), fmt.Sprintf("allowed at most %d virtual users", sim.MaxConns))
	case p.Conc == Unbounded && p.Send != CatchUp && p.Send != Uniform && p.Send != Shards:
		return bad("profile", p.Send.String(), "an unbounded client sends on its schedule (catch-up, uniform or shards)")
	case p.Send == Shards && (p.Conc != Unbounded || p.Quantum < 1 || p.Duration < 1e9 || p.Duration%1e9 != 0):
		return bad("profile", p.Send.String(), "sharded arrivals come to an unbounded client, 1 or more over whole seconds")
	case p.Spread < 0 || p.Spread > 0 && (p.Conc != Connections || p.Spread%1e6 != 0):
		return bad("profile", p.Send.String(), "a spread start is for connections, over whole milliseconds")
	case p.Send == Reanchor && p.Period != 0 && (p.Period < 0 || !p.Aligned):
		return bad("profile", p.Send.String(), "a re-anchoring client's own period is for connections that start together (aligned), 1ns or more")
	case p.Send == Uniform && (p.Conc == Connections || p.Period < 1):
		return bad("profile", p.Send.String(), "uniform arrivals come to an unbounded client or a virtual-user pool, one every Period of 1ns or more")
	case p.Conc == VUPool && p.Send != DropLate && p.Send != Uniform, p.Send == DropLate && p.Conc != VUPool:
		return bad("profile", p.Send.String(), "a virtual-user pool drops late iterations or skips uniform arrivals, and only it drops them")
	case p.Conc == VUPool && p.Send == Uniform && p.MaxVUs != p.Conns:
		return bad("conns", fmt.Sprint(p.MaxVUs), "a cap on uniform arrivals' virtual users does not grow: MaxVUs is Conns")
	case p.Send == FortioPace && p.Conc != Connections:
		return bad("profile", p.Send.String(), "fortio's pacing runs on connections")
	case p.Send == TokenBucket && (p.Conc != Connections || p.Period < 1 || p.Quantum < 1):
		return bad("profile", p.Send.String(), "a token bucket paces connections, with a fill interval of 1ns or more and 1 token or more a fill")
	case p.Send == Quota && (p.Conc != Connections || p.Period < 1 || p.Quantum < int64(p.Conns)):
		return bad("profile", p.Send.String(), "a quota paces connections, with a window of 1ns or more and at least one request a window for each")
	case (p.Conc == Unbounded || p.Conc == VUPool) && p.Attempts > 1:
		return bad("profile", fmt.Sprint(p.Attempts), "retries are modelled on connections only")
	case p.Duration < 1 || p.Duration > sim.MaxDuration:
		return bad("duration", sim.FormatDuration(p.Duration), "allowed 1ns to "+sim.FormatDuration(sim.MaxDuration))
	case p.Rate < 1 && p.Send != BackToBack:
		return bad("rate", p.Rate.String(), "a schedule needs a positive rate")
	case p.Send == SkipTicks && p.Period < 1:
		return bad("rate", p.Rate.String(), "the ticker period must be at least 1ns")
	case p.Send == Wrk2Pace && p.Rate < 1000:
		return bad("rate", p.Rate.String(), "wrk2's -R is a whole number of requests per second, at least 1")
	case p.Send == FortioPace && fortioCalls(p)/int64(p.Conns) < 2:
		return bad("conns", fmt.Sprint(p.Conns), fmt.Sprintf("fortio makes at least 2 calls per connection: allowed at most %d connections for %d calls", max(fortioCalls(p)/2, 1), fortioCalls(p)))
	case p.Attempts > 10:
		return bad("profile", fmt.Sprint(p.Attempts), "allowed 1 to 10 attempts")
	case p.Timeout < 0 || p.Timeout > sim.MaxTime || p.Backoff < 0 || p.Backoff > sim.MaxTime:
		return bad("profile", sim.FormatDuration(p.Timeout), "timeout and backoff: allowed 0s to "+sim.FormatDuration(sim.MaxTime))
	case p.Client < 0 || p.Client > sim.MaxTime:
		return bad("profile", sim.FormatDuration(p.Client), "the client's time per request: allowed 0s to "+sim.FormatDuration(sim.MaxTime))
	}
	if p.Send == BackToBack && cfg.MeanService() == 0 {
		return bad("service", "0s", "a back-to-back client against a server with no service time would send without end: give the service a length")
	}
	if n := p.maxSends(cfg); n > float64(MaxSends) {
		return bad("duration", sim.FormatDuration(p.Duration), fmt.Sprintf(
			"limit tool sends: a tool profile sends at most %d requests; these parameters could send about %.0f (shorten the duration, lower the rate or the connections)",
			MaxSends, n))
	}
	return nil
}

// maxSends bounds the attempts a run can make, before it runs.
func (p Profile) maxSends(cfg sim.Config) float64 {
	var n float64
	switch p.Send {
	case BackToBack:
		// The server finishes at most min(conns, workers) requests at once,
		// and none during a stall.
		busy := float64(p.Conns)
		if cfg.Workers > 0 && cfg.Workers < p.Conns {
			busy = float64(cfg.Workers)
		}
		work := float64(p.Duration)
		if cfg.Stall > 0 && cfg.Every > 0 {
			work *= float64(cfg.Every-cfg.Stall) / float64(cfg.Every)
			work += float64(cfg.Stall) // the first period may start with work
		} else if cfg.Stall > 0 && cfg.First < p.Duration {
			work -= float64(min(cfg.Stall, p.Duration-cfg.First))
		}
		// A random service is counted at its mean: its run is bounded
		// as it goes too (Run stops at MaxSends).
		n = busy*(work/cfg.MeanService()+1) + float64(p.Conns)
	case SkipTicks:
		n = float64(p.Conns) * (float64(p.Duration)/float64(p.Period) + 1)
	case Reanchor:
		if p.Period > 0 {
			n = float64(p.Conns) * (float64(p.Duration)/float64(p.Period) + 1)
		} else {
			n = float64(sim.NewSchedule(p.Rate).Count(p.Duration)) + float64(p.Conns)
		}
	case TokenBucket, Quota:
		n = float64(p.Quantum)*(float64(p.Duration)/float64(p.Period)+1) + float64(p.Conns)
	case Uniform:
		n = float64(p.Duration) / float64(p.Period)
	case Shards:
		n = float64(p.Quantum)
	default:
		n = float64(sim.NewSchedule(p.Rate).Count(p.Duration)) + float64(p.Conns)
	}
	switch {
	case p.Timeout > 0 && p.Send == BackToBack:
		// The served attempts are bounded as above (the server serves a
		// timed-out one too); each that times out holds its connection
		// Timeout + Backoff, and each connection's last request may retry
		// after the duration.
		n += float64(p.Conns) * (float64(p.Duration)/float64(p.Timeout+p.Backoff) + float64(max(p.Attempts, 1)))
	case p.Timeout > 0:
		n *= float64(max(p.Attempts, 1))
	}
	return n
}

// Result is what one profile did and recorded.
type Result struct {
	Profile Profile // with the query's defaults filled in

	Planned int64 // requests its schedule holds (back to back: the requests it sent)
	Sent    int64 // requests it sent (first attempts)
	Dropped int64 // planned but never sent: Planned − Sent
	// DroppedAt is when each iteration a virtual-user pool found no one
	// free for was due, in order (k6's dropped_iterations, Artillery's
	// vusers.skipped); nil for the other clients.
	DroppedAt []int64
	// Attempts (retries included), Retries, attempts that timed out, and
	// requests that failed after their last attempt.
	Attempts, Retries, TimedOut, Failed int64
	// Replies is every reply that arrived before RecordUntil (wrk's
	// "requests" count); Recorded the latencies kept after every filter.
	Replies, Recorded int64
	// Calibrated is the instant before which samples were discarded (0: none).
	Calibrated int64

	// Per request that got a reply, in the order of its last send: the
	// intended time, the send of the attempt that got the reply, the reply
	// and the connection that sent it (-1 for an unbounded client or a
	// virtual-user pool). Rec[i] says whether its latency was recorded.
	Intended, Send, Done []int64
	Conn                 []int32
	Rec                  []bool
	// Fails holds each request that failed after its last attempt, in the
	// order its last attempt was sent.
	Fails []Fail

	// Latency is each request's recorded latency in ns (at the tool's clock
	// resolution), for every request with Rec[i].
	Latency []int64
	// Dist holds the recorded latencies (exact).
	Dist *sim.Dist
	// End is the last reply counted in Replies.
	End int64
}

// Fail is a request that failed after its last attempt: its intended
// time, the send of its last attempt, the instant it failed at (send +
// Timeout) and its connection.
type Fail struct {
	Intended, Send, At int64
	Conn               int32
}

// ReplyOrder returns the indices of the recorded requests in the order
// their replies arrived (ties in send order): the order in which a tool's
// summary sees them.
func (r *Result) ReplyOrder() []int {
	idx := make([]int, 0, r.Recorded)
	for i, ok := range r.Rec {
		if ok {
			idx = append(idx, i)
		}
	}
	sortIndexBy(idx, r.Done)
	return idx
}

// ReplyTimes returns the instants of every reply counted in Replies,
// ascending.
func (r *Result) ReplyTimes() []int64 {
	out := make([]int64, 0, r.Replies)
	for _, d := range r.Done {
		if r.Profile.RecordUntil == 0 || d < r.Profile.RecordUntil {
			out = append(out, d)
		}
	}
	radixSort(out)
	return out
}

// sortIndexBy sorts idx stably by key[idx[i]].
func sortIndexBy(idx []int, key []int64) {
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
}

// fortioCalls is fortio's numCalls over all connections: int64(qps ·
// duration in seconds), at least 2 (periodic/periodic.go 435–443).
func fortioCalls(p Profile) int64 {
	qps := float64(p.Rate) / 1000
	n := int64(qps * time.Duration(p.Duration).Seconds())
	return max(n, 2)
}

// wrk2Float mirrors wrk2's per-connection throughput in requests per
// microsecond: (rate / threads / 1e6) / connections, in double.
func wrk2Float(rate sim.Rate, conns int) float64 {
	perThread := float64(int64(rate)/1000) / 1 // -t1: one thread
	return (perThread / 1000000.0) / float64(conns)
}

// wrk2Planned counts the sends wrk2's schedule holds before d: on
// connection c, send k is due at start_c + k/throughput µs.
func wrk2Planned(p Profile) int64 {
	thr := wrk2Float(p.Rate, p.Conns)
	dUs := float64(p.Duration / 1000)
	var n int64
	for c := 0; c < p.Conns; c++ {
		start := float64(int64(c) * p.Stagger / 1000)
		if start >= dUs {
			continue
		}
		n += int64(math.Ceil((dUs - start) * thr))
	}
	return n
}

// ShardSum is Gatling's Shard.sumFromZero (core/.../util/Shard.scala):
// how many of total spread over buckets fall in buckets 0 to b, in
// doubles as it computes them (⌈total/buckets·(b + 1)⌉, the last bucket
// taking what is left).
func ShardSum(total, buckets, b int64) int64 {
	switch {
	case b < 0:
		return 0
	case b >= buckets-1:
		return total
	}
	return int64(math.Ceil(float64(total) / float64(buckets) * float64(b+1)))
}

// ShardStarts is when Spread starts each of n connections, in ns: the
// connections of the millisecond m of Shard.shards(n, Spread/1 ms) at m ms.
func ShardStarts(n int, spread int64) []int64 {
	ms := spread / 1e6
	out := make([]int64, 0, n)
	for m := int64(0); m < ms && len(out) < n; m++ {
		for k := ShardSum(int64(n), ms, m) - ShardSum(int64(n), ms, m-1); k > 0 && len(out) < n; k-- {
			out = append(out, m*1e6)
		}
	}
	return out
}

// shardDues are the Shards rule's due times in order: users spread over
// the seconds, each second's over its milliseconds.
func shardDues(users, secs int64) func() int64 {
	s, m, left := int64(0), int64(-1), int64(0)
	inSec := ShardSum(users, secs, 0)
	return func() int64 {
		for left == 0 {
			if m++; m == 1000 {
				if s, m = s+1, 0; s >= secs {
					return math.MaxInt64
				}
				inSec = ShardSum(users, secs, s) - ShardSum(users, secs, s-1)
			}
			left = ShardSum(inSec, 1000, m) - ShardSum(inSec, 1000, m-1)
		}
		left--
		return (s*1000 + m) * 1e6
	}
}
