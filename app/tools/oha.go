package tools

import (
	"fmt"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"sort"
	"strings"

	"omission/sim"
)

// oha (https://github.com/hatoo/oha/blob/b8cd846/):
//   - src/client.rs 1984–2185 work_until_with_qps(_latency_correction): a
//     task sends tick i at start + i/qps into an unbounded channel; -c
//     connections each take the next tick when free; with
//     --latency-correction a result's start is the tick (set_start_latency_
//     correction, 1091–1097), else its send. At the deadline every
//     connection task is aborted and reports "aborted due to deadline".
//   - src/printer.rs 479–677 print_summary, 680–725 the histogram (11 bins,
//     src/histogram.rs), 727–736 percentiles at index ⌊p/100·n⌋ of the
//     sorted values, src/timescale.rs 115–131 the unit from the slowest.
var ohaTool = Tool{
	name:      "oha",
	plain:     "Requests fall due on a fixed schedule and queue up, each connection taking the next one when it is free: after a stall the queued requests leave at once, but each is timed from its real send, so the time it spent waiting in the queue is lost. Requests still out at the end are aborted.",
	mechanics: "oha -c conns -q rate -z D: ticks at i/rate queue up without bound and each of conns connections takes the next when free (catching up at once after a stall); latency = reply − send; at the deadline the requests in flight are aborted; percentiles at index ⌊p·n⌋ of the sorted latencies",
	source:    "https://github.com/hatoo/oha/blob/b8cd846/src/printer.rs#L727-L736",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("oha --no-tui -c %d -q %s -z %s %s", cfg.Conns, cfg.Rate, goDuration(cfg.Duration), target)
	},
	profile:   ohaProfile(false),
	summarise: ohaSummarise,
	reads:     []measure.Format{FormatOha},
	kind:      "JSON report",
	unsaid:    "oha's JSON does not say whether it ran with --latency-correction: oha and oha-corrected",
}

var ohaCorrectedTool = Tool{
	name:      "oha-corrected",
	plain:     "As oha, but each request is timed from when it was due, so the time it waited in the queue during a stall counts.",
	mechanics: "oha --latency-correction: as oha, but latency = reply − tick, tick i at i/rate (the time the request was due), not reply − send",
	source:    "https://github.com/hatoo/oha/blob/b8cd846/src/client.rs#L2140-L2165",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("oha --no-tui -c %d -q %s -z %s --latency-correction %s", cfg.Conns, cfg.Rate, goDuration(cfg.Duration), target)
	},
	profile:   ohaProfile(true),
	summarise: ohaSummarise,
	reads:     []measure.Format{FormatOha},
	kind:      "JSON report",
}

func ohaProfile(corrected bool) func(cfg sim.Config) profile.Profile {
	return func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.CatchUp, FromIntended: corrected, RecordUntil: cfg.Duration}
	}
}

type ohaScale struct {
	name string
	secs float64
}

// ohaScales is TimeScale in from_f64's order.
var ohaScales = []ohaScale{{"hr", 3600}, {"10 min", 600}, {"min", 60}, {"10 sec", 10}, {"sec", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}

func ohaTimescale(seconds float64) ohaScale {
	for _, ts := range ohaScales {
		if seconds > ts.secs {
			return ts
		}
	}
	return ohaScales[len(ohaScales)-1]
}

// ohaPercentiles is percentile_iter over sorted values.
func ohaPercentiles(sorted []float64) [][2]float64 {
	var out [][2]float64
	for _, p := range []float64{10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99} {
		i := int(p / 100.0 * float64(len(sorted)))
		v := math.NaN()
		if i < len(sorted) {
			v = sorted[i]
		}
		out = append(out, [2]float64{p, v})
	}
	return out
}

// ohaHistogram is src/histogram.rs histogram(values, bins).
func ohaHistogram(values []float64, bins int) [][2]float64 {
	counts := make([]int, bins)
	mn, mx := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		mn, mx = math.Min(mn, v), math.Max(mx, v)
	}
	step := (mx - mn) / float64(bins-1)
	for _, v := range values {
		i := min(int(math.Ceil((v-mn)/step)), bins-1)
		if step == 0 || math.IsNaN((v-mn)/step) {
			i = 0 // Rust's NaN as usize is 0
		}
		counts[i]++
	}
	out := make([][2]float64, bins)
	for i := range out {
		out[i] = [2]float64{mn + step*float64(i), float64(counts[i])}
	}
	return out
}

func rustFixed(x float64, p int) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return fmt.Sprintf("%.*f", p, x)
}

func ohaSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	var lats []float64 // seconds, in the order the results arrive
	for _, i := range pr.ReplyOrder() {
		from := pr.Send[i]
		if pr.Profile.FromIntended {
			from = pr.Intended[i]
		}
		lats = append(lats, float64(pr.Done[i]-from)/1e9)
	}
	aborted := int64(cfg.Conns) // every connection task is aborted at the deadline
	total := float64(cfg.Duration) / 1e9
	sorted := append([]float64(nil), lats...)
	sort.Float64s(sorted)
	sum, mx, mn := 0.0, 0.0, math.Inf(1)
	for _, v := range lats {
		sum += v
		mx, mn = math.Max(mx, v), math.Min(mn, v)
	}
	mean := math.NaN()
	if len(lats) > 0 {
		mean = sum / float64(len(lats))
	} else {
		mn = math.NaN()
	}
	ts := ohaTimescale(mx)
	var b strings.Builder
	all := float64(len(lats)) + float64(aborted)
	fmt.Fprintf(&b, "Summary:\n  Success rate:\t%.2f%%\n", 100*float64(len(lats))/all)
	fmt.Fprintf(&b, "  Total:\t%.4f %s\n", total/ts.secs, ts.name)
	fmt.Fprintf(&b, "  Slowest:\t%s %s\n", rustFixed(mx/ts.secs, 4), ts.name)
	fmt.Fprintf(&b, "  Fastest:\t%s %s\n", rustFixed(mn/ts.secs, 4), ts.name)
	fmt.Fprintf(&b, "  Average:\t%s %s\n", rustFixed(mean/ts.secs, 4), ts.name)
	fmt.Fprintf(&b, "  Requests/sec:\t%.4f\n\n", all/total)
	b.WriteString("  Total data:\t0 B\n  Size/request:\t0 B\n  Size/sec:\t0 B\n\n")
	b.WriteString("Response time histogram:\n")
	if len(lats) > 0 {
		hist := ohaHistogram(lats, 11)
		maxBar, width := 0.0, 0
		for _, h := range hist {
			maxBar = math.Max(maxBar, h[1])
			width = max(width, len(fmt.Sprint(uint64(h[0]/ts.secs))))
		}
		width += 4
		strLenMax := len(fmt.Sprint(int(maxBar)))
		for _, h := range hist {
			cnt := fmt.Sprint(int(h[1]))
			fmt.Fprintf(&b, "  %*.3f %s [%s]%s |%s\n", width, h[0]/ts.secs, ts.name, cnt, strings.Repeat(" ", strLenMax-len(cnt)),
				strings.Repeat("■", int(32*h[1]/maxBar)))
		}
	}
	b.WriteString("\nResponse time distribution:\n")
	for _, pv := range ohaPercentiles(sorted) {
		fmt.Fprintf(&b, "  %.2f%% in %s %s\n", pv[0], rustFixed(pv[1]/ts.secs, 4), ts.name)
	}
	b.WriteString("\n\nDetails (average, fastest, slowest):\n")
	z := rustFixed(0, 4) + " " + ts.name
	fmt.Fprintf(&b, "  DNS+dialup:\t%s, %s, %s\n  DNS-lookup:\t%s, %s, %s\n\n", z, z, z, z, z, z)
	b.WriteString("Status code distribution:\n")
	if len(lats) > 0 {
		fmt.Fprintf(&b, "  [200] %d responses\n", len(lats))
	}
	fmt.Fprintf(&b, "\nError distribution:\n  [%d] aborted due to deadline\n", aborted)
	o.Text = b.String()
	ps := ohaPercentiles(sorted)
	pick := func(p float64) int64 {
		for _, pv := range ps {
			if pv[0] == p && !math.IsNaN(pv[1]) {
				return int64(math.Round(pv[1] * 1e9))
			}
		}
		return 0
	}
	o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns = pick(50), pick(90), pick(99), pick(99.9), pick(99.99)
	if len(lats) > 0 {
		o.MaxNs = int64(math.Round(mx * 1e9))
	}
	o.Notes = append(o.Notes, "bytes and connection set-up are not modelled: oha's data sizes and DNS lines print 0")
	if o.wantJSON {
		o.JSON = ohaJSON(pr, lats, sorted, aborted, total, mn, mx, mean)
	}
	return nil
}
