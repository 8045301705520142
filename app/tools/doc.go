// Package tools holds each real load generator whole, as one descriptor
// (Tool) in a file of its own: what it does in words and as a rule, the
// command it stands for, its mechanics (a profile.Profile, sim/profile), its
// summarising rule (nearest rank, HdrHistogram, wrk's microsecond array,
// t-digest, k6's trend, …) and its output layout, each re-implemented from
// the tool's own source and cited file and line; what the fit needs of its
// files (its timing class, read from its profile; the formats it writes;
// its print unit; what its file states of the run, StatedIn); how the experiment runs it for real (Real); and, in
// reader_NAME.go, the reader of its printout or JSON report (a
// measure.Reader with its Format), which this package registers with
// measure.Parse from its init: app/measure reads HdrHistogram's files and
// CSV and knows no tool, so a program that parses a tool's file links this
// package (the page, the fit and fit.wasm, the worker, the experiment and
// the report command all do). Other packages ask the descriptor (Lookup,
// Writing) and compare no tool names. It builds for js/wasm: the page calls
// Run and its worker reads files.
//
// The command a tool stands for is one the real tool accepts, to be run as
// printed: whole seconds where it takes no other (wrk's and wrk2's -d,
// locust's -t; rounded up, "-d21s" for 20.01 s), an integer per a time unit
// where it takes one (vegeta's -rate 500/1s, k6's rate and timeUnit; a
// fractional rate in thousandths per 1000 s). TestCommandsParse parses each
// with its tool's documented grammar; TestCommandsRun (make test-long) runs each
// tool's command as printed, for a whole second and for a fitted run's odd
// duration and rate, where the tool is installed (12 of the 16 here: not
// k6 nor oha).
//
// Adding a tool is one file here: its Tool and, when the experiment runs
// it, its Real; its line in the registry (tools.go) and in runs
// (real_run.go); its mechanics in sim's profile when they are new. A tool
// that writes a format of its own adds its reader, reader_NAME.go, its
// line in readers (tools.go) and, for the fit, what its file states
// (stated.go); TestEachToolsFileIsRead reads every tool's
// files back through measure.Parse.
//
// # Reading the tools' files
//
// Parse asks the readers in three passes over a printout's lines (When):
// wrk2 first (its printout holds wrk's lines and an .hgrm spectrum); then
// ab, hey, fortio, locust, bombardier, autocannon and Artillery, on any line; then wrk, line by line after
// measure's .hlog and .hgrm markers; k6's CSV output is told by its
// header, in the first pass (the page's build reads its durations and
// not its times, k6time_minimal.go: the fit, in fit.wasm, reads both). A JSON object goes to the reader whose
// keys it has: k6 --summary-export, vegeta report -type json, oha --json,
// bombardier -o json, autocannon -j, artillery run --output (fortio's
// printout, after its JSON log lines, is read as text). A
// JMeter JTL is told by its header (timeStamp,…,elapsed,…) and keeps
// every sample (measure.Dist.Samples); JMeter writes it as it runs,
// beside its console's lines (Output.File, which RunJSON writes). Its
// reader is left out of the page's app.wasm (reader_jmeter_read.go, 4.5
// kB after gzip): there a JTL is refused with where it is read, the
// command's report -measured and report -fit. Each
// reader cites the tool's source for the layout it reads; the real
// printouts they are tested on are in app/measure/testdata/real. The
// checks that a printout is whole (measure.File.Incomplete) are left out
// of the page's build, with measure's own (reader_whole.go: the page asks
// fit.wasm, which has them, of each file given), and so is what
// a file states of its run beyond its latencies (NAMEStated in each
// reader_NAME.go: requests, duration, connections, rate; set on the
// descriptors in stated.go), which only the fit asks. The readers'
// files are named reader_NAME.go, not NAME_reader.go, so that they sit
// together: app.wasm compresses them better side by side (2.3 kB after
// gzip, against a budget, TestWasmSize, with little room).
//
// It may import sim, sim/profile (its mechanics), app/measure (the formats
// its files are read as, and the readers' toolkit: Line, Decimal, Scan,
// ReadSpectrum, HgrmLayout, Dist.Finish) and app/units to write durations
// for people (its notes).
//
// # How a tool is modelled
//
// A tool is a profile.Profile: how many requests it holds in flight, when it
// sends, what it subtracts and what it keeps. profile.Run plays it
// against the query's server; this package then summarises the samples with
// the tool's own rule and prints them in the tool's layout. The query's
// rate is the tool's target rate, conns its connections or virtual users,
// and duration its run length. The server is the query's stalling one,
// with a fixed service or a service distribution (dist=): each request's
// service is the next draw of the seed's service stream, in the order the
// server takes them, as the event engine draws it, so the profiles of the
// closed, paced and open clients give the engine's recordings sample for
// sample. RunClient adds the tool's own time per request (profile.Profile's
// Client: a reply reaches the tool that long after the server wrote it),
// which app/experiment fits to real runs; it is not a query field.
//
// The report command prints one tool (report -tool NAME QUERY), and
// report -json 'QUERY&tools=wrk,wrk2' adds tools.<name>.{planned, sent,
// recorded, dropped, p50_ns, p90_ns, p99_ns, p99_9_ns, p99_99_ns, max_ns,
// text} for each tool named.
//
// Not modelled: bytes (every byte count prints 0), connection set-up,
// request phases (hey's and oha's detail lines), and the event engine's
// random arrivals, queues, timeouts, outages, slowdowns, retries and think
// time: a tool run on such a query is refused with a message that names
// them.
//
// # The tools
//
// Names lists them in this order; TestDocTools holds this list to it.
//
//   - wrk: wrk 4.1 -t1. Back to back, a microsecond clock, a 2 s timeout,
//     stats_correct afterwards, --latency's 50/75/90/99. Follows wg/wrk
//     src/stats.c and src/wrk.c.
//   - wrk2: -R rate. usec_to_next_send per connection (catching up at twice
//     the rate), millisecond timers, latency from the schedule, the
//     calibration reset after 10 s plus 5 ms a connection, HdrHistogram's
//     spectrum. Follows giltene/wrk2 src/wrk.c and src/hdr_histogram.c.
//   - k6-vus: the constant-vus executor. Back to back, with the legacy
//     end-of-test summary (http_req_duration's avg, min, med, max, p(90),
//     p(95)). Follows grafana/k6 metrics/sink.go and
//     internal/js/summary-legacy.js.
//   - k6-arrival: the constant-arrival-rate executor with a pool of conns
//     VUs: a late iteration is dropped (dropped_iterations). Follows
//     grafana/k6 lib/executor/constant_arrival_rate.go.
//   - k6-vus-csv: k6-vus with --out csv (timeFormat rfc3339_nano): a row
//     per request for http_reqs and http_req_duration, each timestamped
//     at its reply, and vus and vus_max each second. Follows grafana/k6
//     internal/output/csv/output.go and lib/netext/httpext/tracer.go.
//   - k6-arrival-csv: k6-arrival with --out csv: the same rows, and a
//     dropped_iterations row at each dropped iteration's due time.
//     Follows grafana/k6 internal/output/csv/output.go and
//     lib/executor/constant_arrival_rate.go.
//   - k6-vus-json: k6-vus with --out json: a line a sample (http_reqs and
//     http_req_duration at each reply, vus and vus_max each second), each
//     metric announced by a line of its own before its first sample.
//     Follows grafana/k6 internal/output/json/json.go and wrapper.go.
//   - k6-arrival-json: k6-arrival with --out json: the same lines, and a
//     dropped_iterations sample at each dropped iteration's due time.
//     Follows grafana/k6 internal/output/json/json.go and
//     lib/executor/constant_arrival_rate.go.
//   - vegeta: open, a worker per due hit; t-digest quantiles
//     (influxdata/tdigest, the module vegeta pins); vegeta report's text.
//     Follows tsenart/vegeta lib/metrics.go and lib/reporters.go.
//   - oha: -c conns -q rate -z D. Ticks queue up and connections take them
//     (catching up at once); latency from the send. Follows hatoo/oha
//     src/client.rs and src/printer.rs.
//   - oha-corrected: oha with --latency-correction: latency from the tick.
//     Follows hatoo/oha src/client.rs.
//   - hey: -c conns -z D. Back to back; percentile p is the first sorted
//     latency with ⌊100·i/n⌋ ≥ p. Follows rakyll/hey requester/report.go.
//   - hey-q: -q rate/conns per worker. Go's time.Tick drops all missed
//     ticks but one, so missed slots are skipped. Follows rakyll/hey
//     requester/requester.go.
//   - locust: -u conns -r conns with wait_time =
//     constant_throughput(rate/conns). The users start together; each
//     starts a task 1/throughput after its last one started, or at once
//     after a late one (missed slots are not caught up); killed at -t;
//     response times kept rounded to 2 significant digits; its stats and
//     percentile tables. Follows locustio/locust locust/user/wait_time.py
//     and locust/stats.py.
//   - fortio: load -qps rate -c conns -t D. Each goroutine makes
//     ⌊rate·D⌋/conns calls on its own schedule (all starting together, the
//     last at D) and catches up its own missed calls one after another; a
//     3 s request timeout (code −1); a fixed-bucket histogram with
//     percentiles interpolated inside a bucket. Follows fortio/fortio
//     periodic/periodic.go and stats/stats.go.
//   - fortio-nocatchup: fortio with -nocatchup: a call already late when
//     the previous one returns is skipped, and the goroutine waits for its
//     next call's own time. Follows fortio/fortio periodic/periodic.go.
//   - ab: ApacheBench -k -c conns -t D -n 1000000. Back to back on
//     keep-alive connections until the deadline (the replies of the first
//     wake-up at or after it still count), a microsecond clock; p% is the
//     sorted time at index ⌊n·p/100⌋, printed in whole milliseconds for 50,
//     66, 75, 80, 90, 95, 98, 99 and 100 %. Follows apache/httpd
//     support/ab.c.
//   - ab-n: ab -k -c conns -n N with N = rate × duration: at most N
//     requests started, and the run lasts to the N-th reply (its time taken
//     stretched by the stalls); the same table. Follows apache/httpd
//     support/ab.c.
//   - bombardier: -c conns -d D -l. Back to back until D (the calls out
//     then finish and count); latency from the first send in whole µs,
//     fasthttp retrying a read that times out (2 s) up to five attempts,
//     then "timeout" with its time recorded; p% is the first value whose
//     running count reaches ⌊p·n + 0.5⌋, printed for 50, 75, 90, 95, 99;
//     its text and -o json. Follows codesenberg/bombardier v1.2.6
//     bombardier.go, clients.go and internal/test_info.go.
//   - bombardier-rate: -c conns -d D --rate R -l. Each connection takes a
//     token of a bucket they share before it sends, or waits for the tick
//     that brings one: R/s in ticks of 10 ms or more (at 1,000/s, 10 every
//     10 ms, at most 10 held), so after a stall a tick's worth leaves at
//     once and what the stall held back is never sent; latency from the
//     send; its rate meter every fill interval + 10 ms; -o json says the
//     rate. Follows codesenberg/bombardier v1.2.6 limiter.go and
//     rateestimator.go, and juju/ratelimit v1.0.2 ratelimit.go.
//   - autocannon: -c conns -d D. Back to back until the first second tick
//     at or after D; latency in whole ms (its HdrHistogram's), a 10 s
//     timeout counted as an error; p% is the first value whose running
//     count reaches ⌈p·n⌉, printed for 2.5, 50, 97.5 and 99 % in its box
//     tables, and -j's JSON. Follows mcollina/autocannon v9.0.0 lib/run.js,
//     lib/httpClient.js and lib/printResult.js.
//   - autocannon-rate: -c conns -d D -R rate. Each connection may write its
//     share of the rate in each second from its start, back to back, then
//     waits for the next second; each latency is recorded with an expected
//     interval of ⌈1/rate⌉ ms, which is 1 ms at any rate of 1/s or more,
//     so a reply of v ms adds v − 1, …, 1 ms to the histogram. The same
//     tables and -j. Follows mcollina/autocannon v9.0.0 lib/run.js and
//     lib/httpClient.js, and hdr-histogram-js's
//     recordValueWithExpectedInterval.
//   - artillery: artillery run with one phase {duration: D, arrivalRate:
//     R}, or for a rate that is not a whole number a second {duration: D,
//     arrivalCount: N} (N the rate's arrivals over D, phases.js 209-234):
//     arrival k at k·tick, tick ⌊10⁶/R⌋ µs or ⌊D·10⁶/N⌋ µs (the first a
//     tick in), each a new
//     virtual user on a connection of its own that sends at once, whatever
//     is in flight; response_time from the send in whole ms (Date.now()),
//     a 10 s timeout an error; percentiles from a DDSketch of relative
//     accuracy 0.01 (the bin whose running count first exceeds q·(n − 1)),
//     rounded to 0.1 ms; its console's period and summary reports and its
//     run --output JSON. Follows artilleryio/artillery 2.0.20
//     (int-core lib/phases.js, runner.js, engine_http.js, ssms.js;
//     arrivals lib/index.js; sketches-js DDSketch.js) as npm ships it.
//   - artillery-maxvusers: the same phase with maxVusers: conns. An
//     arrival that finds conns virtual users still out is skipped, never
//     sent, and counted as vusers.skipped: during a stall the cap fills
//     and the stall's arrivals are counted, not timed. Follows int-core
//     lib/runner.js 211-222 and lib/dist.js 107-124.
//   - gatling-open: a simulation injecting constantUsersPerSec(rate)
//     during D (whole seconds): round(D·rate) users, each second's shard of
//     them spread over its milliseconds (Gatling's Shard), each a new
//     virtual user on a connection of its own that sends its one request
//     at the start of its millisecond, whatever is in flight; response
//     time from the send in whole ms, a 60 s timeout a KO; the console's
//     Global Information block, its percentiles Math.round of a t-digest
//     3.3 AVLTreeDigest(100)'s quantiles, ported tree and all (its stale
//     aggregated counts included) and held to the library's own output.
//     Follows gatling/gatling OpenInjectionStep.scala, Shard.scala,
//     GeneralStatsBuffers.scala and ConsoleTemplate.scala.
//   - gatling-closed: constantConcurrentUsers(conns) during D: the users
//     start spread over the first second, and each that ends is replaced
//     at once until D: a closed loop; the same console summary. Follows
//     ClosedInjection.scala and Injector.scala. The fit reads the summary
//     as either's; its layout does not say which.
//   - jmeter: jmeter -n with a thread group of conns threads, ramp-up 0,
//     loop forever, scheduler duration D (whole seconds). Back to back;
//     each thread stops after the first sample that ends at or after D
//     (it is written); start and end stamped in whole ms; every sample a
//     line of the JTL (CSV, 5.x's default columns; the reader takes 2.13's
//     to 5.x's by the header's names), which the fit reads the stalls'
//     times from; the summariser's "summary =" line; the Aggregate
//     report's percentile p is the first value whose running count
//     reaches round(p·n). Follows apache/jmeter JMeterThread.java,
//     ThreadGroup.java, CSVSaveService.java, Summariser.java and
//     StatCalculator.java.
//   - jmeter-ctt: jmeter with a Constant Throughput Timer of 60·rate/conns
//     samples a minute, this thread only: each thread's targets P =
//     round(60000/throughput) ms apart from 0; a thread late for its
//     target sends at once and its targets start again there, so what a
//     stall made it miss is never sent; the same JTL and summary. A
//     duration that is not whole seconds is a run whose samples span it
//     (the scheduler's whole seconds counted from the thread group's
//     start, before its first sample: a real run's started 0.2 s early).
//     The fit tells its JTL from jmeter's by the threads' idle time
//     between samples and their starts a period apart, and fits it (its
//     rate free over the rates whose period rounds to the same ms:
//     SameRates). Follows apache/jmeter ConstantThroughputTimer.java.
//
// How closely these models predict the real tools, run on this machine, is
// app/experiment's question: see app/experiment/tools/README.md.
package tools
