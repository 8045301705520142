package tools

import (
	"fmt"
	"io"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"slices"
	"sort"
	"strings"
	"time"

	"omission/sim"
)

// fortio (https://github.com/fortio/fortio/blob/45e1871/; these files are
// the same in the v1.75.2 and v1.75.3 releases):
//   - periodic/periodic.go 420–463 runQPSSetup: numCalls = int64(qps ·
//     duration), at least 2; threads lowered to numCalls/2 when fewer than
//     2 calls each; numCalls /= threads.
//   - periodic/periodic.go 772–891 runOne: every goroutine starts at the
//     common start; call i is due at (i + i/(numCalls−1)) / (qps/threads)
//     s (841–846), so the last one at the duration; it sleeps target −
//     elapsed, which returns at once when negative: a late goroutine sends
//     its missed calls one after another (catch-up); with -nocatchup a
//     negative sleep skips the call (849–853). Past the end it stops unless
//     at its first two or last call (805–816). Each call's latency goes
//     into the function-time histogram (826–829), each sleep into the
//     sleep-time one (858).
//   - fhttp/http_client.go 1016 and 180–181: each request has a deadline
//     of -timeout (3 s by default) from its send; a read past it is code −1
//     (SocketError, 1133–1141), the socket is dropped and the next call
//     connects again (928–929: one more socket used).
//   - periodic/periodic.go 594–651 Run and fhttp/httprunner.go 227–293
//     RunHTTPTest: the per-thread histograms merged in thread order
//     (Transfer), the printed layout; cli/fortio_main.go 382–393, 486–490:
//     the first and last lines.
//   - stats/stats.go 30–124 Counter, 132–297 the histogram: fixed buckets
//     (0, 1, 2, … 100000 in units of -r, 1 ms by default), each holding
//     (previous, value]; 307–328 CalcPercentile: linear interpolation inside
//     the bucket between the percent reached before it and its own;
//     332–389 Export (the first bucket starts at the min, the last ends at
//     the max); 406–429 Print.
var fortioTool = Tool{
	name:      "fortio",
	plain:     "Each connection has its own schedule of calls. A call that fell due while the previous one was out leaves as soon as that one returns, so a connection catches up on the calls a stall delayed, timing each from its real send. Latencies go into buckets (1 ms wide up to 11 ms, wider above) and a percentile is interpolated inside its bucket.",
	mechanics: "fortio load -qps rate -c conns -t D: each of conns goroutines makes ⌊rate·D⌋/conns calls, call i due at (i + i/(n−1))/(rate/conns) from the common start (the last at D); a late call leaves as soon as the previous one returns, so each goroutine catches up its own missed calls, and one still behind after D stops (but for its last call); 3 s request timeout (code −1); latency = reply − send into fixed buckets (1 ms up to 11 ms, then coarser), percentiles interpolated linearly inside the bucket",
	source:    "https://github.com/fortio/fortio/blob/45e1871/stats/stats.go#L299-L328",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("fortio load -qps %s -c %d -t %s %s", cfg.Rate, cfg.Conns, goDuration(cfg.Duration), target)
	},
	profile:   fortioProfile(false),
	summarise: fortioSummarise,
	reads:     []measure.Format{FormatFortio},
}

// The experiment fits its service time to the printed mean
// (FitMean): fortio (stats/stats.go 133-144, 307-329 of v1.66.0) keeps
// its function times in buckets of whole milliseconds at its default
// resolution (-r 0.001) and interpolates a percentile linearly within
// its bucket, from the smallest value for the first: every round trip
// under 1 ms is in the first bucket, so its p50 is min + about half of
// (1 ms − min) whatever the round trips were (0.57 ms printed where its
// own access log, -access-log-file, gave a median of 0.19 ms:
// experiment's TestFortioRoundTrip). Its mean is the exact sum over the
// count.
var fortioReal = Real{Bin: "fortio", Install: fortioInstall,
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"load", "-qps", cfg.Rate.String(), "-c", fmt.Sprint(cfg.Conns), "-t", wholeSeconds(cfg), "http://" + addr + "/"}, nil
	},
	ClockFit: true, FitMean: true}

var fortioNoCatchUpTool = Tool{
	name:      "fortio-nocatchup",
	plain:     "As fortio, but a call whose time passed while the previous one was out is skipped, never sent: the schedule is kept, and the calls a stall delayed are dropped.",
	mechanics: "fortio load -nocatchup: as fortio, but when the sleep until call i's due time (i + i/(n−1))/(rate/conns) is negative, call i is skipped (never sent) and the goroutine goes on to call i + 1: missed slots are dropped, the schedule is kept",
	source:    "https://github.com/fortio/fortio/blob/45e1871/periodic/periodic.go#L849-L853",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("fortio load -nocatchup -qps %s -c %d -t %s %s", cfg.Rate, cfg.Conns, goDuration(cfg.Duration), target)
	},
	profile:   fortioProfile(true),
	summarise: fortioSummarise,
	reads:     []measure.Format{FormatFortio},
}

// fortioNoCatchUpReal is how the experiment runs fortioNoCatchUpTool.
var fortioNoCatchUpReal = Real{Bin: "fortio", Install: fortioInstall,
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"load", "-nocatchup", "-qps", cfg.Rate.String(), "-c", fmt.Sprint(cfg.Conns), "-t", wholeSeconds(cfg), "http://" + addr + "/"}, nil
	},
	FitMean: true}

func fortioProfile(noCatchUp bool) func(cfg sim.Config) profile.Profile {
	return func(cfg sim.Config) profile.Profile {
		threads, _ := fortioSetup(cfg)
		return profile.Profile{Conc: profile.Connections, Conns: threads, Send: profile.FortioPace, NoCatchUp: noCatchUp, Timeout: fortioTimeout}
	}
}

const (
	fortioTimeout  = int64(3e9) // HTTPReqTimeOutDefaultValue
	fortioVersion  = "1.75.3"
	fortioProcs    = 8 // GOMAXPROCS: the host's, not modelled
	fortioDivider  = 0.001
	fortioMaxArray = 1000
)

// fortioSetup is runQPSSetup: the goroutines and the calls each makes.
func fortioSetup(cfg sim.Config) (threads int, calls int64) {
	qps := float64(cfg.Rate) / 1000
	calls = int64(qps * time.Duration(cfg.Duration).Seconds())
	threads = cfg.Conns
	if calls < 2 {
		calls, threads = 2, 1
	}
	if int64(2*threads) > calls {
		threads = int(calls / 2)
	}
	return threads, calls / int64(threads)
}

// fortioTarget is call i's target from the start in ns (periodic.go
// 841–846), as sim's FortioPace schedules it.
func fortioTarget(i, n int64, perThreadQPS float64) int64 {
	return int64((float64(i) + float64(i)/float64(n-1)) / perThreadQPS * 1e9)
}

// fortioBucketValues is histogramBucketValues (stats.go 133–144).
var fortioBucketValues = []int32{
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 25, 30, 35, 40, 45, 50,
	60, 70, 80, 90, 100, 120, 140, 160, 180, 200, 250, 300, 350, 400, 450, 500,
	600, 700, 800, 900, 1000, 2000, 3000, 4000, 5000, 7500, 10000,
	20000, 30000, 40000, 50000, 75000, 100000,
}

// fortioVal2Bucket is val2Bucket (stats.go 221–244): the bucket of each
// whole scaled value below 1000.
var fortioVal2Bucket, fortioMaxArrayIndex = func() ([]int, int) {
	v := make([]int, fortioMaxArray)
	idx := 0
	for i := range int32(fortioMaxArray) {
		if i >= fortioBucketValues[idx] {
			idx++
		}
		v[i] = idx
	}
	return v, slices.Index(fortioBucketValues, fortioMaxArray)
}()

// fortioCounter is stats.Counter, and with hasHist stats.Histogram.
type fortioCounter struct {
	count             int64
	min, max, sum, sq float64
	// The histogram, when hasHist (stats.Histogram): its offset, divider
	// and bucket counts.
	offset, divider float64
	hdata           []int64
	hasHist         bool
}

func newFortioHist(offset, divider float64) *fortioCounter {
	return &fortioCounter{offset: offset, divider: divider, hdata: make([]int64, len(fortioBucketValues)+1), hasHist: true}
}

// record is Histogram.RecordN(v, 1): Counter.RecordN then the bucket.
func (c *fortioCounter) record(v float64) {
	first := c.count == 0
	c.count++
	switch {
	case first:
		c.min, c.max = v, v
	case v < c.min:
		c.min = v
	case v > c.max:
		c.max = v
	}
	c.sum += v
	c.sq += v * v
	if !c.hasHist {
		return
	}
	scaled := (v - c.offset) / c.divider
	last := float64(fortioBucketValues[len(fortioBucketValues)-1])
	var idx int
	switch {
	case scaled <= float64(fortioBucketValues[0]):
		idx = 0
	case scaled > last:
		idx = len(c.hdata) - 1
	default:
		sv := int(scaled)
		if scaled-float64(sv) < 1e-12 { // (prev, value]: a value on a boundary is in the lower bucket
			sv--
		}
		idx = fortioLookUp(max(sv, 0)) // sv < 0 only for 0 < scaled < 1e-12, where fortio itself would index −1
	}
	c.hdata[idx]++
}

func fortioLookUp(sv int) int {
	if sv < fortioMaxArray {
		return fortioVal2Bucket[sv]
	}
	for i := fortioMaxArrayIndex; i < len(fortioBucketValues); i++ {
		if int(fortioBucketValues[i]) > sv {
			return i
		}
	}
	return len(fortioBucketValues) // not reached: scaled ≤ the last value
}

// transfer is Histogram.Transfer / Counter.Transfer: src merged in.
func (c *fortioCounter) transfer(src *fortioCounter) {
	if src.count == 0 {
		return
	}
	for i := range c.hdata {
		c.hdata[i] += src.hdata[i]
	}
	if c.count == 0 {
		c.count, c.min, c.max, c.sum, c.sq = src.count, src.min, src.max, src.sum, src.sq
		return
	}
	c.count += src.count
	c.min, c.max = math.Min(c.min, src.min), math.Max(c.max, src.max)
	c.sum += src.sum
	c.sq += src.sq
}

func (c *fortioCounter) avg() float64 {
	if c.count == 0 {
		return 0
	}
	return c.sum / float64(c.count)
}

// stdDev is Counter.StdDev: a negative sigma (rounding, all values equal)
// is logged by fortio and taken as 0.
func (c *fortioCounter) stdDev() float64 {
	if c.count == 0 {
		return 0
	}
	n := float64(c.count)
	sigma := (c.sq - c.sum*c.sum/n) / n
	if sigma < 0 {
		return 0
	}
	return math.Sqrt(sigma)
}

func (c *fortioCounter) printCounter(w io.Writer, msg string) {
	fmt.Fprintf(w, "%s : count %d avg %.8g +/- %.4g min %g max %g sum %.9g\n", msg, c.count, c.avg(), c.stdDev(), c.min, c.max, c.sum)
}

type fortioBucket struct {
	start, end, percent float64
	count               int64
}

// export is Histogram.Export (stats.go 332–389).
func (c *fortioCounter) export() []fortioBucket {
	lastIdx := -1
	for i := len(c.hdata) - 1; i >= 0; i-- {
		if c.hdata[i] > 0 {
			lastIdx = i
			break
		}
	}
	if lastIdx < 0 {
		return nil
	}
	var out []fortioBucket
	prev := fortioBucketValues[0]
	var total int64
	for i := 0; i <= lastIdx; i++ {
		if c.hdata[i] == 0 {
			if i < len(fortioBucketValues) {
				prev = fortioBucketValues[i]
			}
			continue
		}
		var b fortioBucket
		total += c.hdata[i]
		if len(out) == 0 {
			b.start = c.min
		} else {
			b.start = c.divider*float64(prev) + c.offset
		}
		b.percent = 100. * float64(total) / float64(c.count)
		if i < len(fortioBucketValues) {
			cur := fortioBucketValues[i]
			b.end = c.divider*float64(cur) + c.offset
			prev = cur
		} else {
			b.end = c.max
		}
		b.count = c.hdata[i]
		out = append(out, b)
	}
	out[len(out)-1].end = c.max
	return out
}

// fortioPercentile is HistogramData.CalcPercentile (stats.go 307–328).
func fortioPercentile(data []fortioBucket, count int64, mn, mx, p float64) float64 {
	if len(data) == 0 {
		return 0
	}
	if p >= 100 {
		return mx
	}
	pp := 100. / float64(count)
	if p <= pp {
		return mn
	}
	for _, b := range data {
		if p <= b.percent {
			return b.start + (p-pp)/(b.percent-pp)*(b.end-b.start)
		}
		pp = b.percent
	}
	return mx
}

func (c *fortioCounter) percentile(p float64) float64 {
	return fortioPercentile(c.export(), c.count, c.min, c.max, p)
}

// print is Export().CalcPercentiles(ps).Print(msg) (stats.go 394–429).
func (c *fortioCounter) print(w io.Writer, msg string, ps []float64) {
	data := c.export()
	if len(data) == 0 {
		fmt.Fprintf(w, "%s : no data\n", msg)
		return
	}
	c.printCounter(w, msg)
	fmt.Fprintln(w, "# range, mid point, percentile, count")
	sep := ">="
	for i, b := range data {
		if i > 0 {
			sep = ">"
		}
		fmt.Fprintf(w, "%s %.6g <= %.6g , %.6g , %.2f, %d\n", sep, b.start, b.end, (b.start+b.end)/2., b.percent, b.count)
	}
	for _, p := range ps {
		fmt.Fprintf(w, "# target %g%% %.6g\n", p, fortioPercentile(data, c.count, c.min, c.max, p))
	}
}

// fortioPercentiles is -p's default, "50,75,90,99,99.9".
var fortioPercentiles = []float64{50, 75, 90, 99, 99.9}

type fortioCall struct {
	intended, send, end int64
	ok                  bool
}

// sortCalls puts one connection's calls, answered or failed, in send order
// (ties as they came). sort.SliceStable, not slices.SortStableFunc: a
// generic sort is compiled again for each element type (7 kB of app.wasm
// after gzip for this one), sort.Slice's code is shared.
func sortCalls(cs []fortioCall) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].send < cs[j].send })
}

func secs(ns int64) float64 { return time.Duration(ns).Seconds() }

// fortioTally is what fortio's histograms and counters hold at the end of
// a run: the function, error and sleep times of every thread merged in
// thread order, the sockets each connection used, the codes and the end.
type fortioTally struct {
	funcTimes, errTimes, sleepTimes *fortioCounter
	sockets                         []int64
	elapsed                         int64
	codes                           map[int]int64
}

func fortioSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	t := fortioTallies(cfg, pr)
	var b strings.Builder
	actualQPS := fortioHeader(&b, cfg, pr, t)
	t.funcTimes.print(&b, "Aggregated Function Time", fortioPercentiles)
	t.errTimes.print(&b, "Error cases", fortioPercentiles)
	fortioSockets(&b, t.sockets)
	b.WriteString("Uniform: false, Jitter: false, Catchup allowed: " + fmt.Sprint(!pr.Profile.NoCatchUp) + "\n")
	var socketCount int64
	for _, n := range t.sockets {
		socketCount += n
	}
	fmt.Fprintf(&b, "IP addresses distribution:\n%s: %d\n", fortioAddr, socketCount)
	for _, k := range []int{-1, 200} {
		if t.codes[k] > 0 {
			fmt.Fprintf(&b, "Code %3d : %d (%.1f %%)\n", k, t.codes[k], 100.*float64(t.codes[k])/float64(t.funcTimes.count))
		}
	}
	sizes := &fortioCounter{}
	for range t.funcTimes.count {
		sizes.record(0) // bytes are not modelled
	}
	sizes.printCounter(&b, "Response Header Sizes")
	sizes.printCounter(&b, "Response Body/Total Sizes")
	fmt.Fprintf(&b, "All done %d calls (plus %d warmup) %.3f ms avg, %.1f qps\n", t.funcTimes.count, cfg.Conns, 1000.*t.funcTimes.avg(), actualQPS)
	o.Text = b.String()
	o.Recorded = t.funcTimes.count // timed-out calls are in fortio's histogram too
	if t.funcTimes.count > 0 {
		ns := func(p float64) int64 { return int64(math.Round(t.funcTimes.percentile(p) * 1e9)) }
		o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns = ns(50), ns(90), ns(99), ns(99.9), ns(99.99)
		o.MaxNs = int64(math.Round(t.funcTimes.max * 1e9))
	}
	o.Notes = append(o.Notes,
		"only what fortio writes to its output is shown, not its log lines (JSON or console: the per-thread \"ended after\" lines, warnings)",
		"bytes, connection set-up and the warm-up call each connection makes before the run are not modelled: sizes and connection times print 0, GOMAXPROCS is shown as 8")
	return nil
}

// fortioTallies records each thread's calls, answered or failed, in send
// order into its own histograms, then merges them in thread order.
func fortioTallies(cfg sim.Config, pr *profile.Result) *fortioTally {
	threads := pr.Profile.Conns
	perThread := pr.Planned / int64(threads)
	q := float64(cfg.Rate) / 1000 / float64(threads)
	calls := make([][]fortioCall, threads)
	for i := range pr.Done {
		c := pr.Conn[i]
		calls[c] = append(calls[c], fortioCall{pr.Intended[i], pr.Send[i], pr.Done[i], true})
	}
	for _, f := range pr.Fails {
		calls[f.Conn] = append(calls[f.Conn], fortioCall{f.Intended, f.Send, f.At, false})
	}
	t := &fortioTally{funcTimes: newFortioHist(0, fortioDivider), errTimes: newFortioHist(0, fortioDivider), sleepTimes: newFortioHist(-0.001, 0.001),
		sockets: make([]int64, threads), codes: map[int]int64{}}
	for c, cs := range calls {
		sortCalls(cs)
		fD, eD, sD := newFortioHist(0, fortioDivider), newFortioHist(0, fortioDivider), newFortioHist(-0.001, 0.001)
		t.sockets[c] = 1 // connected at the warm-up
		idx := int64(0)
		for k, call := range cs {
			for fortioTarget(idx, perThread, q) != call.intended {
				idx++ // calls skipped (-nocatchup)
			}
			lat := secs(call.end - call.send)
			fD.record(lat)
			if call.ok {
				t.codes[200]++
			} else {
				eD.record(lat)
				t.codes[-1]++
			}
			if k+1 < len(cs) {
				sD.record(secs(cs[k+1].intended - call.end))
				if !call.ok {
					t.sockets[c]++ // the next call connects again
				}
			} else if idx+1 < perThread && !pr.Profile.NoCatchUp {
				// Behind past the end: the sleep to the next call is
				// recorded, then the loop stops before sending it.
				sD.record(secs(fortioTarget(idx+1, perThread, q) - call.end))
			}
			t.elapsed = max(t.elapsed, call.end)
			idx++
		}
		t.funcTimes.transfer(fD)
		t.errTimes.transfer(eD)
		t.sleepTimes.transfer(sD)
	}
	return t
}

// fortioHeader writes the run's opening lines and its sleep times, and
// returns the qps fortio reports.
func fortioHeader(b *strings.Builder, cfg sim.Config, pr *profile.Result, t *fortioTally) float64 {
	threads := pr.Profile.Conns
	perThread := pr.Planned / int64(threads)
	qps := float64(cfg.Rate) / 1000
	d := time.Duration(cfg.Duration)
	fmt.Fprintf(b, "Fortio %s running at %g queries per second, %d->%d procs, for %v: %s\n", fortioVersion, qps, fortioProcs, fortioProcs, d, target)
	fmt.Fprintf(b, "Starting at %g qps with %d thread(s) [gomax %d] for %v : %d calls each (total %d)\n", qps, threads, fortioProcs, d, perThread, perThread*int64(threads))
	actualQPS := float64(t.funcTimes.count) / time.Duration(t.elapsed).Seconds()
	fmt.Fprintf(b, "Ended after %v : %d calls. qps=%.5g\n", time.Duration(t.elapsed), t.funcTimes.count, actualQPS)
	negative := 100. * float64(t.sleepTimes.hdata[0]) / float64(t.sleepTimes.count)
	if negative > 5 {
		t.sleepTimes.print(b, "Aggregated Sleep Time", []float64{50})
		fmt.Fprintf(b, "WARNING %.2f%% of sleep were falling behind\n", negative)
	} else {
		t.sleepTimes.printCounter(b, "Sleep times")
	}
	return actualQPS
}

// fortioSockets writes the sockets each connection used, with their
// (unmodelled, zero) connection times.
func fortioSockets(b *strings.Builder, sockets []int64) {
	b.WriteString("# Socket and IP used for each connection:\n")
	connTimes := newFortioHist(0, fortioDivider)
	var socketCount int64
	for i, n := range sockets {
		ct := newFortioHist(0, fortioDivider)
		for range n {
			ct.record(0) // connection set-up is not modelled
		}
		fmt.Fprintf(b, "[%d] %3d socket used, resolved to %s", i, n, fortioAddr)
		ct.printCounter(b, ", connection timing")
		socketCount += n
		connTimes.transfer(ct)
	}
	connTimes.print(b, "Connection time histogram (s)", fortioPercentiles)
	fmt.Fprintf(b, "Sockets used: %d (for perfect keepalive, would be %d)\n", socketCount, len(sockets))
}

const fortioAddr = "127.0.0.1:8080"

const fortioInstall = "go install fortio.org/fortio@v1.66.0 (" + InstallScript + " puts it in .tools/bin)"
