package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
)

// NotModelled lists what the model leaves out, in every report (a copy).
func NotModelled() []string { return append([]string(nil), notModelled...) }

var notModelled = []string{
	"Network: no latency, jitter, loss or bandwidth between the client and the server.",
	"The load generator's own pauses: no garbage collection, scheduling delay or timer resolution in the client.",
	"Connection setup, TLS and pools: the closed client's connections are always open.",
	"Retries: a rejected, failed or timed-out request is never sent again.",
	"Cancellation: a client that gives up does not stop the server; the work is finished and counted as wasted.",
	"Autoscaling and load shedding other than the queue capacity: the workers are fixed for the whole run.",
	"Caches, warm-up and cold starts: every service time is an independent draw from its distribution.",
	"Contention between workers (locks, shared CPU, memory): workers are independent, except that a stall freezes them all.",
	"Dependencies and correlated failures: only the declared stalls and outages disturb the server.",
	"Scheduling other than first come, first served: no priorities, deadlines or LIFO at the server.",
	"Clock effects: no skew or drift; virtual time is exact to the nanosecond.",
	"Request mixes and payload sizes: every request is alike.",
}

// Limits returns the limits a run was made under, by name. They are in the
// report and in the hash: other limits could give other results.
func Limits() map[string]int64 {
	return map[string]int64{
		"requests":      MaxRequests,
		"exact_samples": ExactSamples,
		"arrivals":      MaxArrivals,
		"events":        MaxEvents,
		"queued":        MaxQueued,
		"drain_ns":      MaxDrain,
		"series_points": MaxSeriesPoints,
	}
}

// Params returns every parameter's canonical text by query name, defaults
// included. The preset is only a starting point and is not among them.
func (c Config) Params() map[string]string {
	m := map[string]string{}
	vals := c.Values()
	for i, k := range Fields() {
		if k != "preset" {
			m[k] = vals[i]
		}
	}
	return m
}

// SeriesReport is the report's form of a Series.
type SeriesReport struct {
	IntervalNs       int64                   `json:"interval_ns"`
	Points           int                     `json:"points"`
	Truncated        bool                    `json:"truncated"`
	ExactPercentiles bool                    `json:"exact_percentiles"`
	Clients          map[string]ClientSeries `json:"clients"`
}

// engineReport fills the report's additions of the engine issue.
func (r *Result) engineReport(rep *Report) {
	rep.Hash = r.Hash
	rep.EngineVersion = EngineVersion
	rep.Engine = "fast"
	rep.Seed = strconv.FormatUint(r.Config.Seed, 10)
	rep.Params = r.Config.Params()
	rep.Limits = Limits()
	rep.NotModelled = NotModelled()
	if r.Engine == nil {
		return
	}
	rep.Engine = "event"
	for c := range r.Engine.Clients {
		ec := &r.Engine.Clients[c]
		cr := rep.Clients[Client(c).String()]
		cr.Rejected, cr.Failed, cr.TimedOut, cr.Wasted, cr.WastedWorkNs = ec.Rejected, ec.Failed, ec.TimedOut, ec.Wasted, ec.WastedNs
		rep.Clients[Client(c).String()] = cr
	}
	if s := r.Engine.Series; s != nil {
		sr := &SeriesReport{IntervalNs: s.IntervalNs, Points: s.Points, Truncated: s.Truncated, ExactPercentiles: s.ExactPercentiles, Clients: map[string]ClientSeries{}}
		for c := range s.Clients {
			sr.Clients[Client(c).String()] = s.Clients[c]
		}
		rep.Series = sr
	}
}

// hashDoc is what the result hash covers: the engine version, the seed,
// every parameter, the limits and every number of the report (the checks by
// id, want, got and pass). Prose (formulas, notes) and the query's spelling
// are left out, so one result has one hash however it was asked for.
type hashDoc struct {
	EngineVersion int                     `json:"engine_version"`
	Seed          string                  `json:"seed"`
	Params        map[string]string       `json:"params"`
	Limits        map[string]int64        `json:"limits"`
	Planned       int64                   `json:"planned"`
	SlotNs        int64                   `json:"slot_ns"`
	Exact         bool                    `json:"exact"`
	Clients       map[string]ClientReport `json:"clients"`
	Recordings    map[string]RecReport    `json:"recordings"`
	Checks        []hashCheck             `json:"checks"`
	Series        *SeriesReport           `json:"series"`
}

type hashCheck struct {
	ID   string  `json:"id"`
	Want float64 `json:"want"`
	Got  float64 `json:"got"`
	Pass bool    `json:"pass"`
}

// computeHash returns the SHA-256, in hex, of the canonical JSON of the
// result's hashDoc (encoding/json: struct fields in order, map keys sorted,
// floats in their shortest exact form).
func (r *Result) computeHash() string {
	saved := r.Hash
	r.Hash = ""
	rep := r.Report()
	r.Hash = saved
	doc := hashDoc{EngineVersion: rep.EngineVersion, Seed: rep.Seed, Params: rep.Params, Limits: rep.Limits,
		Planned: rep.Planned, SlotNs: rep.SlotNs, Exact: rep.Exact, Clients: rep.Clients, Recordings: rep.Recordings, Series: rep.Series}
	doc.Checks = make([]hashCheck, len(rep.Checks))
	for i, c := range rep.Checks {
		doc.Checks[i] = hashCheck{c.ID, c.Want, c.Got, c.Pass}
	}
	b, err := json.Marshal(doc)
	if err != nil { // a number JSON cannot hold (NaN, ±Inf): hash its error instead
		b = []byte("unhashable: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
