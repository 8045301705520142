package tools

import (
	"fmt"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/influxdata/tdigest"

	"omission/sim"
)

// vegeta (https://github.com/tsenart/vegeta/blob/cf58112/):
//   - lib/attack.go 50–53, 488–505: the pacer hands hits out on schedule;
//     when all workers are blocked a new one starts (DefaultMaxWorkers is
//     math.MaxUint64), so every hit leaves on time; 554–560: a Result's
//     Timestamp is when its worker took the hit, its Latency runs from there.
//   - lib/metrics.go 47–110: Requests, Rate = requests / (latest − earliest
//     timestamp), Throughput = successes / (that + wait), Mean = total /
//     requests; 164–200: quantiles from github.com/influxdata/tdigest
//     (v0.0.1, the version vegeta pins) with compression 100.
//   - lib/reporters.go 55–132: the text report and its rounding.
//
// vegeta's own lib package pulls in its HTTP attack and Prometheus; we
// import the t-digest it uses and re-implement the report around it.
var vegetaTool = Tool{
	name:      "vegeta",
	plain:     "Requests leave on a fixed schedule whatever happens, a new worker starting whenever all the others are busy, so no request waits for another and the stall shows in full. Its quantiles are estimated (a t-digest), close to the sorted values but not exactly them.",
	mechanics: "vegeta attack -rate R -duration D: hit i leaves at i/rate, a new worker starting whenever all are busy (-max-workers unbounded), so the schedule never waits; latency = reply − send = reply − due; every reply is reported; quantiles from a t-digest (compression 100)",
	source:    "https://github.com/tsenart/vegeta/blob/cf58112/lib/metrics.go#L164-L200",
	command: func(cfg sim.Config) string {
		n, secs := perTime(cfg.Rate)
		return fmt.Sprintf("echo 'GET %s' | vegeta attack -rate %d/%ds -duration %s | vegeta report", target, n, secs, goDuration(cfg.Duration))
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Unbounded, Send: profile.CatchUp}
	},
	summarise: vegetaSummarise,
	reads:     []measure.Format{FormatVegeta},
	kind:      "JSON report",
}

// vegetaReal is how the experiment runs vegetaTool.
var vegetaReal = Real{Bin: "vegeta", Install: "go install github.com/tsenart/vegeta/v12@v12.13.0 (" + InstallScript + " puts it in .tools/bin)",
	Files: func(cfg sim.Config, addr string) (map[string]string, error) {
		return map[string]string{"targets.txt": "GET http://" + addr + "/\n"}, nil
	},
	Args: func(cfg sim.Config, addr, dir string) ([]string, error) {
		if int64(cfg.Rate)%1000 != 0 {
			return nil, &sim.FieldError{Field: "rate", Value: cfg.Rate.String(), Allowed: "a whole number of requests per second for vegeta's -rate"}
		}
		return []string{"attack", "-targets", filepath.Join(dir, "targets.txt"), "-rate", fmt.Sprintf("%d/1s", int64(cfg.Rate)/1000), "-duration", wholeSeconds(cfg), "-output", filepath.Join(dir, "results.bin")}, nil
	},
	Then: func(dir string) []string {
		return []string{"report", "-type", "json", filepath.Join(dir, "results.bin")}
	},
	ClockFit: true}

func vegetaSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	td := tdigest.NewWithCompression(100)
	var total, mx, mn time.Duration
	var earliest, latest, end int64 = math.MaxInt64, 0, 0
	for _, i := range pr.ReplyOrder() {
		lat := time.Duration(pr.Done[i] - pr.Send[i])
		total += lat
		if lat > mx {
			mx = lat
		}
		if lat < mn || mn == 0 {
			mn = lat
		}
		td.Add(float64(lat), 1)
		earliest, latest, end = min(earliest, pr.Send[i]), max(latest, pr.Send[i]), max(end, pr.Done[i])
	}
	n := pr.Recorded
	q := func(p float64) time.Duration { return time.Duration(td.Quantile(p)) }
	var rate, throughput float64
	var dur, wait time.Duration
	var mean, p50, p90, p95, p99 time.Duration
	if n > 0 {
		dur, wait = time.Duration(latest-earliest), time.Duration(end-latest)
		rate, throughput = float64(n), float64(n)
		if secs := dur.Seconds(); secs > 0 {
			rate /= secs
			throughput /= (dur + wait).Seconds()
		}
		mean = time.Duration(float64(total) / float64(n))
		p50, p90, p95, p99 = q(0.50), q(0.90), q(0.95), q(0.99)
	}
	success := 0.0
	if n > 0 {
		success = 100
	}
	codes := ""
	if n > 0 {
		codes = fmt.Sprintf("%s:%d  ", "200", n)
	}
	o.Text = alignReport([][3]string{
		{"Requests", "[total, rate, throughput]", fmt.Sprintf("%d, %.2f, %.2f", n, rate, throughput)},
		{"Duration", "[total, attack, wait]", fmt.Sprintf("%s, %s, %s", vround(dur+wait), vround(dur), vround(wait))},
		{"Latencies", "[min, mean, 50, 90, 95, 99, max]", fmt.Sprintf("%s, %s, %s, %s, %s, %s, %s",
			vround(mn), vround(mean), vround(p50), vround(p90), vround(p95), vround(p99), vround(mx))},
		{"Bytes In", "[total, mean]", fmt.Sprintf("%d, %.2f", 0, 0.0)},
		{"Bytes Out", "[total, mean]", fmt.Sprintf("%d, %.2f", 0, 0.0)},
		{"Success", "[ratio]", fmt.Sprintf("%.2f%%", success)},
		{"Status Codes", "[code:count]", codes},
	}) + "Error Set:\n"
	if n > 0 {
		o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns = int64(p50), int64(p90), int64(p99), int64(q(0.999)), int64(q(0.9999))
	}
	o.MaxNs = int64(mx)
	o.Notes = append(o.Notes, "bytes are not modelled: vegeta's Bytes In and Out print 0")
	if n == 0 {
		earliest = 0
	}
	if o.wantJSON {
		o.JSON = vegetaJSON(vegetaMetrics{total: total, mean: mean, p50: p50, p90: p90, p95: p95, p99: p99, max: mx, min: mn,
			earliest: earliest, latest: latest, end: end, duration: dur, wait: wait, requests: n, rate: rate, throughput: throughput, success: success / 100})
	}
	return nil
}

// vegetaMetrics is what vegeta's JSON report holds (lib/metrics.go
// Metrics, LatencyMetrics), times in ns from the run's start.
type vegetaMetrics struct {
	total, mean, p50, p90, p95, p99, max, min time.Duration
	earliest, latest, end                     int64
	duration, wait                            time.Duration
	requests                                  int64
	rate, throughput, success                 float64
}

// alignReport lays the rows out as vegeta's text reporter does with
// text/tabwriter (reporters.go: NewWriter(w, 0, 8, 2, ' ', StripEscape)):
// the first two cells of every row padded with spaces to their column's
// widest cell plus two, the third as it is. Only these rows go through it,
// so app.wasm links no tabwriter (TestAlignReportIsTabwriter holds the two
// to the same bytes).
func alignReport(rows [][3]string) string {
	var w [2]int
	for _, r := range rows {
		for c := range w {
			w[c] = max(w[c], utf8.RuneCountInString(r[c]))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for c := range w {
			b.WriteString(r[c])
			b.WriteString(strings.Repeat(" ", w[c]+2-utf8.RuneCountInString(r[c])))
		}
		b.WriteString(r[2])
		b.WriteByte('\n')
	}
	return b.String()
}

var vDurations = [...]time.Duration{time.Hour, time.Minute, time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}

// vround is reporters.go's round: to the next most precise unit.
func vround(d time.Duration) time.Duration {
	for i, unit := range vDurations {
		if d >= unit && i < len(vDurations)-1 {
			return d.Round(vDurations[i+1])
		}
	}
	return d
}
