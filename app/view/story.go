package view

import (
	"fmt"

	"omission/app/units"
	"omission/sim"
)

// Story is the sentence beside the headline: what separates the closed
// loop's p99 from the open loop's in this run. Claim names the rule it was
// chosen by (data-claim on the page); every variant is chosen by a check on
// the result, so the words always hold for the numbers beside them.
type Story struct {
	Claim string
	Text  string
}

// The claims a story may be chosen by, in the order they are tried.
const (
	ClaimFailed      = "failed"         // an event-driven run in which calls of the closed or open loop failed
	ClaimEvent       = "event"          // random arrivals or service, queue limits, timeouts, outages, retries
	ClaimNoStallSame = "no-stall"       // no stall in the run, and the two p99s agree within 10 %
	ClaimNoStallQ    = "no-stall-queue" // no stall, the open p99 more than 10 % above: the server falls behind the schedule
	ClaimShown       = "closed-shows"   // stalls, and the closed loop's p99 within 10 % of the open loop's
	ClaimHidden      = "closed-hides"   // stalls, and the closed loop's p99 more than 10 % below
)

// near tells whether the open loop's p99 is within 10 % of the closed loop's.
func near(open, closed int64) bool { return float64(open) <= 1.1*float64(closed) }

// buildStory picks the story that holds for res.
func buildStory(res *sim.Result, ratio string, ratioOK bool) Story {
	closed, open := res.Recordings[sim.Closed].P[sim.P99], res.Recordings[sim.Open].P[sim.P99]
	cfg := res.Config
	conns := "its one connection"
	if cfg.Conns > 1 {
		conns = fmt.Sprintf("each of its %s connections", units.Count(int64(cfg.Conns)))
	}
	switch {
	case cfg.EventDriven():
		again := "before it sends again"
		if cfg.Thinking() {
			again = "and pauses for its think time before it sends again"
		}
		text := "This run is event-driven (random arrivals or service times, a queue limit, timeouts, outages, retries, slowdowns or think time), so no formula fixes its numbers; the rule of each client is the same: the closed loop waits for each reply on " + conns + " " + again + ", and the open loop times each request from when it was due."
		if f := failedStory(res); f != "" {
			return Story{ClaimFailed, text + " " + f}
		}
		return Story{ClaimEvent, text}
	case res.StallCount() == 0 && near(open, closed):
		return Story{ClaimNoStallSame, "No stall falls inside this run, and the closed and open loops agree at p99 (within 10 %): with nothing to wait out, there is nothing for the closed loop to leave unmeasured."}
	case res.StallCount() == 0:
		return Story{ClaimNoStallQ, fmt.Sprintf("No stall falls inside this run, yet the open loop's p99 is %s the closed loop's: the server cannot keep up with the schedule, so requests queue behind it; the closed loop, sending only when a reply comes back, never builds that queue.", ratio)}
	case near(open, closed):
		return Story{ClaimShown, fmt.Sprintf("Here the closed loop's p99 already shows the stalls: it stays within 10 %% of the open loop's (%s), because enough of the closed loop's own requests, on %s, are caught in the stalls to reach its 99th percentile.", ratio, conns)}
	}
	share := "far below the open loop's"
	if ratioOK {
		share = fraction(ratio) + " of the open loop's"
	}
	return Story{ClaimHidden, fmt.Sprintf("The closed loop waits out each stall on %s: it has at most %s outstanding while the server is stalled, and the requests that fell due meanwhile it sends only after the stall, timing each from that late send, so its p99 is %s. The open loop sends on schedule and times each request from when it was due, so every request caught behind a stall counts.",
		conns, units.Plural(int64(cfg.Conns), "request"), share)}
}

// failedStory says how many calls of the closed and open loops failed and
// what their latencies are then of ("" when none failed).
func failedStory(res *sim.Result) string {
	cc, oc := CallsOf(res, sim.Closed).Note(), CallsOf(res, sim.Open).Note()
	if cc == "" && oc == "" {
		return ""
	}
	return "Calls failed. The closed loop: " + or(cc, "every call answered") + ". The open loop: " + or(oc, "every call answered") + "."
}

// or is s, or else when s is "".
func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// fraction words an open ÷ closed ratio as a share of the open loop's p99.
func fraction(ratio string) string { return "1/" + trimX(ratio) }

func trimX(r string) string {
	if n := len(r); n > 0 && r[n-len("×"):] == "×" {
		return r[:n-len("×")]
	}
	return r
}
