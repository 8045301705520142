package tools

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// Artillery 2.0.20, read from npm's packages (artillery 2.0.20,
// @artilleryio/int-core 2.15.0, @artilleryio/sketches-js 2.1.1, arrivals
// 2.1.2, nanotimer 0.3.14, got 11.8.6, @szmarczak/http-timer 4.0.6; paths
// below are in them):
//   - int-core lib/phases.js 236-257 createArrivalRate: a phase of
//     arrivalRate R for duration D runs arrivals.uniform.process(1000/R,
//     D·1000); arrivals lib/index.js 26-52: a tick of ⌊1000/R·1000⌋ µs,
//     ⌊D·1e6 / tick⌋ arrivals, on nanotimer's setInterval, which counts
//     ticks from its start (lib/nanotimer.js 171-230: arrival k at k·tick,
//     never drifting), so the first arrival is a tick after the start.
//   - int-core lib/runner.js 211-222: each arrival starts a virtual user
//     (vusers.created) unless maxVusers are running (vusers.skipped, not
//     modelled: no maxVusers here); 375-398 one that ends counts
//     vusers.completed (or vusers.failed) and vusers.session_length, its
//     hrtime from its start in ms. Nothing waits for anything: the phase
//     is open, and the run lasts until the last virtual user is done.
//   - int-core lib/engine_http.js 265, 295: got's timeout, 10 s unless the
//     script says (an error, errors.ETIMEDOUT, and a failed virtual user);
//     727 http.requests when the request is written; 822-825 http.codes.N,
//     http.responses and http.response_time = res.timings.phases.firstByte,
//     which http-timer 4.0.6 (dist/source/index.js 93-111) takes as
//     Date.now() at the response less Date.now() at the request's upload:
//     whole milliseconds, from the send, not from the arrival's tick; 98-121
//     without config.http.pool each virtual user makes its own agent, so
//     its own connection.
//   - int-core lib/ssms.js: counters and rates are kept per 10 s period of
//     the wall clock (normalizeTs); 552-555 a rate is round(count /
//     (max(last − first, 1000 ms) / 1000)) over its period; 316 the
//     aggregate's is the mean over all periods, rounded; histograms are
//     DDSketches with a relative accuracy of 0.01 (457-458), merged per
//     period and over the run, each sent from the worker thread and cloned
//     through its protobuf (335, 359); 623-637 summarizeHistogram: min,
//     max, count, mean, p50 (and median), p75, p90, p95, p99 and p999, each
//     rounded to 0.1.
//   - sketches-js dist/ddsketch/DDSketch.js 48-95: a value above the
//     mapping's least goes to the bin ⌈log_γ v⌉, γ = 1 + 2·0.01/0.99, 0 to
//     the zero count; the quantile q is the bin whose running count first
//     exceeds q·(n − 1), read back as γ^key · 2/(1 + γ)
//     (mapping/KeyMapping.js 28-40); fromProto rebuilds the mapping from
//     its γ through the relative accuracy (γ − 1)/(γ + 1).
//   - artillery lib/console-reporter.js 183-253, 410-433 and lib/util.js
//     269-278: each period's block and the summary's, the metrics sorted by
//     name, each line padded with dots to 79 columns, a summary's min, max,
//     mean, median, p95 and p99; the plugin metrics-by-endpoint's are left
//     out (lib/cmds/run.js 248-252). lib/cmds/run.js 285-309: --output
//     writes {aggregate, intermediate} with JSON.stringify(…, null, 2), the
//     summaries also as "histograms".
//
// Artillery runs max(1, CPUs − 1) worker threads (lib/platform/local
// 28-35), each with its share of the rate (lib/dist.js 107-124, 174-197);
// the model is one worker, as on a 2-core machine.
var artilleryTool = Tool{
	name:      "artillery",
	plain:     "An arrival phase: a new virtual user arrives at a fixed interval whatever is in flight, sends its request on a connection of its own and leaves with the reply, so no request waits for another and a stall shows in full. Its times are whole milliseconds from the send, and its percentiles come from a sketch that keeps them within 1 %.",
	mechanics: "artillery run with one phase {duration: D, arrivalRate: R}, or {duration: D, arrivalCount: N} for a rate that is not a whole number a second: arrival k (k = 1 … ⌊D / tick⌋, tick = ⌊10⁶/R⌋ µs, or ⌊D·10⁶/N⌋ µs) at k·tick, each a new virtual user that sends at once; response_time = reply − send in whole ms; a 10 s timeout is an error; percentiles from a DDSketch (relative accuracy 0.01): the bin whose running count first exceeds q·(n − 1), read back as γ^key·2/(1 + γ), rounded to 0.1 ms",
	source:    "https://github.com/artilleryio/artillery/blob/artillery%402.0.20/packages/core/lib/engine_http.js#L822-L825",
	zero:      &Zero{Printed: "0", Unit: "ms", Why: "Artillery times a reply with Date.now(), in whole milliseconds: a reply faster than 1 ms is 0 or 1 ms, by where it fell between two clock ticks"},
	command: func(cfg sim.Config) string {
		return artilleryCommand(artilleryPhaseOf(cfg))
	},
	profile: func(cfg sim.Config) profile.Profile {
		ph := artilleryPhaseOf(cfg)
		return profile.Profile{Conc: profile.Unbounded, Send: profile.Uniform, Rate: ph.rate(),
			Period: ph.tick(), Duration: ph.seconds * 1e9, Clock: 1e6, Timeout: artilleryTimeout}
	},
	summarise: artillerySummarise,
	reads:     []measure.Format{FormatArtillery, FormatArtilleryJSON},
	kind:      "report",
	unit: PrintUnit{Ns: 1e6, Words: "whole ms", Stamped: true,
		ServiceFree: "Artillery times a reply with Date.now() at its send and at its reply, in whole ms: its median is the service to a ms either way, and the server kept up (under 1/rate)"},
}

// artilleryMaxTool is the same phase with maxVusers: int-core
// lib/runner.js 211-222 skips an arrival while runState.pendingScenarios
// (the virtual users started and not yet done) is maxVusers or more, and
// counts it (vusers.skipped); lib/dist.js 107-124 hands the one worker
// the whole cap. Arrivals are due as without the cap.
var artilleryMaxTool = Tool{
	name:      "artillery-maxvusers",
	plain:     "An arrival phase with a cap: a new virtual user arrives at a fixed interval, but one that finds maxVusers users still waiting for replies is skipped, never sent, and only counted. During a stall the cap fills at once, and every arrival after that is skipped: the stall's requests are counted as vusers.skipped and timed by no one.",
	mechanics: "artillery run with one phase {duration: D, arrivalRate: R (or arrivalCount: N), maxVusers: C}: arrival k (k = 1 … ⌊D / tick⌋, tick = ⌊10⁶/R⌋ µs, or ⌊D·10⁶/N⌋ µs) at k·tick; sent at once by a new virtual user while fewer than C are out, otherwise counted as vusers.skipped and never sent; response_time = reply − send in whole ms; percentiles from a DDSketch as artillery",
	source:    "https://github.com/artilleryio/artillery/blob/artillery%402.0.20/packages/core/lib/runner.js#L211-L222",
	zero:      artilleryTool.zero,
	command: func(cfg sim.Config) string {
		return artilleryCommand(artilleryCappedOf(cfg))
	},
	profile: func(cfg sim.Config) profile.Profile {
		p := artilleryTool.profile(cfg)
		p.Conc, p.Conns, p.MaxVUs = profile.VUPool, cfg.Conns, cfg.Conns
		return p
	},
	summarise: artillerySummarise,
	reads:     artilleryTool.reads,
	kind:      artilleryTool.kind,
	unit:      artilleryTool.unit,
	// A cap that skipped nothing changed nothing: such a file is
	// artillery's.
	onlyDropped: true,
}

// artilleryReal is how the experiment runs artilleryTool.
var artilleryReal = Real{Bin: "artillery", Install: "npm install artillery@2.0.20 typescript@5.6.3 with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 and --ignore-scripts (TypeScript 7 breaks its command line), or " + InstallScript + ", which links it into .tools/bin",
	Files: func(cfg sim.Config, addr string) (map[string]string, error) {
		return map[string]string{"test.yml": artilleryScript("http://"+addr, artilleryPhaseOf(cfg))}, nil
	},
	Args: func(cfg sim.Config, addr, dir string) ([]string, error) {
		return []string{"run", "--output", dir + "/report.json", dir + "/test.yml"}, nil
	},
	Unit:     1e6,
	ClockFit: true}

// artilleryMaxReal is how the experiment runs artilleryMaxTool.
var artilleryMaxReal = Real{Bin: artilleryReal.Bin, Install: artilleryReal.Install,
	Files: func(cfg sim.Config, addr string) (map[string]string, error) {
		return map[string]string{"test.yml": artilleryScript("http://"+addr, artilleryCappedOf(cfg))}, nil
	},
	Args: artilleryReal.Args, Unit: artilleryReal.Unit, ClockFit: artilleryReal.ClockFit}

// artilleryCommand is the command line a phase runs with, its script in
// words.
func artilleryCommand(ph artilleryPhase) string {
	return fmt.Sprintf("artillery run --output report.json test.yml (test.yml: config.target %s, config.phases [{%s}], one scenario: GET /)",
		strings.TrimSuffix(target, "/"), ph.words(", "))
}

// artilleryScript is the test script the command names.
func artilleryScript(targetURL string, ph artilleryPhase) string {
	return fmt.Sprintf("config:\n  target: %q\n  phases:\n    - %s\nscenarios:\n  - flow:\n      - get:\n          url: \"/\"\n",
		targetURL, ph.words("\n      "))
}

const artilleryTimeout = int64(10e9) // engine_http.js 265: 10 s unless config.http.timeout

// artilleryPhase is the one arrival phase a query runs as: arrivalRate
// (a whole number a second: lib/dist.js asserts one) when the query's
// rate is one, else arrivalCount, the arrivals over the phase's whole
// seconds (phases.js 209-234, the same uniform process with a tick of
// D/N), which is how a script asks Artillery for any other rate.
type artilleryPhase struct {
	seconds   int64
	perSec    int64 // arrivalRate (0: arrivalCount)
	count     int64 // arrivalCount
	maxVusers int   // 0: none
}

func artilleryPhaseOf(cfg sim.Config) artilleryPhase {
	ph := artilleryPhase{seconds: abSeconds(cfg.Duration)}
	if cfg.Rate >= 1000 && cfg.Rate%1000 == 0 {
		ph.perSec = int64(cfg.Rate / 1000)
	} else {
		ph.count = max(int64(math.Round(float64(cfg.Rate)/1000*float64(ph.seconds))), 1)
	}
	return ph
}

// artilleryCappedOf is the query's phase with maxVusers, its connections.
func artilleryCappedOf(cfg sim.Config) artilleryPhase {
	ph := artilleryPhaseOf(cfg)
	ph.maxVusers = cfg.Conns
	return ph
}

// words is the phase's keys as a script holds them, joined by sep.
func (ph artilleryPhase) words(sep string) string {
	w := fmt.Sprintf("duration: %d%sarrivalCount: %d", ph.seconds, sep, ph.count)
	if ph.perSec > 0 {
		w = fmt.Sprintf("duration: %d%sarrivalRate: %d", ph.seconds, sep, ph.perSec)
	}
	if ph.maxVusers > 0 {
		w += fmt.Sprintf("%smaxVusers: %d", sep, ph.maxVusers)
	}
	return w
}

// tick is arrivals' tick in ns: ⌊1000/R · 1000⌋ µs, or ⌊D·1000/N ·
// 1000⌋ µs, computed in doubles as JavaScript does (arrivals lib/index.js
// 28).
func (ph artilleryPhase) tick() int64 {
	if ph.perSec > 0 {
		return artilleryTick(ph.perSec)
	}
	return int64(math.Floor(float64(ph.seconds*1000)/float64(ph.count)*1000)) * 1000
}

// rate is the phase's arrivals a second.
func (ph artilleryPhase) rate() sim.Rate {
	if ph.perSec > 0 {
		return sim.RateOf(ph.perSec)
	}
	return sim.Rate(max(math.Round(float64(ph.count)*1000/float64(ph.seconds)), 1))
}

// artilleryTick is an arrivalRate's tick in ns: ⌊1000/R · 1000⌋ µs,
// computed in doubles as JavaScript does.
func artilleryTick(rate int64) int64 { return int64(math.Floor(1000/float64(rate)*1000)) * 1000 }

// ddsketch is @artilleryio/sketches-js's DDSketch with a logarithmic
// mapping and dense stores, for positive values.
type ddsketch struct {
	gamma, mult   float64 // the mapping's γ and multiplier, as the bins were keyed
	bins          map[int]float64
	zero, count   float64
	sum, min, max float64
}

const ddAccuracy = 0.01 // ssms.js 458

// ddMapping is KeyMapping's constructor for a relative accuracy:
// γ = 1 + 2a/(1 − a), and LogarithmicMapping's multiplier ln 2 /
// log1p(2a/(1 − a)).
func ddMapping(a float64) (gamma, mult float64) {
	m := 2 * a / (1 - a)
	return 1 + m, 1 / math.Log1p(m) * math.Ln2
}

func newDDSketch() *ddsketch {
	g, m := ddMapping(ddAccuracy)
	return &ddsketch{gamma: g, mult: m, bins: map[int]float64{}, min: math.Inf(1), max: math.Inf(-1)}
}

// ddMinPossible is the least value a bin takes: 2^−1023 · γ.
func (s *ddsketch) minPossible() float64 { return math.Ldexp(1, -1023) * s.gamma }

func (s *ddsketch) add(v float64) {
	if v > s.minPossible() {
		s.bins[int(math.Ceil(math.Log2(v)*s.mult))]++
	} else {
		s.zero++
	}
	s.count++
	s.sum += v
	s.min, s.max = min(s.min, v), max(s.max, v)
}

func (s *ddsketch) merge(o *ddsketch) {
	for k, n := range o.bins {
		s.bins[k] += n
	}
	s.zero += o.zero
	s.count += o.count
	s.sum += o.sum
	s.min, s.max = min(s.min, o.min), max(s.max, o.max)
}

// quantiles is getValueAtQuantile at each of qs on a sketch cloned
// through its protobuf `clones` times (each rebuilds the mapping from γ):
// the bin whose running count first exceeds q·(n − 1), read back as
// γ^key·2/(1 + γ).
func (s *ddsketch) quantiles(qs []float64, clones int) []float64 {
	out := make([]float64, len(qs))
	if s.count == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	keys := make([]int, 0, len(s.bins))
	for k := range s.bins {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	g, m := s.gamma, s.mult
	for range clones {
		g, m = ddMapping((g - 1) / (g + 1))
	}
	for i, q := range qs {
		rank := q * (s.count - 1)
		if rank < s.zero {
			continue // 0
		}
		key := keys[len(keys)-1]
		run := 0.0
		for _, k := range keys {
			run += s.bins[k]
			if run > rank-s.zero {
				key = k
				break
			}
		}
		out[i] = math.Pow(2, float64(key)/m) * (2 / (1 + g))
	}
	return out
}

// jsRound1 is ssms.js's round(x, 1): Math.round(x·10)/10.
func jsRound1(x float64) float64 { return jsMathRound(x*10) / 10 }

// jsMathRound is Math.round: the nearest integer, halves up.
func jsMathRound(x float64) float64 {
	f := math.Floor(x)
	if x-f >= 0.5 {
		f++
	}
	return f
}

// artilleryPeriod is one 10 s period of the wall clock (ms) as ssms.js
// keeps it: counters and summaries in the order they were first met.
type artilleryPeriod struct {
	start                    int64 // ms
	counters                 []string
	count                    map[string]int64
	hists                    []string
	hist                     map[string]*ddsketch
	reqFirst, reqLast, reqs  int64 // http.request_rate's events (ms)
	firstCounter, lastCount  int64
	firstHist, lastHist      int64
	hasCounter, hasHistogram bool
}

func newArtilleryPeriod(start int64) *artilleryPeriod {
	return &artilleryPeriod{start: start, count: map[string]int64{}, hist: map[string]*ddsketch{}, reqFirst: math.MaxInt64}
}

func (p *artilleryPeriod) counter(at int64, name string, n int64) {
	if _, ok := p.count[name]; !ok {
		p.counters = append(p.counters, name)
	}
	p.count[name] += n
	if !p.hasCounter || at < p.firstCounter {
		p.firstCounter = at
	}
	p.lastCount = max(p.lastCount, at)
	p.hasCounter = true
}

func (p *artilleryPeriod) summary(at int64, name string, v float64) {
	h, ok := p.hist[name]
	if !ok {
		h = newDDSketch()
		p.hist[name] = h
		p.hists = append(p.hists, name)
	}
	h.add(v)
	if !p.hasHistogram || at < p.firstHist {
		p.firstHist = at
	}
	p.lastHist = max(p.lastHist, at)
	p.hasHistogram = true
}

// artilleryEndpoint is the plugin metrics-by-endpoint's name for GET /.
const artilleryEndpoint = "plugins.metrics-by-endpoint."

// artilleryRun is what Artillery keeps of a run: its periods, in order.
type artilleryRun struct {
	periods []*artilleryPeriod
}

// at is the period of an event at ms; events come in time order, so a
// new period is the last.
func (r *artilleryRun) at(ms int64) *artilleryPeriod {
	start := ms / 10000 * 10000
	if n := len(r.periods); n > 0 && r.periods[n-1].start == start {
		return r.periods[n-1]
	}
	p := newArtilleryPeriod(start)
	r.periods = append(r.periods, p)
	return p
}

// artilleryEvents replays a run's events in time order (the model's run
// starts at the Unix epoch; Date.now() is its ns over 10⁶).
func artilleryEvents(pr *profile.Result) *artilleryRun {
	type event struct {
		t    int64
		kind int // 0 an arrival, 1 a reply, 2 a timeout
		i    int
	}
	var evs []event
	for i := range pr.Send {
		evs = append(evs, event{pr.Send[i], 0, i}, event{pr.Done[i], 1, i})
	}
	for i, f := range pr.Fails {
		evs = append(evs, event{f.Send, 0, -1}, event{f.At, 2, i})
	}
	for _, at := range pr.DroppedAt {
		evs = append(evs, event{at, 3, -1})
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].t < evs[b].t })
	r := &artilleryRun{}
	for _, e := range evs {
		ms := e.t / 1e6
		p := r.at(ms)
		switch e.kind {
		case 0:
			p.counter(ms, "vusers.created_by_name.0", 1)
			p.counter(ms, "vusers.created", 1)
			p.counter(ms, "http.requests", 1)
			p.reqFirst, p.reqLast = min(p.reqFirst, ms), max(p.reqLast, ms)
			p.reqs++
		case 1:
			rt := float64(pr.Done[e.i]/1e6 - pr.Send[e.i]/1e6)
			p.counter(ms, "http.codes.200", 1)
			p.counter(ms, "http.responses", 1)
			p.summary(ms, "http.response_time", rt)
			p.summary(ms, artilleryEndpoint+"response_time./", rt)
			p.counter(ms, "http.downloaded_bytes", 0)
			p.counter(ms, artilleryEndpoint+"./.codes.200", 1)
			p.counter(ms, "vusers.failed", 0)
			p.counter(ms, "vusers.completed", 1)
			p.summary(ms, "vusers.session_length", float64(pr.Done[e.i]-pr.Send[e.i])/1e6)
		case 2:
			p.counter(ms, "errors.ETIMEDOUT", 1)
			p.counter(ms, "vusers.failed", 1)
		case 3:
			p.counter(ms, "vusers.skipped", 1)
		}
	}
	return r
}

// artillerySummary is summarizeHistogram's figures, in its order.
type artillerySummary struct {
	names  []string
	values []float64
}

func summarise1(h *ddsketch, clones int) artillerySummary {
	q := h.quantiles([]float64{0.5, 0.75, 0.9, 0.95, 0.99, 0.999}, clones)
	for i := range q {
		q[i] = jsRound1(q[i])
	}
	return artillerySummary{
		names:  []string{"min", "max", "count", "mean", "p50", "median", "p75", "p90", "p95", "p99", "p999"},
		values: []float64{jsRound1(h.min), jsRound1(h.max), h.count, jsRound1(h.sum / h.count), q[0], q[0], q[1], q[2], q[3], q[4], q[5]},
	}
}

func (s artillerySummary) get(name string) float64 {
	for i, n := range s.names {
		if n == name {
			return s.values[i]
		}
	}
	return math.NaN()
}

// artilleryReport is one report as ssms.js gives it: a period's, or the
// aggregate's.
type artilleryReport struct {
	counters  []string
	count     map[string]int64
	rate      int64
	hasRate   bool
	summaries []string
	summary   map[string]artillerySummary
	hists     map[string]*ddsketch // the aggregate's merged sketches (nil for a period's)
	firstCounter, firstHist, lastCounter, lastHist,
	firstMetric, lastMetric, period int64
}

// The intermediate reports' sketches were cloned twice (the worker's
// protobuf, then mergePeriods); the aggregate's three times.
const (
	artilleryPeriodClones    = 2
	artilleryAggregateClones = 3
)

// requestRate is the period's http.request_rate: round(count / (max(last
// − first, 1000 ms) / 1000)) over its requests (ssms.js 552-555), and
// whether it has any.
func (p *artilleryPeriod) requestRate() (int64, bool) {
	if p.reqs == 0 {
		return 0, false
	}
	return int64(jsMathRound(float64(p.reqs) / (float64(max(p.reqLast-p.reqFirst, 1000)) / 1000))), true
}

func (p *artilleryPeriod) report() artilleryReport {
	r := artilleryReport{counters: p.counters, count: p.count, summaries: p.hists, summary: map[string]artillerySummary{},
		firstCounter: p.firstCounter, firstHist: p.firstHist, lastCounter: p.lastCount, lastHist: p.lastHist, period: p.start}
	for _, n := range p.hists {
		r.summary[n] = summarise1(p.hist[n], artilleryPeriodClones)
	}
	r.rate, r.hasRate = p.requestRate()
	r.firstMetric, r.lastMetric = metricSpan(p.hasCounter, p.hasHistogram, r)
	return r
}

// metricSpan is firstMetricAt and lastMetricAt over the counters and
// histograms there are (ssms.js's min and max skip an absent one's 0).
func metricSpan(counters, hists bool, r artilleryReport) (first, last int64) {
	switch {
	case counters && hists:
		return min(r.firstCounter, r.firstHist), max(r.lastCounter, r.lastHist)
	case counters:
		return r.firstCounter, r.lastCounter
	}
	return r.firstHist, r.lastHist
}

// aggregate is mergeBuckets over the periods.
func (run *artilleryRun) aggregate() artilleryReport {
	r := artilleryReport{count: map[string]int64{}, summary: map[string]artillerySummary{}}
	hists := map[string]*ddsketch{}
	var rates float64
	counters, histograms := false, false
	for i, p := range run.periods {
		for _, n := range p.counters {
			if _, ok := r.count[n]; !ok {
				r.counters = append(r.counters, n)
			}
			r.count[n] += p.count[n]
		}
		for _, n := range p.hists {
			if h, ok := hists[n]; ok {
				h.merge(p.hist[n])
			} else {
				h := newDDSketch()
				h.merge(p.hist[n])
				hists[n] = h
				r.summaries = append(r.summaries, n)
			}
		}
		if rate, ok := p.requestRate(); ok {
			r.hasRate = true
			rates += float64(rate)
		}
		if p.hasCounter {
			if !counters || p.firstCounter < r.firstCounter {
				r.firstCounter = p.firstCounter
			}
			r.lastCounter = max(r.lastCounter, p.lastCount)
			counters = true
		}
		if p.hasHistogram {
			if !histograms || p.firstHist < r.firstHist {
				r.firstHist = p.firstHist
			}
			r.lastHist = max(r.lastHist, p.lastHist)
			histograms = true
		}
		if i == len(run.periods)-1 {
			r.period = p.start
		}
	}
	for _, n := range r.summaries {
		r.summary[n] = summarise1(hists[n], artilleryAggregateClones)
	}
	r.hists = hists
	if r.hasRate {
		r.rate = int64(jsMathRound(rates / float64(len(run.periods))))
	}
	r.firstMetric, r.lastMetric = metricSpan(counters, histograms, r)
	return r
}

// artilleryClock is a Date's wall-clock time as moment prints it
// (HH:mm:ss(ZZ)), in UTC.
func artilleryClock(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("15:04:05") + "(+0000)"
}

// artilleryPadded is lib/util.js padded at 79 columns.
func artilleryPadded(a, b string) string {
	if len(a) > 79 {
		a = a[:76] + "..."
	}
	return a + " " + strings.Repeat(".", 79-len(a)) + " " + b
}

// lines is printReport's metric lines: every name sorted, its counter,
// summary and rate, the plugin's left out.
func (r artilleryReport) lines() []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, n := range r.summaries {
		add(n)
	}
	for _, n := range r.counters {
		add(n)
	}
	if r.hasRate {
		add("http.request_rate")
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if strings.Contains(n, "metrics-by-endpoint") {
			continue
		}
		if v, ok := r.count[n]; ok {
			out = append(out, artilleryPadded(n+":", strconv.FormatInt(v, 10)))
		}
		if s, ok := r.summary[n]; ok {
			out = append(out, n+":")
			for _, f := range []string{"min", "max", "mean", "median", "p95", "p99"} {
				out = append(out, artilleryPadded("  "+f+":", jsString(s.get(f))))
			}
		}
		if n == "http.request_rate" && r.hasRate {
			out = append(out, artilleryPadded(n+":", strconv.FormatInt(r.rate, 10))+"/sec")
		}
	}
	return out
}

func artilleryBanner(txt string) string {
	u := strings.Repeat("-", len(txt))
	return u + "\n" + txt + "\n" + u + "\n"
}

func artillerySummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	run := artilleryEvents(pr)
	var b strings.Builder
	for _, p := range run.periods {
		r := p.report()
		txt := "Metrics for period to: " + artilleryClock(p.start+10000)
		width := jsString(float64(r.lastMetric-r.firstMetric) / 1000)
		u := strings.Repeat("-", len(txt))
		b.WriteString(u + "\n" + txt + " (width: " + width + "s)\n" + u + "\n\n")
		b.WriteString(strings.Join(r.lines(), "\n") + "\n\n\n")
	}
	agg := run.aggregate()
	b.WriteString(artilleryBanner("Summary report @ "+artilleryClock(agg.lastMetric)) + "\n")
	if lines := agg.lines(); len(lines) > 0 {
		b.WriteString(strings.Join(lines, "\n") + "\n")
	} else {
		b.WriteString("No measurements recorded during this period\n")
	}
	o.Text = b.String()
	if o.wantJSON {
		o.JSON = artilleryJSON(run, agg)
	}
	// The figures Omission compares: the aggregate's response_time, as
	// printed (its sketch's bins, to 0.1 ms).
	if s, ok := agg.summary["http.response_time"]; ok {
		ns := func(v float64) int64 { return int64(math.Round(v * 1e6)) }
		o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns = ns(s.get("p50")), ns(s.get("p90")), ns(s.get("p99")), ns(s.get("p999"))
		o.MaxNs = ns(s.get("max"))
	}
	if h := agg.hists["http.response_time"]; h != nil {
		// Artillery's summary stops at p999: p99.99 is its sketch's own.
		o.P9999Ns = int64(math.Round(jsRound1(h.quantiles([]float64{0.9999}, artilleryAggregateClones)[0]) * 1e6))
	}
	o.Notes = append(o.Notes,
		"bytes are not modelled (http.downloaded_bytes prints 0)",
		"the run starts at the Unix epoch: the periods are its 10 s from there, and the console's lines before and after the reports (the test run's id, the phases, the total time, the log file) are left out",
		"Artillery's summary stops at p999: the p99.99 shown beside the other tools is its sketch's, which it does not print",
		"vusers.session_length is the model's send to reply, in ms; Artillery's also holds the virtual user's connection set-up")
	return nil
}
