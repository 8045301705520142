package fit

import (
	"bytes"
	"fmt"
	"slices"
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
	// cap, for a tool whose file counts what a cap of virtual users
	// skipped but not the cap (Artillery's maxVusers), is the cap this
	// candidate runs (0: the file states it, or the tool has none), and
	// the stall count it implies (the fit tries it and one either side).
	cap    int
	stalls int64
	// duration, for a file that bounds its run's length but does not fix
	// it (tools.Stated.Durations), is the length this candidate runs.
	duration int64
}

// withDurations expands each source into a candidate for each run length
// the file allows but does not fix (tools.Stated.Durations): each is
// fitted, and the file leaves free those that explain it.
func withDurations(in *input, srcs []source) []source {
	if in.Duration > 0 || len(in.Durations) == 0 {
		return srcs
	}
	var out []source
	for _, s := range srcs {
		for _, d := range in.Durations {
			c := s
			c.duration = d
			out = append(out, c)
		}
	}
	return out
}

// at is the input as candidate s reads it: with its run length, when it
// runs one the file does not fix.
func (s source) at(in *input) *input {
	if s.duration == 0 {
		return in
	}
	c := *in
	c.Duration, c.DurationFrom = s.duration, in.DurationsFrom
	return &c
}

func (s source) String() string {
	if t := s.desc(); t != nil {
		return t.FileWords()
	}
	names := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		names[i] = k.String()
	}
	return "the " + strings.Join(names, ", ") + " recording" + map[bool]string{true: "s", false: ""}[len(names) > 1]
}

// desc is the descriptor of the tool that made the file (nil: the model's
// recordings).
func (s source) desc() *tools.Tool {
	if s.tool == "" {
		return nil
	}
	t, _ := tools.Lookup(s.tool)
	return t
}

// timing is the tool's timing class (0: the model's recordings).
func (s source) timing() tools.Timing {
	if t := s.desc(); t != nil {
		return t.Timing()
	}
	return 0
}

// is reports whether the file is a tool's of timing class c.
func (s source) is(c tools.Timing) bool { return s.timing() == c }

// unit is what the tool's printout rounds latencies to (zero: finer).
func (s source) unit() tools.PrintUnit {
	if t := s.desc(); t != nil {
		return t.Unit()
	}
	return tools.PrintUnit{}
}

// pacedUsers: the tool's users are paced together (tools.Tool.PacedUsers).
func (s source) pacedUsers() bool { t := s.desc(); return t != nil && t.PacedUsers() }

// bursts: the tool's connections send together at a bucket's ticks.
func (s source) bursts() bool { return s.fill(sim.Default()) > 0 }

// fill is the tool's bucket's fill interval on cfg (tools.Tool.Fill; 0:
// it has none).
func (s source) fill(cfg sim.Config) int64 {
	if t := s.desc(); t != nil {
		return t.Fill(cfg)
	}
	return 0
}

// drops: the tool drops and counts what it has no one free for.
func (s source) drops() bool { t := s.desc(); return t != nil && t.Drops() }

// unbounded: the tool sends each request on a worker of its own.
func (s source) unbounded() bool { t := s.desc(); return t != nil && t.Unbounded() }

// wholeRate: the tool's rate is a whole number a second.
func (s source) wholeRate() bool { t := s.desc(); return t != nil && t.WholeRate() }

// unsaid is what the file leaves unsaid that would tell its possible tools
// apart ("" : nothing, or the model's recordings).
func (s source) unsaid() string {
	if t := s.desc(); t != nil {
		return t.Unsaid()
	}
	return ""
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
	// A tool's file: the tools that write its format (tools.Writing),
	// less those the file rules out. A k6 summary does not name its
	// executor, but dropped iterations are a constant-arrival-rate
	// scenario's (and Artillery's skipped arrivals a maxVusers phase's);
	// fortio prints whether it caught up ("Catchup allowed"); bombardier's
	// -o json has a rate only when it was paced (--rate), and autocannon's
	// -j more latencies than replies (-R's correction).
	if ws := tools.Writing(in.format); len(ws) > 0 {
		var out []source
		for _, t := range ws {
			paced := in.PacedKnown && in.Paced
			if in.Dropped > 0 && !t.Drops() || in.Dropped == 0 && t.OnlyDropped() || in.SkipsKnown && t.SkipsLate() != in.Skips ||
				t.OnlyPaced() && !paced || paced && t.Timing() == tools.BackToBack {
				continue
			}
			out = append(out, source{tool: t.Name()})
		}
		// When no tool that may have written it is fitted yet (jmeter-ctt's
		// paced JTL; Gatling's summary, either injection's), the fit says
		// why rather than fit none.
		var names []string
		for _, s := range out {
			if s.desc().NoFit() == "" {
				names = nil
				break
			}
			names = append(names, s.tool)
		}
		if len(names) > 0 {
			return nil, &NoFitError{Name: in.name, Tool: strings.Join(names, " or "), Format: in.format, Why: out[0].desc().NoFit()}
		}
		// The others are fitted without those not fitted yet.
		out = slices.DeleteFunc(out, func(s source) bool { return s.desc().NoFit() != "" })
		return withDurations(in, capped(in, out)), nil
	}
	switch in.format {
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

// capped expands each source whose file counts the arrivals a cap of
// virtual users skipped but does not state the cap (Artillery's
// maxVusers) into a candidate for each cap the file allows (capsOf), with
// the stall count that cap implies: a larger cap lets more of a stall's
// arrivals in, a longer stall or more of them skip more, and the skipped
// count alone trades one against the other. Each is fitted for the file
// to say which it leaves free. With none allowed, the source stays as it
// is, at one virtual user (its cap "assumed").
func capped(in *input, srcs []source) []source {
	var out []source
	for _, s := range srcs {
		if in.Conns > 0 || in.Dropped == 0 || !s.desc().OnlyDropped() {
			out = append(out, s)
			continue
		}
		g := estimate(in, s, 0, 0)
		cs := capsOf(in, &in.obs[0], g.cfg.Service, g.cfg.Stall, sim.NewSchedule(g.cfg.Rate).Interval(1))
		if len(cs) == 0 {
			out = append(out, s)
			continue
		}
		for _, c := range cs {
			out = append(out, source{tool: s.tool, kinds: s.kinds, cap: int(c.cap), stalls: c.stalls})
		}
	}
	return out
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

// heldDropped sets what the model's file says was never sent, where the
// fit holds it (obs.dropped; -1: not compared). The skipped count is held
// only where it is the file's evidence of the cap (Artillery's
// maxVusers). k6's dropped_iterations also hang on when its pool starts a
// VU, which the model places less finely: a real summary's 61 came out
// 45.
func heldDropped(os []obs, src source, out *tools.Output) {
	if len(os) == 0 {
		return
	}
	os[0].dropped = -1
	if src.desc().OnlyDropped() {
		os[0].dropped = out.Dropped
	}
}

// forward is the file the model would have made for cfg, read back the way
// the measured file was read: the tool's printout through its profile, or
// the recordings through the project's own writers.
func forward(cfg sim.Config, in *input, src source) ([]obs, error) {
	if src.tool != "" {
		// The file is the tool's JSON report (vegeta report -type json,
		// oha --json, k6 --summary-export, bombardier -o json, autocannon
		// -j), the file it writes as it runs (JMeter's JTL) or its
		// printout: the model writes the same one, and only the report or
		// the file when that is what the file is (they cost some tools'
		// runs a good part again).
		if src.desc().PerRequest() {
			// Its per-request file (k6 --out csv): what it reads back as,
			// without writing and parsing tens of MB each run.
			out, err := tools.Run(cfg, src.tool)
			if err != nil {
				return nil, err
			}
			d := tools.Samples(out)
			os := []obs{fromDist(&d)}
			heldDropped(os, src, out)
			return os, nil
		}
		run := tools.Run
		if tools.Written(in.format) {
			run = tools.RunJSON
		}
		out, err := run(cfg, src.tool)
		if err != nil {
			return nil, err
		}
		f, err := measure.Parse(in.name, []byte(out.Of(in.format)))
		if err != nil {
			return nil, err
		}
		os := fileObs(f)
		heldDropped(os, src, out)
		if len(os) == 1 && out.Run != nil && out.Run.Dist != nil && out.Run.Dist.Count() > 0 {
			// The model's own recorded latencies place a file's value by
			// rank (rankAt), which a report of a few percentiles (vegeta's
			// four) cannot.
			os[0].ranks = out.Run.Dist
		}
		return os, nil
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
