package fit

import (
	"bytes"
	"fmt"
	"strings"

	"omission/app/measure"
	"omission/app/tools"
	"omission/sim"
)

// source is what made the file: a tool's printout (tool set), or the
// model's recordings as the project exports them (kinds, in the file's
// order; one for an .hgrm).
type source struct {
	tool  string
	kinds []sim.Kind
}

func (s source) String() string {
	switch s.tool {
	case "vegeta", "oha", "oha-corrected":
		return "the " + s.tool + " JSON report"
	case "k6-vus", "k6-arrival":
		return "the " + s.tool + " summary export"
	}
	if s.tool != "" {
		return "the " + s.tool + " printout"
	}
	names := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		names[i] = k.String()
	}
	return "the " + strings.Join(names, ", ") + " recording" + map[bool]string{true: "s", false: ""}[len(names) > 1]
}

// kindOf is the recording a label names.
func kindOf(label string) (sim.Kind, bool) {
	for _, k := range sim.Kinds() {
		if k.String() == label {
			return k, true
		}
	}
	return 0, false
}

// sources lists what may have made the file: the tool its format names, the
// recordings its tags name, or for an .hgrm the recording its file name
// ends with (omission-…-open.hgrm) or, when it names none, each recording
// in turn.
func sources(in *input) ([]source, error) {
	switch in.format {
	case measure.FormatWrk:
		return []source{{tool: "wrk"}}, nil
	case measure.FormatWrk2:
		return []source{{tool: "wrk2"}}, nil
	case measure.FormatHey:
		// hey's printout does not say whether it ran with -q: it is
		// fitted as hey's closed loop (-c -z), the command it prints.
		return []source{{tool: "hey"}}, nil
	case measure.FormatAb:
		return []source{{tool: "ab"}}, nil
	case measure.FormatVegeta:
		return []source{{tool: "vegeta"}}, nil
	case measure.FormatOha:
		// oha's JSON does not say whether it ran with
		// --latency-correction: both are tried.
		return []source{{tool: "oha"}, {tool: "oha-corrected"}}, nil
	case measure.FormatK6:
		// A summary does not name its executor: dropped iterations are
		// a constant-arrival-rate scenario's; without them both are
		// tried.
		if in.dropped > 0 {
			return []source{{tool: "k6-arrival"}}, nil
		}
		return []source{{tool: "k6-vus"}, {tool: "k6-arrival"}}, nil
	case measure.FormatLocust:
		return []source{{tool: "locust"}}, nil
	case measure.FormatFortio:
		// fortio prints whether it caught up ("Catchup allowed"): fortio
		// or fortio-nocatchup.
		return []source{{tool: in.tool}}, nil
	case measure.FormatHlog, FormatCSV:
		var s source
		for _, o := range in.obs {
			k, ok := kindOf(o.label)
			if !ok && in.format == measure.FormatHlog && len(in.obs) == 1 {
				// One histogram the model's tags do not name: a log
				// another tool wrote (most write none). It is tried as
				// an .hgrm is, as each recording in turn unless its name
				// says which.
				return byName(in), nil
			}
			if !ok {
				why := ""
				if in.format == measure.FormatHlog {
					why = fmt.Sprintf(" (a log of one histogram, tagged or not, is tried as each recording in turn; this one has %d)", len(in.obs))
				}
				return nil, fmt.Errorf("%s: tag %q names no recording of the model (%s): the fit compares a tag with the recording of its name%s", in.name, o.label, kindNames(), why)
			}
			s.kinds = append(s.kinds, k)
		}
		return []source{s}, nil
	}
	// An .hgrm: one recording.
	return byName(in), nil
}

// byName lists what may have made a file of one distribution: the
// recording its name ends with (omission-…-open.hgrm), or when it names
// none each recording in turn.
func byName(in *input) []source {
	base := in.name[strings.LastIndexAny(in.name, `/\`)+1:]
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".hgrm"), ".hlog")
	best := ""
	for _, k := range sim.Kinds() {
		if n := k.String(); strings.HasSuffix(base, "-"+n) || base == n {
			if len(n) > len(best) {
				best = n
			}
		}
	}
	if k, ok := kindOf(best); ok {
		return []source{{kinds: []sim.Kind{k}}}
	}
	var out []source
	for _, k := range sim.Kinds() {
		out = append(out, source{kinds: []sim.Kind{k}})
	}
	return out
}

func kindNames() string {
	var n []string
	for _, k := range sim.Kinds() {
		n = append(n, k.String())
	}
	return strings.Join(n, ", ")
}

// forward is the file the model would have made for cfg, read back the way
// the measured file was read: the tool's printout through its profile, or
// the recordings through the project's own writers.
func forward(cfg sim.Config, in *input, src source) ([]obs, error) {
	if src.tool != "" {
		out, err := tools.RunJSON(cfg, src.tool)
		if err != nil {
			return nil, err
		}
		text := out.Text
		if out.JSON != "" {
			// vegeta report -type json, oha --json, k6 --summary-export:
			// the import reads these tools' JSON, not their text.
			text = out.JSON
		}
		f, err := measure.Parse(in.name, []byte(text))
		if err != nil {
			return nil, err
		}
		return fileObs(f), nil
	}
	run := runForward
	if traced(cfg) {
		run = traceForward
	}
	os, err := run(cfg, in, src)
	if err == nil && len(in.obs) == 1 && len(os) == 1 {
		// One distribution beside one: the file's label is its own (an
		// .hlog's foreign tag, or none).
		os[0].label = in.obs[0].label
	}
	return os, err
}

// runForward is forward for a recording file from the run's whole
// sim.Result: a run that keeps no per-request times (traceForward is the
// rest's).
func runForward(cfg sim.Config, in *input, src source) ([]obs, error) {
	res, err := sim.Run(cfg)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(src.kinds))
	for i, k := range src.kinds {
		names[i] = k.String()
	}
	if in.format == measure.FormatHlog && res.Engine == nil && res.Clients[sim.ClosedClient].Done != nil {
		f, err := measure.HlogFileOf(res, in.name, names...)
		if err != nil {
			return nil, err
		}
		return fileObs(f), nil
	}
	// Only the recordings the file holds are written out.
	set, err := measure.FromResultOf(res, names...)
	if err != nil {
		return nil, err
	}
	set, err = set.Select(names...)
	if err != nil {
		return nil, err
	}
	if in.format == FormatCSV {
		if !set.PerRequest() {
			return nil, fmt.Errorf("the run %s keeps no per-request times", cfg.Query())
		}
		return csvObs(set), nil
	}
	if in.format == measure.FormatHlog && set.PerRequest() {
		f, err := set.HlogFile(in.name)
		if err != nil {
			return nil, err
		}
		return fileObs(f), nil
	}
	format, rec := "hlog", ""
	if in.format != measure.FormatHlog {
		format, rec = "hgrm", names[0]
	}
	var b bytes.Buffer
	if err := set.Export(&b, format, rec, measure.MaxCSVRows); err != nil {
		return nil, err
	}
	f, err := measure.Parse(in.name, b.Bytes())
	if err != nil {
		return nil, err
	}
	return fileObs(f), nil
}

// csvObs is what the CSV of a per-request set holds: each source's samples
// with those its correction adds.
func csvObs(set *measure.Set) []obs {
	var os []obs
	for i := range set.Sources {
		s := &set.Sources[i]
		all := make([]int64, 0, s.Count)
		for _, v := range s.Latency {
			all = append(all, v)
			if s.Correct > 0 && v > s.Correct {
				for m := v - s.Correct; m >= s.Correct; m -= s.Correct {
					all = append(all, m)
				}
			}
		}
		os = append(os, fromSamples(s.Name, s.At, s.Latency, all))
	}
	return os
}
