package tools

import (
	"fmt"
	"omission/app/measure"
	"omission/sim/profile"
	"sort"
	"strconv"
	"strings"

	"omission/sim"
)

// hey (https://github.com/rakyll/hey/blob/8985827/):
//   - requester/requester.go 209–232 runWorker: each of -c workers sends its
//     next request when the last one returned; with -q, first waits for its
//     own time.Tick(1e6/QPS µs) (QPS per worker), which drops the ticks a
//     slow receiver misses and keeps one.
//   - requester/report.go 84–126: every result is reported (the first
//     1000000 kept for percentiles); rps = results / total.
//   - report.go 217–235 latencies: percentile p is the first sorted latency
//     i with i·100/n ≥ p (integer division); 237–268 the histogram.
//   - requester/print.go: the summary template and its number formats.
var heyTool = Tool{
	name:      "hey",
	plain:     "A fixed number of workers, each sending its next request as soon as the last reply is in, until the time is up: during a stall they wait, and the requests they would have sent are never sent nor counted.",
	mechanics: "hey -c conns -z D: conns workers back to back until the duration (requests in flight finish and are reported); latency = reply − send; percentile p is the first sorted latency i with ⌊100·i/n⌋ ≥ p",
	source:    "https://github.com/rakyll/hey/blob/8985827/requester/report.go#L217-L235",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("hey -c %d -z %s %s", cfg.Conns, goDuration(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack}
	},
	summarise: heySummarise,
	// hey's printout does not say whether it ran with -q: the fit reads
	// it as hey's closed loop (-c -z), the command it prints, and not as
	// hey-q's, and says so beside what the file hid (Stated.Assumes, set
	// with what its file states: stated.go).
	reads: []measure.Format{FormatHey},
	unit:  PrintUnit{Ns: 100e3, Words: "0.1 ms"},
}

// heyReal is how the experiment runs heyTool.
var heyReal = Real{Bin: "hey", Install: "on Debian: apt-get install hey",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-c", fmt.Sprint(cfg.Conns), "-z", wholeSeconds(cfg), "http://" + addr + "/"}, nil
	}}

var heyQTool = Tool{
	name:      "hey-q",
	plain:     "Each worker sends at its share of the rate, on a ticker of its own. The ticks it misses while it waits for a slow reply are thrown away but one, which it sends at once: the missed requests are never sent nor counted.",
	mechanics: "hey -c conns -q rate/conns -z D: each worker waits for its own ticker of period 1/(rate/conns) (whole µs); ticks missed while busy are dropped but one, which it takes at once: missed slots are skipped, never caught up",
	source:    "https://github.com/rakyll/hey/blob/8985827/requester/requester.go#L209-L232",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("hey -c %d -q %g -z %s %s", cfg.Conns, heyQPS(cfg), goDuration(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.SkipTicks, Period: heyPeriod(cfg)}
	},
	summarise: heySummarise,
}

// heyQReal is how the experiment runs heyQTool.
var heyQReal = Real{Bin: "hey", Install: "on Debian: apt-get install hey",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		q := float64(cfg.Rate) / 1000 / float64(cfg.Conns)
		return []string{"-c", fmt.Sprint(cfg.Conns), "-q", strconv.FormatFloat(q, 'g', -1, 64), "-z", wholeSeconds(cfg), "http://" + addr + "/"}, nil
	}}

func heyQPS(cfg sim.Config) float64 { return float64(cfg.Rate) / 1000 / float64(cfg.Conns) }

// heyPeriod is time.Duration(1e6/QPS) * time.Microsecond: the float
// truncated to whole microseconds.
func heyPeriod(cfg sim.Config) int64 { return int64(1e6/heyQPS(cfg)) * 1000 }

const heyMaxRes = 1000000

func heyNum(x float64) string { return fmt.Sprintf("%4.4f", x) }

func heySummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	var lats []float64
	avgTotal := 0.0
	for _, i := range pr.ReplyOrder() {
		s := float64(pr.Done[i]-pr.Send[i]) / 1e9 // time.Duration.Seconds
		avgTotal += s
		if len(lats) < heyMaxRes {
			lats = append(lats, s)
		}
	}
	numRes := len(pr.Rec)
	total := float64(max(cfg.Duration, pr.End)) / 1e9
	rps := float64(numRes) / total
	average := avgTotal / float64(len(lats))
	sorted := append([]float64(nil), lats...)
	sort.Float64s(sorted)
	var fastest, slowest float64
	if len(sorted) > 0 {
		fastest, slowest = sorted[0], sorted[len(sorted)-1]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nSummary:\n  Total:\t%s secs\n  Slowest:\t%s secs\n  Fastest:\t%s secs\n  Average:\t%s secs\n  Requests/sec:\t%s\n  \n\n",
		heyNum(total), heyNum(slowest), heyNum(fastest), heyNum(average), heyNum(rps))
	b.WriteString("Response time histogram:\n")
	if len(sorted) > 0 {
		bc := 10
		marks := make([]float64, bc+1)
		counts := make([]int, bc+1)
		bs := (slowest - fastest) / float64(bc)
		for i := 0; i < bc; i++ {
			marks[i] = fastest + bs*float64(i)
		}
		marks[bc] = slowest
		mx, bi := 0, 0
		for i := 0; i < len(sorted); {
			if sorted[i] <= marks[bi] {
				i++
				counts[bi]++
				mx = max(mx, counts[bi])
			} else if bi < len(marks)-1 {
				bi++
			}
		}
		for i := range marks {
			barLen := 0
			if mx > 0 {
				barLen = (counts[i]*40 + mx/2) / mx
			}
			fmt.Fprintf(&b, "  %4.3f [%v]\t|%v\n", marks[i], counts[i], strings.Repeat("■", barLen))
		}
	}
	b.WriteString("\n\nLatency distribution:")
	pct := heyLatencies(sorted, []int{10, 25, 50, 75, 90, 95, 99})
	for i, p := range []int{10, 25, 50, 75, 90, 95, 99} {
		if pct[i] > 0 {
			fmt.Fprintf(&b, "\n  %d%% in %s secs", p, heyNum(pct[i]))
		} else {
			fmt.Fprintf(&b, "\n  %d%% in %s secs", 0, heyNum(0))
		}
	}
	z := heyNum(0) + " secs"
	fmt.Fprintf(&b, "\n\nDetails (average, fastest, slowest):\n  DNS+dialup:\t%s, %s, %s\n  DNS-lookup:\t%s, %s, %s\n  req write:\t%s, %s, %s\n",
		z, z, z, z, z, z, z, z, z)
	fmt.Fprintf(&b, "  resp wait:\t%s secs, %s secs, %s secs\n  resp read:\t%s, %s, %s\n\n", heyNum(average), heyNum(slowest), heyNum(fastest), z, z, z)
	b.WriteString("Status code distribution:")
	if numRes > 0 {
		fmt.Fprintf(&b, "\n  [200]\t%d responses", numRes)
	}
	b.WriteString("\n\n\n")
	o.Text = b.String()
	// The same rule at the headline percentiles, in parts per million.
	ppms := make([]int64, sim.NumPercentiles)
	for i, p := range sim.Percentiles() {
		ppms[i] = p.PPM
	}
	hp := heyLatenciesPPM(sorted, ppms)
	for i, dst := range o.Ps() {
		*dst = int64(hp[i]*1e9 + 0.5)
	}
	o.MaxNs = int64(slowest*1e9 + 0.5)
	o.Notes = append(o.Notes, "the request phases are not modelled: hey's resp wait line holds the whole latency, the other phases print 0")
	return nil
}

// heyLatencies is report.go's latencies(): one percentile per sample at most.
func heyLatencies(sorted []float64, pctls []int) []float64 {
	data := make([]float64, len(pctls))
	j := 0
	for i := 0; i < len(sorted) && j < len(pctls); i++ {
		if i*100/len(sorted) >= pctls[j] {
			data[j] = sorted[i]
			j++
		}
	}
	return data
}

// heyLatenciesPPM applies the same rule to the headline percentiles, in
// parts per million, each on its own: the first i with ⌊10⁶·i/n⌋ ≥ ppm,
// or the slowest when no i reaches it (hey prints none of these beyond
// its 99%).
func heyLatenciesPPM(sorted []float64, ppm []int64) []float64 {
	data := make([]float64, len(ppm))
	n := int64(len(sorted))
	for j, p := range ppm {
		if n == 0 {
			continue
		}
		data[j] = sorted[n-1]
		for i := int64(0); i < n; i++ {
			if i*1000000/n >= p {
				data[j] = sorted[i]
				break
			}
		}
	}
	return data
}
