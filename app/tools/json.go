//go:build !minimal

package tools

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"omission/sim"
	"omission/sim/profile"
)

// The JSON reports a user keeps (vegeta report -type json, oha --json, k6
// --summary-export) and k6's per-request CSV, which the fit regenerates to
// compare with a user's.
// The page's app.wasm (built with the minimal tag) shows the tools'
// printouts only and leaves them out: json_minimal.go.

// vegetaJSON writes m as `vegeta report -type json` does (lib/reporters.go
// NewJSONReporter: encoding/json of Metrics, its fields in order, a
// time.Duration as integer ns, a float64 in its shortest form, one line).
// The model has no wall clock: earliest, latest and end are the run's
// times from the Unix epoch.
func vegetaJSON(m vegetaMetrics) string {
	d := func(v time.Duration) string { return strconv.FormatInt(int64(v), 10) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	at := func(ns int64) string { return `"` + time.Unix(0, ns).UTC().Format(time.RFC3339Nano) + `"` }
	codes := "{}"
	if m.requests > 0 {
		codes = `{"200":` + strconv.FormatInt(m.requests, 10) + `}`
	}
	return `{"latencies":{"total":` + d(m.total) + `,"mean":` + d(m.mean) + `,"50th":` + d(m.p50) + `,"90th":` + d(m.p90) +
		`,"95th":` + d(m.p95) + `,"99th":` + d(m.p99) + `,"max":` + d(m.max) + `,"min":` + d(m.min) + `},` +
		`"bytes_in":{"total":0,"mean":0},"bytes_out":{"total":0,"mean":0},` +
		`"earliest":` + at(m.earliest) + `,"latest":` + at(m.latest) + `,"end":` + at(m.end) +
		`,"duration":` + d(m.duration) + `,"wait":` + d(m.wait) + `,"requests":` + strconv.FormatInt(m.requests, 10) +
		`,"rate":` + f(m.rate) + `,"throughput":` + f(m.throughput) + `,"success":` + f(m.success) +
		`,"status_codes":` + codes + `,"errors":[]}` + "\n"
}

// jsonKV is one member of a JSON object, its value already written.
type jsonKV struct{ k, v string }

// prettyObject writes members as serde_json's to_writer_pretty does: two
// spaces an indent level, `"key": value`, {} when empty. A value that is
// itself an object was written at depth 0 and is re-indented here.
func prettyObject(kv []jsonKV, depth int) string {
	if len(kv) == 0 {
		return "{}"
	}
	ind := strings.Repeat("  ", depth+1)
	var b strings.Builder
	b.WriteString("{\n")
	for i, m := range kv {
		b.WriteString(ind + strconv.Quote(m.k) + ": " + strings.ReplaceAll(m.v, "\n", "\n"+strings.Repeat("  ", depth+1)))
		if i < len(kv)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", depth) + "}")
	return b.String()
}

// rustJSONFloat writes x as serde_json does (ryu): the shortest digits that
// read back to x, in decimal with ".0" on a whole number from 1e-5 up to
// 1e16, in scientific notation ("1.5e-7") outside it; null for NaN.
func rustJSONFloat(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "null"
	case x == 0:
		return "0.0"
	case a < 1e-5 || a >= 1e16:
		m, e, _ := strings.Cut(strconv.FormatFloat(x, 'e', -1, 64), "e")
		n, _ := strconv.Atoi(e)
		return m + "e" + strconv.Itoa(n)
	case x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', -1, 64) + ".0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// ohaJSON is what `oha --json` writes for the run (src/printer.rs
// print_json, b8cd846: summary, responseTimeHistogram, latencyPercentiles,
// rps, details, statusCodeDistribution, errorDistribution; BTreeMap keys
// in string order; serde_json's pretty layout). lats are the latencies in
// seconds in reply order, sorted the same ascending. Bytes and connection
// set-up are not modelled (0), as in the text.
func ohaJSON(pr *profile.Result, lats, sorted []float64, aborted int64, total, mn, mx, mean float64) string {
	f := rustJSONFloat
	n := len(lats)
	all := float64(n) + float64(aborted)
	sizePer := "null"
	if n > 0 {
		sizePer = "0"
	}
	summary := prettyObject([]jsonKV{{"successRate", f(float64(n) / all)}, {"total", f(total)}, {"slowest", f(mx)}, {"fastest", f(mn)},
		{"average", f(mean)}, {"requestsPerSec", f(all / total)}, {"totalData", "0"}, {"sizePerRequest", sizePer}, {"sizePerSec", f(0)}}, 0)
	sortedKV := func(kv []jsonKV) []jsonKV {
		sort.SliceStable(kv, func(i, j int) bool { return kv[i].k < kv[j].k })
		return kv
	}
	var hist []jsonKV
	if n > 0 {
		for _, h := range ohaHistogram(lats, 11) {
			hist = append(hist, jsonKV{strconv.FormatFloat(h[0], 'f', -1, 64), strconv.Itoa(int(h[1]))})
		}
	}
	pcts := func(ps [][2]float64) string {
		var kv []jsonKV
		for _, pv := range ps {
			kv = append(kv, jsonKV{"p" + strconv.FormatFloat(pv[0], 'f', -1, 64), f(pv[1])})
		}
		return prettyObject(sortedKV(kv), 0)
	}
	// rps: replies per window of at least 10 ms, walking the reply times
	// from the start (0 included), as print_json does.
	ends := []float64{0}
	for _, i := range pr.ReplyOrder() {
		ends = append(ends, float64(pr.Done[i])/1e9)
	}
	sort.Float64s(ends)
	var rps []float64
	for r := 0; ; {
		prev := r
		if r+1 < len(ends) {
			r++
		}
		for r+1 < len(ends) && ends[prev]+0.01 > ends[r+1] {
			r++
		}
		if r == prev {
			break
		}
		rps = append(rps, float64(r-prev)/(ends[r]-ends[prev]))
	}
	rmean, rsd, rmax, rmin := math.NaN(), math.NaN(), math.Inf(-1), math.Inf(1)
	if len(rps) > 0 {
		s := 0.0
		for _, v := range rps {
			s += v
			rmax, rmin = math.Max(rmax, v), math.Min(rmin, v)
		}
		rmean = s / float64(len(rps))
		if len(rps) > 1 {
			ss := 0.0
			for _, v := range rps {
				ss += (v - rmean) * (v - rmean)
			}
			rsd = math.Sqrt(ss / float64(len(rps)-1))
		}
	} else {
		rmax, rmin = math.NaN(), math.NaN()
	}
	rsorted := append([]float64(nil), rps...)
	sort.Float64s(rsorted)
	rpsObj := prettyObject([]jsonKV{{"mean", f(rmean)}, {"stddev", f(rsd)}, {"max", f(rmax)}, {"min", f(rmin)}, {"percentiles", pcts(ohaPercentiles(rsorted))}}, 0)
	zero := prettyObject([]jsonKV{{"average", f(0)}, {"fastest", f(0)}, {"slowest", f(0)}}, 0)
	details := prettyObject([]jsonKV{{"DNSDialup", zero}, {"DNSLookup", zero}}, 0)
	var codes, errs []jsonKV
	if n > 0 {
		codes = []jsonKV{{"200", strconv.Itoa(n)}}
	}
	if aborted > 0 {
		errs = []jsonKV{{"aborted due to deadline", strconv.FormatInt(aborted, 10)}}
	}
	return prettyObject([]jsonKV{{"summary", summary}, {"responseTimeHistogram", prettyObject(sortedKV(hist), 0)},
		{"latencyPercentiles", pcts(ohaPercentiles(sorted))}, {"rps", rpsObj}, {"details", details},
		{"statusCodeDistribution", prettyObject(codes, 0)}, {"errorDistribution", prettyObject(errs, 0)}}, 0) + "\n"
}

// k6SummaryExport is what `k6 run --summary-export FILE` writes for the
// run (the legacy summary's data, internal/js/summary-legacy.js: a
// counter's count and rate a second, a trend's avg, min, med, max, p(90)
// and p(95) in ms, a gauge's value, min and max; encoding/json with four
// spaces an indent and keys in order), with only the metrics the model
// determines: dropped_iterations (when any), http_req_duration, http_reqs,
// iterations and vus_max (the VUs the scenario allowed). The trend has
// p(99), p(99.9) and p(99.99) too, as with summaryTrendStats set to ask
// for them, so that a summary made so compares number for number.
func k6SummaryExport(cfg sim.Config, pr *profile.Result, t k6Trend, secs float64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	counter := func(n int64) string {
		return "{\n            \"count\": " + strconv.FormatInt(n, 10) + ",\n            \"rate\": " + f(float64(n)/secs) + "\n        }"
	}
	var ms []string
	if pr.Dropped > 0 && pr.Profile.Send == profile.DropLate {
		ms = append(ms, `"dropped_iterations": `+counter(pr.Dropped))
	}
	if len(t.values) > 0 {
		avg := t.sum / float64(len(t.values))
		var kv []string
		for _, m := range []struct {
			k string
			v float64
		}{{"avg", avg}, {"max", t.max}, {"med", t.p(0.5)}, {"min", t.min}, {"p(90)", t.p(0.9)}, {"p(95)", t.p(0.95)},
			{"p(99)", t.p(0.99)}, {"p(99.9)", t.p(0.999)}, {"p(99.99)", t.p(0.9999)}} {
			kv = append(kv, "            "+strconv.Quote(m.k)+": "+f(m.v))
		}
		ms = append(ms, "\"http_req_duration\": {\n"+strings.Join(kv, ",\n")+"\n        }")
	}
	ms = append(ms, `"http_reqs": `+counter(pr.Replies), `"iterations": `+counter(pr.Replies))
	c := strconv.Itoa(cfg.Conns)
	ms = append(ms, "\"vus_max\": {\n            \"max\": "+c+",\n            \"min\": "+c+",\n            \"value\": "+c+"\n        }")
	return "{\n    \"metrics\": {\n        " + strings.Join(ms, ",\n        ") + "\n    },\n    \"root_group\": {\n        \"checks\": {},\n        \"groups\": {},\n        \"id\": \"d41d8cd98f00b204e9800998ecf8427e\",\n        \"name\": \"\",\n        \"path\": \"\"\n    }\n}\n"
}

// bombardierJSON is -o json's report (templates.go 68-171; -l adds the
// latency percentiles): template numbers print as fmt's %v.
func bombardierJSON(cfg sim.Config, rate uint64, taken, answered, failed int64, lat bombardierStats, latOK bool, rps bombardierStats, rpsOK bool) string {
	var j strings.Builder
	fmt.Fprintf(&j, `{"spec":{"numberOfConnections":%d,"testType":"timed","testDurationSeconds":%v,"method":"GET","url":%q,"body":"","stream":false,"timeoutSeconds":%v,"client":"fasthttp"`,
		cfg.Conns, time.Duration(cfg.Duration).Seconds(), target, time.Duration(bombardierTimeout).Seconds())
	if rate > 0 {
		fmt.Fprintf(&j, `,"rate":%d`, rate) // templates.go 114-116: with .Rate
	}
	j.WriteString("},")
	fmt.Fprintf(&j, `"result":{"bytesRead":0,"bytesWritten":0,"timeTakenSeconds":%v,"req1xx":0,"req2xx":%d,"req3xx":0,"req4xx":0,"req5xx":0,"others":%d`,
		time.Duration(taken).Seconds(), answered, failed)
	if failed > 0 {
		fmt.Fprintf(&j, `,"errors":[{"description":"timeout","count":%d}]`, failed)
	}
	if latOK {
		fmt.Fprintf(&j, `,"latency":{"mean":%v,"stddev":%v,"max":%v,"percentiles":{`, lat.mean, lat.stddev, lat.max)
		for i, p := range bombardierPcts {
			if i > 0 {
				j.WriteString(",")
			}
			fmt.Fprintf(&j, `"%2.0f":%d`, p*100, uint64(lat.pct[i]))
		}
		j.WriteString("}}")
	}
	if rpsOK {
		fmt.Fprintf(&j, `,"rps":{"mean":%v,"stddev":%v,"max":%v,"percentiles":{`, rps.mean, rps.stddev, rps.max)
		for i, p := range bombardierPcts {
			if i > 0 {
				j.WriteString(",")
			}
			fmt.Fprintf(&j, `"%2.0f":%f`, p*100, rps.pct[i])
		}
		j.WriteString("}}")
	}
	j.WriteString("}}")
	return j.String()
}

// autocannonJSON is -j's result (lib/run.js 120-140 and
// lib/aggregateResult.js, JSON.stringify in key order): the run on the
// model's clock, which has no date (start at the epoch), no bytes and no
// status but 200.
func autocannonJSON(cfg sim.Config, r *autocannonRun) string {
	var j strings.Builder
	pcts := []struct {
		key string
		p   float64
	}{{"p0_001", 0.001}, {"p0_01", 0.01}, {"p0_1", 0.1}, {"p1", 1}, {"p2_5", 2.5}, {"p10", 10}, {"p25", 25}, {"p50", 50},
		{"p75", 75}, {"p90", 90}, {"p97_5", 97.5}, {"p99", 99}, {"p99_9", 99.9}, {"p99_99", 99.99}, {"p99_999", 99.999}}
	stats := func(vals, medians []int64, quant func(int64) int64, total string, tail string) {
		m, sd := autocannonMeanSD(medians)
		var mn, mx int64
		if len(vals) > 0 {
			mn, mx = vals[0], vals[len(vals)-1]
			for _, v := range vals {
				if v > 0 {
					mn = v // the smallest value above 0 (minNonZeroValue)
					break
				}
			}
		}
		fmt.Fprintf(&j, `{"average":%s,"mean":%s,"stddev":%s,"min":%d,"max":%d%s`, jsString(m), jsString(m), jsString(sd), mn, mx, total)
		for _, p := range pcts {
			fmt.Fprintf(&j, `,"%s":%d`, p.key, quant(autocannonPct(vals, p.p)))
		}
		j.WriteString(tail + "}")
	}
	finish := time.Unix(0, r.secs*1e9).UTC().Format("2006-01-02T15:04:05.000Z")
	fmt.Fprintf(&j, `{"url":%q,"connections":%d,"sampleInt":1000,"pipelining":1,"workers":0,"duration":%s,"samples":%d,"start":"1970-01-01T00:00:00.000Z","finish":%q,`,
		target, cfg.Conns, jsString(float64(r.secs)), r.secs, finish)
	fmt.Fprintf(&j, `"errors":%d,"timeouts":%d,"mismatches":0,"non2xx":0,"resets":0,"1xx":0,"2xx":%d,"3xx":0,"4xx":0,"5xx":0,"statusCodeStats":{`, r.errors, r.errors, r.ok)
	if r.ok > 0 {
		fmt.Fprintf(&j, `"200":{"count":%d}`, r.ok)
	}
	j.WriteString(`},"latency":`)
	stats(r.lat, r.lat, func(v int64) int64 { return v }, "", fmt.Sprintf(`,"totalCount":%d`, len(r.lat)))
	j.WriteString(`,"requests":`)
	stats(r.perSecond, autocannonMedians(r.perSecond), autocannonHdr3, fmt.Sprintf(`,"total":%d`, r.ok), fmt.Sprintf(`,"sent":%d`, r.sent))
	j.WriteString(`,"throughput":`)
	zeros := make([]int64, len(r.perSecond))
	stats(zeros, zeros, func(v int64) int64 { return v }, `,"total":0`, "")
	j.WriteString("}")
	return j.String()
}

// jmeterJTL writes the samples as JMeter 5.x's JTL with its default
// columns (jmeter.go: CSVSaveService.resultToDelimitedString): the start
// in ms from the epoch (the model's run starts at it), the elapsed ms, the
// HTTP Request sampler's label, 200 OK, the thread's name, "text",
// success, no failure message, 0 bytes received and sent (not modelled),
// the threads active, the URL, the latency (the whole reply arrives at
// once: the elapsed time) and 0 idle and connect time; a row a sample, as
// each ends.
func jmeterJTL(ss []jmeterSample) string {
	// The threads active as each sample ends: a thread is until its
	// last sample has been written (grpThreads, allThreads).
	var ends []int64
	for _, s := range ss {
		for int(s.thread) >= len(ends) {
			ends = append(ends, -1)
		}
		ends[s.thread] = max(ends[s.thread], s.done)
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a] < ends[b] })
	gone := 0
	for gone < len(ends) && ends[gone] < 0 {
		gone++ // a thread that sent nothing
	}
	var b strings.Builder
	b.Grow(len(ss) * 96)
	b.WriteString(jtlHeader5 + "\n")
	var buf []byte
	for _, s := range ss {
		for gone < len(ends) && ends[gone] < s.done {
			gone++
		}
		active := len(ends) - gone
		buf = strconv.AppendInt(buf[:0], s.start, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, s.elapsed, 10)
		buf = append(buf, ",HTTP Request,200,OK,Thread Group 1-"...)
		buf = strconv.AppendInt(buf, int64(s.thread)+1, 10)
		buf = append(buf, ",text,true,,0,0,"...)
		buf = strconv.AppendInt(buf, int64(active), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(active), 10)
		buf = append(buf, ","+target+","...)
		buf = strconv.AppendInt(buf, s.elapsed, 10)
		buf = append(buf, ",0,0\n"...)
		b.Write(buf)
	}
	return b.String()
}

// k6CSVNotes say what the model's k6 CSV leaves out.
var k6CSVNotes = []string{"the CSV holds only the rows the model determines: http_reqs and http_req_duration for each request, dropped_iterations for each iteration dropped, vus and vus_max each second (a real file also holds each request's http_req_blocked, http_req_connecting, http_req_tls_handshaking, http_req_sending, http_req_waiting, http_req_receiving and http_req_failed, and each iteration's data_sent, data_received, iteration_duration and iterations; the reader skips them)",
	"the model has no wall clock: the CSV's times count from the Unix epoch, the run starting at 0"}

// k6CSV is the file k6 run --out csv writes for the run (k6out.go cites
// its layout): each request's http_reqs and http_req_duration rows at its
// reply, a dropped_iterations row at each dropped iteration's due time,
// vus (k6Active) and vus_max each second, in time order.
func k6CSV(cfg sim.Config, pr *profile.Result) string {
	// A request's tags: check, error and error_code empty,
	// expected_response true, group (the root's) empty, then method, name,
	// proto, scenario, service, status, subproto, tls_version and url.
	tags := ",,,,true,,GET," + target + ",HTTP/1.1,default,,200,,," + target + ",,"
	type row struct {
		at   int64
		text string
	}
	ts := func(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339Nano) }
	var rows []row
	for _, i := range pr.ReplyOrder() {
		at := ts(pr.Done[i])
		ms := strconv.FormatFloat(float64(pr.Done[i]-pr.Send[i])/1e6, 'f', 6, 64) // %f of metrics.D
		rows = append(rows, row{pr.Done[i], "http_reqs," + at + ",1.000000" + tags + "\n" + "http_req_duration," + at + "," + ms + tags + "\n"})
	}
	for _, due := range pr.DroppedAt {
		rows = append(rows, row{due, "dropped_iterations," + ts(due) + ",1.000000,,,,,,,,,default,,,,,,,\n"})
	}
	gauge := func(n int) string {
		return strconv.FormatFloat(float64(n), 'f', 6, 64) + strings.Repeat(",", 16) + "\n"
	}
	active := k6Active(cfg, pr)
	for t := int64(1e9); t < max(cfg.Duration, pr.End); t += 1e9 {
		rows = append(rows, row{t, "vus," + ts(t) + "," + gauge(active(t)) + "vus_max," + ts(t) + "," + gauge(cfg.Conns)})
	}
	// In time order; a request's rows before a tick's at the same instant.
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].at < rows[b].at })
	var b strings.Builder
	b.WriteString(k6CSVHeader + "\n")
	for _, r := range rows {
		b.WriteString(r.text)
	}
	return b.String()
}

// k6JSON is the file k6 run --out json writes for the run
// (internal/output/json/json.go 123-178 and wrapper.go 9-44, at k6
// 87883075c): a line a sample, {"metric", "type":"Point", "data":{"time",
// "value", "tags"}}, each metric announced by a line {"type":"Metric",
// "data":{name, type, contains, thresholds, submetrics}, "metric"} before
// its first sample (handleMetric), written by encoding/json with HTML
// escaping off. The samples are k6CSV's, in its order: each request's
// http_reqs and http_req_duration at its reply, dropped_iterations at each
// dropped iteration's due time, vus and vus_max each second. The tags are
// a request's (transport.go: expected_response, group, method, name,
// proto, scenario, status, url; TagSet.MarshalJSON, keys sorted), the
// scenario's for a dropped iteration, none for vus.
func k6JSON(cfg sim.Config, pr *profile.Result) string {
	reqTags := `{"expected_response":"true","group":"","method":"GET","name":"` + target + `","proto":"HTTP/1.1","scenario":"default","status":"200","url":"` + target + `"}`
	kinds := map[string]string{ // metrics/builtin.go: type and contains
		"http_reqs": `"counter","contains":"default"`, "http_req_duration": `"trend","contains":"time"`,
		"dropped_iterations": `"counter","contains":"default"`, "vus": `"gauge","contains":"default"`, "vus_max": `"gauge","contains":"default"`,
	}
	type sample struct {
		at          int64
		metric      string
		value, tags string
	}
	var ss []sample
	for _, i := range pr.ReplyOrder() {
		ss = append(ss, sample{pr.Done[i], "http_reqs", "1", reqTags},
			sample{pr.Done[i], "http_req_duration", jsonFloat(float64(pr.Done[i]-pr.Send[i]) / 1e6), reqTags})
	}
	for _, due := range pr.DroppedAt {
		ss = append(ss, sample{due, "dropped_iterations", "1", `{"scenario":"default"}`})
	}
	active := k6Active(cfg, pr)
	for t := int64(1e9); t < max(cfg.Duration, pr.End); t += 1e9 {
		ss = append(ss, sample{t, "vus", jsonFloat(float64(active(t))), "{}"}, sample{t, "vus_max", jsonFloat(float64(cfg.Conns)), "{}"})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].at < ss[b].at })
	var b strings.Builder
	seen := map[string]bool{}
	for _, x := range ss {
		if !seen[x.metric] {
			seen[x.metric] = true
			b.WriteString(`{"type":"Metric","data":{"name":"` + x.metric + `","type":` + kinds[x.metric] + `,"thresholds":[],"submetrics":null},"metric":"` + x.metric + "\"}\n")
		}
		b.WriteString(`{"metric":"` + x.metric + `","type":"Point","data":{"time":"` + time.Unix(0, x.at).UTC().Format(time.RFC3339Nano) + `","value":` + x.value + `,"tags":` + x.tags + "}}\n")
	}
	return b.String()
}

// k6Active is the vus gauge at each second's tick t (scheduler.go
// 199–251: GetCurrentlyActiveVUsCount). constant-vus keeps every VU
// active to its duration's end; constant-arrival-rate (the model's VUPool)
// counts a VU as active only while it runs an iteration
// (constant_arrival_rate.go 267–275), here a request sent by t and not yet
// answered or failed, so its gauge moves with the load.
func k6Active(cfg sim.Config, pr *profile.Result) func(t int64) int {
	if pr.Profile.Conc != profile.VUPool {
		return func(int64) int { return cfg.Conns }
	}
	sends, ends := slices.Clone(pr.Send), slices.Clone(pr.Done)
	for _, f := range pr.Fails {
		sends, ends = append(sends, f.Send), append(ends, f.At)
	}
	slices.Sort(sends)
	slices.Sort(ends)
	upTo := func(a []int64, t int64) int { // how many of a are at or before t
		n, _ := slices.BinarySearch(a, t+1)
		return n
	}
	return func(t int64) int { return upTo(sends, t) - upTo(ends, t) }
}

// jsonFloat writes a float64 as encoding/json does (its floatEncoder):
// the shortest decimal, in 'e' form below 1e-6 or from 1e21, its exponent
// without a leading zero.
func jsonFloat(f float64) string {
	abs, form := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		form = 'e'
	}
	b := strconv.AppendFloat(nil, f, form, -1, 64)
	if n := len(b); form == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return string(b)
}

// artilleryJSON is --output's file: {aggregate, intermediate}, as
// JSON.stringify(…, null, 2) writes it.
func artilleryJSON(run *artilleryRun, agg artilleryReport) string {
	var b strings.Builder
	b.WriteString("{\n  \"aggregate\": ")
	artilleryReportJSON(&b, agg, "  ", false)
	b.WriteString(",\n  \"intermediate\": [")
	for i, p := range run.periods {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		artilleryReportJSON(&b, p.report(), "    ", true)
	}
	if len(run.periods) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}")
	return b.String()
}

func artilleryReportJSON(b *strings.Builder, r artilleryReport, ind string, period bool) {
	in := ind + "  "
	obj := func(keys []string, val func(k string) string, ind string) string {
		if len(keys) == 0 {
			return "{}"
		}
		var s strings.Builder
		s.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				s.WriteString(",")
			}
			s.WriteString("\n" + ind + "  " + strconv.Quote(k) + ": " + val(k))
		}
		s.WriteString("\n" + ind + "}")
		return s.String()
	}
	var fields []string
	fields = append(fields, `"counters": `+obj(r.counters, func(k string) string { return strconv.FormatInt(r.count[k], 10) }, in))
	rates := []string{}
	if r.hasRate {
		rates = []string{"http.request_rate"}
	}
	fields = append(fields, `"rates": `+obj(rates, func(string) string { return strconv.FormatInt(r.rate, 10) }, in))
	if period && r.hasRate {
		// ssms.js 235-237 writes the period's mean rate under the rate's
		// own name, from a field that is not there: NaN, which JSON writes
		// as null.
		fields = append(fields, `"http.request_rate": null`)
	}
	for _, f := range []struct {
		k string
		v int64
	}{{"firstCounterAt", r.firstCounter}, {"firstHistogramAt", r.firstHist}, {"lastCounterAt", r.lastCounter}, {"lastHistogramAt", r.lastHist},
		{"firstMetricAt", r.firstMetric}, {"lastMetricAt", r.lastMetric}, {"period", r.period}} {
		fields = append(fields, strconv.Quote(f.k)+": "+strconv.FormatInt(f.v, 10))
	}
	summary := func(k string) string {
		s := r.summary[k]
		return obj(s.names, func(n string) string { return jsString(s.get(n)) }, in+"  ")
	}
	sums := obj(r.summaries, summary, in)
	fields = append(fields, `"summaries": `+sums, `"histograms": `+sums)
	b.WriteString("{")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + in + f)
	}
	b.WriteString("\n" + ind + "}")
}
