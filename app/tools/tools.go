package tools

import (
	"fmt"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// Output is one tool's view of the run.
type Output struct {
	Name      string
	Plain     string // what the tool does, in sentences for people
	Mechanics string // the rule it follows, as formulas (the page's "The rule")
	Source    string // the source it follows
	// Zero, for a tool that rounds what it keeps, is how it prints a value
	// that rounding made 0, and why (nil: its values are never rounded to
	// 0).
	Zero    *Zero  `json:",omitempty"`
	Command string // the command line it stands for

	Planned, Sent, Recorded, Dropped int64
	Attempts, Retries                int64
	// Percentiles and the maximum of what the tool reports, in ns, by the
	// tool's own rule (after its correction, where it makes one).
	sim.Tail[int64]
	Text string // what the tool prints
	// JSON is the report the tool writes as JSON, for a tool whose JSON a
	// user keeps and the fit reads (vegeta report -type json, oha --json,
	// k6 --summary-export), when RunJSON asked for it; empty otherwise.
	JSON string `json:"-"`
	// File is the file the tool writes as it runs, beside its printout
	// (JMeter's JTL, k6 --out csv: a line a request), when RunJSON asked
	// for it; empty otherwise.
	File     string `json:"-"`
	Notes    []string
	Run      *profile.Result `json:"-"`
	wantJSON bool
}

// P returns the headline percentiles in sim.Percentiles() order.
func (o *Output) P() [5]int64 { return [5]int64{o.P50Ns, o.P90Ns, o.P99Ns, o.P999Ns, o.P9999Ns} }

// Zero is how a tool prints a value its rounding made 0: the text it
// prints (Printed, in Unit), and why in words.
type Zero struct {
	Printed, Unit, Why string
}

// A Tool is one load generator, whole: what it does in words and as a
// rule, the command it stands for, its mechanics (a sim profile), how it
// prints what it measured, what the fit needs to know of its files, and how
// the experiment runs it for real. Everything about a tool is in its own
// file of this package; the other packages ask its descriptor and compare
// no tool names.
type Tool struct {
	name, plain, mechanics, source string
	zero                           *Zero
	command                        func(cfg sim.Config) string
	profile                        func(cfg sim.Config) profile.Profile
	summarise                      func(cfg sim.Config, pr *profile.Result, o *Output) error

	// What the fit needs of its files (fit.go's methods). How the
	// experiment runs it, when it does, is its Real, declared beside it
	// (real_run.go).
	reads []measure.Format // the formats of the files it writes that the fit reads as its own
	// stated reads what its file states of its run into s (StatedIn,
	// which gives s its defaults), set in stated.go; d is the file's first
	// distribution.
	stated func(data []byte, d *measure.Dist, s *Stated)
	kind   string // what its file is, in words ("" : a printout)
	// file is the format of the file it writes as it runs (Output.File),
	// beside its printout ("": none).
	file measure.Format
	unit PrintUnit // what its printout rounds latencies to, when coarse
	// unsaid, on the first of the tools that write the same file, says
	// what the file leaves unsaid that would tell them apart, ending with
	// their names or modes ("… : oha and oha-corrected").
	unsaid string
	// rateFlag, for a tool whose rate is given as a whole number of
	// requests a second, is the flag that gives it (wrk2's -R), so the rate
	// it ran at is one ("": any rate).
	rateFlag string
	// noCount, for a tool one of whose files prints no exact count of its
	// replies, says so and what to give the fit instead.
	noCount string
	// perRequest: the file the fit reads as its own is the per-request
	// file it writes (Output.File), not its printout.
	perRequest bool
	// onlyPaced: the paced mode of a tool whose closed one writes the same
	// files; the fit reads them as its own only when they say so.
	onlyPaced bool
	// onlyDropped: a mode whose files are another mode's unless they
	// count requests it never sent (Artillery's maxVusers: a cap that
	// skipped no arrival left the run as it was without one); the fit
	// reads them as its own only when they do.
	onlyDropped bool
	// rateKey, for a tool whose run keeps the rate only to a coarser
	// value, is that value (jmeter-ctt's timer period): rates with the
	// same key give the same run (SameRates).
	rateKey func(cfg sim.Config) int64
	// noFit, for a tool whose file the fit reads as its own but cannot yet
	// regenerate and compare, says why ("": it can).
	noFit string
}

// registry lists every tool in display order (declared once).
var registry = []*Tool{&wrkTool, &wrk2Tool, &k6VUsTool, &k6ArrivalTool, &k6VUsCSVTool, &k6ArrivalCSVTool, &k6VUsJSONTool, &k6ArrivalJSONTool, &vegetaTool, &ohaTool, &ohaCorrectedTool, &heyTool, &heyQTool, &locustTool, &fortioTool, &fortioNoCatchUpTool, &abTool, &abNTool, &bombardierTool, &bombardierRateTool, &autocannonTool, &autocannonRateTool, &artilleryTool, &artilleryMaxTool, &gatlingOpenTool, &gatlingClosedTool, &jmeterTool, &jmeterCTTTool}

// Names returns the tools' names in display order.
func Names() []string {
	out := make([]string, len(registry))
	for i, t := range registry {
		out[i] = t.name
	}
	return out
}

// Describe returns what a tool does in sentences for people, the rule it
// follows as formulas, and its source link.
func Describe(name string) (plain, rule, source string, ok bool) {
	for _, t := range registry {
		if t.name == name {
			return t.plain, t.mechanics, t.source, true
		}
	}
	return "", "", "", false
}

// Lookup returns the named tool's descriptor.
func Lookup(name string) (*Tool, bool) {
	t, err := lookup(name)
	return t, err == nil
}

func lookup(name string) (*Tool, error) {
	for _, t := range registry {
		if t.name == name {
			return t, nil
		}
	}
	return nil, &sim.FieldError{Field: "tools", Value: name, Allowed: "allowed " + strings.Join(Names(), ", ")}
}

// ParseList reads the page key tools=wrk,wrk2,… into names, in the order
// given, each once. An unknown name is an error naming it and the allowed
// names.
func ParseList(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		if _, err := lookup(n); err != nil {
			return nil, err
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}

// Run plays the named tool against cfg's server and returns what it would
// have printed and reported.
func Run(cfg sim.Config, name string) (*Output, error) { return run(cfg, name, 0, false) }

// RunJSON is Run with the tool's JSON report written too (Output.JSON),
// for the tools that write one, and the file it writes as it runs
// (Output.File, JMeter's JTL): what the fit compares a user's file with.
// Run leaves them out: they cost some tools' runs a good part again
// (oha's rps windows, a JTL's line a request), and only the fit reads
// them.
func RunJSON(cfg sim.Config, name string) (*Output, error) { return run(cfg, name, 0, true) }

// Written reports whether a file of format f is one a tool writes, not
// prints: a JSON report or the file it writes as it runs (a JTL), which
// RunJSON writes and Run leaves out.
func Written(f measure.Format) bool {
	if f.JSON() {
		return true
	}
	for _, t := range registry {
		if t.file != "" && t.file == f {
			return true
		}
	}
	return false
}

// Of is what o holds of a file of format f: its JSON report, the file it
// writes as it runs, or its printout.
func (o *Output) Of(f measure.Format) string {
	if f.JSON() {
		return o.JSON
	}
	if t, err := lookup(o.Name); err == nil && t.file != "" && t.file == f {
		return o.File
	}
	return o.Text
}

// RunClient is Run with the tool's own time per request (profile.Profile's
// Client, in ns): what a real tool adds to each round trip beyond the
// server's service time.
func RunClient(cfg sim.Config, name string, clientNs int64) (*Output, error) {
	return run(cfg, name, clientNs, false)
}

func run(cfg sim.Config, name string, clientNs int64, wantJSON bool) (*Output, error) {
	t, err := lookup(name)
	if err != nil {
		return nil, err
	}
	prof := t.profile(cfg)
	prof.Client = clientNs
	pr, err := profile.Run(cfg, prof)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	o := &Output{Name: t.name, Plain: t.plain, Mechanics: t.mechanics, Source: t.source, Command: t.command(cfg),
		Planned: pr.Planned, Sent: pr.Sent, Recorded: pr.Recorded, Dropped: pr.Dropped,
		Attempts: pr.Attempts, Retries: pr.Retries, Run: pr, wantJSON: wantJSON}
	if t.zero != nil {
		z := *t.zero
		o.Zero = &z
	}
	if err := t.summarise(cfg, pr, o); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return o, nil
}

// goDuration is a duration as Go's time.ParseDuration, oha's humantime and
// k6 read it: an integer and one unit ("2500ms").
func goDuration(ns int64) string { return sim.FormatDuration(ns) }

const target = "http://127.0.0.1:8080/"

// Name is the tool's name: the page key's and report -tool's.
func (t *Tool) Name() string { return t.name }

// Real is how the experiment runs the tool for real (nil: it does not, or
// this is the page's build, which runs no tool: real_run.go).
func (t *Tool) Real() *Real { return runs[t] }

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

// perTime is a rate as a whole number of requests per a whole number of
// seconds, for the tools that take integers (vegeta's -rate N/1s, k6's rate
// and timeUnit): per second when the rate is whole, else its thousandths
// per 1000 s.
func perTime(r sim.Rate) (n, secs int64) {
	if r%1000 == 0 {
		return int64(r) / 1000, 1
	}
	return int64(r), 1000
}

// readers are the readers of the tools' files, registered with measure.Parse
// (measure knows no tool), in the order measure.Formats lists them, with the
// words for them all in Parse's messages when it recognises none. Their
// marks do not overlap within a pass (measure.When), so the order decides
// nothing but that of the JSON reports' readers, asked k6, vegeta, oha.
var readers = [...]*measure.Reader{&wrk2Reader, &wrkReader, &k6Reader, &k6CSVReader, &k6JSONReader, &vegetaReader, &ohaReader, &abReader, &heyReader, &fortioReader, &locustReader, &bombardierReader, &bombardierJSONReader, &autocannonReader, &autocannonJSONReader, &artilleryReader, &artilleryJSONReader, &gatlingReader, &jtlReader}

func init() {
	measure.Register("wrk, wrk2, ab, hey, fortio, locust, bombardier, autocannon or Artillery output, Gatling's console summary, k6 --out csv or --out json output, a JMeter results file (JTL, CSV), an .hgrm percentile distribution, an .hlog interval log, or JSON from k6 --summary-export, vegeta report -type json, oha --json, bombardier -o json, autocannon -j or artillery run --output",
		"k6 --summary-export (keys metrics, root_group), vegeta report -type json (latencies, requests), oha --json (summary, latencyPercentiles), bombardier -o json (spec, result), autocannon -j (latency, sampleInt) or artillery run --output (aggregate, intermediate)",
		readers[:]...)
}
