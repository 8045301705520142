package tools

import (
	"fmt"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"omission/sim"
)

// locust 2.46.3 and 23 commits (https://github.com/locustio/locust/blob/407343d/):
//   - locust/user/wait_time.py 35–60 constant_pacing, 63–86
//     constant_throughput(r) = constant_pacing(1/r): after each task the
//     user waits max(0, 1/r − the task's run time), so tasks start 1/r
//     apart; a task that ran late is followed at once, and the next ones
//     are paced from there (missed slots are not caught up).
//     locust/user/users.py 139–140: the pacing starts when the user is made.
//   - locust/dispatch.py 203–205, locust/runners.py 214–245: with -r ≥ -u
//     every user is spawned in the first dispatch, all at once.
//   - locust/main.py 572–578 and 502–520: the run-time timer starts with
//     the spawning, and when it fires the headless runner quits;
//     locust/runners.py 278–282: with stop_timeout 0 (the default) users are
//     killed at once, so a request in flight is never logged.
//   - locust/clients.py 196–199: response_time = (perf_counter() − start)
//     · 1000, a float in ms.
//   - locust/stats.py 370–410 log, _log_response_time: the exact value goes
//     into the total, min and max; the response_times dict keeps it
//     rounded by bucket_response_time (124–142): below 100 ms round() to the
//     ms, below 1000 to 10 ms, below 10 000 to 100 ms, then to 1000 ms
//     (Python's round: ties to even).
//   - locust/stats.py 161–179 calculate_response_time_percentile: walking
//     the dict's keys from the largest, the first key at which
//     n − (requests counted so far) ≤ int(n·p); 815–826 median_from_dict,
//     clamped to [min, max] (434–449).
//   - locust/main.py 624–661 shutdown, locust/stats.py 865–928: at the end
//     it prints the request stats (print_stats, current=False: req/s over
//     the whole run, 473–480) and the percentile table, with
//     STATS_NAME_WIDTH 80 (37–39: output not to a terminal).
var locustTool = Tool{
	name:      "locust",
	plain:     "Each user starts a task at a steady pace; a task that ran late is followed at once and the pace starts again from there, so the slots a stall took are never made up. At the end the users are killed, so replies still out are not logged. Response times are kept rounded to whole milliseconds, to 2 significant digits, and the percentiles are those rounded values.",
	mechanics: "locust --headless -u conns -r conns, wait_time = constant_throughput(rate/conns): every user starts at once and starts a task 1/(rate/conns) after its last one started, or at once when that one ran late (slots missed are not caught up); killed at the run time (requests in flight are not logged); latency = reply − send, kept in a dict rounded to 2 significant digits (to the ms below 100 ms); percentile p is the largest key k with n − #(values kept at k or above) ≤ int(n·p)",
	source:    "https://github.com/locustio/locust/blob/407343d/locust/stats.py#L124-L179",
	zero:      &locustZero,
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("locust --headless --only-summary -u %d -r %d -t %s -H %s (locustfile: HttpUser, wait_time = constant_throughput(%s), one task: self.client.get(\"/\"))",
			cfg.Conns, cfg.Conns, wrkSeconds(cfg.Duration), strings.TrimSuffix(target, "/"), locustThroughput(cfg))
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.Reanchor, Aligned: true, RecordUntil: cfg.Duration}
	},
	summarise: locustSummarise,
	reads:     []measure.Format{FormatLocust},
	unit: PrintUnit{Ns: 1e6, Words: "whole ms",
		ServiceFree: "locust prints whole milliseconds: its Min column is the service to the ms below, its 50 % key to the nearest ms, and the server kept up (under 1/rate)"},
}

// locustReal is how the experiment runs locustTool.
var locustReal = Real{Bin: "locust", Install: "on Debian: apt-get install python3-locust",
	Files: func(cfg sim.Config, addr string) (map[string]string, error) {
		thr := strconv.FormatFloat(float64(cfg.Rate)/1000/float64(cfg.Conns), 'f', -1, 64)
		return map[string]string{"locustfile.py": "from locust import HttpUser, task, constant_throughput\n\n\nclass U(HttpUser):\n    wait_time = constant_throughput(" + thr + ")\n\n    @task\n    def get(self):\n        self.client.get(\"/\")\n"}, nil
	},
	Args: func(cfg sim.Config, addr, dir string) ([]string, error) {
		n := fmt.Sprint(cfg.Conns)
		return []string{"-f", filepath.Join(dir, "locustfile.py"), "--headless", "--only-summary", "-u", n, "-r", n, "-t", wholeSeconds(cfg), "-H", "http://" + addr}, nil
	},
	RunLength: locustRunLength, Unit: 1e6}

// locustZero is how locust prints a percentile its rounding made 0, and
// why (locustBucket, locustPercentile).
var locustZero = Zero{Printed: "0", Unit: "ms",
	Why: "locust keeps each response time in whole milliseconds, rounded to 2 significant digits (to the nearest millisecond below 100 ms, a tie to the even one), " +
		"and its percentiles are those kept values: a reply of half a millisecond or less is kept as 0 ms"}

// locustThroughput is rate/conns as the locustfile would write it.
func locustThroughput(cfg sim.Config) string {
	return strconv.FormatFloat(float64(cfg.Rate)/1000/float64(cfg.Conns), 'f', -1, 64)
}

// locustPercentiles is PERCENTILES_TO_REPORT (stats.py 118).
var locustPercentiles = []float64{0.50, 0.66, 0.75, 0.80, 0.90, 0.95, 0.98, 0.99, 0.999, 0.9999, 1.0}

const (
	locustTypeWidth = 8  // STATS_TYPE_WIDTH
	locustNameWidth = 80 // STATS_NAME_WIDTH when stdout is not a terminal
)

// locustRoundDigits is Python's round(x, −k) for x ≥ 0 and k ≥ 1: the
// nearest multiple of 10^k, ties to the even multiple, on x's exact value.
// q·m ≤ x < (q+1)·m is found on exact products, and x − q·m is exact
// (Sterbenz: q·m ≤ x < 2·q·m once q ≥ 1; x itself when q = 0).
func locustRoundDigits(x float64, k int) float64 {
	m := math.Pow(10, float64(k))
	q := math.Floor(x / m)
	for q*m > x {
		q--
	}
	for (q+1)*m <= x {
		q++
	}
	r := x - q*m
	if r > m/2 || r == m/2 && math.Mod(q, 2) == 1 {
		q++
	}
	return q * m
}

// locustBucket is bucket_response_time (stats.py 124–142), in ms.
func locustBucket(ms float64) int64 {
	switch {
	case ms < 100:
		return int64(math.RoundToEven(ms))
	case ms < 1000:
		return int64(locustRoundDigits(ms, 1))
	case ms < 10000:
		return int64(locustRoundDigits(ms, 2))
	}
	return int64(locustRoundDigits(ms, 3))
}

// locustEntry is a StatsEntry: the exact total, min and max, and the dict
// of rounded response times.
type locustEntry struct {
	method, name string
	n            int64
	total        float64
	min, max     float64
	times        map[int64]int64
	last         float64 // last_request_timestamp, s from the start
}

func (e *locustEntry) log(ms, at float64) {
	e.n++
	e.last = at
	e.total += ms
	if e.n == 1 {
		e.min = ms
	} else {
		e.min = math.Min(e.min, ms)
	}
	e.max = math.Max(e.max, ms)
	e.times[locustBucket(ms)]++
}

// locustPercentile is calculate_response_time_percentile (stats.py 161–179).
func locustPercentile(times map[int64]int64, n int64, p float64) int64 {
	want := int64(float64(n) * p)
	keys := make([]int64, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sim.SortInt64s(keys)
	var seen int64
	for i := len(keys) - 1; i >= 0; i-- {
		seen += times[keys[i]]
		if n-seen <= want {
			return keys[i]
		}
	}
	return 0
}

// locustMedian is median_from_dict (stats.py 815–826), clamped to the exact
// min and max as median_response_time does (434–449).
func (e *locustEntry) median() float64 {
	if len(e.times) == 0 {
		return 0
	}
	keys := make([]int64, 0, len(e.times))
	for k := range e.times {
		keys = append(keys, k)
	}
	sim.SortInt64s(keys)
	pos := float64(e.n-1) / 2
	med := keys[len(keys)-1]
	for _, k := range keys {
		if pos < float64(e.times[k]) {
			med = k
			break
		}
		pos -= float64(e.times[k])
	}
	m := float64(med)
	if m > e.max {
		m = e.max
	} else if m < e.min {
		m = e.min
	}
	return m
}

// pyD is Python's "%d" of a float: int(), toward zero.
func pyD(x float64, width int) string { return fmt.Sprintf("%*d", width, int64(x)) }

// toString is StatsEntry.to_string(current=False) (stats.py 566–595); the
// request rate is over the whole run (total_rps, 473–480).
func (e *locustEntry) toString(last float64) string {
	method := ""
	if e.method != "" {
		method = e.method + " "
	}
	avg, rps := 0.0, 0.0
	if e.n > 0 {
		avg = e.total / float64(e.n)
	}
	if last > 0 {
		rps = float64(e.n) / last
	}
	return fmt.Sprintf("%-*s %-*s %7d %12s |%s %s %s%s | %7.2f %11.2f", locustTypeWidth, method, locustNameWidth-locustTypeWidth+4, e.name,
		e.n, "0(0.00%)", pyD(avg, 7), pyD(e.min, 7), pyD(e.max, 7), pyD(e.median(), 7), rps, 0.0)
}

// percentileRow is StatsEntry.percentile() (stats.py 657–667).
func (e *locustEntry) percentileRow() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s %-*s %8d", locustTypeWidth, e.method, locustNameWidth, e.name, locustPercentile(e.times, e.n, locustPercentiles[0]))
	for _, p := range locustPercentiles[1:] {
		fmt.Fprintf(&b, " %6d", locustPercentile(e.times, e.n, p))
	}
	fmt.Fprintf(&b, " %6d", e.n)
	return b.String()
}

// locustReadable is get_readable_percentiles (stats.py 149–158).
func locustReadable(p float64) string {
	x := p * 100
	if x == math.Trunc(x) {
		return fmt.Sprintf("%d%%", int64(x))
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64) // round(100·p, 6)
	return strconv.FormatFloat(r, 'f', -1, 64) + "%"
}

func locustSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	get := &locustEntry{method: "GET", name: "/", times: map[int64]int64{}}
	total := &locustEntry{name: "Aggregated", times: map[int64]int64{}}
	for _, i := range pr.ReplyOrder() {
		ms := float64(pr.Done[i]-pr.Send[i]) / 1e6
		at := float64(pr.Done[i]) / 1e9
		total.log(ms, at)
		get.log(ms, at)
	}
	entries := []*locustEntry{}
	if get.n > 0 {
		entries = append(entries, get) // the entry exists once a request was logged
	}
	var b strings.Builder
	nameCol := locustNameWidth - locustTypeWidth + 4
	fmt.Fprintf(&b, "%-*s %-*s %7s %12s |%7s %7s %7s%7s | %7s %11s\n", locustTypeWidth, "Type", nameCol, "Name",
		"# reqs", "# fails", "Avg", "Min", "Max", "Med", "req/s", "failures/s")
	sep := strings.Repeat("-", locustTypeWidth) + "|" + strings.Repeat("-", nameCol) + "|" + strings.Repeat("-", 7) + "|" + strings.Repeat("-", 13) +
		"|" + strings.Repeat("-", 7) + "|" + strings.Repeat("-", 7) + "|" + strings.Repeat("-", 7) + "|" + strings.Repeat("-", 7) +
		"|" + strings.Repeat("-", 8) + "|" + strings.Repeat("-", 11) + "\n"
	b.WriteString(sep)
	for _, e := range entries {
		b.WriteString(e.toString(total.last) + "\n")
	}
	b.WriteString(sep)
	b.WriteString(total.toString(total.last) + "\n\n")
	b.WriteString("Response time percentiles (approximated)\n")
	fmt.Fprintf(&b, "%-*s %-*s %8s", locustTypeWidth, "Type", locustNameWidth, "Name", locustReadable(locustPercentiles[0]))
	for _, p := range locustPercentiles[1:] {
		fmt.Fprintf(&b, " %6s", locustReadable(p))
	}
	fmt.Fprintf(&b, " %6s\n", "# reqs")
	psep := strings.Repeat("-", locustTypeWidth) + "|" + strings.Repeat("-", locustNameWidth) + "|" + strings.Repeat("-", 8) + "|" +
		strings.TrimSuffix(strings.Repeat(strings.Repeat("-", 6)+"|", len(locustPercentiles)), "|") + "\n"
	b.WriteString(psep)
	for _, e := range entries {
		b.WriteString(e.percentileRow() + "\n")
	}
	b.WriteString(psep)
	if total.n > 0 {
		b.WriteString(total.percentileRow() + "\n")
	}
	b.WriteString("\n")
	o.Text = b.String()
	if total.n > 0 {
		ms := func(p float64) int64 { return locustPercentile(total.times, total.n, p) * 1e6 }
		o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns = ms(0.50), ms(0.90), ms(0.99), ms(0.999), ms(0.9999)
		o.MaxNs = int64(math.Round(total.max * 1e6))
	}
	o.Notes = append(o.Notes, "only the end-of-run summary (locust.stats_logger) is shown: the timestamped locust.main log lines around it are left out",
		"locust's percentiles are keys of its rounded dict (2 significant digits above 100 ms): they can differ from the exact latency by up to 5 %")
	return nil
}

// locustLogLine reads a line of locust's log (locust/log.py:
// "[%(asctime)s] %(hostname)s/%(levelname)s/%(name)s: %(message)s", Python
// logging's asctime "2006-01-02 15:04:05,000", the local time to the ms):
// when it was written, and its message. It reads by hand, not with package
// regexp, which the page's app.wasm would otherwise link for this alone
// (0.1 MB after gzip).
func locustLogLine(l string) (at time.Time, msg string, ok bool) {
	if len(l) < 26 || l[0] != '[' || l[20] != ',' || l[24] != ']' || l[25] != ' ' || !isDigits(l[21:24]) {
		return time.Time{}, "", false
	}
	at, err := time.Parse("2006-01-02 15:04:05", l[1:20])
	if err != nil {
		return time.Time{}, "", false
	}
	ms, _ := strconv.Atoi(l[21:24])
	rest := l[26:]
	i := strings.IndexByte(rest, ':')
	if i < 0 || i+1 >= len(rest) || rest[i+1] != ' ' {
		return time.Time{}, "", false
	}
	return at.Add(time.Duration(ms) * time.Millisecond), rest[i+2:], true
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// locustRunLength reads how long a headless locust run lasted from its own
// log: from "All users spawned" (-r ≥ -u spawns every user in one dispatch,
// each starting its first task at once) to "--run-time limit reached",
// after which runner.quit() kills the users (locust 2.12.1, Debian's:
// locust/main.py 306–311 stop_and_optionally_quit, 359–361). That is
// shorter than -t: the run-time timer is gevent.spawn_later(run_time) on
// the hub's loop clock, and gevent (22.10, gevent/_ffi/watcher.py
// TimerMixin.start, starting_timer_may_update_loop_time False outside a
// loop callback) starts a timer from the loop's cached time without
// updating it, that of its last turn, before locust's start-up; so the
// run loses the start-up time, 0.2 to 0.6 s in the runs of
// testdata/predict-runs-all-2026-12-02.json (2.54 to 2.64 s of -t 3s at a
// load of 4 to 6). Measured, not modelled: the start-up time depends on
// the machine. ok is false when either line is missing.
func locustRunLength(out string) (int64, string, bool) {
	var spawned, reached time.Time
	for _, l := range strings.Split(out, "\n") {
		at, msg, ok := locustLogLine(strings.TrimRight(l, "\r"))
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(msg, "All users spawned"):
			spawned = at
		case strings.HasPrefix(msg, "--run-time limit reached"):
			reached = at
		}
	}
	if spawned.IsZero() || reached.IsZero() || !reached.After(spawned) {
		return 0, "", false
	}
	n := int64(reached.Sub(spawned))
	return n, fmt.Sprintf("locust's own log: %s from \"All users spawned\" to \"--run-time limit reached\" (its run-time timer counts from gevent's loop clock before the start-up, so the run is shorter than -t)", time.Duration(n)), true
}
