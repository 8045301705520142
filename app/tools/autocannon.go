package tools

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// autocannon 9.0.0, read from npm's package (paths below are in it):
//   - lib/run.js 86-93: the run stops at -d seconds (stopTimer), but the
//     clients are destroyed only at the next sample tick (tickInterval, every
//     sampleInt = 1000 ms, 106-118), so they send until the first whole
//     second at or after -d; a reply after that is lost.
//   - lib/httpClient.js 86-101, 157-176: each of -c connections writes its
//     next request as soon as a reply is complete (pipelining 1); 55-65 a
//     request unanswered -t seconds (10 by default) after it was written
//     destroys the connection, which reconnects and writes a new one: the
//     request counts as an error and a timeout, not as a latency.
//   - lib/pipelinedRequestsQueue.js 24, 60-66: latency = process.hrtime()
//     from the write to the reply, in ms as a float; lib/run.js 230-248
//     records each 2xx reply's into an HdrHistogram (lib/histUtil.js:
//     hdr-histogram-js, 5 significant digits), which keeps whole ms
//     (a 0.4 ms reply is 0 ms). With -R it records with an expected
//     interval of Math.ceil(1/rate) ms: not modelled here.
//   - hdr-histogram-js dist/JsHistogram.js 260-284 getValueAtPercentile:
//     the first value whose running count reaches max(⌈p·n⌉, 1);
//     hdr-histogram-percentiles-obj histAsObj: mean and stdev rounded up to
//     hundredths.
//   - lib/printResult.js: the two tables (cli-table3, no colour when not a
//     terminal), "Req/Bytes counts sampled once per second.", "# of
//     samples: N" and "Nk requests in Ds, B read"; lib/progressTracker.js
//     51-58 the "Running Ds test @ URL" lines before them. All of it goes to
//     stderr; -j writes the result as JSON to stdout instead.
var autocannonTool = Tool{
	name:      "autocannon",
	plain:     "A fixed number of connections, each sending its next request as soon as the last reply is in, until the first whole second after the time is up: during a stall they wait, and the requests they would have sent are never sent nor counted. It keeps latencies in whole milliseconds.",
	mechanics: "autocannon -c conns -d D: conns connections back to back until the first second tick at or after D (replies after it are lost); latency = reply − write, kept in whole ms (truncated) in an HdrHistogram; a request unanswered after 10 s is a timeout, not a latency; percentile p is the first value whose running count reaches max(⌈p·n⌉, 1)",
	source:    "https://github.com/mcollina/autocannon/blob/v9.0.0/lib/run.js#L230-L248",
	zero:      &Zero{Printed: "0", Unit: "ms", Why: "autocannon keeps whole milliseconds, truncated: a reply faster than 1 ms is 0 ms"},
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("autocannon -c %d -d %d %s", cfg.Conns, autocannonSeconds(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		d := autocannonSeconds(cfg.Duration) * 1e9
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack,
			Duration: d, RecordUntil: d, Timeout: autocannonTimeout}
	},
	summarise: autocannonSummarise,
	reads:     []measure.Format{FormatAutocannon, FormatAutocannonJSON},
	unit:      PrintUnit{Ns: 1e6, Words: "whole ms"},
	noCount:   "autocannon's tables print its request count rounded to thousands (\"105k requests\"), and a closed loop's count is what the fit finds its service time from: give the fit autocannon's -j output, which holds the exact count",
}

// autocannonRateTool is autocannon with -R rate (--overallRate): each
// connection's share of the rate (lib/run.js 201-203, distributeNums: the
// rate over the connections, the first rate mod conns one more; 33: no
// more connections than the rate) is a count of requests it may write in
// each second of its own setInterval (lib/httpClient.js 67-73, 157-176):
// back to back from the second's start until the count is reached, then
// paused until the next second. A stall costs no requests while the rest
// of the second's count still fits after it. Each 2xx reply's latency is
// recorded with an expected interval of Math.ceil(1/rate) ms (lib/run.js
// 243-244), which is 1 ms for any rate of 1/s or more: a reply of v ms
// adds the values v − 1, v − 2, … down to 1 ms (hdr-histogram-js
// JsHistogram.js 536-544), so that the latency histogram holds more
// values than replies (-C, --ignoreCoordinatedOmission, turns it off).
var autocannonRateTool = Tool{
	name:      "autocannon-rate",
	plain:     "A fixed number of connections share the rate asked for: each may send its share in each second, back to back from the second's start, then waits for the next second. A stall costs nothing while the second's share still fits after it. Each latency is recorded with HdrHistogram's correction at an expected interval of 1 ms, whatever the rate: a reply of 100 ms adds 99 values from 99 ms down to 1 ms.",
	mechanics: "autocannon -c conns -d D -R rate: connection i may write ⌊rate/conns⌋ (+1 for i < rate mod conns) requests in each second from its start, back to back, then waits for the next second; latency = reply − write, whole ms, recorded with an expected interval of ⌈1/rate⌉ = 1 ms (v ms adds v−1, …, 1 ms)",
	source:    "https://github.com/mcollina/autocannon/blob/v9.0.0/lib/httpClient.js#L157-L176",
	zero:      autocannonTool.zero,
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("autocannon -c %d -d %d -R %d %s", autocannonRateConns(cfg), autocannonSeconds(cfg.Duration), autocannonRate(cfg), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		d := autocannonSeconds(cfg.Duration) * 1e9
		return profile.Profile{Conc: profile.Connections, Conns: autocannonRateConns(cfg), Send: profile.Quota,
			Rate: sim.RateOf(autocannonRate(cfg)), Period: 1e9, Quantum: autocannonRate(cfg), FromIntended: true,
			Duration: d, RecordUntil: d, Timeout: autocannonTimeout}
	},
	summarise: autocannonSummarise,
	// Its -j output is read as its own when the correction shows in it.
	reads:     []measure.Format{FormatAutocannonJSON},
	onlyPaced: true,
	unit:      autocannonTool.unit,
	rateFlag:  "-R",
}

// autocannonRateReal is how the experiment runs autocannonRateTool.
var autocannonRateReal = Real{Bin: "autocannon", Install: autocannonReal.Install,
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-c", fmt.Sprint(autocannonRateConns(cfg)), "-d", fmt.Sprint(autocannonSeconds(cfg.Duration)), "-R", fmt.Sprint(autocannonRate(cfg)), "-j", "http://" + addr + "/"}, nil
	},
	// Its -j count is its histogram's, the replies and the values -R's
	// correction added; the model's is the same.
	PredictedRequests: func(o *Output) int64 { lat, _ := autocannonRecorded(o.Run); return int64(len(lat)) },
	// The median of its histogram is not a round trip when the correction
	// added more values than there are replies (a 1 s stall adds 999
	// each): the replies' median is at rank replies/2 from the bottom,
	// below every added value (each 1 ms or more), so the printed
	// percentile at or below that share is taken.
	RoundTrip: func(f *measure.File, out string) *measure.Dist {
		d := f.Dists[0]
		replies, _, _, corrected := autocannonStated([]byte(out), &d)
		if !corrected || replies <= 0 || d.Count <= replies {
			return &d
		}
		q := 50 * float64(replies) / float64(d.Count)
		for _, pt := range d.Points {
			if pt.Percentile <= q {
				d.P[0].Ns = pt.Ns
			}
		}
		return &d
	},
	GapRoundTrip: true,
	Unit:         1e6}

// autocannonRate is -R: the query's rate in whole requests a second (at
// least 1).
func autocannonRate(cfg sim.Config) int64 { return max(int64(math.Round(float64(cfg.Rate)/1000)), 1) }

// autocannonRateConns is -c as autocannon runs it with -R: no more
// connections than the rate (lib/run.js 33).
func autocannonRateConns(cfg sim.Config) int { return int(min(int64(cfg.Conns), autocannonRate(cfg))) }

// autocannonReal is how the experiment runs autocannonTool.
var autocannonReal = Real{Bin: "autocannon", Install: "npm install autocannon@9.0.0, or " + InstallScript + ", which links it into .tools/bin",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		// -j: the result as JSON on stdout, with its exact 2xx count (the
		// tables print the count rounded to thousands).
		return []string{"-c", fmt.Sprint(cfg.Conns), "-d", fmt.Sprint(autocannonSeconds(cfg.Duration)), "-j", "http://" + addr + "/"}, nil
	},
	Unit: 1e6}

const autocannonTimeout = int64(10e9) // -t 10 (seconds), lib/defaultOptions.js

// autocannonSeconds is -d as the command gives it: whole seconds, rounded
// up, at least 1 (the run lasts to that tick anyway).
func autocannonSeconds(ns int64) int64 { return abSeconds(ns) }

// autocannonPct is getValueAtPercentile over sorted values: the first
// whose running count reaches max(⌈p/100·n⌉, 1) (0 when none).
func autocannonPct(sorted []int64, p float64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	fp := p / 100 * float64(n)
	k := max(int(math.Ceil(fp-ulp(fp))), 1)
	return sorted[min(k, n)-1]
}

// ulp is Math.ulp as hdr-histogram-js computes it.
func ulp(x float64) float64 { return math.Nextafter(math.Abs(x), math.Inf(1)) - math.Abs(x) }

// autocannonMeanSD is histAsObj's mean and stddev, each rounded up to
// hundredths.
func autocannonMeanSD(vals []int64) (mean, sd float64) {
	if len(vals) == 0 {
		return 0, 0
	}
	s := 0.0
	for _, v := range vals {
		s += float64(v)
	}
	m := s / float64(len(vals))
	q := 0.0
	for _, v := range vals {
		q += (float64(v) - m) * (float64(v) - m)
	}
	ceil2 := func(x float64) float64 { return math.Ceil(x*100) / 100 }
	return ceil2(m), ceil2(math.Sqrt(q / float64(len(vals))))
}

// jsString writes a number as JavaScript's String() does for the values
// these tables hold.
func jsString(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// jsLocale writes a number as toLocaleString(undefined, {maximumFractionDigits:
// 20}) does in an English locale: thousands grouped with commas.
func jsLocale(x float64) string {
	s := jsString(x)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// autocannonCount is lib/format.js: under 1000 as is, else rounded
// thousands and "k".
func autocannonCount(n int64) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%dk", int64(math.Floor(float64(n)/1000+0.5)))
}

// boxTable draws a cli-table3 table without colour: each column as wide
// as its widest cell plus a space each side, a rule between rows.
func boxTable(head []string, rows [][]string) string {
	w := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	rule := func(l, m, r string) string {
		parts := make([]string, len(w))
		for i := range w {
			parts[i] = strings.Repeat("─", w[i]+2)
		}
		return l + strings.Join(parts, m) + r + "\n"
	}
	line := func(cells []string) string {
		var b strings.Builder
		b.WriteString("│")
		for i, c := range cells {
			b.WriteString(" " + c + strings.Repeat(" ", w[i]-len([]rune(c))) + " │")
		}
		return b.String() + "\n"
	}
	var b strings.Builder
	b.WriteString(rule("┌", "┬", "┐"))
	b.WriteString(line(head))
	for _, r := range rows {
		b.WriteString(rule("├", "┼", "┤"))
		b.WriteString(line(r))
	}
	b.WriteString(rule("└", "┴", "┘"))
	return strings.TrimSuffix(b.String(), "\n")
}

// autocannonRun is what autocannon keeps of a run.
type autocannonRun struct {
	lat        []int64 // 2xx latencies in whole ms, sorted (with -R, and the values its correction adds)
	perSecond  []int64 // replies in each second, sorted
	sent       int64
	ok, errors int64 // 2xx replies; errors (timeouts)
	secs       int64
}

// autocannonRecorded is what autocannon records of a run, in the order
// of its replies: each reply's latency in whole ms and, with -R (a Quota
// profile), the values its expected interval of 1 ms adds below it
// (lib/run.js 243-244); and how many replies.
func autocannonRecorded(pr *profile.Result) (lat []int64, replies int64) {
	paced := pr.Profile.Send == profile.Quota
	for _, i := range pr.ReplyOrder() {
		v := pr.Done[i] - pr.Send[i]
		lat = append(lat, v/1e6)
		replies++
		for m := v - 1e6; paced && m >= 1e6; m -= 1e6 {
			lat = append(lat, m/1e6) // recordSingleValueWithExpectedInterval's missing values
		}
	}
	return lat, replies
}

func autocannonSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	r := autocannonRun{secs: autocannonSeconds(cfg.Duration), sent: pr.Sent + pr.Retries, errors: pr.TimedOut}
	paced := pr.Profile.Send == profile.Quota // -R: recorded with an expected interval of 1 ms
	if paced {
		// lib/run.js 222-223: each client's first request is emitted
		// before the count listens, and is counted as its rate share
		// instead (url.pipelining < url.rate ? url.rate : 1): the count
		// printed is conns − 1 short of a share each too many (a real -R
		// 8000 run on 2 connections: 46,682 "sent", 38,682 answered).
		r.sent += pr.Profile.Quantum - int64(pr.Profile.Conns)
	}
	r.lat, r.ok = autocannonRecorded(pr)
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	counts := make([]int64, r.secs)
	for _, t := range pr.ReplyTimes() {
		if k := (t - 1) / 1e9; t > 0 && k < r.secs {
			counts[k]++ // a reply at exactly k s is counted by the tick at k s
		}
	}
	r.perSecond = counts
	sort.Slice(r.perSecond, func(i, j int) bool { return r.perSecond[i] < r.perSecond[j] })

	var b strings.Builder
	fmt.Fprintf(&b, "Running %ds test @ %s\n%d connections\n\n", r.secs, target, cfg.Conns)
	lm, lsd := autocannonMeanSD(r.lat)
	ms := func(v int64) string { return fmt.Sprintf("%d ms", v) }
	var maxLat int64
	if len(r.lat) > 0 {
		maxLat = r.lat[len(r.lat)-1]
	}
	b.WriteString("\n" + boxTable([]string{"Stat", "2.5%", "50%", "97.5%", "99%", "Avg", "Stdev", "Max"},
		[][]string{{"Latency", ms(autocannonPct(r.lat, 2.5)), ms(autocannonPct(r.lat, 50)), ms(autocannonPct(r.lat, 97.5)), ms(autocannonPct(r.lat, 99)),
			jsString(lm) + " ms", jsString(lsd) + " ms", ms(maxLat)}}) + "\n")
	rm, rsd := autocannonMeanSD(autocannonMedians(r.perSecond))
	q := func(p float64) string { return jsLocale(float64(autocannonHdr3(autocannonPct(r.perSecond, p)))) }
	var minRate int64
	if len(r.perSecond) > 0 {
		minRate = r.perSecond[0]
	}
	zero := "0 B"
	b.WriteString(boxTable([]string{"Stat", "1%", "2.5%", "50%", "97.5%", "Avg", "Stdev", "Min"},
		[][]string{
			{"Req/Sec", q(1), q(2.5), q(50), q(97.5), jsLocale(rm), jsLocale(rsd), jsLocale(float64(minRate))},
			{"Bytes/Sec", zero, zero, zero, zero, zero, zero, zero},
		}) + "\n")
	b.WriteString("\nReq/Bytes counts sampled once per second.\n")
	fmt.Fprintf(&b, "# of samples: %d\n\n", r.secs)
	fmt.Fprintf(&b, "%s requests in %ss, 0 B read\n", autocannonCount(r.sent), jsString(float64(r.secs)))
	if r.errors > 0 {
		fmt.Fprintf(&b, "%s errors (%s timeouts)\n", autocannonCount(r.errors), autocannonCount(r.errors))
	}
	o.Text = b.String()
	if o.wantJSON {
		o.JSON = autocannonJSON(cfg, &r)
	}
	for i, p := range sim.Percentiles() {
		*o.Ps()[i] = autocannonPct(r.lat, float64(p.PPM)/1e4) * 1e6
	}
	o.MaxNs = maxLat * 1e6
	o.Notes = append(o.Notes, "bytes are not modelled: autocannon's Bytes/Sec and bytes read print 0 B",
		"autocannon's Req/Sec percentiles are of an HdrHistogram of 3 significant digits: each is the highest value of its bucket")
	return nil
}

// autocannonMedians are the values as an HdrHistogram of 3 significant
// digits averages them: each its bucket's median.
func autocannonMedians(vs []int64) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		lo, hi := autocannonBucket(v)
		out[i] = lo + (hi-lo+1)/2
	}
	return out
}

// autocannonHdr3 is the highest value equivalent to v in an HdrHistogram
// of 3 significant digits (the Req/Sec histogram, lib/histUtil.js): its
// percentiles are reported so.
func autocannonHdr3(v int64) int64 { _, hi := autocannonBucket(v); return hi }

// autocannonBucket is the range of values equivalent to v in an
// HdrHistogram of 3 significant digits from 1: single values below 2048
// (its sub-bucket count), then ranges that double with each power of two.
func autocannonBucket(v int64) (lo, hi int64) {
	shift := 0
	for (v >> shift) >= 2048 {
		shift++
	}
	lo = v >> shift << shift
	return lo, lo + 1<<shift - 1
}
