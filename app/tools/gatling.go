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

// Gatling, read at gatling/gatling 8bb193bdf (v3.15.1 and 68 commits;
// paths under gatling-core/src/main/scala/io/gatling/core/ and
// gatling-charts/src/main/scala/io/gatling/charts/):
//   - controller/inject/open/OpenInjectionStep.scala 42-100, 120-135:
//     constantUsersPerSec(R).during(D) injects round(D·R) users over D's
//     whole seconds (RampOpenInjection): second s holds its shard of them
//     (util/Shard.scala 23-45, ⌈total/buckets·(b + 1)⌉ in doubles, the last
//     bucket what is left), spread over its 1000 ms the same way, each
//     user started at the start of its millisecond: sim/profile's Shards.
//     Each user runs the scenario once, one request, and ends: nothing
//     waits for anything, the injection is open.
//   - controller/inject/closed/ClosedInjection.scala 48-75 and
//     Injector.scala 33, 67-70: constantConcurrentUsers(N).during(D)
//     starts its N users over the first batch of 1 s (Shard.shards(N,
//     1000): sim/profile's Spread) and starts a new user as soon as one
//     ends (endUser), until the batch whose end passes D: a closed loop of
//     N, each a new virtual user with a connection of its own
//     (shareConnections is off by default).
//   - The HTTP client (gatling-http-client .../impl/DefaultHttpClient.java)
//     stamps a request's start and end with the clock's whole
//     milliseconds; requestTimeout is 60000 ms (gatling-defaults.conf 83),
//     after which the request is KO with a RequestTimeoutException
//     (gatling-http-client .../impl/RequestTimeoutException.java 25-36).
//   - stats/LogFileReader.scala 280-300: a response time is end − start,
//     whole ms; 370-395 and stats/ResultsHolder.scala 30: the run lasts
//     ⌈(last stamp − first stamp)/1000⌉ s.
//   - stats/buffers/GeneralStatsBuffers.scala 70-105: each of the totals,
//     the OKs and the KOs keeps its times in a t-digest of its own,
//     AVLTreeDigest(100) of com.tdunning t-digest 3.3 (project/
//     Dependencies.scala 58; avlDigest below); min and max are its
//     quantiles 0 and 1, a percentile p is Math.round(quantile(p/100)),
//     the mean and the standard deviation round(sum/n) and round(√(Σt²/n −
//     mean²)), the throughput n over the run's seconds.
//   - template/ConsoleTemplate.scala 26-77 and core/stats/writer/
//     ConsoleStatsFormat.scala 26-70: the summary printed after the
//     reports, 120 columns wide, each figure right-aligned in 9 under
//     Total, OK and KO ("-" where there is none); the percentiles 50, 75,
//     95 and 99 (gatling-defaults.conf 71-74), the ranges 800 and 1200 ms
//     (69-70).
//
// What is not read from this repository: the number format
// (gatling-shared-util 0.0.14's NumberHelper.toPrintableString, a
// DecimalFormat). Gatling's own tests pin whole numbers with grouping
// commas ("20", "123,456", "(42%)": template/ConsoleTemplateSpec.scala,
// core/stats/writer/ConsoleDataWriterSpec.scala); the decimals of a
// fraction (the throughput) are taken as up to 3, as its 2023 pattern
// "###.###" has them. And t-digest draws its ties with an unseeded
// java.util.Random (AVLTreeDigest.java 30, 121-126): two real runs of the
// same times can differ by where a tied value went; the model seeds it
// with 0, so its printout repeats.
var gatlingOpenTool = Tool{
	name:      "gatling-open",
	plain:     "An open injection profile (constantUsersPerSec): a new virtual user arrives on a fixed schedule whatever is in flight, sends its one request on a connection of its own and leaves, so no request waits for another and a stall shows in full. Its times are whole milliseconds from the send, and its percentiles come from a t-digest.",
	mechanics: "gatling with setUp(scn.injectOpen(constantUsersPerSec(R).during(D))): round(D·R) users over D's whole seconds, second s holding ⌈u/D·(s+1)⌉ − ⌈u/D·s⌉ of them, each second's spread over its milliseconds the same way; each user sends one request at the start of its millisecond; response time = end − start in whole ms, KO after 60 s; percentiles Math.round of an AVLTreeDigest(100)'s quantile",
	source:    "https://github.com/gatling/gatling/blob/8bb193bdf5d0f54cf803dcbc3c6846306c38c202/gatling-core/src/main/scala/io/gatling/core/controller/inject/open/OpenInjectionStep.scala#L42-L100",
	zero:      &Zero{Printed: "0", Unit: "ms", Why: "Gatling stamps a request's start and end in whole milliseconds: a reply faster than 1 ms takes 0 or 1 ms, by where it fell between two clock ticks"},
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("gatling (simulation: setUp(scn.injectOpen(constantUsersPerSec(%s).during(%d))), scn = scenario(\"omission\").exec(http(\"GET /\").get(\"/\")), baseUrl %q)",
			gatlingRateWords(cfg), gatlingSeconds(cfg), strings.TrimSuffix(target, "/"))
	},
	profile: func(cfg sim.Config) profile.Profile {
		secs := gatlingSeconds(cfg)
		return profile.Profile{Conc: profile.Unbounded, Send: profile.Shards, Quantum: gatlingUsers(cfg),
			Duration: secs * 1e9, Clock: 1e6, Timeout: gatlingTimeout}
	},
	summarise: gatlingSummarise,
	reads:     []measure.Format{FormatGatling},
	unit:      PrintUnit{Ns: 1e6, Words: "whole ms", Stamped: true},
	unsaid:    "Gatling's console summary does not say how its users were injected: gatling-open and gatling-closed",
}

var gatlingClosedTool = Tool{
	name:      "gatling-closed",
	plain:     "A closed injection profile (constantConcurrentUsers): a fixed number of virtual users, each ending with its reply and replaced at once by a new one, so at most that many requests are ever in flight. During a stall they wait, and the requests they would have sent are never sent nor recorded. Its times are whole milliseconds from the send, and its percentiles come from a t-digest.",
	mechanics: "gatling with setUp(scn.injectClosed(constantConcurrentUsers(conns).during(D))): the conns users start spread over the first second (Shard.shards), each sends one request, and a new user starts as soon as one ends, until D (whole seconds); response time = end − start in whole ms, KO after 60 s; percentiles Math.round of an AVLTreeDigest(100)'s quantile",
	source:    "https://github.com/gatling/gatling/blob/8bb193bdf5d0f54cf803dcbc3c6846306c38c202/gatling-core/src/main/scala/io/gatling/core/controller/inject/closed/ClosedInjection.scala#L48-L75",
	zero:      gatlingOpenTool.zero,
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("gatling (simulation: setUp(scn.injectClosed(constantConcurrentUsers(%d).during(%d))), scn = scenario(\"omission\").exec(http(\"GET /\").get(\"/\")), baseUrl %q)",
			cfg.Conns, gatlingSeconds(cfg), strings.TrimSuffix(target, "/"))
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, Spread: 1e9,
			Duration: gatlingSeconds(cfg) * 1e9, Clock: 1e6, Timeout: gatlingTimeout}
	},
	summarise: gatlingSummarise,
	reads:     []measure.Format{FormatGatling},
	unit:      gatlingOpenTool.unit,
}

const gatlingTimeout = int64(60e9) // gatling-defaults.conf 83: requestTimeout = 60000

// gatlingSeconds is during(D) in whole seconds (the injection counts
// duration.toSeconds), rounded up, at least 1.
func gatlingSeconds(cfg sim.Config) int64 { return abSeconds(cfg.Duration) }

// gatlingUsers is constantUsersPerSec's users: round(D·R), at least 1.
func gatlingUsers(cfg sim.Config) int64 {
	return max(int64(math.Floor(float64(gatlingSeconds(cfg))*float64(cfg.Rate)/1000+0.5)), 1)
}

// gatlingRateWords is the rate as the simulation gives it: users a
// second, a double.
func gatlingRateWords(cfg sim.Config) string {
	return strconv.FormatFloat(float64(cfg.Rate)/1000, 'f', -1, 64)
}

// gatlingRecord is one request as simulation.log keeps it: start and
// response time in whole ms, and whether it was OK.
type gatlingRecord struct {
	start, rt int64
	ok        bool
}

// gatlingRecords are a run's requests in the order they ended (the order
// the log is written in), the timed-out ones as KO at their timeout.
func gatlingRecords(pr *profile.Result) []gatlingRecord {
	type ended struct {
		end int64
		r   gatlingRecord
	}
	order := pr.ReplyOrder()
	if len(pr.Fails) == 0 { // the replies alone, already in the order they ended
		out := make([]gatlingRecord, len(order))
		for k, i := range order {
			out[k] = gatlingRecord{pr.Send[i] / 1e6, pr.Done[i]/1e6 - pr.Send[i]/1e6, true}
		}
		return out
	}
	var es []ended
	for _, i := range order {
		es = append(es, ended{pr.Done[i], gatlingRecord{pr.Send[i] / 1e6, pr.Done[i]/1e6 - pr.Send[i]/1e6, true}})
	}
	for _, f := range pr.Fails {
		es = append(es, ended{f.At, gatlingRecord{f.Send / 1e6, f.At/1e6 - f.Send/1e6, false}})
	}
	sort.SliceStable(es, func(a, b int) bool { return es[a].end < es[b].end })
	out := make([]gatlingRecord, len(es))
	for i, e := range es {
		out[i] = e.r
	}
	return out
}

// gatlingBuffer is GeneralStatsBuffer: a digest and the sums of the times.
type gatlingBuffer struct {
	d          *avlDigest
	sum, sumSq int64
}

func (b *gatlingBuffer) add(t int64) {
	if b.d == nil {
		b.d = newAVLDigest(100)
	}
	b.d.add(float64(t))
	b.sum += t
	b.sumSq += t * t
}

// gatlingStats is GeneralStats, or nothing for a buffer without values.
type gatlingStats struct {
	n                  int64
	min, max, mean, sd int64
	rps                float64
	has                bool
	d                  *avlDigest
}

func (b *gatlingBuffer) stats(secs int64) gatlingStats {
	if b.d == nil || b.d.count == 0 {
		return gatlingStats{}
	}
	n := b.d.count
	mean := float64(b.sum) / float64(n)
	sd := math.Sqrt(float64(b.sumSq)/float64(n) - math.Pow(mean, 2))
	return gatlingStats{n: n, min: int64(int32(b.d.quantile(0))), max: int64(int32(b.d.quantile(1))),
		mean: javaRound(mean), sd: javaRound(sd), rps: float64(n) / float64(secs), has: true, d: b.d}
}

// percentile is GeneralStats.percentile: Math.round(quantile(rank/100)).
func (s gatlingStats) percentile(rank float64) int64 { return javaRound(s.d.quantile(rank / 100)) }

// javaRound is Math.round(double): ⌊x + ½⌋.
func javaRound(x float64) int64 { return int64(math.Floor(x + 0.5)) }

// The console's layout (ConsoleStatsFormat.scala 26-33).
const (
	gatlingWidth      = 120
	gatlingNumberLen  = 9
	gatlingPercentLen = 8
)

// gatlingNumber is toPrintableString: grouping commas, up to 3 decimals.
func gatlingNumber(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
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
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}

func leftPad(s string, n int) string {
	if d := n - len(s); d > 0 {
		return strings.Repeat(" ", d) + s
	}
	return s
}

func rightPad(s string, n int, pad string) string {
	if d := n - len(s); d > 0 {
		return s + strings.Repeat(pad, d)
	}
	return s
}

// gatlingRow is writeRequestCounters: a name and its Total, OK and KO
// figures ("" for none: "-").
func gatlingRow(name string, cells [3]string) string {
	var b strings.Builder
	b.WriteString("> " + rightPad(name, gatlingWidth-2-3*(gatlingNumberLen+3), " "))
	for _, c := range cells {
		if c == "" {
			c = "-"
		}
		b.WriteString(" | " + leftPad(c, gatlingNumberLen))
	}
	return b.String()
}

// gatlingRange is writeRange: a label, a count and its percentage.
func gatlingRange(label string, n int64, pct float64) string {
	return "> " + rightPad(label, gatlingWidth-2-gatlingNumberLen-gatlingPercentLen-2, " ") + " " +
		leftPad(gatlingNumber(float64(n)), gatlingNumberLen) + " " + leftPad("("+gatlingNumber(pct)+"%)", gatlingPercentLen)
}

// gatlingRank is toRank: "50th", "99.9th".
func gatlingRank(p float64) string {
	i := int64(p)
	if p != math.Floor(p) {
		i = int64(p*100) % 100
	}
	whole := strconv.FormatInt(i, 10)
	return gatlingNumber(p) + strings.TrimPrefix(ordinal(int(i)), whole)
}

// gatlingPercentiles are the console's, gatling-defaults.conf 71-74.
var gatlingPercentiles = [4]float64{50, 75, 95, 99}

func gatlingSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	recs := gatlingRecords(pr)
	var all, ok, ko gatlingBuffer
	var low, mid, high, kos int64
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	allOK := true
	for _, r := range recs {
		allOK = allOK && r.ok
	}
	for _, r := range recs {
		all.add(r.rt)
		if r.ok {
			if !allOK {
				ok.add(r.rt) // with no KO, the OKs' digest is the total's: the same times in the same order, its Random seeded alike
			}
			switch {
			case r.rt < 800:
				low++
			case r.rt >= 1200:
				high++
			default:
				mid++
			}
		} else {
			ko.add(r.rt)
			kos++
		}
		first, last = min(first, r.start), max(last, r.start+r.rt)
	}
	secs := int64(1)
	if len(recs) > 0 {
		secs = max(int64(math.Ceil(float64(last-first)/1000)), 1)
	}
	if allOK {
		ok = all
	}
	st := [3]gatlingStats{all.stats(secs), ok.stats(secs), ko.stats(secs)}
	cells := func(f func(s gatlingStats) string) [3]string {
		var c [3]string
		for i, s := range st {
			if s.has {
				c[i] = f(s)
			}
		}
		return c
	}
	whole := func(f func(s gatlingStats) int64) [3]string {
		return cells(func(s gatlingStats) string { return gatlingNumber(float64(f(s))) })
	}
	var b strings.Builder
	newBlock := strings.Repeat("=", gatlingWidth)
	b.WriteString("\n" + newBlock + "\n")
	b.WriteString("----" + rightPad(" Global Information ", gatlingWidth-4-35, "-") + "|---Total---|-----OK----|----KO----\n")
	b.WriteString(gatlingRow("request count", whole(func(s gatlingStats) int64 { return s.n })) + "\n")
	b.WriteString(gatlingRow("min response time (ms)", whole(func(s gatlingStats) int64 { return s.min })) + "\n")
	b.WriteString(gatlingRow("max response time (ms)", whole(func(s gatlingStats) int64 { return s.max })) + "\n")
	b.WriteString(gatlingRow("mean response time (ms)", whole(func(s gatlingStats) int64 { return s.mean })) + "\n")
	b.WriteString(gatlingRow("response time std deviation (ms)", whole(func(s gatlingStats) int64 { return s.sd })) + "\n")
	for _, p := range gatlingPercentiles {
		b.WriteString(gatlingRow("response time "+gatlingRank(p)+" percentile (ms)", whole(func(s gatlingStats) int64 { return s.percentile(p) })) + "\n")
	}
	b.WriteString(gatlingRow("mean throughput (rps)", cells(func(s gatlingStats) string { return gatlingNumber(s.rps) })) + "\n")
	b.WriteString(rightPad("---- Response Time Distribution ", gatlingWidth, "-") + "\n")
	n := low + mid + high + kos
	pct := func(c int64) float64 {
		if n == 0 {
			return 0
		}
		return float64(c) / float64(n) * 100
	}
	b.WriteString(gatlingRange("OK: t < 800 ms", low, pct(low)) + "\n")
	b.WriteString(gatlingRange("OK: 800 ms <= t < 1200 ms", mid, pct(mid)) + "\n")
	b.WriteString(gatlingRange("OK: t >= 1200 ms", high, pct(high)) + "\n")
	b.WriteString(gatlingRange("KO", kos, pct(kos)) + "\n")
	if kos > 0 {
		b.WriteString(rightPad("---- Errors ", gatlingWidth, "-") + "\n")
		b.WriteString(gatlingError(gatlingTimeoutMessage, kos) + "\n")
	}
	b.WriteString(newBlock + "\n")
	o.Text = b.String()
	if st[0].has {
		for i, p := range sim.Percentiles() {
			*o.Ps()[i] = st[0].percentile(float64(p.PPM)/1e4) * 1e6
		}
		o.MaxNs = st[0].max * 1e6
	}
	if st[0].has {
		o.Notes = append(o.Notes, gatlingDigestNotes(recs, st[0])...)
	}
	o.Notes = append(o.Notes, "Gatling's percentiles are of a t-digest, whose ties Gatling draws at random (an unseeded java.util.Random): a real run of these same times can print other percentiles (one run of 6,000 times here printed a p99 of 342 ms, the library itself 343.6 to 347.5 ms in three runs); this one draws with seed 0",
		"Gatling prints its p50, p75, p95 and p99 (gatling.conf's percentile1 to 4); the other percentiles here are the same digest's, as those settings would print them")
	return nil
}

// gatlingDigestNotes says where the digest's printed percentiles stray
// from the times' own (the first whose running count reaches ⌈p·n⌉) by
// more than a millisecond and 5 %: t-digest 3.3's stale counts can pull a
// tail percentile far below its rank (a 500 ms stall at 1000/s for 6 s:
// p99 342 ms printed, 440 ms the times' own, and 343 to 348 ms from the
// unseeded library itself in three runs).
func gatlingDigestNotes(recs []gatlingRecord, all gatlingStats) []string {
	ts := make([]int64, len(recs))
	for i, r := range recs {
		ts[i] = r.rt
	}
	sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
	var ranks, printed, own []string
	for _, p := range gatlingPercentiles {
		k := int(math.Ceil(p / 100 * float64(len(ts))))
		o, pr := ts[max(k-1, 0)], all.percentile(p)
		if d := pr - o; (d > 1 || d < -1) && math.Abs(float64(d)) > 0.05*float64(o) {
			ranks = append(ranks, gatlingRank(p))
			printed, own = append(printed, strconv.FormatInt(pr, 10)), append(own, strconv.FormatInt(o, 10))
		}
	}
	if len(ranks) == 0 {
		return nil
	}
	list := func(xs []string) string {
		if len(xs) == 1 {
			return xs[0]
		}
		return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
	}
	noun, verb := "percentile", "is"
	if len(ranks) > 1 {
		noun, verb = "percentiles", "are"
	}
	return []string{fmt.Sprintf("Gatling prints its %s %s as %s ms where the times' own (the first whose running count reaches ⌈p·n⌉) %s %s ms: its t-digest, t-digest 3.3's AVLTreeDigest as Gatling ships it, interpolates between centroids and reads their counts from sums that a count changed in place leaves stale",
		list(ranks), noun, list(printed), verb, list(own))}
}

// gatlingTimeoutMessage is the error of a request past requestTimeout,
// its exception's class abbreviated as Gatling's console shows it.
var gatlingTimeoutMessage = "i.g.h.c.i.RequestTimeoutException: Request timeout to 127.0.0.1/127.0.0.1:8080 after 60000 ms"

// gatlingError is writeError: the message and its count, 100 % of the
// errors (the model has one kind).
func gatlingError(msg string, n int64) string {
	w := gatlingWidth - 2 - gatlingNumberLen - gatlingPercentLen - 2
	first := msg
	if len(first) > w {
		first = first[:w]
	}
	s := "> " + rightPad(first, w, " ") + " " + leftPad(gatlingNumber(float64(n)), gatlingNumberLen) + " " + leftPad("(100%)", gatlingPercentLen)
	if len(msg) > w {
		s += "\n" + msg[w:]
	}
	return s
}

// avlDigest is com.tdunning t-digest 3.3's AVLTreeDigest (its release,
// commit 8d5c152: core/src/main/java/com/tdunning/math/stats/
// AVLTreeDigest.java, AVLGroupTree.java, IntAVLTree.java,
// AbstractTDigest.java, ScaleFunction.java K_2), its tree of centroids
// too, node for node: AVLGroupTree.update changes a centroid's count in
// place without fixing its ancestors' aggregated counts (93-105), so
// headSum, which decides which centroids may take a value, reads counts
// left stale until a later insertion, removal or rotation passes there.
// With whole-millisecond times most values land on a centroid of their
// own mean, and Gatling's percentiles carry that: testdata's set 3 of
// 5000 values has its p99 at 934.65 where the counts, kept right, put it
// at 1212.
type avlDigest struct {
	compression float64
	count       int64
	min, max    float64
	gen         javaRandom

	// IntAVLTree: node 0 is NIL; released nodes are reused last first.
	root                int32
	parent, left, right []int32
	depth               []int8
	means               []float64
	counts, agg         []int64
	nextNode            int32
	released            []int32
	size                int
}

func newAVLDigest(compression float64) *avlDigest {
	d := &avlDigest{compression: compression, min: math.Inf(1), max: math.Inf(-1), gen: newJavaRandom(0), nextNode: 1}
	d.grow(1)
	return d
}

func (d *avlDigest) grow(n int) {
	for len(d.parent) <= n {
		d.parent, d.left, d.right = append(d.parent, 0), append(d.left, 0), append(d.right, 0)
		d.depth, d.means, d.counts, d.agg = append(d.depth, 0), append(d.means, 0), append(d.counts, 0), append(d.agg, 0)
	}
}

func (d *avlDigest) first(n int32) int32 { return d.end(n, d.left) }
func (d *avlDigest) last(n int32) int32  { return d.end(n, d.right) }
func (d *avlDigest) next(n int32) int32  { return d.step(n, d.right, d.left) }
func (d *avlDigest) prev(n int32) int32  { return d.step(n, d.left, d.right) }

// end is the first node under n (down the left children) or the last
// (down the right ones); 0 for none.
func (d *avlDigest) end(n int32, down []int32) int32 {
	if n == 0 {
		return 0
	}
	for down[n] != 0 {
		n = down[n]
	}
	return n
}

// step is IntAVLTree's next (toward the right child, then the first node
// under it) or prev (its mirror).
func (d *avlDigest) step(n int32, toward, away []int32) int32 {
	if c := toward[n]; c != 0 {
		return d.end(c, away)
	}
	p := d.parent[n]
	for p != 0 && n == toward[p] {
		n, p = p, d.parent[p]
	}
	return p
}

func (d *avlDigest) fix(n int32) {
	d.depth[n] = 1 + max(d.depth[d.left[n]], d.depth[d.right[n]])
	d.agg[n] = d.counts[n] + d.agg[d.left[n]] + d.agg[d.right[n]]
}

func (d *avlDigest) newNode() int32 {
	d.size++
	if k := len(d.released); k > 0 {
		n := d.released[k-1]
		d.released = d.released[:k-1]
		return n
	}
	n := d.nextNode
	d.nextNode++
	d.grow(int(n))
	return n
}

// insert is AVLGroupTree.add: the new centroid goes right of every node
// whose mean is at most x (compare: −1 only when below).
func (d *avlDigest) insert(x float64, w int64) {
	if d.root == 0 {
		d.root = d.newNode()
		d.means[d.root], d.counts[d.root] = x, w
		d.fix(d.root)
		return
	}
	n, p := d.root, int32(0)
	less := false
	for n != 0 {
		p, less = n, x < d.means[n]
		if less {
			n = d.left[n]
		} else {
			n = d.right[n]
		}
	}
	n = d.newNode()
	d.means[n], d.counts[n] = x, w
	d.parent[n] = p
	if less {
		d.left[p] = n
	} else {
		d.right[p] = n
	}
	d.rebalance(n)
}

func (d *avlDigest) remove(n int32) {
	if d.left[n] != 0 && d.right[n] != 0 {
		d.swap(n, d.next(n))
	}
	p := d.parent[n]
	child := d.left[n]
	if child == 0 {
		child = d.right[n]
	}
	d.relink(p, n, child)
	if child != 0 {
		d.parent[child] = p
	}
	d.left[n], d.right[n], d.parent[n] = 0, 0, 0
	d.released = append(d.released, n)
	d.size--
	d.rebalance(p)
}

// swapChildren exchanges a's and b's child on one side, in IntAVLTree's
// order (a takes b's, then b takes a's), each child's parent with it.
func (d *avlDigest) swapChildren(side []int32, a, b int32) {
	ca, cb := side[a], side[b]
	side[a] = cb
	if cb != 0 {
		d.parent[cb] = a
	}
	side[b] = ca
	if ca != 0 {
		d.parent[ca] = b
	}
}

// relink puts to where old was under p (the root when p is 0).
func (d *avlDigest) relink(p, old, to int32) {
	switch {
	case p == 0:
		d.root = to
	case d.left[p] == old:
		d.left[p] = to
	default:
		d.right[p] = to
	}
}

// swap exchanges two nodes' places in the tree (their centroids stay).
func (d *avlDigest) swap(a, b int32) {
	pa, pb := d.parent[a], d.parent[b]
	d.relink(pa, a, b)
	d.relink(pb, b, a)
	d.parent[a], d.parent[b] = pb, pa
	d.swapChildren(d.left, a, b)
	d.swapChildren(d.right, a, b)
	d.depth[a], d.depth[b] = d.depth[b], d.depth[a]
}

func (d *avlDigest) balance(n int32) int8 { return d.depth[d.left[n]] - d.depth[d.right[n]] }

func (d *avlDigest) rebalance(n int32) {
	for n != 0 {
		p := d.parent[n]
		d.fix(n)
		switch d.balance(n) {
		case -2:
			if r := d.right[n]; d.balance(r) == 1 {
				d.rotateRight(r)
			}
			d.rotateLeft(n)
		case 2:
			if l := d.left[n]; d.balance(l) == -1 {
				d.rotateLeft(l)
			}
			d.rotateRight(n)
		}
		n = p
	}
}

func (d *avlDigest) rotateLeft(n int32)  { d.rotate(n, d.right, d.left) }
func (d *avlDigest) rotateRight(n int32) { d.rotate(n, d.left, d.right) }

// rotate is IntAVLTree's rotateLeft (up the right child: up, down =
// right, left) and rotateRight (its mirror: left, right).
func (d *avlDigest) rotate(n int32, up, down []int32) {
	c := up[n]
	inner := down[c]
	up[n] = inner
	if inner != 0 {
		d.parent[inner] = n
	}
	p := d.parent[n]
	d.parent[c] = p
	d.relink(p, n, c)
	down[c] = n
	d.parent[n] = c
	d.fix(n)
	d.fix(d.parent[n])
}

// floor is the last node whose mean is below x (0: none).
func (d *avlDigest) floor(x float64) int32 {
	f := int32(0)
	for n := d.root; n != 0; {
		if x <= d.means[n] {
			n = d.left[n]
		} else {
			f, n = n, d.right[n]
		}
	}
	return f
}

// headSum is the counts before n, as the aggregates hold them.
func (d *avlDigest) headSum(n int32) int64 {
	sum := d.agg[d.left[n]]
	for c, p := n, d.parent[n]; p != 0; c, p = p, d.parent[p] {
		if c == d.right[p] {
			sum += d.counts[p] + d.agg[d.left[p]]
		}
	}
	return sum
}

// update is AVLGroupTree.update: in place, leaving the aggregates as
// they were, when the mean is unchanged or forced; else IntAVLTree.update,
// in place with the aggregates fixed while the order holds, or out and
// back in.
func (d *avlDigest) update(n int32, mean float64, c int64, force bool) {
	if mean == d.means[n] || force {
		d.means[n], d.counts[n] = mean, c
		return
	}
	pv, nx := d.prev(n), d.next(n)
	if (pv == 0 || mean >= d.means[pv]) && (nx == 0 || mean < d.means[nx]) {
		d.means[n], d.counts[n] = mean, c
		for m := n; m != 0; m = d.parent[m] {
			d.fix(m)
		}
		return
	}
	d.remove(n)
	d.insert(mean, c)
}

// scaleZ is ScaleFunction.K_2's Z(compression, n): 4·ln(n/δ) + 24, the
// same for every centroid while the count holds (computed once an add).
func (d *avlDigest) scaleZ() float64 { return 4*math.Log(float64(d.count)/d.compression) + 24 }

// scaleMax is K_2.max(q, compression, n): Z·q·(1 − q)/δ, in that order.
func (d *avlDigest) scaleMax(z, q float64) float64 { return z * q * (1 - q) / d.compression }

// weightedAverage is AbstractTDigest.weightedAverage, kept within its two
// values.
func weightedAverage(x1, w1, x2, w2 float64) float64 {
	if x1 > x2 {
		x1, w1, x2, w2 = x2, w2, x1, w1
	}
	x := (x1*w1 + x2*w2) / (w1 + w2)
	return math.Max(x1, math.Min(x, x2))
}

func (d *avlDigest) add(x float64) {
	const w = 1
	d.min, d.max = math.Min(d.min, x), math.Max(d.max, x)
	start := d.floor(x)
	if start == 0 {
		start = d.first(d.root)
	}
	if start == 0 {
		d.insert(x, w)
		d.count = w
		return
	}
	minDistance := math.MaxFloat64
	last := int32(0)
	for nb := start; nb != 0; nb = d.next(nb) {
		z := math.Abs(d.means[nb] - x)
		if z < minDistance {
			start, minDistance = nb, z
		} else if z > minDistance {
			last = nb
			break
		}
	}
	closest, n := int32(0), 0.0
	z := d.scaleZ()
	for nb := start; nb != last; nb = d.next(nb) {
		q0 := float64(d.headSum(nb)) / float64(d.count)
		q1 := q0 + float64(d.counts[nb])/float64(d.count)
		k := float64(d.count) * math.Min(d.scaleMax(z, q0), d.scaleMax(z, q1))
		if float64(d.counts[nb]+w) <= k {
			n++
			if d.gen.nextDouble() < 1/n {
				closest = nb
			}
		}
	}
	if closest == 0 {
		d.insert(x, w)
	} else {
		c := d.counts[closest]
		d.update(closest, weightedAverage(d.means[closest], float64(c), x, w), c+w, false)
	}
	d.count += w
	if float64(d.size) > 20*d.compression {
		d.compress()
	}
}

func (d *avlDigest) compress() {
	if d.size <= 1 {
		return
	}
	cnt := float64(d.count)
	z := d.scaleZ()
	n0 := 0.0
	k0 := cnt * d.scaleMax(z, n0/cnt)
	node := d.first(d.root)
	w0 := d.counts[node]
	n1 := n0 + float64(w0)
	var w1 int64
	for node != 0 {
		after := d.next(node)
		for after != 0 {
			w1 = d.counts[after]
			k1 := cnt * d.scaleMax(z, (n1+float64(w1))/cnt)
			if float64(w0+w1) > math.Min(k0, k1) {
				break
			}
			d.update(node, weightedAverage(d.means[node], float64(w0), d.means[after], float64(w1)), w0+w1, true)
			tmp := d.next(after)
			d.remove(after)
			after = tmp
			n1 += float64(w1)
			w0 += w1
		}
		node = after
		if node != 0 {
			n0 = n1
			k0 = cnt * d.scaleMax(z, n0/cnt)
			w0 = w1
			n1 = n0 + float64(w0)
		}
	}
}

// quantile is AVLTreeDigest.quantile (q in [0, 1]).
func (d *avlDigest) quantile(q float64) float64 {
	switch d.size {
	case 0:
		return math.NaN()
	case 1:
		return d.means[d.root]
	}
	count := float64(d.count)
	index := q * count
	if index < 1 {
		return d.min
	}
	if index >= count-1 {
		return d.max
	}
	cur := d.first(d.root)
	curW := float64(d.counts[cur])
	if curW == 2 && index <= 2 {
		return 2*d.means[cur] - d.min
	}
	if l := d.last(d.root); d.counts[l] == 2 && index > count-2 {
		return 2*d.means[l] - d.max
	}
	so := curW / 2
	if index < so {
		return weightedAverage(d.min, so-index, d.means[cur], index-1)
	}
	for i := 0; i < d.size-1; i++ {
		next := d.next(cur)
		nextW := float64(d.counts[next])
		dw := (curW + nextW) / 2
		if index < so+dw {
			left, right := 0.0, 0.0
			if curW == 1 {
				if index < so+0.5 {
					return d.means[cur]
				}
				left = 0.5
			}
			if nextW == 1 {
				if index >= so+dw-0.5 {
					return d.means[next]
				}
				right = 0.5
			}
			w1 := index - so - left
			w2 := so + dw - index - right
			return weightedAverage(d.means[cur], w2, d.means[next], w1)
		}
		so += dw
		cur, curW = next, nextW
	}
	w1 := index - so
	w2 := count - 1 - index
	return weightedAverage(d.means[cur], w2, d.max, w1)
}

// javaRandom is java.util.Random: a 48-bit linear congruential generator.
type javaRandom struct{ seed int64 }

const javaMask = 1<<48 - 1

func newJavaRandom(seed int64) javaRandom { return javaRandom{(seed ^ 0x5DEECE66D) & javaMask} }

func (r *javaRandom) next(bits uint) int64 {
	r.seed = (r.seed*0x5DEECE66D + 0xB) & javaMask
	return int64(int32(r.seed >> (48 - bits)))
}

// nextDouble is ((next(26) << 27) + next(27)) · 2⁻⁵³.
func (r *javaRandom) nextDouble() float64 {
	return float64(r.next(26)<<27+r.next(27)) * (1.0 / (1 << 53))
}
