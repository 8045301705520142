package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// Limits of a real experiment: a real machine, so far smaller than the
// model's. A configuration beyond one is refused naming the field and the
// range.
const (
	MaxRate     = 50_000           // requests per second
	MaxDuration = 10 * time.Minute // of each client's run
	MaxConns    = 256
	MaxWorkers  = 256
	MaxPlanned  = sim.ExactSamples // requests per client
	MaxService  = 10 * time.Second
	MaxStall    = time.Minute
)

// DrainLimit is how long a client waits after the duration for its last
// replies: the stall plus 2 s. Nothing is sent after the duration.
func DrainLimit(cfg sim.Config) time.Duration { return time.Duration(cfg.Stall) + 2*time.Second }

// Check refuses a configuration the experiment cannot run for real, every
// problem at once.
func Check(cfg sim.Config) error {
	var errs sim.Errors
	add := func(field, value, allowed string) {
		errs = append(errs, &sim.FieldError{Field: field, Value: value, Allowed: allowed})
	}
	if cfg.EventDriven() {
		add("arrivals", "(event-engine fields)", "the experiment plays the deterministic model only: constant arrivals, fixed service, no queue limit, timeout or outages")
	}
	if cfg.Rate > sim.RateOf(MaxRate) {
		add("rate", cfg.Rate.String(), fmt.Sprintf("0.001 to %d for a real run", MaxRate))
	}
	if time.Duration(cfg.Duration) > MaxDuration {
		add("duration", sim.FormatDuration(cfg.Duration), "1ns to "+sim.FormatDuration(int64(MaxDuration))+" for a real run")
	}
	if cfg.Conns > MaxConns {
		add("conns", fmt.Sprint(cfg.Conns), fmt.Sprintf("1 to %d for a real run", MaxConns))
	}
	if cfg.Workers > MaxWorkers {
		add("workers", fmt.Sprint(cfg.Workers), fmt.Sprintf("1 to %d, or unlimited, for a real run", MaxWorkers))
	}
	if time.Duration(cfg.Service) > MaxService {
		add("service", sim.FormatDuration(cfg.Service), "0s to "+sim.FormatDuration(int64(MaxService))+" for a real run")
	}
	if time.Duration(cfg.Stall) > MaxStall {
		add("stall", sim.FormatDuration(cfg.Stall), "0s to "+sim.FormatDuration(int64(MaxStall))+" for a real run")
	}
	if n := sim.NewSchedule(cfg.Rate).Count(cfg.Duration); n > MaxPlanned {
		add("duration", sim.FormatDuration(cfg.Duration), fmt.Sprintf("at most %d requests per client for a real run (rate × duration is %d)", MaxPlanned, n))
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// Options are the experiment's choices beyond the query.
type Options struct {
	// With names the real tools to run after the clients (RealToolNames),
	// each at Paths[name] (FindTool).
	With  []string
	Paths map[string]string
	// Clients to run; nil: closed, paced and open.
	Clients []string
}

// Result is one experiment: what each real client measured beside the
// model of the same query, and the model rerun with the service time the
// machine achieved.
type Result struct {
	Query     string `json:"query"`
	Server    string `json:"server"` // the first client's server
	Transport string `json:"transport"`
	// Measured is each recording of the real clients (corrected ones from
	// the real closed and paced samples); the JSON adds measured.<tool>
	// for each real tool run (-with), beside predicted.<tool>.
	Measured        map[string]Metrics    `json:"measured"`
	MeasuredClients map[string]*ClientRun `json:"measured_clients"`
	// Tools is each real tool's run (-with), in the order given.
	Tools []*ToolRun `json:"real_tools,omitempty"`
	// Service is the query's service time and the round trip the machine
	// achieved (the closed client's median latency away from stalls).
	ServiceNs   int64      `json:"service_ns"`
	RoundTripNs int64      `json:"round_trip_ns"`
	Model       sim.Report `json:"model"`
	// Calibrated is the model of the same query with service = the measured
	// round trip: the differences are computed against it.
	CalibratedQuery string       `json:"calibrated_query"`
	Calibrated      sim.Report   `json:"model_calibrated"`
	Differences     []Difference `json:"differences"`
	Explanations    []string     `json:"explanations"`
	Interrupted     bool         `json:"interrupted"`
	WallNs          int64        `json:"wall_ns"`
	// LoadAverage is the machine's 1-minute load average at the start and
	// at the end (Linux; -1 elsewhere), and CPUs its processors: other
	// processes' work delays the server and the clients for real.
	LoadAverage [2]float64 `json:"load_average"`
	CPUs        int        `json:"cpus"`

	cfg    sim.Config
	res    *sim.Result
	calRes *sim.Result
	epochs map[string]time.Time
}

// MarshalJSON writes the result with each real tool's printout as
// measured.<tool> and its profile's prediction as predicted.<tool>, in the
// same keys (ToolMetrics).
func (r *Result) MarshalJSON() ([]byte, error) {
	type plain Result
	m := map[string]any{}
	for k, v := range r.Measured {
		m[k] = v
	}
	var pred map[string]ToolMetrics
	for _, tr := range r.Tools {
		if tr.Err != "" {
			continue
		}
		if pred == nil {
			pred = map[string]ToolMetrics{}
		}
		m[tr.Tool], pred[tr.Tool] = tr.Measured, tr.Predicted
	}
	return json.Marshal(struct {
		*plain
		Measured  map[string]any         `json:"measured"`
		Predicted map[string]ToolMetrics `json:"predicted,omitempty"`
	}{(*plain)(r), m, pred})
}

// Metrics is one measured recording, as the report's recordings.
type Metrics struct {
	Count  int64   `json:"count"`
	MeanNs float64 `json:"mean_ns"`
	sim.Tail[int64]
	Above int64 `json:"above"`

	src measure.Source
}

// Difference is one measured metric beside the calibrated model.
type Difference struct {
	Recording string  `json:"recording"`
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Model     float64 `json:"model"`
	Nominal   float64 `json:"nominal_model"`
	Ratio     float64 `json:"ratio"` // measured / model
}

// Run plays cfg for real: each client against a fresh server, one after
// another, then (with Options.Wrk) wrk. It stops at ctx's end and returns
// what it has, marked Interrupted. Each client's run lasts at most the
// duration plus DrainLimit.
func Run(ctx context.Context, cfg sim.Config, opt Options) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := Check(cfg); err != nil {
		return nil, err
	}
	// Sleeping threads hold their processor (sleepPrecise); give the
	// network poller and the readers processors of their own.
	prev := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(max(prev, 8))
	defer runtime.GOMAXPROCS(prev)
	// No collection during the run (a pause would stall a client or the
	// server for real); the memory limit still bounds the heap.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(2 << 30))

	start := time.Now()
	r := &Result{Query: cfg.Query(), Transport: Transport, Measured: map[string]Metrics{}, MeasuredClients: map[string]*ClientRun{},
		ServiceNs: cfg.Service, cfg: cfg, epochs: map[string]time.Time{}, CPUs: runtime.NumCPU()}
	r.LoadAverage[0] = LoadAverage()
	sched := sim.NewSchedule(cfg.Rate)
	drain := DrainLimit(cfg)
	p := plan{cfg: cfg, sched: sched, n: sched.Count(cfg.Duration), end: time.Duration(cfg.Duration) + drain, drain: drain}
	clients := opt.Clients
	if clients == nil {
		clients = sim.ClientNames()
	}
	for _, name := range clients {
		if ctx.Err() != nil {
			break
		}
		srv, err := StartServer(ctx, cfg)
		if err != nil {
			return nil, err
		}
		if r.Server == "" {
			r.Server = srv.Addr()
		}
		var cr ClientRun
		c, ok := sim.ParseClient(name)
		switch {
		case !ok:
			srv.Close()
			return nil, fmt.Errorf("experiment: no client %q (%s)", name, strings.Join(sim.ClientNames(), ", "))
		case c == sim.ClosedClient:
			cr = runClosed(ctx, srv, p)
		case c == sim.PacedClient:
			cr = runPaced(ctx, srv, p)
		default:
			cr = runOpen(ctx, srv, p)
		}
		cr.Hold = srv.Hold()
		r.epochs[name] = srv.Epoch()
		srv.Close()
		r.MeasuredClients[name] = &cr
	}
	for _, name := range opt.With {
		if ctx.Err() != nil {
			break
		}
		tr := runTool(ctx, cfg, name, opt.Paths[name])
		r.Tools = append(r.Tools, tr)
		if tr.Err != "" {
			r.Explanations = append(r.Explanations, name+": "+tr.Err)
		}
	}
	r.Interrupted = ctx.Err() != nil
	r.LoadAverage[1] = LoadAverage()
	if err := r.finish(); err != nil {
		return nil, err
	}
	r.WallNs = int64(time.Since(start))
	return r, nil
}

// finish builds the recordings, runs the two models and compares.
func (r *Result) finish() error {
	cfg := r.cfg
	above := cfg.Above
	for _, c := range sim.Clients() {
		name := c.String()
		cr := r.MeasuredClients[name]
		if cr == nil {
			continue
		}
		src, err := measure.NewSource(name, cr.At, cr.Latency, 0)
		if err != nil {
			return err
		}
		r.Measured[name] = metricsOf(src, above)
		if k, e, ok := c.Corrected(cfg); ok {
			kind := k.String()
			cs, err := measure.NewSource(kind, cr.At, cr.Latency, e)
			if err != nil {
				return err
			}
			r.Measured[kind] = metricsOf(cs, above)
		}
	}
	// The round trip the machine achieves: the closed client's median (its
	// requests meet a stall only once each).
	if m, ok := r.Measured[sim.Closed.String()]; ok && m.Count > 0 {
		r.RoundTripNs = m.P50Ns
	}
	res, err := sim.Run(cfg)
	if err != nil {
		return err
	}
	r.res, r.Model = res, res.Report()
	cal := cfg
	if r.RoundTripNs > 0 {
		cal.Service = (r.RoundTripNs + 500) / 1000 * 1000 // to the µs
	}
	r.CalibratedQuery = cal.Query()
	if r.calRes, err = sim.Run(cal); err != nil {
		return err
	}
	r.Calibrated = r.calRes.Report()
	r.compare()
	return nil
}

func metricsOf(src measure.Source, above int64) Metrics {
	h := src.Hist
	m := Metrics{Count: h.TotalCount(), src: src}
	if m.Count == 0 {
		return m
	}
	m.MeanNs = exactMean(src)
	m.P50Ns, m.P90Ns, m.P99Ns = h.ValueAtQuantile(50), h.ValueAtQuantile(90), h.ValueAtQuantile(99)
	m.P999Ns, m.P9999Ns = h.ValueAtQuantile(99.9), h.ValueAtQuantile(99.99)
	m.MaxNs = exactMax(src)
	m.Above = aboveCount(src, above)
	return m
}

// exactMean is the mean of the samples (and of their corrected sequences).
func exactMean(src measure.Source) float64 {
	var sum float64
	var n int64
	for _, v := range src.Latency {
		sum += float64(v)
		n++
		if e := src.Correct; e > 0 && v > e {
			k := v/e - 1
			if k > 0 {
				sum += float64(k)*float64(v) - float64(e)*float64(k)*float64(k+1)/2
				n += k
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func exactMax(src measure.Source) int64 {
	var m int64
	for _, v := range src.Latency {
		m = max(m, v)
	}
	return m
}

func aboveCount(src measure.Source, a int64) int64 {
	var c int64
	for _, v := range src.Latency {
		if v > a {
			c++
			if e := src.Correct; e > 0 {
				k := sim.CorrectionCount(v, e)
				m := (v - a - 1) / e
				c += min(m, k)
			}
		}
	}
	return c
}

// compare lists each measured metric beside both models and explains the
// differences the machine makes.
func (r *Result) compare() {
	for _, k := range sim.Kinds() {
		rec := k.String()
		m, ok := r.Measured[rec]
		if !ok {
			continue
		}
		cal, nom := r.Calibrated.Recordings[rec], r.Model.Recordings[rec]
		for _, x := range []struct {
			metric        string
			meas, cal, nm float64
		}{
			{"count", float64(m.Count), float64(cal.Count), float64(nom.Count)},
			{"p50", float64(m.P50Ns), float64(cal.P50Ns), float64(nom.P50Ns)},
			{"p99", float64(m.P99Ns), float64(cal.P99Ns), float64(nom.P99Ns)},
			{"p99_9", float64(m.P999Ns), float64(cal.P999Ns), float64(nom.P999Ns)},
			{"max", float64(m.MaxNs), float64(cal.MaxNs), float64(nom.MaxNs)},
		} {
			d := Difference{Recording: rec, Metric: x.metric, Measured: x.meas, Model: x.cal, Nominal: x.nm}
			if x.cal != 0 {
				d.Ratio = x.meas / x.cal
			}
			r.Differences = append(r.Differences, d)
		}
	}
	for _, name := range sim.ClientNames() {
		cr := r.MeasuredClients[name]
		if cr == nil {
			continue
		}
		mc := r.Calibrated.Clients[name]
		r.Differences = append(r.Differences, Difference{Recording: name, Metric: "never_sent", Measured: float64(cr.Planned - cr.Sent),
			Model: float64(mc.Planned - mc.Sent), Nominal: float64(r.Model.Clients[name].Planned - r.Model.Clients[name].Sent),
			Ratio: ratio(float64(cr.Planned-cr.Sent), float64(mc.Planned-mc.Sent))})
	}
	ex := &r.Explanations
	if r.RoundTripNs > 0 {
		*ex = append(*ex, fmt.Sprintf("Round trip: the closed client's median latency is %s against a service time of %s: loopback TCP, two system calls a side and the wake-ups add %s. The calibrated model (%s) uses the round trip as its service time.",
			units.Duration(r.RoundTripNs), units.Duration(r.cfg.Service), units.Duration(r.RoundTripNs-r.cfg.Service), sim.QueryWords(r.CalibratedQuery)))
	}
	*ex = append(*ex, fmt.Sprintf("Timer resolution: Go's time.Sleep wakes up to a millisecond late here (its timers wait in epoll with millisecond timeouts); every wait of the experiment is a nanosleep with a 1 ns timer slack to %s before its deadline and a spin on the clock after it, so sends and replies leave within microseconds of their time.", units.Duration(spinMargin)))
	if cr := r.MeasuredClients[sim.PacedClient.String()]; cr != nil {
		*ex = append(*ex, fmt.Sprintf("Wake-up cost: the paced client sleeps to each slot and then sends, so every sample carries the wake-up (seed 001 saw its paced median rise for this reason); a reply later than the next slot restarts its schedule and skips slots: it sent %d of %d.", cr.Sent, cr.Planned))
	}
	for _, name := range sim.ClientNames() {
		if cr := r.MeasuredClients[name]; cr != nil {
			h := cr.Hold
			if h.Requests > 0 {
				*ex = append(*ex, fmt.Sprintf("Server (%s run): %d replies written %s after the model's reply time on average (p99 %s, max %s); requests no stall touched were held %s for a service time of %s.",
					name, h.Requests, units.Duration(int64(h.LateMeanNs)), units.Duration(h.LateP99Ns), units.Duration(h.LateMaxNs), units.Duration(int64(h.HeldMeanNs)), units.Duration(h.ServiceNs)))
			}
			if cr.Unanswered > 0 {
				*ex = append(*ex, fmt.Sprintf("%s: %d requests sent were not answered within the drain limit of %s.", name, cr.Unanswered, units.Duration(DrainLimit(r.cfg))))
			}
			if cr.Err != "" {
				*ex = append(*ex, fmt.Sprintf("%s: %s", name, cr.Err))
			}
		}
	}
	if l := r.LoadAverage; l[0] >= 0 {
		*ex = append(*ex, fmt.Sprintf("Machine: %d processors, 1-minute load average %.2f at the start and %.2f at the end; every runnable process beyond the experiment's own takes processor time from its server and clients, and a paced client late by more than the slack between its round trip and its slot skips slots.", r.CPUs, l[0], l[1]))
	}
	if len(r.Tools) > 0 {
		*ex = append(*ex, "Real tools: each runs its own loop against a fresh server on the query's stall schedule (its stall clock started by the tool's first request), and its printout is read with package measure. Its prediction is its profile (package tools) on the same server, with the service time fitted from the run: a closed loop's to its request count (its count follows the mean round trip, not the median), a scheduled tool's to its own median round trip; and again with the server's own service time and the tool's own time per request fitted instead (the round trip's part the server does not spend: a tool's time does not hold up the server's worker). A percentile is held to the issue's 2 % only from p90 up and where it is above ten round trips (the stall dominates it); the request count to 1 %.")
	}
	if r.Interrupted {
		*ex = append(*ex, "Interrupted: the figures hold what was measured until then.")
	}
}

// LoadAverage is the machine's 1-minute load average from /proc/loadavg,
// or -1 where there is none.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var v float64
	if _, err := fmt.Sscan(string(b), &v); err != nil {
		return -1
	}
	return v
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Sets returns the measured recordings for export (.hlog, .hgrm): one Set
// per client, its recordings with their real times, and StartUnixMs the
// wall clock of its server's start.
func (r *Result) Sets() map[string]*measure.Set {
	out := map[string]*measure.Set{}
	for _, name := range sim.ClientNames() {
		cr := r.MeasuredClients[name]
		if cr == nil {
			continue
		}
		set := &measure.Set{StartUnixMs: r.epochs[name].UnixMilli(), What: "omission experiment, " + name + " client against a stalling server on " + cr.Server + ", query " + sim.QueryWords(r.Query)}
		set.Sources = append(set.Sources, r.Measured[name].src)
		for _, t := range cr.At {
			set.Span = max(set.Span, t)
		}
		c, _ := sim.ParseClient(name)
		if k, _, ok := c.Corrected(r.cfg); ok {
			set.Sources = append(set.Sources, r.Measured[k.String()].src)
		}
		out[name] = set
	}
	return out
}

// Histogram returns a measured recording's histogram (nil if absent).
func (r *Result) Histogram(rec string) *hdrhistogram.Histogram {
	if m, ok := r.Measured[rec]; ok {
		return m.src.Hist
	}
	return nil
}
