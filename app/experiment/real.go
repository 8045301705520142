package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"omission/app/measure"
	"omission/app/tools"
	"omission/sim"
)

// Real load generators (issue 27): `experiment -with TOOL[,TOOL…]` runs
// each against a fresh stalling server on the query's schedule, parses its
// printout with package measure, and prints it beside what the tool's
// profile in package tools predicts for the same server, with the service
// time fitted from the run itself.

// InstallScript installs the tools: tools.InstallScript.
const InstallScript = tools.InstallScript

// realTool is a tool the experiment runs: its descriptor in package tools,
// and a copy of how it is run (a test changes its copy's arguments).
type realTool struct {
	tool *tools.Tool
	run  tools.Real
}

func (t realTool) name() string     { return t.tool.Name() }
func (t realTool) backToBack() bool { return t.tool.Timing() == tools.BackToBack }

// RealToolNames lists the tools -with accepts, in order.
func RealToolNames() []string { return tools.RealNames() }

func realToolByName(name string) (realTool, bool) {
	t, ok := tools.Lookup(name)
	if !ok || t.Real() == nil {
		return realTool{}, false
	}
	return realTool{t, *t.Real()}, true
}

// toolDirs are where FindTool looks before $PATH: $OMISSION_TOOLS, then
// .tools/bin in the working directory and in each directory above it (the
// install script's directory in the repository).
func toolDirs() []string {
	var dirs []string
	if d := os.Getenv("OMISSION_TOOLS"); d != "" {
		dirs = append(dirs, d)
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			dirs = append(dirs, filepath.Join(d, ".tools", "bin"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return dirs
}

// CheckTool refuses a name -with does not run, naming the ones it does.
func CheckTool(name string) error {
	if _, ok := realToolByName(name); !ok {
		return fmt.Errorf("-with %q: allowed %s", name, strings.Join(RealToolNames(), ", "))
	}
	return nil
}

// FindTool returns the path of a tool's executable, or an error naming the
// tool and how to install it.
func FindTool(name string) (string, error) {
	if err := CheckTool(name); err != nil {
		return "", err
	}
	t, _ := realToolByName(name)
	// The install script's directory first: its versions are pinned.
	for _, d := range toolDirs() {
		p := filepath.Join(d, t.run.Bin)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(t.run.Bin); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("-with %s: %s is not installed (%s; or run %s)", name, t.run.Bin, t.run.Install, InstallScript)
}

// CheckWith refuses a query the real tools cannot run: they take whole
// seconds.
func CheckWith(cfg sim.Config) error {
	if cfg.Duration%1e9 != 0 {
		return &sim.FieldError{Field: "duration", Value: sim.FormatDuration(cfg.Duration), Allowed: "whole seconds with -with (the real tools' -d, -t and -z take seconds)"}
	}
	return nil
}

// ToolMetrics is what a tool printed, or its profile predicted, in the same
// keys: nil where the printout does not say.
type ToolMetrics struct {
	Requests *int64 `json:"requests"`
	sim.Tail[*int64]
}

func (m *ToolMetrics) fields() []**int64 {
	ps := m.Ps()
	return append(append([]**int64{&m.Requests}, ps[:]...), &m.MaxNs)
}

// toolMetricNames are ToolMetrics' keys without _ns, in order: the
// request count, sim.Percentiles()' names, the maximum.
var toolMetricNames = func() []string {
	out := []string{"requests"}
	for _, p := range sim.Percentiles() {
		out = append(out, p.Name)
	}
	return append(out, "max")
}()

// ToolDiff is one metric of a real tool beside its prediction.
type ToolDiff struct {
	Metric    string   `json:"metric"`
	Real      int64    `json:"real"`
	Predicted int64    `json:"predicted"`
	Pct       *float64 `json:"diff_pct"` // 100·(real − predicted)/predicted; null when predicted is 0
	// Compared: the request count, or a percentile from p90 up whose real
	// value is above ten of the tool's round trips (ToolRun.RoundTripNs:
	// the stall dominates it): the ones the bounds (1 %, 2 %)
	// hold.
	Compared bool `json:"compared"`
}

// ToolRun is one real tool's run and its prediction.
type ToolRun struct {
	Tool     string      `json:"tool"`
	Command  string      `json:"command"`
	Output   string      `json:"output"`
	Format   string      `json:"format"`
	Server   string      `json:"server"`
	Measured ToolMetrics `json:"measured"`
	// Predicted is the profile's figures for ModelQuery: the query with
	// the service time fitted from the run (ServiceNs, how: Fit) and the
	// stalls shifted to the tool's first request, OffsetNs after the
	// server's stall clock started (0: StartToolServer starts that clock
	// at the first request).
	Predicted  ToolMetrics `json:"predicted"`
	ModelQuery string      `json:"model_query"`
	// RunLength says where the model's duration came from when it is not
	// the query's (locust: its own log, locustRunLength); empty otherwise.
	RunLength string `json:"run_length,omitempty"`
	// Clock says how the model's clock was set to the tool's when not by
	// its first request alone (clockFit); empty otherwise.
	Clock         string `json:"clock,omitempty"`
	ClockOffsetNs int64  `json:"clock_offset_ns,omitempty"`
	ServiceNs     int64  `json:"service_ns"`
	Fit           string `json:"fit"`
	// RoundTripNs is the tool's median round trip outside the stalls, as
	// the run saw it (RoundTripHow says from what: roundTripOf); a
	// percentile above ten of it is compared (diffs).
	RoundTripNs  int64      `json:"round_trip_ns"`
	RoundTripHow string     `json:"round_trip_how"`
	OffsetNs     int64      `json:"offset_ns"`
	Diffs        []ToolDiff `json:"diffs"`
	// PredictedClient is the same profile with the server's service time
	// as the server holds it (the query's) and the tool's own time per
	// request (profile.Profile's Client, ClientNs) fitted instead, the same
	// way: the round trip's part the server does not spend.
	PredictedClient ToolMetrics `json:"predicted_client"`
	ClientNs        int64       `json:"client_ns"`
	ServerServiceNs int64       `json:"server_service_ns"`
	DiffsClient     []ToolDiff  `json:"diffs_client"`
	// ServerRequests is how many requests the server answered;
	// RoundTripP50Ns the median time between consecutive request arrivals
	// away from the stalls, times the connections the server served at
	// once (a closed loop's round trip as the server paces it).
	ServerRequests int `json:"server_requests"`
	// ServerArrivalsUs is, for a tool whose clock is fitted (clockFit),
	// when each request reached the server, ascending, each as the µs
	// after the one before (the first after the stall clock's start).
	ServerArrivalsUs []int64 `json:"server_arrivals_us,omitempty"`
	// ServerAcceptsNs is when the server accepted each of the run's
	// connections, in accept order, in ns from the stall clock's start
	// (negative: before the first request). Runs kept before it was
	// recorded have none.
	ServerAcceptsNs []int64 `json:"server_accepts_ns,omitempty"`
	// ServerConnectNs is how long before the run's first request reached
	// the server the connection it came on was accepted (0: not
	// recorded). A tool that starts its clock at its connect
	// (startsAtConnect) has its model's clock start that much earlier
	// than its first request (ConnectNs: the shift used, 0 if none).
	ServerConnectNs int64      `json:"server_connect_ns,omitempty"`
	ConnectNs       int64      `json:"connect_ns,omitempty"`
	GapMeanNs       float64    `json:"server_gap_mean_ns"`
	GapP50Ns        float64    `json:"server_gap_p50_ns"`
	LoadAverage     [2]float64 `json:"load_average"`
	WallNs          int64      `json:"wall_ns"`
	Err             string     `json:"error,omitempty"`
	// edge and edgeClient are, per percentile of the prediction (plain and
	// with client time), stallEdge's distance in ranks from the stall
	// share's boundary (TestPredictTools, TestRepredict print them).
	edge, edgeClient map[string]int64
	// samples is the server's record of every request of the run, in the
	// order it wrote the replies (TestPredictTools keeps it with
	// OMISSION_PREDICT_SAMPLES).
	samples []holdSample
}

// runTool runs one real tool against a fresh server and predicts it.
func runTool(ctx context.Context, cfg sim.Config, name, path string) *ToolRun {
	t, _ := realToolByName(name)
	return runRealTool(ctx, cfg, t, path)
}

// runRealTool is runTool for the tool t (a test's copy of one, with more
// arguments).
func runRealTool(ctx context.Context, cfg sim.Config, t realTool, path string) *ToolRun {
	name := t.name()
	tr := &ToolRun{Tool: name}
	tr.LoadAverage[0] = LoadAverage()
	start := time.Now()
	defer func() {
		tr.LoadAverage[1] = LoadAverage()
		tr.WallNs = int64(time.Since(start))
	}()
	dir, err := os.MkdirTemp("", "omission-"+name+"-")
	if err != nil {
		tr.Err = err.Error()
		return tr
	}
	defer os.RemoveAll(dir)
	srv, err := StartToolServer(ctx, cfg)
	if err != nil {
		tr.Err = err.Error()
		return tr
	}
	tr.Server = srv.Addr()
	args, err := t.run.Args(cfg, srv.Addr(), dir)
	if err == nil {
		err = writeFiles(t.run, cfg, srv.Addr(), dir)
	}
	if err != nil {
		srv.Close()
		tr.Err = err.Error()
		return tr
	}
	tr.Command = strings.Join(append([]string{filepath.Base(path)}, args...), " ")
	if t.run.Then != nil {
		tr.Command += "; " + strings.Join(append([]string{filepath.Base(path)}, t.run.Then("")...), " ")
	}
	// The run: the duration, the stall and 2 s of drain, and 30 s for a
	// tool's start (locust imports for seconds).
	rctx, cancel := context.WithTimeout(ctx, time.Duration(cfg.Duration)+DrainLimit(cfg)+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(rctx, path, args...)
	out, err := cmd.CombinedOutput()
	if err == nil && t.run.Then != nil {
		out, err = exec.CommandContext(rctx, path, t.run.Then(dir)...).Output()
	}
	if err == nil && t.run.Printout != "" {
		// The file it wrote is its printout (JMeter's JTL).
		out, err = os.ReadFile(filepath.Join(dir, t.run.Printout))
	}
	srv.mu.Lock()
	samples := append([]holdSample(nil), srv.stats...)
	srv.mu.Unlock()
	tr.ServerAcceptsNs = srv.Accepts()
	srv.Close()
	tr.samples = samples
	tr.Output = string(out)
	if err != nil {
		tr.Err = fmt.Sprintf("%s: %v: %s", tr.Command, err, lastLines(string(out), 5))
		return tr
	}
	f, err := measure.Parse(name+".out", out)
	if err != nil {
		tr.Err = err.Error()
		return tr
	}
	tr.Format = string(f.Format)
	tr.Measured = metricsOfDist(&f.Dists[0])
	v := viewOfSamples(samples, cfg)
	tr.ServerRequests, tr.GapMeanNs, tr.GapP50Ns = v.requests, v.gapMean, v.gapP50
	tr.OffsetNs = v.firstNs
	v.connectNs = connectOf(samples, tr.ServerAcceptsNs)
	tr.ServerConnectNs = v.connectNs
	if t.run.ClockFit {
		prev := int64(0)
		for _, a := range v.arrivals {
			tr.ServerArrivalsUs = append(tr.ServerArrivalsUs, a/1000-prev)
			prev = a / 1000
		}
		// The clock is fitted on what is kept, to the µs, so that
		// TestRepredict fits the same.
		v.arrivals = arrivalsOf(tr.ServerArrivalsUs)
	} else {
		v.arrivals = nil
	}
	if err := predictRun(cfg, t, tr, f, v); err != nil {
		tr.Err = err.Error()
	}
	return tr
}

// writeFiles writes the files a tool's run reads into its scratch
// directory.
func writeFiles(r tools.Real, cfg sim.Config, addr, dir string) error {
	if r.Files == nil {
		return nil
	}
	files, err := r.Files(cfg, addr)
	if err != nil {
		return err
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// without turns off, for a comparison of builds on the same runs
// (TestRepredict, OMISSION_PREDICT_WITHOUT), the run length from the
// printout ("runlength"). withClock turns on the clock fit
// (OMISSION_PREDICT_WITH=clock): off by default, because on the quiet
// sweep of testdata/predict-runs-all-2026-12-02-quiet.json it fixed 3
// compared figures (vegeta p99) and broke 8 (fortio p99.9, vegeta p90,
// wrk2 p99): the offsets it finds (vegeta −1.4 to −3.5 ms, fortio +1.0
// to +2.8 ms, wrk2 +1.7 to +4.4 ms) are real, but the model's sends
// after a stall, which the median cannot tell from the steady ones, are
// not yet what the tools do.
var (
	without   = map[string]bool{}
	withClock = false
)

// predictRun fits the model to one real run (its parsed printout f and the
// server's view v of it, tr.Measured already read from f) and fills tr's
// predictions: the service time fitted to the run, then the same with the
// server's service time and the tool's own time per request fitted
// instead. TestRepredict calls it again on kept runs.
func predictRun(cfg sim.Config, t realTool, tr *ToolRun, f *measure.File, v serverView) error {
	name := t.name()
	d := &f.Dists[0]
	// printed: the median round trip the tool printed, when the fit is
	// not to it (fitMean).
	var printed int64
	tr.ConnectNs = 0
	if t.run.StartsAtConnect && v.connectNs > 0 && !without["connect"] {
		// The tool's clock starts when its first request's connection was
		// accepted, that long before the request.
		tr.ConnectNs = v.connectNs
	}
	m := shifted(cfg, v.firstNs-tr.ConnectNs)
	if t.run.RunLength != nil && !without["runlength"] {
		if n, how, ok := t.run.RunLength(tr.Output); ok && n != m.Duration {
			m.Duration = n
			tr.RunLength = how
		}
	}
	if t.backToBack() {
		if tr.Measured.Requests == nil {
			return errors.New("the printout has no request count to fit the service time to")
		}
		s0 := cfg.Service
		if v.gaps > 0 {
			busy := int64(cfg.Conns)
			if cfg.Workers > 0 {
				busy = min(busy, int64(cfg.Workers))
			}
			s0 = int64(v.gapMean) * busy
		}
		s, err := fitCount(m, name, t.run.Requests, *tr.Measured.Requests, s0)
		if err != nil {
			return err
		}
		m.Service = s
		tr.Fit = fmt.Sprintf("the request count: the service time at which the %s profile answers %d requests (the server's mean gap between arrivals away from the stalls, times the connections it serves at once: %s)", name, *tr.Measured.Requests, time.Duration(s0))
	} else {
		rt := d
		if t.run.RoundTrip != nil {
			rt = t.run.RoundTrip(f, tr.Output)
		}
		if rt == nil || rt.P[0].How == measure.Missing {
			return errors.New("the printout has no median round trip to set the service time to")
		}
		m.Service = max(rt.P[0].Ns, 1000)
		tr.Fit = fmt.Sprintf("the tool's median round trip (reply − send, %s, precision: %s)", rt.Label, rt.Precision)
		if t.run.GapRoundTrip && m.Service < t.run.Unit/2 && v.gaps > 0 && v.gapP50 > 0 {
			// One process sends every connection's share (Node's one
			// thread): the server's gap between request starts is the
			// time a request takes it, whatever the connections, and the
			// model's one worker at that service sends a share as fast.
			m.Service = int64(v.gapP50)
			tr.Fit = fmt.Sprintf("the server's median gap between request starts away from the stalls (%s): the tool sends its share back to back, one request at a time over its connections, and printed its median round trip under half its %s", time.Duration(int64(v.gapP50)), time.Duration(t.run.Unit))
		}
		if t.run.FitMean {
			if !d.HasMean {
				return errors.New("the printout has no mean to fit the service time to")
			}
			printed = m.Service
			s, err := fitMeanOf(1000, max(int64(d.MeanNs), 2000), d.MeanNs, func(s int64) (*tools.Output, error) {
				c := m
				c.Service = s
				return tools.Run(c, name)
			})
			if err != nil {
				return err
			}
			m.Service = s
			tr.Fit = fmt.Sprintf("the tool's mean latency, %s: the service time at which the %s profile prints it (its median, %s, is an interpolation within its first histogram bucket, not a round trip)", time.Duration(int64(d.MeanNs)), name, time.Duration(printed))
		}
	}
	o, err := tools.Run(m, name)
	if err != nil {
		return err
	}
	if t.run.ClockFit && len(v.arrivals) > 0 && withClock {
		// Twice: the model's sends after a stall move a little with the
		// stalls.
		for range 2 {
			off, ok := clockOffset(v.arrivals, o.Run.Send)
			if !ok {
				break
			}
			svc, dur := m.Service, m.Duration
			m = shifted(cfg, off)
			m.Service, m.Duration = svc, dur
			if o, err = tools.Run(m, name); err != nil {
				return err
			}
			tr.ClockOffsetNs = off
		}
		tr.Clock = fmt.Sprintf("the tool's clock set %s from the server's by the median of (k-th arrival at the server − the model's k-th send) over the run (its first request reached the server %s after the stall clock's start)",
			signedDuration(tr.ClockOffsetNs), time.Duration(v.firstNs))
	}
	tr.ServiceNs = m.Service
	tr.ModelQuery = m.Query()
	tr.Predicted = metricsOfOutput(o, t.run.Requests(o))
	rtNs := m.Service
	if printed > 0 {
		// The figures compared are those above ten of the round trips
		// the tool printed, as for every scheduled tool.
		rtNs = printed
	}
	tr.RoundTripNs, tr.RoundTripHow = roundTripOf(t, cfg, rtNs, v)
	tr.Diffs = diffs(tr.Measured, tr.Predicted, tr.RoundTripNs)
	tr.edge = stallEdge(o, tr.RoundTripNs)

	// The same with the server's own service time and the client's time
	// fitted.
	mc := m
	mc.Service = cfg.Service
	var client int64
	if t.backToBack() {
		if client, err = fitClient(mc, name, t.run.Requests, *tr.Measured.Requests, 4*int64(cfg.Conns)*m.Service); err != nil {
			return errors.New("client fit: " + err.Error())
		}
	} else if t.run.FitMean {
		if client, err = fitMeanOf(0, max(int64(d.MeanNs), 2000), d.MeanNs, func(c int64) (*tools.Output, error) {
			return tools.RunClient(mc, name, c)
		}); err != nil {
			return errors.New("client fit: " + err.Error())
		}
	} else {
		client = max(m.Service-cfg.Service, 0)
	}
	oc, err := tools.RunClient(mc, name, client)
	if err != nil {
		return errors.New("client fit: " + err.Error())
	}
	tr.ClientNs, tr.ServerServiceNs = client, cfg.Service
	tr.PredictedClient = metricsOfOutput(oc, t.run.Requests(oc))
	// The same metrics as the service fit compares: ten of the tool's
	// round trips, which do not depend on the fit.
	tr.DiffsClient = diffs(tr.Measured, tr.PredictedClient, tr.RoundTripNs)
	tr.edgeClient = stallEdge(oc, tr.RoundTripNs)
	return nil
}

// fitCount finds the service time (whole ns) at which the profile's
// request count is nearest the real one: the count falls as the service
// time grows. It searches from s0/4 to 4·s0.
func fitCount(m sim.Config, name string, count func(*tools.Output) int64, want, s0 int64) (int64, error) {
	return fitFalling(max(s0/4, 1000), max(4*s0, 2000), want, func(s int64) (int64, error) {
		c := m
		c.Service = s
		o, err := tools.Run(c, name)
		if err != nil {
			return 0, err
		}
		return count(o), nil
	})
}

// fitClient finds the client's time per request (whole ns, profile.Profile's
// Client) at which the profile's request count on m is nearest the real
// one, from 0 to hi.
func fitClient(m sim.Config, name string, count func(*tools.Output) int64, want, hi int64) (int64, error) {
	return fitFalling(0, max(hi, 2000), want, func(c int64) (int64, error) {
		o, err := tools.RunClient(m, name, c)
		if err != nil {
			return 0, err
		}
		return count(o), nil
	})
}

// fitMeanOf finds the x (whole ns) in [lo, hi] at which the mean the
// profile run(x) prints (read back with package measure, as the real
// printout is) is nearest want; the mean rises with x (fitFalling on its
// negative).
func fitMeanOf(lo, hi int64, want float64, run func(int64) (*tools.Output, error)) (int64, error) {
	return fitFalling(lo, hi, -want, func(x int64) (float64, error) {
		o, err := run(x)
		if err != nil {
			return 0, err
		}
		p, err := measure.Parse(o.Name+".out", []byte(o.Text))
		if err != nil {
			return 0, err
		}
		if !p.Dists[0].HasMean {
			return 0, errors.New("the profile's printout has no mean")
		}
		return -p.Dists[0].MeanNs, nil
	})
}

// fitFalling bisects [lo, hi] for the x at which at(x), falling in x, is
// nearest want. An x at which at fails (too many sends for a profile run)
// counts as too small.
func fitFalling[V int64 | float64](lo, hi int64, want V, at func(int64) (V, error)) (int64, error) {
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		n, err := at(mid)
		if err != nil || n > want {
			lo = mid
		} else {
			hi = mid
		}
	}
	nl, errl := at(lo)
	nh, errh := at(hi)
	switch {
	case errl != nil && errh != nil:
		return 0, errh
	case errl != nil:
		return hi, nil
	case errh != nil:
		return lo, nil
	}
	if absDiff(nl, want) <= absDiff(nh, want) {
		return lo, nil
	}
	return hi, nil
}

// absDiff is |a − b|.
func absDiff[V int64 | float64](a, b V) V {
	if a < b {
		return b - a
	}
	return a - b
}

func metricsOfDist(d *measure.Dist) ToolMetrics {
	var m ToolMetrics
	if d.Count >= 0 {
		m.Requests = ptrTo(d.Count)
	}
	for i, dst := range m.Ps() {
		// Only what the printout states: a percentile it does not print is
		// not taken from a histogram or a spectrum.
		if p := d.P[i]; p.How != measure.Missing && p.How != measure.FromSpectrum {
			*dst = ptrTo(p.Ns)
		}
	}
	if d.MaxNs >= 0 {
		m.MaxNs = ptrTo(d.MaxNs)
	}
	return m
}

func metricsOfOutput(o *tools.Output, requests int64) ToolMetrics {
	return ToolMetrics{Requests: ptrTo(requests), Tail: sim.Tail[*int64]{P50Ns: ptrTo(o.P50Ns), P90Ns: ptrTo(o.P90Ns), P99Ns: ptrTo(o.P99Ns),
		P999Ns: ptrTo(o.P999Ns), P9999Ns: ptrTo(o.P9999Ns), MaxNs: ptrTo(o.MaxNs)}}
}

func ptrTo[T any](v T) *T { return &v }

// roundTripOf is the tool's own median round trip outside the stalls, as
// its run saw it, and from what: the unit of diffs' "above ten round
// trips". For a tool whose service time is fitted to its request count
// (backToBack: wrk, hey, ab) the fitted service time is the server's time
// per request, not a round trip: c connections of a closed loop share one
// server, each waits for the others' requests, and its round trip is
// about c times the service time (wrk at 8 connections: 0.8 ms against
// 0.1 ms). Ten of the service time then compares, at c = 8, figures of
// about 1.3 round trips (wrk's and hey's p90 of 1.4 ms), the round trip's
// own spread, not a stall. Such a loop sends one request per connection
// per round trip, so the server's median gap between the starts of
// consecutive requests away from the stalls (serverView, which leaves out
// every gap a stall spans or a held request touches), times the
// connections, is its median round trip, measured by the server and not
// by the printout's rounding (ab prints whole ms, 0 ms at 1 connection).
// For the other tools the fitted service time already is the tool's own
// median round trip, reply − send, from its printout (wrk2's uncorrected
// histogram, -U): their gap between arrivals follows the schedule, not
// the round trip. A stall holds at most a quarter of any scenario's
// requests (1 s of 4 s), so that median is a round trip outside them. The same value bounds the plain and the client-time
// predictions: it is the run's, not the fit's.
func roundTripOf(t realTool, cfg sim.Config, service int64, v serverView) (int64, string) {
	if t.backToBack() && v.gaps > 0 && v.gapP50 > 0 {
		c := int64(max(cfg.Conns, 1))
		return int64(v.gapP50) * c, fmt.Sprintf("%d connections × the server's median gap between request starts away from the stalls (%s)", c, time.Duration(int64(v.gapP50)))
	}
	if t.run.Unit > 0 && service < t.run.Unit/2 {
		// locust's median printed 0 ms: its round trip is under half a
		// millisecond, and the fitted service its floor, not a round trip
		// (ten of it, 10 µs, compared a p90 of 1 ms against the model's
		// 0 ms as a stall: +inf %). Half the unit bounds it from above.
		return t.run.Unit / 2, fmt.Sprintf("half of the printout's %s (its median round trip printed below it)", time.Duration(t.run.Unit))
	}
	return service, "the tool's median round trip, as fitted"
}

// diffPct is 100·(real − predicted)/predicted, 0 when both are 0, nil
// when only predicted is (ToolDiff.Pct).
func diffPct(real, predicted int64) *float64 {
	switch {
	case predicted != 0:
		return ptrTo(100 * float64(real-predicted) / float64(predicted))
	case real == 0:
		return ptrTo(0.0)
	}
	return nil
}

// diffs compares what both have: the request count always, p90 and above
// when the real value is above ten of the tool's round trips (roundTrip,
// roundTripOf).
func diffs(real, pred ToolMetrics, roundTrip int64) []ToolDiff {
	var out []ToolDiff
	rf, pf := real.fields(), pred.fields()
	for i, name := range toolMetricNames {
		r, p := *rf[i], *pf[i]
		if r == nil || p == nil {
			continue
		}
		d := ToolDiff{Metric: name, Real: *r, Predicted: *p, Pct: diffPct(*r, *p)}
		d.Compared = name == "requests" || i >= 2 && *r > 10*roundTrip
		out = append(out, d)
	}
	return out
}

// stallEdge says, for each percentile p90 and above of a prediction, how
// far its rank stands from the stall share's boundary in the model's
// recorded latencies: with n recorded and S of them above ten round trips
// (the stalled ones, as diffs counts them), the percentile q's
// nearest rank ⌈q·n⌉ minus n − S, the rank of the last request the stalls
// left alone. 0 or 1: the percentile is one of the two requests on either
// side of the boundary, so one request more or less in the stalls (a
// stall's edge a few µs off, a request more or less before the end) moves
// it between a round trip and a stall's length. Nil without the model's
// latencies.
func stallEdge(o *tools.Output, roundTrip int64) map[string]int64 {
	if o == nil || o.Run == nil || len(o.Run.Latency) == 0 {
		return nil
	}
	n := int64(len(o.Run.Latency))
	var stalled int64
	for _, l := range o.Run.Latency {
		if l > 10*roundTrip {
			stalled++
		}
	}
	out := map[string]int64{}
	for i, den := range []int64{10, 100, 1000, 10000} {
		rank := ((den-1)*n + den - 1) / den // ⌈(1 − 1/den)·n⌉
		out[toolMetricNames[2+i]] = rank - (n - stalled)
	}
	return out
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " | ")
}

// serverView is what the server's own record says about a run: when the
// tool's first request arrived (ns after the server's epoch: the tool's
// start is that much later than the stall clock's), and the time between
// the starts of consecutive requests away from stalls, mean and median: a
// back-to-back tool's round trip as the server paces it.
type serverView struct {
	firstNs         int64
	connectNs       int64   // the first request's arrival − its connection's accept (connectOf)
	arrivals        []int64 // every request's arrival, ascending
	gapMean, gapP50 float64
	gaps, requests  int
}

func viewOfSamples(samples []holdSample, cfg sim.Config) serverView {
	st := stallsOf(cfg)
	starts := make([]int64, len(samples))
	touched := map[int64]bool{}
	for i, x := range samples {
		starts[i] = x.start
		if x.planned-x.start != cfg.Service {
			touched[x.start] = true
		}
	}
	slices.Sort(starts)
	v := serverView{requests: len(starts)}
	for _, x := range samples {
		v.arrivals = append(v.arrivals, x.arrival)
	}
	sim.SortInt64s(v.arrivals)
	if len(starts) == 0 {
		return v
	}
	v.firstNs = starts[0]
	var gaps []float64
	for i := 1; i < len(starts); i++ {
		a, b := starts[i-1], starts[i]
		// A stall inside (a, b], or a request the stall stretched or held:
		// not a round trip.
		if ns := st.nextStart(a + 1); ns >= 0 && ns <= b || st.containing(b) >= 0 || touched[a] || touched[b] {
			continue
		}
		gaps = append(gaps, float64(b-a))
	}
	if len(gaps) == 0 {
		return v
	}
	slices.Sort(gaps)
	var sum float64
	for _, g := range gaps {
		sum += g
	}
	v.gaps, v.gapMean, v.gapP50 = len(gaps), sum/float64(len(gaps)), gaps[len(gaps)/2]
	return v
}

// connectOf is how long before the run's first request arrived its
// connection was accepted (accepts: Server.Accepts, by accept order), or 0
// if unknown. The first request's own connection, not the first accepted:
// wrk2 (as wrk) first connects once to check the address and closes it
// (wrk.resolve, src/wrk.lua 12-20, script_wrk_connect, src/script.c
// 463-467), and the server accepts that probe before every connection of
// the run.
func connectOf(samples []holdSample, accepts []int64) int64 {
	first := -1
	for i, x := range samples {
		if first < 0 || x.arrival < samples[first].arrival {
			first = i
		}
	}
	if first < 0 || int(samples[first].conn) >= len(accepts) {
		return 0
	}
	return max(samples[first].arrival-accepts[samples[first].conn], 0)
}

// arrivalsOf decodes ServerArrivalsUs into ns.
func arrivalsOf(us []int64) []int64 {
	out := make([]int64, len(us))
	at := int64(0)
	for i, d := range us {
		at += d
		out[i] = at * 1000
	}
	return out
}

// clockOffset is where a tool's clock stands from the server's stall clock
// (ns; negative: it started before), from its whole run: the median over k
// of (a[k+d] − s[k]), a the real arrivals at the server, s the model's sends
// on the tool's clock, both sorted, d the arrivals the model has no send
// for, taken as the first (fortio's warm-up calls: one per connection
// before its run starts, periodic/periodic.go). A tool's first request
// alone can be late on its schedule by its start-up (vegeta under load
// sent its first 17 hits together, 34 ms late, then on time) and moves
// every stall by as much against the tool's sends; the median holds to
// the run's steady part. A send that waits for a stall is one of a few,
// and the median skips it. ok is false without a pair.
func clockOffset(a, model []int64) (int64, bool) {
	s := append([]int64(nil), model...)
	sim.SortInt64s(s)
	d := max(0, len(a)-len(s))
	n := min(len(a)-d, len(s))
	if n < 1 {
		return 0, false
	}
	diffs := make([]int64, n)
	for k := range n {
		diffs[k] = a[k+d] - s[k]
	}
	sim.SortInt64s(diffs)
	return diffs[n/2], true
}

func signedDuration(ns int64) string {
	if ns < 0 {
		return "−" + time.Duration(-ns).String() + " (the tool's clock started first)"
	}
	return "+" + time.Duration(ns).String()
}

// shifted is cfg with the stall schedule as the tool met it: its clock
// starts offset ns after the server's.
func shifted(cfg sim.Config, offset int64) sim.Config {
	c := cfg
	if c.Stall == 0 {
		return c
	}
	first := c.First - offset
	if c.Every > 0 {
		for first < 0 {
			first += c.Every
		}
	}
	c.First = max(first, 0)
	return c
}
