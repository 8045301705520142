package tools

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// bombardier 1.2.6, read at github.com/codesenberg/bombardier v1.2.6 (the
// module proxy's copy; paths below are in it):
//   - bombardier.go 259-268 worker: each of -c connections loops while the
//     timed barrier is open (completion_barriers.go 76-100: closed -d after
//     start), sends and waits for the reply; a request out at -d finishes
//     and counts, and the run ends when the last one has
//     (bombardier.go 330-343).
//   - bombardier.go 226-257: every call is recorded, failed or not, with its
//     latency; its status class is counted (a failure is "others") and its
//     error by its text (error_map.go).
//   - clients.go 101-108: the latency is time.Since(start) around
//     fasthttp's Client.Do in whole µs, truncated. Do's ReadTimeout is -t (2
//     s by default, args_parser.go 54); fasthttp v1.46.0 (go.mod 11),
//     client.go 1243-1281, retries an idempotent request whose read failed
//     until 5 attempts (DefaultMaxIdemponentCallAttempts, 613), so a GET
//     fails only after five timeouts, as "timeout" (ErrTimeout), its
//     latency about 10 s: a run against a 12 s stall here printed
//     "timeout - 2" and a 10.01 s maximum, one against a 4.5 s stall no
//     error and a 4.50 s maximum.
//   - bombardier.go 292-324 rateMeter: every 10 ms + 10 ms (without --rate),
//     the calls completed since the last sample over the time since it;
//     once more when the run has ended.
//   - internal/test_info.go 123-183 LatenciesStats: p is the first value
//     whose running count reaches uint64(p·n + 0.5); the stdev sums (v −
//     mean)² once for each distinct value, not each call, over n (0 when n
//     ≤ 2); 201-270 RequestsStats the same over the rate samples, over n − 1.
//   - templates.go 38-67 the text layout, 68-171 the JSON (-o json);
//     format.go formatTimeUs and formatBinary.
var bombardierTool = Tool{
	name:      "bombardier",
	plain:     "A fixed number of connections, each sending its next request as soon as the last reply is in, until the time is up: during a stall they wait, and the requests they would have sent are never sent nor counted. A reply slower than its 2 s timeout is asked again, up to five times, and its time counts from the first ask.",
	mechanics: "bombardier -c conns -d D -l: conns connections back to back until the duration (requests out then finish and count); latency = reply − first send in whole µs (truncated), fasthttp retrying a read that times out (-t 2 s) up to 5 attempts; percentile p is the first value whose running count reaches ⌊p·n + 0.5⌋",
	source:    "https://github.com/codesenberg/bombardier/blob/v1.2.6/internal/test_info.go#L123-L183",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("bombardier -c %d -d %s -l -p i,r %s", cfg.Conns, goDuration(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, FromIntended: true,
			Timeout: bombardierTimeout, Attempts: bombardierAttempts}
	},
	summarise: bombardierSummarise,
	reads:     []measure.Format{FormatBombardier, FormatBombardierJSON},
}

// bombardierRateTool is bombardier with --rate R: before each request a
// connection takes a token of a bucket they share (limiter.go 33-62,
// juju/ratelimit v1.0.2): R/s in whole ticks of 10 ms or more
// (rateestimator.go 13-30: at 1,000/s, 10 tokens every 10 ms, and at most
// 10 held). A stall holds every connection; when it ends the bucket is
// full and lets 10 leave at once, and the requests the stall held back are
// never sent. Its latency counts from the send, after the wait, as
// without --rate; its rate meter samples every fill interval + 10 ms
// (bombardier.go 292-313), and -o json's spec says the rate
// (templates.go 114-116).
var bombardierRateTool = Tool{
	name:      "bombardier-rate",
	plain:     "A fixed number of connections share a bucket of tokens that fills at the rate asked for, in ticks of 10 ms or more; each takes a token before it sends, and waits for one when the bucket is empty. During a stall they all wait for their replies; when it ends the bucket is full, one tick's worth leaves at once, and the requests the stall held back are never sent.",
	mechanics: "bombardier -c conns -d D --rate R -l: a bucket of q tokens, q more every f (f·R = q, f ≥ 10 ms: rateestimator.go), shared by conns connections; a connection takes a token, or waits for the tick that brings it, then sends; latency = reply − send in whole µs",
	source:    "https://github.com/codesenberg/bombardier/blob/v1.2.6/limiter.go#L33-L62",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("bombardier -c %d -d %s --rate %d -l -p i,r %s", cfg.Conns, goDuration(cfg.Duration), bombardierRate(cfg), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		fill, quantum := bombardierEstimate(bombardierRate(cfg))
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.TokenBucket, FromIntended: true,
			Rate: sim.RateOf(int64(bombardierRate(cfg))), Period: fill, Quantum: quantum,
			Timeout: bombardierTimeout, Attempts: bombardierAttempts}
	},
	summarise: func(cfg sim.Config, pr *profile.Result, o *Output) error {
		return bombardierReport(cfg, pr, o, bombardierRate(cfg))
	},
	// Its -o json says the rate (the fit tells it from bombardier's by
	// that, Stated.Paced); its printout does not, and is read as
	// bombardier's.
	reads:     []measure.Format{FormatBombardierJSON},
	onlyPaced: true,
	rateFlag:  "--rate",
}

// bombardierRateReal is how the experiment runs bombardierRateTool.
var bombardierRateReal = Real{Bin: "bombardier", Install: bombardierReal.Install,
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-c", fmt.Sprint(cfg.Conns), "-d", wholeSeconds(cfg), "--rate", fmt.Sprint(bombardierRate(cfg)), "-l", "-p", "i,r", "http://" + addr + "/"}, nil
	},
	PredictedRequests: bombardierReal.PredictedRequests}

// bombardierRate is --rate: the query's rate in whole requests a second
// (at least 1).
func bombardierRate(cfg sim.Config) uint64 {
	return uint64(max(math.Round(float64(cfg.Rate)/1000), 1))
}

// bombardierEstimate is rateestimator.go 13-30's estimate(rate, 10 ms): the
// bucket's fill interval in ns and the tokens it brings, rate/s reduced by
// their greatest common divisor and scaled up to 10 ms when shorter.
func bombardierEstimate(rate uint64) (fill, quantum int64) {
	const second, adjust = uint64(1e9), uint64(10e6)
	g := gcd(rate, second)
	nr, nd := rate/g, second/g
	if nd >= adjust {
		return int64(nd), int64(nr)
	}
	coef := adjust / nd
	return int64(coef * nd), int64(coef * nr)
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// bombardierReal is how the experiment runs bombardierTool.
var bombardierReal = Real{Bin: "bombardier", Install: "GOBIN=.tools/bin go install github.com/codesenberg/bombardier@v1.2.6 (or " + InstallScript + ")",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-c", fmt.Sprint(cfg.Conns), "-d", wholeSeconds(cfg), "-l", "-p", "i,r", "http://" + addr + "/"}, nil
	},
	// Its status counts hold every call, the failed ones too.
	PredictedRequests: func(o *Output) int64 { return o.Recorded + o.Run.Failed }}

const (
	bombardierTimeout  = int64(2e9) // defaultTimeout, args_parser.go
	bombardierAttempts = 5          // fasthttp's DefaultMaxIdemponentCallAttempts
)

// bombardierPcts are the percentiles its templates print (0.5 … 0.99).
var bombardierPcts = []float64{0.5, 0.75, 0.9, 0.95, 0.99}

// bombardierStats is LatenciesStats or RequestsStats over a histogram of
// exact values (sorted ascending, with their counts).
type bombardierStats struct {
	mean, stddev, max float64
	pct               []float64 // at bombardierPcts
}

// bombardierStatsOf is LatenciesStats (over whole µs, the stdev over n)
// and RequestsStats (over the rate samples, over n − 1, Bessel's): the
// mean; the stdev adding (v − mean)² once for each distinct value (VisitAll
// over the histogram's map), 0 when n ≤ 2; the max; at each of pcts the
// first value whose running count reaches uint64(p·n + 0.5). ok is false
// when there is no value.
func bombardierStatsOf(vals []float64, pcts []float64, bessel bool) (s bombardierStats, ok bool) {
	if len(vals) == 0 {
		return s, false
	}
	sorted := append([]float64(nil), vals...)
	sort.Float64s(sorted)
	n := float64(len(sorted))
	sum := 0.0
	for _, v := range sorted {
		sum += v
	}
	s.mean, s.max = sum/n, sorted[len(sorted)-1]
	ss := 0.0
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			ss += math.Pow(v-s.mean, 2)
		}
	}
	if len(sorted) > 2 {
		if bessel {
			s.stddev = math.Sqrt(ss / (n - 1))
		} else {
			s.stddev = math.Sqrt(ss / n)
		}
	}
	for _, p := range pcts {
		rank := int(uint64(p*n + 0.5))
		s.pct = append(s.pct, sorted[min(max(rank-1, 0), len(sorted)-1)])
	}
	return s, true
}

// bombardierUnits is format.go's formatUnits: divide by scale while at
// least 0.85 of it and a larger unit is left.
func bombardierUnits(n float64, scale float64, base string, units []string) string {
	unit := base
	for i := 0; i < len(units) && n >= scale*0.85; i++ {
		n /= scale
		unit = units[i]
	}
	return strconv.FormatFloat(n, 'f', 2, 64) + unit
}

// bombardierTimeUs is format.go's formatTimeUs.
func bombardierTimeUs(us float64) string {
	if us >= 1e6 {
		return bombardierUnits(us/1e6, 60, "s", []string{"m", "h"})
	}
	return bombardierUnits(us, 1000, "us", []string{"ms", "s"})
}

func bombardierSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	return bombardierReport(cfg, pr, o, 0)
}

// bombardierReport writes bombardier's printout and -o json of a run with
// --rate rate (0: none).
func bombardierReport(cfg sim.Config, pr *profile.Result, o *Output, rate uint64) error {
	// Every call, answered or failed: its latency from its first send and
	// when it completed.
	var us []float64 // whole µs
	var ends []int64
	for i, ok := range pr.Rec {
		if ok {
			us = append(us, float64((pr.Done[i]-pr.Intended[i])/1000))
			ends = append(ends, pr.Done[i])
		}
	}
	for _, f := range pr.Fails {
		us = append(us, float64((f.At-f.Intended)/1000))
		ends = append(ends, f.At)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] < ends[j] })
	taken := cfg.Duration
	if len(ends) > 0 {
		taken = max(taken, ends[len(ends)-1])
	}
	// rateMeter: a sample every 10 ms + 10 ms (with --rate, the bucket's
	// fill interval + 10 ms) while the run is on (the barrier, started
	// first, closes a moment before a tick due at -d), then one over the
	// rest when the last call is in.
	var rates []float64
	last, k := int64(0), 0
	count := func(upTo int64) float64 {
		n := 0
		for k < len(ends) && ends[k] <= upTo {
			n++
			k++
		}
		return float64(n)
	}
	tick := int64(20e6)
	if rate > 0 {
		fill, _ := bombardierEstimate(rate)
		tick = fill + 10e6
	}
	for t := tick; t < cfg.Duration; t += tick {
		rates = append(rates, count(t)/(float64(t-last)/1e9))
		last = t
	}
	if taken > last {
		rates = append(rates, count(taken)/(float64(taken-last)/1e9))
	}
	lat, latOK := bombardierStatsOf(us, bombardierPcts, false)
	rps, rpsOK := bombardierStatsOf(rates, bombardierPcts, true)
	answered, failed := int64(len(us)-len(pr.Fails)), int64(len(pr.Fails))

	var b strings.Builder
	fmt.Fprintf(&b, "Bombarding %s for %v using %d connection(s)\n", target, time.Duration(cfg.Duration), cfg.Conns)
	fmt.Fprintf(&b, "%10v %10v %10v %10v\n", "Statistics", "Avg", "Stdev", "Max")
	if rpsOK {
		fmt.Fprintf(&b, "  %-10v %10.2f %10.2f %10.2f\n", "Reqs/sec", rps.mean, rps.stddev, rps.max)
	} else {
		b.WriteString("  There wasn't enough data to compute statistics for requests.\n\n")
	}
	if latOK {
		fmt.Fprintf(&b, "  %-10v %10v %10v %10v", "Latency", bombardierTimeUs(lat.mean), bombardierTimeUs(lat.stddev), bombardierTimeUs(lat.max))
		b.WriteString("\n  Latency Distribution")
		for i, p := range bombardierPcts {
			fmt.Fprintf(&b, "\n     %2.0f%% %10s", p*100, bombardierTimeUs(lat.pct[i]))
		}
		b.WriteString("\n")
	} else {
		b.WriteString("  There wasn't enough data to compute statistics for latencies.\n")
	}
	b.WriteString("  HTTP codes:\n")
	fmt.Fprintf(&b, "    1xx - %d, 2xx - %d, 3xx - %d, 4xx - %d, 5xx - %d", 0, answered, 0, 0, 0)
	fmt.Fprintf(&b, "\n    others - %d", failed)
	if failed > 0 {
		fmt.Fprintf(&b, "\n  Errors:\n    %10v - %d", "timeout", failed)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  %-10v %10v/s\n", "Throughput:", bombardierUnits(0, 1024, "", []string{"KB", "MB", "GB", "TB", "PB"}))
	o.Text = b.String()

	if o.wantJSON {
		o.JSON = bombardierJSON(cfg, rate, taken, answered, failed, lat, latOK, rps, rpsOK)
	}

	// The headline percentiles by the same rule, in ns.
	ps := make([]float64, sim.NumPercentiles)
	for i, p := range sim.Percentiles() {
		ps[i] = float64(p.PPM) / 1e6
	}
	if hp, ok := bombardierStatsOf(us, ps, false); ok {
		for i, dst := range o.Ps() {
			*dst = int64(hp.pct[i]) * 1000
		}
		o.MaxNs = int64(hp.max) * 1000
	}
	o.Notes = append(o.Notes, "bytes are not modelled: bombardier's throughput prints 0",
		"bombardier's stdevs add each distinct value once, not each sample (internal/test_info.go 172, 262): on the model's exact clock the rate samples take few values, so its Reqs/sec stdev is far below a real run's")
	return nil
}
