package tools

import (
	"fmt"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"sort"
	"strconv"
	"strings"

	"omission/sim"
)

// k6 (https://github.com/grafana/k6/blob/87883075c/):
//   - lib/executor/constant_arrival_rate.go 316–368: iteration gi starts at
//     gi × period on a free VU (TryRunIteration); with none free it is a
//     dropped_iterations sample, and one more VU is started in the
//     background if maxVUs allows (349–363).
//   - constant-vus: each VU loops its iterations back to back; both
//     executors let iterations in flight finish for gracefulStop (30 s).
//   - metrics/sink.go 145–166 TrendSink.P: sorted values, linear
//     interpolation at p·(n − 1).
//   - internal/js/summary-legacy.js 149–397: the legacy end-of-test summary
//     (k6 run --summary-mode=legacy --no-color), its number and duration
//     formatting and its column alignment.
var k6VUsTool = Tool{
	name:      "k6-vus",
	plain:     "A fixed number of virtual users, each sending its next request as soon as the last reply is in: during a stall they all wait, and the requests they would have sent meanwhile are never sent nor counted. Each latency runs from the real send.",
	mechanics: "k6 constant-vus: conns VUs, each sending its next request as soon as the last reply is in, for the duration (iterations in flight finish within gracefulStop, 30 s); http_req_duration = reply − send; avg, min, med, max, p(90), p(95) of the sorted values, interpolated at p·(n−1)",
	source:    "https://github.com/grafana/k6/blob/87883075c/metrics/sink.go#L145-L166",
	command:   k6Command("", k6VUsScenario),
	profile:   k6VUsProfile,
	summarise: k6Summarise,
	reads:     []measure.Format{FormatK6},
	kind:      "summary export",
	unsaid:    "A k6 summary does not name its executor, and this one dropped no iterations: constant-vus and constant-arrival-rate",
}

var k6ArrivalTool = Tool{
	name:      "k6-arrival",
	plain:     "Requests start on a fixed schedule, each on a free virtual user of a fixed pool. When every user is busy, as in a stall, the request is dropped and counted as a dropped iteration, never sent later. Each latency runs from the real send.",
	mechanics: "k6 constant-arrival-rate: iteration i starts at i/rate on a free VU of a pool of conns (preAllocatedVUs = maxVUs = conns); with none free the iteration is dropped (dropped_iterations), never sent later; http_req_duration = reply − send",
	source:    "https://github.com/grafana/k6/blob/87883075c/lib/executor/constant_arrival_rate.go#L328-L368",
	command:   k6Command("", k6ArrivalScenario),
	profile:   k6ArrivalProfile,
	summarise: k6Summarise,
	reads:     []measure.Format{FormatK6},
	kind:      "summary export",
}

const k6GracefulStop = int64(30e9)

// k6Command is the command every k6 tool prints: k6 run with the summary
// it reads, the output flag of its file ("" for none) and its scenario.
func k6Command(out string, scenario func(sim.Config) string) func(sim.Config) string {
	return func(cfg sim.Config) string {
		cmd := "k6 run --summary-mode=legacy --no-color "
		if out != "" {
			cmd += out + " "
		}
		return cmd + scenario(cfg)
	}
}

// k6VUsScenario and k6ArrivalScenario are the scenarios the k6 tools run,
// in words after the command (k6 takes them from the script's options).
func k6VUsScenario(cfg sim.Config) string {
	return fmt.Sprintf("(scenario: executor constant-vus, vus %d, duration %s)", cfg.Conns, goDuration(cfg.Duration))
}

func k6ArrivalScenario(cfg sim.Config) string {
	n, secs := perTime(cfg.Rate)
	return fmt.Sprintf("(scenario: executor constant-arrival-rate, rate %d, timeUnit %ds, duration %s, preAllocatedVUs %d, maxVUs %d)",
		n, secs, goDuration(cfg.Duration), cfg.Conns, cfg.Conns)
}

// k6VUsProfile and k6ArrivalProfile are the two executors' mechanics, for
// every k6 tool that runs them (the summary's, the per-request outputs').
func k6VUsProfile(cfg sim.Config) profile.Profile {
	return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, RecordUntil: cfg.Duration + k6GracefulStop}
}

func k6ArrivalProfile(cfg sim.Config) profile.Profile {
	return profile.Profile{Conc: profile.VUPool, Conns: cfg.Conns, MaxVUs: cfg.Conns, Send: profile.DropLate, RecordUntil: cfg.Duration + k6GracefulStop}
}

// k6Trend is TrendSink: values in milliseconds as float64.
type k6Trend struct {
	values []float64
	sum    float64
	min    float64
	max    float64
}

func newK6Trend(pr *profile.Result) k6Trend {
	t := k6Trend{min: math.Inf(1), max: math.Inf(-1)}
	for _, i := range pr.ReplyOrder() { // samples arrive as replies do
		v := float64(pr.Done[i]-pr.Send[i]) / float64(1e6) // metrics.D (metrics/units.go 11–13): ns → ms
		t.values = append(t.values, v)
		t.sum += v
		t.min, t.max = math.Min(t.min, v), math.Max(t.max, v)
	}
	sort.Float64s(t.values)
	return t
}

// p is TrendSink.P.
func (t k6Trend) p(pct float64) float64 {
	switch len(t.values) {
	case 0:
		return 0
	case 1:
		return t.values[0]
	}
	i := pct * (float64(len(t.values)) - 1.0)
	j := t.values[int(math.Floor(i))]
	k := t.values[int(math.Ceil(i))]
	f := i - math.Floor(i)
	return j + (k-j)*f
}

func msToNs(v float64) int64 { return int64(math.Round(v * 1e6)) }

func k6Summarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	t := newK6Trend(pr)
	end := max(cfg.Duration, pr.End) // the executor ends when its last iteration does
	secs := float64(end) / 1e9
	type metric struct {
		name   string
		first  string
		extras []string
		trend  []string
	}
	var ms []metric
	counter := func(name string, n int64) metric {
		return metric{name: name, first: jsNumber(float64(n)), extras: []string{jsNumber(float64(n)/secs) + "/s"}}
	}
	if pr.Dropped > 0 && pr.Profile.Send == profile.DropLate {
		ms = append(ms, counter("dropped_iterations", pr.Dropped))
	}
	if len(t.values) > 0 {
		avg := t.sum / float64(len(t.values))
		ms = append(ms, metric{name: "http_req_duration", trend: []string{
			k6Duration(avg), k6Duration(t.min), k6Duration(t.p(0.5)), k6Duration(t.max), k6Duration(t.p(0.9)), k6Duration(t.p(0.95))}})
	}
	ms = append(ms, counter("http_reqs", pr.Replies), counter("iterations", pr.Replies))
	sort.Slice(ms, func(a, b int) bool { return ms[a].name < ms[b].name })
	nameMax, firstMax := 0, 0
	trendMax := make([]int, 6)
	for _, m := range ms {
		nameMax = max(nameMax, len(m.name))
		firstMax = max(firstMax, len([]rune(m.first)))
		for i, c := range m.trend {
			trendMax[i] = max(trendMax[i], len([]rune(c)))
		}
	}
	stats := []string{"avg", "min", "med", "max", "p(90)", "p(95)"}
	var b strings.Builder
	for _, m := range ms {
		b.WriteString("     " + m.name + strings.Repeat(".", nameMax-len(m.name)+3) + ": ")
		if m.trend != nil {
			cols := make([]string, len(m.trend))
			for i, c := range m.trend {
				cols[i] = stats[i] + "=" + c + strings.Repeat(" ", trendMax[i]-len([]rune(c)))
			}
			b.WriteString(strings.Join(cols, " "))
		} else {
			b.WriteString(m.first + strings.Repeat(" ", firstMax-len([]rune(m.first))) + " " + m.extras[0])
		}
		b.WriteString("\n")
	}
	o.Text = b.String()
	o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns = msToNs(t.p(0.5)), msToNs(t.p(0.9)), msToNs(t.p(0.99)), msToNs(t.p(0.999)), msToNs(t.p(0.9999))
	if len(t.values) > 0 {
		o.MaxNs = msToNs(t.max)
	}
	o.Notes = append(o.Notes, "only the metrics the model determines are printed: dropped_iterations, http_req_duration, http_reqs and iterations (data_*, the http_req_* phases, vus and iteration_duration are left out)")
	if o.wantJSON {
		o.JSON = k6SummaryExport(cfg, pr, t, secs)
	}
	return nil
}

// jsToFixed is Number.prototype.toFixed(x, digits) for x ≥ 0: the exact
// value scaled and rounded to nearest, ties to the larger. strconv writes
// a double's exact decimal expansion when asked for enough digits (at most
// 1074 after the point), and the rounding is then done on those digits:
// the part cut off is at least a half exactly when its first digit is 5 or
// more.
func jsToFixed(x float64, digits int) string {
	exact := strconv.FormatFloat(x, 'f', 1074, 64)
	point := strings.IndexByte(exact, '.')
	kept := []byte(exact[:point] + exact[point+1:point+1+digits])
	if exact[point+1+digits] >= '5' {
		i := len(kept) - 1
		for ; i >= 0 && kept[i] == '9'; i-- {
			kept[i] = '0'
		}
		if i < 0 {
			kept = append([]byte{'1'}, kept...)
			point++
		} else {
			kept[i]++
		}
	}
	if digits == 0 {
		return string(kept)
	}
	return string(kept[:point]) + "." + string(kept[point:])
}

// jsNumber is toFixedNoTrailingZeros(x, 6): parseFloat(x.toFixed(6)).toString().
func jsNumber(x float64) string { return jsToFixedNoTrailingZeros(x, 6) }

func jsToFixedNoTrailingZeros(x float64, digits int) string {
	v, _ := strconv.ParseFloat(jsToFixed(x, digits), 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// jsTrunc2 is toFixedNoTrailingZerosTrunc(x, 2).
func jsTrunc2(x float64, prec int) string {
	mult := math.Pow(10, float64(prec))
	return jsToFixedNoTrailingZeros(math.Trunc(float64(mult*x))/mult, prec)
}

// k6Duration is humanizeGenericDuration (summary-legacy.js 178–209), in ms.
func k6Duration(dur float64) string {
	switch {
	case dur == 0:
		return "0s"
	case dur < 0.001:
		return strconv.FormatFloat(math.Trunc(dur*1000000), 'f', -1, 64) + "ns"
	case dur < 1:
		return jsTrunc2(float64(dur*1000), 2) + "µs"
	case dur < 1000:
		return jsTrunc2(dur, 2) + "ms"
	}
	prec := 2
	if dur > 60000 {
		prec = 0
	}
	result := jsTrunc2(math.Mod(dur, 60000)/1000, prec) + "s"
	rem := math.Trunc(dur / 60000)
	if rem < 1 {
		return result
	}
	result = strconv.FormatFloat(math.Mod(rem, 60), 'f', -1, 64) + "m" + result
	rem = math.Trunc(rem / 60)
	if rem < 1 {
		return result
	}
	return strconv.FormatFloat(rem, 'f', -1, 64) + "h" + result
}
