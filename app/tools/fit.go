package tools

import (
	"math"
	"slices"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// What the fit (package fit) needs to know of a tool, asked of its
// descriptor: its timing class, derived from its sim profile; the files it
// writes; how coarsely it prints.

// Timing is from when a tool times the requests it records, and whether it
// keeps a schedule: the class the fit's first estimate follows.
type Timing uint8

const (
	// BackToBack: a closed loop, each connection sending as soon as its
	// last reply is in, timed from the send (wrk, hey -c -z, ab -c -t, k6's
	// constant-vus): one worker serves requests·service, and the stalls
	// the rest of the run.
	BackToBack Timing = iota + 1
	// FromSend: keeps a schedule but times each request from its real send
	// (fortio, oha without --latency-correction, k6's
	// constant-arrival-rate, locust, hey -q): at most one slow reply a
	// connection a stall, the slowest the stall less the send's delay
	// after its start.
	FromSend
	// FromDue: times each request from when it fell due, its requests
	// leaving on time or its clock subtracting the due time (vegeta, oha
	// --latency-correction): the open loop's staircase, J = ⌈L/(T − S)⌉
	// slow replies a stall.
	FromDue
	// FromIntended: times each request from its own schedule's intended
	// send, which it re-plans when it falls behind (wrk2: J = ⌈L/(T−S)⌉
	// late samples a stall, the schedule kept).
	FromIntended
)

// profileOf is the tool's profile on the default query at 100/s: what
// its classes are read from (they do not depend on the query's values, but
// for a timer whose period rounds to 0 ms at the default 5,000/s and
// leaves a thread back to back: jmeter-ctt's, which paces at 100/s).
func (t *Tool) profileOf() profile.Profile {
	cfg := sim.Default()
	cfg.Rate = sim.RateOf(100)
	return t.profile(cfg)
}

// Timing is the tool's timing class, read from its profile.
func (t *Tool) Timing() Timing {
	p := t.profileOf()
	switch {
	case p.Send == profile.BackToBack:
		return BackToBack
	case p.Send == profile.Wrk2Pace:
		return FromIntended
	case p.Send == profile.TokenBucket || p.Send == profile.Quota:
		return FromSend // its intended time is its send, after the wait for its token or its second
	case p.FromIntended || p.Conc == profile.Unbounded:
		return FromDue
	}
	return FromSend
}

// Fill is, for a tool whose connections take tokens of a bucket they
// share (bombardier --rate), the bucket's fill interval on cfg: they send
// together at its ticks (on one worker each waits for the others'
// requests, as back to back), and one may idle up to a fill interval
// waiting for a token. 0 for the other tools.
func (t *Tool) Fill(cfg sim.Config) int64 {
	if p := t.profile(cfg); p.Send == profile.TokenBucket {
		return p.Period
	}
	return 0
}

// Unbounded reports whether the tool sends each request as it falls due on
// a worker or connection of its own (vegeta's workers, Artillery's
// virtual users): the query's connections mean nothing to it.
func (t *Tool) Unbounded() bool { return t.profileOf().Conc == profile.Unbounded }

// Drops reports whether the tool drops the iterations it has no one free
// for, and counts them (k6's constant-arrival-rate: dropped_iterations;
// Artillery's maxVusers: vusers.skipped).
func (t *Tool) Drops() bool { return t.profileOf().Conc == profile.VUPool }

// SkipsLate reports whether the tool skips a call whose time passed while
// the previous one was out, rather than sending it late (fortio
// -nocatchup).
func (t *Tool) SkipsLate() bool { return t.profileOf().NoCatchUp }

// PacedUsers reports whether the tool's users are paced on slots of their
// own, started together and re-anchored when late (locust's
// constant_throughput): a stall holds one reply of each user.
func (t *Tool) PacedUsers() bool {
	p := t.profileOf()
	return p.Send == profile.Reanchor && p.Aligned
}

// WholeRate reports whether the rate the tool is given is a whole number
// of requests a second, so that the rate it ran at is one (wrk2's -R).
func (t *Tool) WholeRate() bool { return t.rateFlag != "" }

// RateFlag is the flag that gives a WholeRate tool its rate ("-R").
func (t *Tool) RateFlag() string { return t.rateFlag }

// PrintUnit is what a tool's printout rounds its latencies to, when that
// is coarse next to a service time: in ns and in words.
type PrintUnit struct {
	Ns    int64
	Words string
	// ServiceFree, when set, says why the printout leaves the service time
	// free within the unit (what of it fixes the service to the unit).
	ServiceFree string
	// Stamped: a latency is the difference of two clock stamps, each
	// truncated to the unit (JMeter's start and end in whole ms), so it
	// lies within one unit of the true one either way, not half a unit.
	Stamped bool
}

// Unit is what the tool's printout rounds latencies to (the zero value:
// finer than a service time matters).
func (t *Tool) Unit() PrintUnit { return t.unit }

// Reads reports whether the fit reads a file of format f as this tool's.
func (t *Tool) Reads(f measure.Format) bool { return slices.Contains(t.reads, f) }

// FileWords names what the tool wrote, for the fit's sentences: "the wrk
// printout", "the vegeta JSON report".
func (t *Tool) FileWords() string {
	kind := t.kind
	if kind == "" {
		kind = "printout"
	}
	return "the " + t.name + " " + kind
}

// OnlyPaced reports whether the fit reads a file of the tool's formats as
// its own only when the file says its tool was paced (Stated.Paced): the
// paced mode of a tool whose closed one writes the same files.
func (t *Tool) OnlyPaced() bool { return t.onlyPaced }

// OnlyDropped reports whether the fit reads a file of the tool's formats
// as its own only when the file counts requests it never sent
// (Stated.Dropped).
func (t *Tool) OnlyDropped() bool { return t.onlyDropped }

// NoFit says, for a tool whose files the fit knows as its own but does not
// yet fit, why ("": the fit fits them).
func (t *Tool) NoFit() string { return t.noFit }

// PerRequest reports whether the file the fit reads as the tool's is the
// per-request file it writes (Output.File, from RunJSON), not its
// printout.
func (t *Tool) PerRequest() bool { return t.perRequest }

// NoCount says, for a tool one of whose files prints no exact count of
// its replies, what to give the fit instead ("" : its files all do).
func (t *Tool) NoCount() string { return t.noCount }

// Unsaid is, for the first of the tools that write the same file, what the
// file leaves unsaid that would tell them apart ("" for the others).
func (t *Tool) Unsaid() string { return t.unsaid }

// An Assumption is what the fit takes of a tool's file that the file does
// not say, where another way of running the tool, which the fit does not
// read the file as, would change what the file hid: If is the condition
// the hidden numbers hold under, for the headline beside them ("if hey ran
// without -q"); Why says what the file leaves unsaid and what the fit does
// not read it as.
type Assumption struct{ If, Why string }

// Writing returns the tools the fit reads a file of format f as, in
// display order.
func Writing(f measure.Format) []*Tool {
	var out []*Tool
	for _, t := range registry {
		if t.Reads(f) {
			out = append(out, t)
		}
	}
	return out
}

// Stated is what a tool's file states of its run besides its latencies:
// what the fit takes as given rather than searches for. A number the file
// does not state is 0 (Slow and SlowHi: -1).
type Stated struct {
	// Requests, Duration and Conns as the file states them ("N requests in
	// 10.00s", "1 threads and C connections").
	Requests, Duration int64
	Conns              int
	// ConnsFrom says where the file states its connections or users
	// ("": in so many words).
	ConnsFrom string
	// DurationFrom says how the duration was found when the file implies
	// it rather than states it ("": stated).
	DurationFrom string
	// Durations, when the file bounds its run's length but does not fix
	// it (Duration 0: k6's CSV, stamped in whole seconds), are the whole
	// seconds within those bounds, which the fit tries each, and
	// DurationsFrom says what bounds them.
	Durations     []int64
	DurationsFrom string
	// Rate is the rate the file states the run was asked for (fortio's
	// "Starting at Q qps"); RateHint one it implies, to be searched from
	// (oha's responses over its duration).
	Rate, RateHint sim.Rate
	// RateFrom says how Rate was found when the file implies it exactly
	// rather than states it (Artillery's arrivalRate, from its requests
	// and the span of its metrics); "": stated.
	RateFrom string
	// PacedKnown: the file says whether its tool was paced (Paced) or ran
	// back to back: bombardier's -o json has spec.rate only with --rate;
	// autocannon's -j has more latencies than replies only when -R's
	// correction added some. It tells a paced tool's file from its closed
	// one's; a file that does not say is read as the closed one's, with
	// that condition stated (Assumes).
	PacedKnown, Paced bool
	// SkipsKnown: the file says whether the tool skipped the calls a stall
	// made late rather than sending them late (Skips: fortio's "Catchup
	// allowed: false").
	SkipsKnown, Skips bool
	// Slow is the replies the file's histogram holds in its buckets from
	// half its largest value up; SlowHi, when above Slow, bounds them from
	// above where its percentiles only bracket them (locust's).
	Slow, SlowHi int64
	// Dropped is the requests the file says the tool never sent (k6's
	// dropped_iterations, Artillery's vusers.skipped).
	Dropped int64
	// Assumes is what the fit takes that the file does not say (nil:
	// nothing): hey's printout does not say whether it ran with -q.
	Assumes *Assumption
	// Unmodelled says, in words, what the file shows its run did that the
	// model does not run ("": nothing): a load that ramped up (Artillery's
	// period reports or phases, a JTL's threads started one by one,
	// locust's users spawned over time). The fit refuses such a file.
	Unmodelled string
}

// StatedIn reads what a file of f's format states of its run, by the
// first tool that writes that format (ok false: no tool reads it as its
// own). d is the file's first distribution, for the files whose tables
// bound what they do not print. The page's app.wasm, built with the
// minimal tag, runs no fit: there no tool states anything (stated.go).
func StatedIn(f measure.Format, data []byte, d *measure.Dist) (s Stated, ok bool) {
	s.Slow, s.SlowHi = -1, -1
	for _, t := range registry {
		if t.Reads(f) {
			if t.stated != nil {
				t.stated(data, d, &s)
			}
			return s, true
		}
	}
	return s, false
}

// MeasuredRate is a rate a run measured (requests a second), taken as the
// whole number a second a tool was asked for when within 0.2 % of one (a
// real run's requests leave a little off schedule).
func MeasuredRate(r float64) sim.Rate {
	if w := math.Round(r); w > 0 && math.Abs(r-w) <= 0.002*r {
		r = w
	}
	return sim.Rate(math.Round(r * 1000))
}
