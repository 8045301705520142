package view

import (
	"strings"

	"omission/app/units"
	"omission/sim"
)

// This file is the one place that decides what the headline says of a run
// whose calls failed, what its cards claim and how the run is summed up in
// a line: the page's headline, the report's text and its JSON, and the
// spoken sentence all read what it builds.

// Calls are the calls a recording's latencies are of (sim.Calls), with the
// words said of them.
type Calls struct{ sim.Calls }

// CallsOf returns the calls of recording k: its client's.
func CallsOf(res *sim.Result, k sim.Kind) Calls { return Calls{res.Calls(k)} }

// how says how the failed calls ended: "9,000 timed out, 500 failed in an
// outage".
func (c Calls) how() string {
	var parts []string
	if c.TimedOut > 0 {
		parts = append(parts, units.Count(c.TimedOut)+" timed out")
	}
	if c.Outage > 0 {
		parts = append(parts, units.Count(c.Outage)+" failed in an outage")
	}
	if c.Rejected > 0 {
		parts = append(parts, units.Count(c.Rejected)+" rejected by a full queue")
	}
	return strings.Join(parts, ", ")
}

// Note says what a latency of the calls is of, beside it: "" when every
// call sent was answered; that there is none when no call was sent or
// answered; otherwise the failed share and the answered calls it is of.
func (c Calls) Note() string {
	f := c.Failed()
	switch {
	case c.Sent == 0:
		return "no call was sent, so it has no latency"
	case f == 0:
		return ""
	case c.Answered() == 0:
		return "none of its " + units.Plural(c.Sent, "call") + " was answered (" + c.how() + "), so it has no latency"
	}
	return units.Count(f) + " of " + units.Plural(c.Sent, "call") + " failed (" + share(f, c.Sent) + ": " + c.how() +
		"), and its latencies are of the " + units.Count(c.Answered()) + " answered"
}

// NoLatency is the text of a latency that does not exist: no call of the
// recording was answered.
const NoLatency = "none"

// p99All is recording k's p99 over every call its client sent, a failed
// call counted as never answered (sim.Recording.PercentileOfSent). Only for
// the closed and open loops, whose samples are their answered calls.
func p99All(res *sim.Result, k sim.Kind) (int64, bool) {
	return res.Recordings[k].PercentileOfSent(sim.Percentiles()[sim.P99].PPM, CallsOf(res, k).Sent, res.Config.Rank)
}

// buildCards sets the headline's words beside its numbers: under each p99
// what it times and the calls it is of (and how long a closed loop ran
// when its run outlasts the schedule), the ratio of like with like, and
// what kept the paced client's requests from being sent.
func (h *Headline) buildCards(res *sim.Result) {
	cfg := res.Config
	cc, oc := CallsOf(res, sim.Closed), CallsOf(res, sim.Open)
	h.ClosedSub = join("timed from when it was sent", cc.Note())
	if last := res.Clients[sim.ClosedClient].LastCompletion; 10*last > 11*cfg.Duration {
		// It sends every request of the schedule, late ones after its end.
		h.ClosedSub = join(h.ClosedSub, "it ran "+units.Duration(last)+" to send the "+units.Duration(cfg.Duration)+" schedule")
	}
	h.OpenSub = join("timed from when it was due", oc.Note())

	cp, cok := p99All(res, sim.Closed)
	op, ook := p99All(res, sim.Open)
	failed := cc.Failed() > 0 || oc.Failed() > 0
	switch {
	case cok && ook:
		h.Ratio, h.RatioOK = units.Ratio(float64(op), float64(cp))
		h.RatioSub = "same server, same " + sameWhat(res)
		if failed {
			h.RatioSub = "p99 of every call sent, a failed call counted as never answered"
		}
		if !h.RatioOK {
			h.RatioSub = "no ratio: the closed loop's p99 is 0 s"
		}
	default:
		h.Ratio, h.RatioOK = NoLatency, false
		who := "the closed loop (" + share(cc.Failed(), cc.Sent) + " of its calls failed)"
		switch {
		case cok:
			who = "the open loop (" + share(oc.Failed(), oc.Sent) + " of its calls failed)"
		case !ook:
			who += " and the open loop (" + share(oc.Failed(), oc.Sent) + ")"
		}
		h.RatioSub = "no ratio: over every call sent, the p99 falls on a failed call for " + who
		if !failed {
			var notes []string
			for _, n := range []string{cc.Note(), oc.Note()} {
				if n != "" {
					notes = append(notes, n)
				}
			}
			h.RatioSub = "no ratio: " + strings.Join(notes, "; ")
		}
	}

	pc := res.Clients[sim.PacedClient]
	never := pc.Planned - pc.Sent
	h.PacedSub = "of " + h.Planned + " planned"
	if pc.Planned > 0 {
		h.PacedSub += " (" + h.NeverSentShare + ")"
	}
	if never > 0 {
		slot, mean := cfg.PacedSlot(), cfg.MeanService()
		switch {
		case mean >= float64(slot):
			h.PacedSub += ": its one connection cannot keep up, a call takes " + units.Duration(mean) +
				" on average and one falls due every " + units.Duration(slot)
		case pc.StallsMet > 0:
			h.PacedSub += ": the slots that fell due while its one connection waited out " + units.Plural(pc.StallsMet, "stall")
		default:
			h.PacedSub += ": the slots that fell due while its one connection was busy with a call longer than the " + units.Duration(slot) + " between two"
		}
	}
}

// sameWhat is what the clients of the run share beside the server: its
// stalls when it has some, else its schedule.
func sameWhat(res *sim.Result) string {
	if res.StallCount() > 0 {
		return "stalls"
	}
	return "schedule"
}

func share(n, of int64) string {
	if of == 0 {
		return "0%"
	}
	return units.Share(float64(n) / float64(of))
}

// join adds a clause to a line: "a · b" ("a" when b is "").
func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + " · " + b
}

// Summary is the run in one line: the schedule, the service and its
// distribution, every window of the query (stalls, slowdowns, outages,
// bursts), the clients and the server.
func Summary(cfg *sim.Config) string {
	var b strings.Builder
	b.WriteString(units.Thousands(cfg.Rate.String()) + " requests/s for " + exact(cfg.Duration))
	switch cfg.Arrivals {
	case sim.ArrivalsPoisson:
		b.WriteString(" (Poisson arrivals)")
	case sim.ArrivalsRamp:
		b.WriteString(" (Poisson arrivals ramping to " + units.Thousands(cfg.RateTo.String()) + "/s)")
	case sim.ArrivalsBurst:
		b.WriteString(" (Poisson arrivals")
		for _, w := range cfg.BurstWindows() {
			b.WriteString(", " + units.Thousands(w.Rate.String()) + "/s" + span(w.From, w.To))
		}
		b.WriteString(")")
	}
	b.WriteString(", ")
	switch cfg.Dist {
	case sim.ServiceExponential:
		b.WriteString("exponential service of mean " + exact(cfg.Service))
	case sim.ServiceLognormal:
		b.WriteString("lognormal service of median " + exact(cfg.Service) + " and p95 " + exact(cfg.ServiceP95))
	case sim.ServiceUniform:
		b.WriteString("service uniform" + span(cfg.Service, cfg.ServiceMax))
	default:
		b.WriteString(exact(cfg.Service) + " service")
	}
	for _, w := range cfg.SlowWindows() {
		b.WriteString(", slowed ×" + w.Rate.String() + span(w.From, w.To))
	}
	switch {
	case cfg.Stall > 0 && cfg.Every > 0:
		b.WriteString(", a " + exact(cfg.Stall) + " stall every " + exact(cfg.Every) + " from " + exact(cfg.First))
	case cfg.Stall > 0:
		b.WriteString(", one " + exact(cfg.Stall) + " stall at " + exact(cfg.First))
	default:
		b.WriteString(", no stalls")
	}
	for _, w := range cfg.OutageWindows() {
		b.WriteString(", an outage" + span(w.From, w.To))
	}
	b.WriteString("; " + units.Plural(int64(cfg.Conns), "connection"))
	switch {
	case cfg.ThinkMax > cfg.Think:
		b.WriteString(" thinking" + span(cfg.Think, cfg.ThinkMax) + " between calls")
	case cfg.Think > 0:
		b.WriteString(" thinking " + exact(cfg.Think) + " between calls")
	}
	if cfg.Workers == 0 {
		b.WriteString(", unlimited workers")
	} else {
		b.WriteString(", " + units.Plural(int64(cfg.Workers), "worker"))
	}
	switch {
	case cfg.Queue == sim.NoQueue:
		b.WriteString(", no waiting room")
	case cfg.Queue > 0:
		b.WriteString(", a queue of " + units.Count(int64(cfg.Queue)))
	}
	if cfg.Timeout > 0 {
		b.WriteString(", a " + exact(cfg.Timeout) + " timeout")
	}
	if cfg.Retrying() {
		b.WriteString(", up to " + units.Plural(int64(cfg.AttemptsPerCall()), "attempt") + " a call " + exact(cfg.Backoff) + " apart")
	}
	if cfg.Interval > 0 {
		b.WriteString(", the correction's interval " + exact(cfg.Interval))
	}
	b.WriteString(".")
	return b.String()
}

// span writes a window: " from 4 s to 4.5 s".
func span(from, to int64) string { return " from " + exact(from) + " to " + exact(to) }

// exact writes a parameter's duration with every digit it has (47.52 ms,
// 5.555556 ms), where units.Duration keeps four.
func exact(ns int64) string { return units.DurationSig(float64(ns), 15) }

// Said is the headline in words: the report prints it and its JSON holds
// it, as the page shows it.
type Said struct {
	Summary string     `json:"summary"`
	Cards   []SaidCard `json:"cards"`
	Story   string     `json:"story"`
	Claim   string     `json:"claim"`
}

// SaidCard is one card of the headline: its label, its number and what is
// said beside it.
type SaidCard struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value string `json:"value"`
	Sub   string `json:"sub"`
}

// Card labels, as the page shows them.
const (
	LabelClosed = "closed-loop p99"
	LabelOpen   = "open-loop p99"
	LabelRatio  = "open ÷ closed"
	LabelPaced  = "never sent by the paced client"
)

// Said returns the headline in words.
func (h *Headline) Said() Said {
	return Said{Summary: h.Server, Story: h.Story.Text, Claim: h.Story.Claim, Cards: []SaidCard{
		{"closed", LabelClosed, h.ClosedP99.Text, h.ClosedSub},
		{"open", LabelOpen, h.OpenP99.Text, h.OpenSub},
		{"ratio", LabelRatio, h.Ratio, h.RatioSub},
		{"paced", LabelPaced, h.NeverSent.Text, h.PacedSub},
	}}
}

// spoken is the headline in one sentence, for a screen reader.
func (h *Headline) spoken() string {
	return "Closed-loop p99 " + h.ClosedP99.Text + " (" + h.ClosedSub + "); open-loop p99 " + h.OpenP99.Text + " (" + h.OpenSub +
		"); open ÷ closed " + h.Ratio + " (" + h.RatioSub + "); never sent by the paced client " + h.NeverSent.Text + " (" + h.PacedSub + ")."
}
