package experiment

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"omission/app/measure"
	"omission/sim"
)

func config(t testing.TB, q string) sim.Config {
	t.Helper()
	cfg, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestReplyIsTheModels: the server's reply rule gives, for every request of
// the model's closed loop (one connection, one worker: ready at its send),
// the model's completion, over stalls that begin inside services, at
// completions and during them.
func TestReplyIsTheModels(t *testing.T) {
	for _, q := range []string{
		"duration=3s",
		"preset=tcp&duration=12s",
		"rate=997&service=3ms&stall=7ms&every=10ms&first=1ms&duration=2s",
		"rate=100&service=25ms&stall=4ms&every=6ms&first=0s&duration=1s",
		"rate=1000&service=1ms&stall=1s&every=0s&first=1001ms&duration=3s",
	} {
		cfg := config(t, q)
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := stallsOf(cfg)
		cl := &res.Clients[sim.ClosedClient]
		for i := range cl.Done {
			if _, done := st.reply(cl.Send[i], cfg.Service); done != cl.Done[i] {
				t.Fatalf("%s: request %d sent at %d: reply %d, the model's %d", q, i, cl.Send[i], done, cl.Done[i])
			}
		}
	}
}

// TestServerHTTP: the server speaks HTTP/1.1 to Go's own client, holds a
// request that arrives during a stall until the stall ends, and stops on
// Close.
func TestServerHTTP(t *testing.T) {
	cfg := config(t, "service=1ms&stall=300ms&every=0s&first=100ms&duration=1s")
	srv, err := StartServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(srv.Addr(), "127.0.0.1:") {
		t.Fatalf("address %s", srv.Addr())
	}
	get := func() time.Duration {
		resp, err := http.Get("http://" + srv.Addr() + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		buf := make([]byte, 16)
		n, _ := resp.Body.Read(buf)
		if resp.StatusCode != 200 || string(buf[:n]) != "ok" {
			t.Fatalf("status %d body %q", resp.StatusCode, buf[:n])
		}
		return time.Since(srv.Epoch())
	}
	if d := get(); d > 90*time.Millisecond {
		t.Fatalf("the first reply at %v: before the stall it takes the service time", d)
	}
	waitUntil(srv.Epoch().Add(150 * time.Millisecond))
	// Inside the stall [100ms, 400ms): answered when it ends, plus the service.
	if d := get(); d < 401*time.Millisecond || d > 460*time.Millisecond {
		t.Errorf("a request at 150 ms answered at %v, want just after 401 ms", d)
	}
	srv.Close()
	if _, err := net.DialTimeout("tcp", srv.Addr(), 100*time.Millisecond); err == nil {
		t.Error("the server still accepts after Close")
	}
}

// TestServerPipelined: replies to pipelined requests come back in order,
// one per request.
func TestServerPipelined(t *testing.T) {
	srv, err := StartServer(context.Background(), config(t, "service=50us&stall=0s"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(strings.Repeat(string(requestBytes), 50)))
	br := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for i := 0; i < 50; i++ {
		if err := readReply(br); err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
	}
	if h := srv.Hold(); h.Requests != 50 {
		t.Errorf("held %d requests", h.Requests)
	}
}

// TestCheck: a query the experiment cannot run for real is refused naming
// every field.
func TestCheck(t *testing.T) {
	err := Check(config(t, "rate=60000&duration=40s&conns=300&interval=10ms"))
	for _, f := range []string{"rate", "conns", "duration"} {
		if err == nil || !strings.Contains(err.Error(), f+":") {
			t.Errorf("%v: %s not named", err, f)
		}
	}
	if err := Check(config(t, "preset=bench&duration=6s")); err != nil {
		t.Error(err)
	}
}

// shortQuery is the experiment make test runs: 1 s per client, two 100 ms
// stalls, 1000 requests/s (a wide 950 µs margin between a reply and the
// next slot, so that a loaded machine still holds the loose bounds below).
const shortQuery = "rate=1000&service=50us&stall=100ms&every=500ms&first=250ms&duration=1s"

// TestShortExperiment runs the three clients for real for 1 s each (about 3
// s of wall time) and holds them to loose bounds around the model: the open
// loop's p99 and p99.9 within 25 %, the closed loop's p99 under 20 ms and
// its max within 15 % of the stall, the paced client's never-sent count
// within 50 %. The full experiment, held to issue 14's bounds, runs from
// make bench (TestExperimentBench).
func TestShortExperiment(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no real experiment")
	}
	if raceEnabled {
		t.Skip("not under -race (it slows the server and the clients several times): make test runs it alone without the race detector")
	}
	cfg := config(t, shortQuery)
	// A machine too busy to hold the schedule (the server's replies late by
	// milliseconds) is a fact about the machine, not the model: try once
	// more, then skip saying so; a failure on a machine that kept time is a
	// failure.
	var r *Result
	var problems []string
	for attempt := 0; attempt < 2; attempt++ {
		var err error
		if r, err = Run(context.Background(), cfg, Options{}); err != nil {
			t.Fatal(err)
		}
		if problems = shortBounds(r, cfg); len(problems) == 0 {
			break
		}
		t.Logf("attempt %d: %s", attempt+1, strings.Join(problems, "; "))
	}
	var late int64
	for _, cr := range r.MeasuredClients {
		late = max(late, cr.Hold.LateP99Ns)
	}
	if len(problems) > 0 && late > 2e6 {
		t.Skipf("the machine could not hold the schedule: the server's replies were up to %s late at p99 (load average %.2f on %d processors); bounds missed: %s",
			time.Duration(late), r.LoadAverage[0], r.CPUs, strings.Join(problems, "; "))
	}
	for _, p := range problems {
		t.Error(p)
	}
	var text strings.Builder
	r.WriteText(&text)
	t.Log("\n" + text.String())
	for _, name := range []string{"closed", "paced", "open"} {
		cr := r.MeasuredClients[name]
		if cr.Planned != 1000 || cr.Unanswered != 0 || cr.Err != "" || int64(len(cr.Latency)) != cr.Answered || r.Measured[name].Count != cr.Answered {
			t.Errorf("%s: %+v", name, cr)
		}
	}
	if r.MeasuredClients["open"].Sent != 1000 || r.MeasuredClients["closed"].Sent != 1000 {
		t.Errorf("open sent %d, closed %d: both send every planned request", r.MeasuredClients["open"].Sent, r.MeasuredClients["closed"].Sent)
	}
	// The JSON contract, and the exported files read back.
	b, _ := json.Marshal(r)
	var j struct {
		Server          string
		Measured        map[string]map[string]any
		MeasuredClients map[string]map[string]any `json:"measured_clients"`
		Model           map[string]any
	}
	json.Unmarshal(b, &j)
	if _, ok := j.Measured["wrk"]; ok {
		t.Error("measured.wrk without -with wrk")
	}
	if !strings.HasPrefix(j.Server, "127.0.0.1:") || j.Model["recordings"] == nil {
		t.Errorf("server %q, model %v", j.Server, j.Model != nil)
	}
	for _, rec := range []string{"closed", "paced", "open", "corrected", "paced_corrected"} {
		for _, k := range []string{"count", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "p99_99_ns", "max_ns"} {
			if _, ok := j.Measured[rec][k]; !ok {
				t.Errorf("measured.%s.%s missing", rec, k)
			}
		}
	}
	for _, c := range []string{"closed", "paced", "open"} {
		if j.MeasuredClients[c]["planned"] == nil || j.MeasuredClients[c]["sent"] == nil {
			t.Errorf("measured_clients.%s: %v", c, j.MeasuredClients[c])
		}
	}
	for name, set := range r.Sets() {
		var hl strings.Builder
		if err := set.WriteHlog(&hl); err != nil {
			t.Fatal(err)
		}
		f, err := measure.Parse(name+".hlog", []byte(hl.String()))
		if err != nil {
			t.Fatal(err)
		}
		if f.Dists[0].Label != name || f.Dists[0].Count != r.Measured[name].Count || f.Dists[0].UnitNs != 1 {
			t.Errorf("%s.hlog: %s %d (unit %d), measured %d", name, f.Dists[0].Label, f.Dists[0].Count, f.Dists[0].UnitNs, r.Measured[name].Count)
		}
	}
}

// shortBounds holds a short experiment to TestShortExperiment's loose
// bounds and says which it misses.
func shortBounds(r *Result, cfg sim.Config) []string {
	var out []string
	nom := r.Model.Recordings
	within := func(name string, got, want, tol float64) {
		if math.Abs(got-want) > tol*want {
			out = append(out, fmt.Sprintf("%s: measured %.0f, model %.0f (allowed ±%.0f %%)", name, got, want, 100*tol))
		}
	}
	open, closed := r.Measured["open"], r.Measured["closed"]
	within("open p99", float64(open.P99Ns), float64(nom["open"].P99Ns), 0.25)
	within("open p99.9", float64(open.P999Ns), float64(nom["open"].P999Ns), 0.25)
	if closed.P99Ns >= 20e6 {
		out = append(out, fmt.Sprintf("closed p99 %d ns, want under 20 ms", closed.P99Ns))
	}
	within("closed max", float64(closed.MaxNs), float64(cfg.Stall), 0.15)
	paced := r.MeasuredClients["paced"]
	within("paced never sent", float64(paced.Planned-paced.Sent), float64(r.Model.Clients["paced"].Planned-r.Model.Clients["paced"].Sent), 0.5)
	return out
}

// TestInterrupted: a cancelled context stops the run at once and returns
// what was measured, marked.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := Run(ctx, config(t, "preset=tcp&duration=10s"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stopped after %v", d)
	}
	if !r.Interrupted || r.MeasuredClients["closed"] == nil || r.MeasuredClients["closed"].Answered == 0 {
		t.Errorf("interrupted %v, closed %+v", r.Interrupted, r.MeasuredClients["closed"])
	}
}

// TestExperimentBench is the full experiment of issue 14, run by make
// bench (OMISSION_EXPERIMENT=1): bench and tcp for 6 s each, with wrk when
// installed, printing measured against the model as BENCH lines and the
// bounds of the truth (open p99 and p99.9 within 5 % of the model,
// closed p99 under 2 ms and its max the stall within 5 %, paced never-sent
// within 10 %) as a count of failures per preset.
func TestExperimentBench(t *testing.T) {
	if os.Getenv("OMISSION_EXPERIMENT") == "" {
		t.Skip("set OMISSION_EXPERIMENT=1 (make bench) to run the full experiment")
	}
	var opt Options
	if p, err := FindTool("wrk"); err == nil {
		opt.With, opt.Paths = []string{"wrk"}, map[string]string{"wrk": p}
	}
	for _, preset := range []string{"bench", "tcp"} {
		cfg := config(t, "preset="+preset+"&duration=6s")
		r, err := Run(context.Background(), cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		r.WriteText(&text)
		t.Log("\n" + text.String())
		bench := func(name string, v float64, unit string) {
			fmt.Printf("BENCH experiment.%s.%s %s %s\n", preset, name, trim(v), unit)
		}
		nom := r.Model.Recordings
		diff := func(a, b float64) float64 { return 100 * (a - b) / b }
		failed := 0
		check := func(ok bool, what string) {
			if !ok {
				failed++
				t.Logf("%s: outside issue 14's bound", what)
			}
		}
		for _, m := range []struct {
			rec, metric string
			meas, model int64
		}{
			{"open", "p99", r.Measured["open"].P99Ns, nom["open"].P99Ns},
			{"open", "p99_9", r.Measured["open"].P999Ns, nom["open"].P999Ns},
			{"closed", "p99", r.Measured["closed"].P99Ns, nom["closed"].P99Ns},
			{"closed", "max", r.Measured["closed"].MaxNs, nom["closed"].MaxNs},
			{"paced", "p50", r.Measured["paced"].P50Ns, nom["paced"].P50Ns},
		} {
			bench(m.rec+"_"+m.metric+".measured", float64(m.meas), "ns")
			bench(m.rec+"_"+m.metric+".model", float64(m.model), "ns")
			bench(m.rec+"_"+m.metric+".diff", diff(float64(m.meas), float64(m.model)), "%")
		}
		paced := r.MeasuredClients["paced"]
		ns, mns := float64(paced.Planned-paced.Sent), float64(r.Model.Clients["paced"].Planned-r.Model.Clients["paced"].Sent)
		bench("paced_never_sent.measured", ns, "requests")
		bench("paced_never_sent.model", mns, "requests")
		bench("paced_never_sent.diff", diff(ns, mns), "%")
		bench("round_trip", float64(r.RoundTripNs), "ns")
		bench("service_late_mean.open", r.MeasuredClients["open"].Hold.LateMeanNs, "ns")
		for _, tr := range r.Tools {
			if m := tr.Measured; tr.Err == "" && m.P99Ns != nil {
				bench("wrk_p50", float64(*m.P50Ns), "ns")
				bench("wrk_p99", float64(*m.P99Ns), "ns")
				bench("wrk_max", float64(*m.MaxNs), "ns")
				bench("wrk_requests", float64(*m.Requests), "requests")
			}
		}
		check(math.Abs(diff(float64(r.Measured["open"].P99Ns), float64(nom["open"].P99Ns))) <= 5, "open p99")
		check(math.Abs(diff(float64(r.Measured["open"].P999Ns), float64(nom["open"].P999Ns))) <= 5, "open p99.9")
		check(r.Measured["closed"].P99Ns < 2e6, "closed p99")
		check(math.Abs(diff(float64(r.Measured["closed"].MaxNs), float64(cfg.Stall))) <= 5, "closed max")
		check(math.Abs(diff(ns, mns)) <= 10, "paced never sent")
		bench("truth_failed", float64(failed), "bounds")
		bench("load_average.start", r.LoadAverage[0], "load")
		bench("load_average.end", r.LoadAverage[1], "load")
	}
}

func trim(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// TestWriteTextWords: the experiment's text writes its durations as the
// page does (app/units), its table's values too.
func TestWriteTextWords(t *testing.T) {
	r := &Result{Query: "preset=bench", Server: "127.0.0.1:1", Transport: "tcp", cfg: config(t, "preset=bench"),
		ServiceNs: 100e3, RoundTripNs: 118_350, WallNs: 3_254_000_000,
		Measured: map[string]Metrics{"closed": {Count: 5000, MeanNs: 140e3, Tail: sim.Tail[int64]{P50Ns: 100e3, MaxNs: 200_100_000}}}}
	var b strings.Builder
	r.WriteText(&b)
	text := b.String()
	for _, want := range []string{
		"stalls 200 ms every 1 s from 500 ms,",
		"service: 100 µs; round trip measured 118.3 µs;",
		" mean    140 µs ",
		" max  200.1 ms ",
		" above 1 ms ",
		"\nwall time 3.254 s;",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// TestServerAccepts: the tool server keeps each connection's accept on the
// stall clock, which starts at the first request; connectOf measures the
// first request's own connection, not a probe accepted before it (wrk2's
// wrk.resolve connects once and closes).
func TestServerAccepts(t *testing.T) {
	cfg := config(t, "service=1ms&stall=10ms&every=100ms&first=50ms&duration=1s")
	srv, err := StartToolServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	probe, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	probe.Close()
	// Gaps of 30 and 20 ms, held below to more than 2 and 1 ms: a loaded
	// machine's accept loop may take the probe late (with 3 and 2 ms
	// sleeps, make test under load saw the two accepts 1.4 ms apart).
	time.Sleep(30 * time.Millisecond)
	c, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(20 * time.Millisecond)
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	if _, err := c.Read(buf); err != nil {
		t.Fatal(err)
	}
	a := srv.Accepts()
	srv.mu.Lock()
	samples := append([]holdSample(nil), srv.stats...)
	srv.mu.Unlock()
	if len(a) != 2 || len(samples) != 1 {
		t.Fatalf("accepts %v, %d requests: want 2 accepts, 1 request", a, len(samples))
	}
	// The probe 30 ms before the run's connection, which came 20 ms before
	// its request, the stall clock's start.
	if !(a[0] < a[1]-2e6 && a[1] < -1e6) {
		t.Errorf("accepts %v ns from the stall clock: want the probe more than 2 ms before the run's connection, and that more than 1 ms before 0", a)
	}
	got := connectOf(samples, a)
	if want := samples[0].arrival - a[1]; got != want || got < 1e6 {
		t.Errorf("connectOf = %d ns, want %d (the request's own connection), at least 1 ms", got, want)
	}
	if n := connectOf(nil, a); n != 0 {
		t.Errorf("connectOf without requests = %d, want 0", n)
	}
	if n := connectOf(samples, nil); n != 0 {
		t.Errorf("connectOf without accepts = %d, want 0", n)
	}
}
