package tools

import (
	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// k6's per-request output, k6 run --out csv (https://github.com/grafana/k6/blob/87883075c/):
//   - internal/output/csv/output.go 207–212 MakeHeader: metric_name,
//     timestamp, metric_value, then the system tags on by default, sorted
//     (buildTagSets 118–148; metrics/system_tag.go 47–49
//     DefaultSystemTagSet: check, error, error_code, expected_response,
//     group, method, name, proto, scenario, service, status, subproto,
//     tls_version, url), then extra_tags and metadata; 214–286
//     SampleToRow: the value as %f (235), the time by timeFormat
//     (220–233), written by encoding/csv (a field quoted only when it
//     holds a comma, a quote or a line break; lines end in \n).
//   - internal/output/csv/config.go 40–46: timeFormat defaults to unix
//     (whole seconds), too coarse to place a stall; 27–37 the others:
//     unix_milli, unix_micro, unix_nano, rfc3339, rfc3339_nano. The
//     command asks for rfc3339_nano (time.RFC3339Nano: to the ns, trailing
//     zeros cut).
//   - lib/netext/httpext/tracer.go 44–122 Trail.SaveSamples: each request
//     gives http_reqs (1), http_req_duration, http_req_blocked,
//     http_req_connecting, http_req_tls_handshaking, http_req_sending,
//     http_req_waiting and http_req_receiving, all at the trail's EndTime;
//     315–382 Tracer.Done: EndTime is when the response was read (done,
//     316), and the duration is sending + waiting + receiving (381), in
//     ms (metrics/units.go 11–13). A sample's timestamp is the request's
//     end, its reply: its send is the timestamp less the duration.
//   - lib/netext/httpext/transport.go 75–165: the tags name and url (the
//     cleaned URL), method, status, proto and expected_response (the
//     default responseCallback, js/modules/k6/http/http.go 54 and
//     response_callback.go 13–15: 200–399),
//     and http_req_failed (0 or 1) at the same EndTime.
//   - internal/js/runner.go 971–1007: data_sent and data_received, then
//     iteration_duration and iterations, at the iteration's end.
//   - internal/execution/scheduler.go 199–251: vus and vus_max each
//     second (a time.Ticker), with the run's tags (none by default); vus
//     is the VUs active then, every one for constant-vus until its
//     duration ends, those running an iteration for
//     constant-arrival-rate (constant_arrival_rate.go 267–275; json.go,
//     k6Active).
//   - lib/executor/constant_arrival_rate.go 333–346: an iteration that
//     finds no free VU is a dropped_iterations sample (1) at the time it
//     was due, with the scenario tag.
//
// The outputs buffer samples as they are pushed and flush them in that
// order (CSV each saveInterval, 1 s): the rows are in time order, each
// request's where its reply fell.
var k6VUsCSVTool = Tool{
	name:       "k6-vus-csv",
	plain:      "As k6-vus (virtual users sending back to back), with every request written to a CSV file: each row holds when its reply came and how long it took, so a stall shows where it fell.",
	mechanics:  "k6 constant-vus, --out csv: per request http_reqs = 1 and http_req_duration = reply − send (ms, %f) at the reply's time; vus and vus_max each second",
	source:     "https://github.com/grafana/k6/blob/87883075c/lib/netext/httpext/tracer.go#L44-L122",
	command:    k6Command(k6CSVFlag, k6VUsScenario),
	profile:    k6VUsProfile,
	summarise:  k6CSVSummarise,
	reads:      []measure.Format{FormatK6CSV},
	perRequest: true,
	kind:       "CSV output",
	unsaid:     "A k6 CSV does not name its executor, and this one holds no dropped_iterations rows: constant-vus and constant-arrival-rate",
}

var k6ArrivalCSVTool = Tool{
	name:       "k6-arrival-csv",
	plain:      "As k6-arrival (a schedule kept by a pool of virtual users, dropping what finds none free), with every request written to a CSV file, and a row for each one dropped.",
	mechanics:  "k6 constant-arrival-rate, --out csv: as k6-vus-csv, and dropped_iterations = 1 at each dropped iteration's due time; vus each second is the VUs running an iteration then",
	source:     "https://github.com/grafana/k6/blob/87883075c/internal/output/csv/output.go#L207-L286",
	command:    k6Command(k6CSVFlag, k6ArrivalScenario),
	profile:    k6ArrivalProfile,
	summarise:  k6CSVSummarise,
	reads:      []measure.Format{FormatK6CSV},
	perRequest: true,
	kind:       "CSV output",
}

var k6VUsJSONTool = Tool{
	name:       "k6-vus-json",
	plain:      "As k6-vus (virtual users sending back to back), with every request written to k6's JSON output: a line for each sample, with when its reply came and how long it took, so a stall shows where it fell.",
	mechanics:  "k6 constant-vus, --out json: per request http_reqs = 1 and http_req_duration = reply − send (ms) at the reply's time, each a Point line, each metric announced once; vus and vus_max each second",
	source:     "https://github.com/grafana/k6/blob/87883075c/internal/output/json/json.go#L123-L178",
	command:    k6Command(k6JSONFlag, k6VUsScenario),
	profile:    k6VUsProfile,
	summarise:  k6JSONSummarise,
	reads:      []measure.Format{FormatK6JSON},
	perRequest: true,
	kind:       "JSON output",
	unsaid:     "k6's JSON output does not name its executor, and this one holds no dropped_iterations samples: constant-vus and constant-arrival-rate",
}

var k6ArrivalJSONTool = Tool{
	name:       "k6-arrival-json",
	plain:      "As k6-arrival (a schedule kept by a pool of virtual users, dropping what finds none free), with every request written to k6's JSON output, and a sample for each one dropped.",
	mechanics:  "k6 constant-arrival-rate, --out json: as k6-vus-json, and dropped_iterations = 1 at each dropped iteration's due time; vus each second is the VUs running an iteration then",
	source:     "https://github.com/grafana/k6/blob/87883075c/internal/output/json/wrapper.go#L9-L44",
	command:    k6Command(k6JSONFlag, k6ArrivalScenario),
	profile:    k6ArrivalProfile,
	summarise:  k6JSONSummarise,
	reads:      []measure.Format{FormatK6JSON},
	perRequest: true,
	kind:       "JSON output",
}

// k6JSONFlag is the output the k6 JSON tools stand for (its times are
// always to the ns: time.Time's JSON).
const k6JSONFlag = "--out json=k6.json"

// k6JSONSummarise is k6CSVSummarise with the JSON output for the file.
func k6JSONSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	return k6FileSummarise(cfg, pr, o, k6JSON)
}

// k6CSVFlag is the output the k6 CSV tools stand for: the file, with
// times to the ns (the default, unix, writes whole seconds).
const k6CSVFlag = "--out csv=fileName=k6.csv,timeFormat=rfc3339_nano"

// k6CSVHeader is the header k6's CSV output writes (MakeHeader) with k6's
// default system tags.
const k6CSVHeader = "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata"

// k6CSVSummarise prints k6's end-of-test summary, which k6 prints beside
// the file (o.Text, with its percentiles), and writes the CSV (o.File)
// when RunJSON asks for it: a row per request is some 260 bytes, tens of
// MB for a long run, and only the fit and report -tool read it.
func k6CSVSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	return k6FileSummarise(cfg, pr, o, k6CSV)
}

// k6FileSummarise prints k6's summary and, when RunJSON asks for it,
// writes the per-request file with write.
func k6FileSummarise(cfg sim.Config, pr *profile.Result, o *Output, write func(sim.Config, *profile.Result) string) error {
	if err := k6Summarise(cfg, pr, o); err != nil {
		return err
	}
	o.JSON = ""
	if o.wantJSON {
		o.File = write(cfg, pr)
		o.Notes = append(o.Notes, k6CSVNotes...)
	}
	return nil
}

// Samples is what the per-request file of a PerRequest tool's run holds, as
// its reader reads it back (TestK6CSVReadsBack holds the two equal), got
// without writing and reading the file: every reply's time from the first
// send and its duration, in reply order. The fit compares a user's file
// with the model's this way, at a fraction of the cost.
func Samples(o *Output) measure.Dist {
	pr := o.Run
	idx := pr.ReplyOrder()
	if len(idx) == 0 {
		return measure.SamplesDist("http_req_duration", nil, nil)
	}
	from := pr.Send[idx[0]]
	for _, i := range idx {
		from = min(from, pr.Send[i])
	}
	at, lat := make([]int64, len(idx)), make([]int64, len(idx))
	for k, i := range idx {
		at[k], lat[k] = pr.Done[i]-from, pr.Done[i]-pr.Send[i]
	}
	return measure.SamplesDist("http_req_duration", at, lat)
}
