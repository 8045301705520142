package fit

import (
	"bytes"
	"strings"
	"testing"

	"omission/app/measure"
	"omission/app/tools"
	"omission/sim"
)

// formats are the files the project writes for a query, as the fit reads
// them: each export and each printout measure.Parse reads.
var formats = []string{"csv", "hlog", "hgrm-closed", "hgrm-open", "hgrm-paced", "hgrm-corrected", "hgrm-paced_corrected", "wrk", "wrk2"}

// fileFor writes the named file for cfg, as `app export` or
// `app report -tool` would, with the name the page gives it.
func fileFor(tb testing.TB, cfg sim.Config, format string) (string, []byte) {
	tb.Helper()
	switch format {
	case "wrk", "wrk2", "hey", "ab", "fortio", "fortio-nocatchup", "locust", "vegeta", "oha", "oha-corrected", "k6-vus", "k6-arrival", "k6-vus-csv", "k6-arrival-csv", "k6-vus-json", "k6-arrival-json", "bombardier-rate", "autocannon-rate", "artillery", "artillery-maxvusers", "gatling-open", "gatling-closed":
		o, err := tools.RunJSON(cfg, format)
		if err != nil {
			tb.Fatal(err)
		}
		if o.File != "" { // the per-request file a user keeps (k6 --out csv or json)
			if strings.HasSuffix(format, "-json") {
				return format + ".json", []byte(o.File)
			}
			return format + ".csv", []byte(o.File)
		}
		if o.JSON != "" { // the report a user keeps of the tools that write one
			return format + ".json", []byte(o.JSON)
		}
		return format + ".txt", []byte(o.Text)
	case "jmeter", "jmeter-ctt":
		o, err := tools.RunJSON(cfg, format)
		if err != nil {
			tb.Fatal(err)
		}
		return "results.jtl", []byte(o.File) // the results file, not the console's summary
	}
	res, err := sim.Run(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	set, err := measure.FromResult(res)
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	name := "omission-run"
	switch {
	case format == "csv":
		err, name = set.Export(&b, "csv", "", measure.MaxCSVRows), name+".csv"
	case format == "hlog":
		err, name = set.Export(&b, "hlog", "", 0), name+".hlog"
	default:
		rec := format[len("hgrm-"):]
		err, name = set.Export(&b, "hgrm", rec, 0), name+"-"+rec+".hgrm"
	}
	if err != nil {
		tb.Fatal(err)
	}
	return name, b.Bytes()
}

// readSources reads a file as the fit does and lists what may have made it.
func readSources(tb testing.TB, name string, data []byte) (*input, []source) {
	tb.Helper()
	in, err := read(name, data)
	if err != nil {
		tb.Fatal(err)
	}
	srcs, err := sources(in)
	if err != nil {
		tb.Fatal(err)
	}
	return in, srcs
}
