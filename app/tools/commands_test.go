//go:build !wasm

package tools

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// commandQueries are runs whose commands are held to the tools' grammars:
// whole and fractional durations and rates, one connection and many.
var commandQueries = []string{
	"",
	"duration=2500ms&rate=1000.5&conns=3",
	"duration=20010ms&rate=0.5&conns=1",
	"duration=90s&rate=333.333&conns=10",
	"duration=1h&rate=100000&conns=100",
	"duration=100ms&rate=7",
}

// shellWords splits a command line as sh does for what the commands use:
// words between blanks, a single-quoted word kept whole; and the part in
// parentheses at its end (what the script or the locustfile holds), apart.
func shellWords(t *testing.T, line string) (words []string, aside string) {
	t.Helper()
	if i := strings.Index(line, " ("); i >= 0 && strings.HasSuffix(line, ")") {
		line, aside = line[:i], line[i+2:len(line)-1]
	}
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			in, quoted = !in, true
		case r == ' ' && !in:
			if cur.Len() > 0 || quoted {
				words = append(words, cur.String())
			}
			cur.Reset()
			quoted = false
		default:
			cur.WriteRune(r)
		}
	}
	if in {
		t.Fatalf("%q: an unclosed quote", line)
	}
	if cur.Len() > 0 || quoted {
		words = append(words, cur.String())
	}
	return words, aside
}

// pipeline splits words at each |.
func pipeline(words []string) [][]string {
	out := [][]string{nil}
	for _, w := range words {
		if w == "|" {
			out = append(out, nil)
			continue
		}
		out[len(out)-1] = append(out[len(out)-1], w)
	}
	return out
}

// getopt parses args as POSIX getopt(3) with GNU's long options: opts maps
// each option letter or long name to whether it takes a value (attached,
// -c10, or the next word; --name=value or --name value).
func getopt(args []string, opts map[string]bool) (map[string]string, []string, error) {
	got := map[string]string{}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, val, hasVal := strings.Cut(a[2:], "=")
			takes, ok := opts[name]
			if !ok {
				return nil, nil, fmt.Errorf("unrecognized option --%s", name)
			}
			if takes && !hasVal {
				if i+1 == len(args) {
					return nil, nil, fmt.Errorf("option --%s requires an argument", name)
				}
				i++
				val = args[i]
			}
			got[name] = val
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				name := a[j : j+1]
				takes, ok := opts[name]
				if !ok {
					return nil, nil, fmt.Errorf("invalid option -- '%s'", name)
				}
				if !takes {
					got[name] = ""
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 == len(args) {
						return nil, nil, fmt.Errorf("option requires an argument -- '%s'", name)
					}
					i++
					val = args[i]
				}
				got[name] = val
				break
			}
		default:
			rest = append(rest, a)
		}
	}
	return got, rest, nil
}

// goFlags parses args with Go's flag package, as hey, fortio and vegeta do;
// define adds the tool's flags.
func goFlags(args []string, define func(fs *flag.FlagSet)) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet("tool", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	define(fs)
	return fs, fs.Parse(args)
}

// vegetaRate is vegeta attack's -rate (attack.go, rateFlag.Set): an
// integer frequency, then optionally / and a Go duration (a bare unit is 1
// of it).
type vegetaRate struct {
	freq int
	per  time.Duration
}

func (r *vegetaRate) String() string { return fmt.Sprintf("%d/%s", r.freq, r.per) }

func (r *vegetaRate) Set(v string) (err error) {
	if v == "infinity" {
		return nil
	}
	ps := strings.SplitN(v, "/", 2)
	if len(ps) == 1 {
		ps = append(ps, "1s")
	}
	if r.freq, err = strconv.Atoi(ps[0]); err != nil {
		return err
	}
	if r.freq == 0 {
		return nil
	}
	switch ps[1] {
	case "ns", "us", "µs", "ms", "s", "m", "h":
		ps[1] = "1" + ps[1]
	}
	r.per, err = time.ParseDuration(ps[1])
	return err
}

var (
	// wrk's scan_metric (-c, -t, wrk2's -R) and scan_time (-d): an
	// unsigned integer and at most one unit of its table (src/units.c).
	wrkMetric = regexp.MustCompile(`(?i)^[0-9]+(k|m|g)?$`)
	wrkTime   = regexp.MustCompile(`(?i)^[0-9]+(s|m|h)?$`)
	// humantime's durations (oha's -z): integers each with its unit.
	humantime = regexp.MustCompile(`^([0-9]+ *(nsec|ns|usec|us|µs|msec|ms|seconds|second|sec|s|minutes|minute|min|m|hours|hour|hr|h|days|day|d|weeks|week|w) *)+$`)
	// locust's parse_timespan: whole hours, minutes and seconds.
	locustSpan = regexp.MustCompile(`^([0-9]+|([0-9]+h)?([0-9]+m)?([0-9]+s)?)$`)
	// ab's and argparse's integers.
	digits = regexp.MustCompile(`^[0-9]+$`)
)

// checkURL holds a command's target to an absolute http URL with a path.
func checkURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return err
	}
	if p.Scheme != "http" || p.Host == "" || p.Path == "" {
		return fmt.Errorf("%q is not an http URL with a path", u)
	}
	return nil
}

// parseCommand parses a tool's printed command with the real tool's flag
// grammar, as its source or manual documents it.
func parseCommand(t *testing.T, name, line string) error {
	t.Helper()
	words, aside := shellWords(t, line)
	tool := strings.TrimSuffix(strings.TrimSuffix(name, "-nocatchup"), "-corrected")
	switch tool {
	case "wrk", "wrk2":
		// wrk2's binary is named wrk too (src/wrk.c getopt_long
		// "t:c:d:s:H:T:R:LUBrv?", wrk's "t:c:d:s:H:T:Lrv?").
		if words[0] != "wrk" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		opts := map[string]bool{"t": true, "c": true, "d": true, "s": true, "H": true, "T": true, "L": false, "r": false, "v": false,
			"threads": true, "connections": true, "duration": true, "script": true, "header": true, "timeout": true, "latency": false, "version": false}
		if tool == "wrk2" {
			opts["R"], opts["rate"], opts["U"], opts["B"] = true, true, false, false
		}
		got, rest, err := getopt(words[1:], opts)
		if err != nil {
			return err
		}
		for _, f := range []string{"t", "c", "R"} {
			if v, ok := got[f]; ok && !wrkMetric.MatchString(v) {
				return fmt.Errorf("-%s %q: scan_metric takes an integer and k, M or G", f, v)
			}
		}
		if v, ok := got["d"]; ok && !wrkTime.MatchString(v) {
			return fmt.Errorf("-d %q: scan_time takes an integer and s, m or h", v)
		}
		if tool == "wrk2" {
			if r, _ := strconv.Atoi(got["R"]); r < 1 {
				return fmt.Errorf("-R %q: wrk2 needs a rate of at least 1", got["R"])
			}
		}
		c, _ := strconv.Atoi(got["c"])
		th, _ := strconv.Atoi(got["t"])
		if c < th || c == 0 {
			return fmt.Errorf("-c %d -t %d: connections must be at least threads", c, th)
		}
		if len(rest) != 1 {
			return fmt.Errorf("want one URL, got %q", rest)
		}
		return checkURL(rest[0])
	case "ab", "ab-n":
		// ab's getopt "VhwiIx:y:z:C:H:P:A:g:X:de:SqB:m:" plus
		// "n:c:t:s:b:T:p:u:v:lrkE:Z:f:"; -n, -c and -t by atoi.
		if words[0] != "ab" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		got, rest, err := getopt(words[1:], map[string]bool{"k": false, "c": true, "t": true, "n": true, "s": true, "v": true, "r": false, "l": false})
		if err != nil {
			return err
		}
		for f, v := range got {
			if f != "k" && f != "r" && f != "l" && !digits.MatchString(v) {
				return fmt.Errorf("-%s %q: ab reads it with atoi", f, v)
			}
		}
		if n, c := got["n"], got["c"]; n != "" && c != "" {
			if ni, _ := strconv.Atoi(n); ni < 1 {
				return fmt.Errorf("-n %s: at least one request", n)
			} else if ci, _ := strconv.Atoi(c); ci > ni {
				return fmt.Errorf("-c %s -n %s: cannot use concurrency level greater than total number of requests", c, n)
			}
		}
		if len(rest) != 1 {
			return fmt.Errorf("want one URL, got %q", rest)
		}
		return checkURL(rest[0])
	case "hey", "hey-q":
		if words[0] != "hey" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		fs, err := goFlags(words[1:], func(fs *flag.FlagSet) {
			fs.Int("n", 200, "")
			fs.Int("c", 50, "")
			fs.Float64("q", 0, "")
			fs.Duration("z", 0, "")
			fs.Int("t", 20, "")
			fs.String("m", "GET", "")
			fs.String("o", "", "")
			fs.Bool("disable-keepalive", false, "")
		})
		if err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("want one URL, got %q", fs.Args())
		}
		if c := fs.Lookup("c").Value.(flag.Getter).Get().(int); c < 1 {
			return fmt.Errorf("-c %d", c)
		}
		return checkURL(fs.Arg(0))
	case "fortio":
		if words[0] != "fortio" || len(words) < 2 || words[1] != "load" {
			return fmt.Errorf("want fortio load, got %q", words[:min(2, len(words))])
		}
		fs, err := goFlags(words[2:], func(fs *flag.FlagSet) {
			fs.Float64("qps", 8, "")
			fs.Int("c", 8, "")
			fs.Duration("t", 5*time.Second, "")
			fs.Bool("nocatchup", false, "")
			fs.Bool("uniform", false, "")
		})
		if err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("want one URL, got %q", fs.Args())
		}
		return checkURL(fs.Arg(0))
	case "vegeta":
		parts := pipeline(words)
		if len(parts) != 3 || len(parts[0]) != 2 || parts[0][0] != "echo" || len(parts[1]) < 2 || parts[1][0] != "vegeta" || parts[1][1] != "attack" ||
			len(parts[2]) != 2 || parts[2][0] != "vegeta" || parts[2][1] != "report" {
			return fmt.Errorf("want echo 'GET URL' | vegeta attack … | vegeta report, got %q", parts)
		}
		method, u, _ := strings.Cut(parts[0][1], " ")
		if method != "GET" {
			return fmt.Errorf("target %q", parts[0][1])
		}
		if err := checkURL(u); err != nil {
			return err
		}
		var rate vegetaRate
		fs, err := goFlags(parts[1][2:], func(fs *flag.FlagSet) {
			fs.Var(&rate, "rate", "")
			fs.Duration("duration", 0, "")
			fs.String("targets", "stdin", "")
			fs.String("output", "stdout", "")
			fs.Uint64("workers", 10, "")
		})
		if err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return fmt.Errorf("vegeta attack takes no arguments, got %q", fs.Args())
		}
		if rate.freq < 1 || rate.per <= 0 {
			return fmt.Errorf("-rate %s", rate.String())
		}
		return nil
	case "oha":
		// clap: -c usize, -q f64, -z humantime::Duration.
		if words[0] != "oha" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		got, rest, err := getopt(words[1:], map[string]bool{"c": true, "q": true, "z": true, "n": true, "no-tui": false, "latency-correction": false, "json": false})
		if err != nil {
			return err
		}
		if !digits.MatchString(got["c"]) {
			return fmt.Errorf("-c %q is not a usize", got["c"])
		}
		if q, err := strconv.ParseFloat(got["q"], 64); err != nil || q <= 0 {
			return fmt.Errorf("-q %q is not a positive f64", got["q"])
		}
		if !humantime.MatchString(got["z"]) {
			return fmt.Errorf("-z %q is not a humantime duration", got["z"])
		}
		if len(rest) != 1 {
			return fmt.Errorf("want one URL, got %q", rest)
		}
		return checkURL(rest[0])
	case "k6-vus", "k6-arrival", "k6-vus-csv", "k6-arrival-csv", "k6-vus-json", "k6-arrival-json":
		// k6 run's flags (pflag), then the script's scenario in words.
		if len(words) < 2 || words[0] != "k6" || words[1] != "run" {
			return fmt.Errorf("want k6 run, got %q", words)
		}
		got, rest, err := getopt(words[2:], map[string]bool{"summary-mode": true, "no-color": false, "summary-export": true, "quiet": false, "out": true})
		if err != nil {
			return err
		}
		if m, ok := got["summary-mode"]; (ok || !strings.HasSuffix(tool, "-csv") && !strings.HasSuffix(tool, "-json")) && m != "compact" && m != "full" && m != "legacy" {
			return fmt.Errorf("--summary-mode=%q", m)
		}
		if o, ok := got["out"]; strings.HasSuffix(tool, "-json") {
			// internal/output/json/json.go New: json=FILE (the whole
			// argument is the file's name; none or "-": standard output).
			if !ok || !strings.HasPrefix(o, "json=") {
				return fmt.Errorf("--out %q is not json=…", o)
			}
		} else if ok || strings.HasSuffix(tool, "-csv") {
			// internal/output/csv/config.go ParseArg: csv=FILE, or
			// key=value pairs joined by commas.
			arg, ok := strings.CutPrefix(o, "csv=")
			if !ok {
				return fmt.Errorf("--out %q is not csv=…", o)
			}
			for _, kv := range strings.Split(arg, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch {
				case v == "":
					return fmt.Errorf("--out csv: %q has no value", kv)
				case k == "fileName":
				case k == "timeFormat":
					if !slices.Contains([]string{"unix", "unix_milli", "unix_micro", "unix_nano", "rfc3339", "rfc3339_nano"}, v) {
						return fmt.Errorf("--out csv: timeFormat %q", v)
					}
				case k == "saveInterval":
					if _, err := time.ParseDuration(v); err != nil {
						return fmt.Errorf("--out csv: saveInterval %q", v)
					}
				default:
					return fmt.Errorf("--out csv: unknown key %q", k)
				}
			}
		}
		if len(rest) != 0 {
			return fmt.Errorf("stray words %q", rest)
		}
		scenario, ok := strings.CutPrefix(aside, "scenario: ")
		if !ok {
			return fmt.Errorf("no scenario in %q", aside)
		}
		for _, kv := range strings.Split(scenario, ", ") {
			k, v, _ := strings.Cut(kv, " ")
			switch k {
			case "executor":
				if v != "constant-vus" && v != "constant-arrival-rate" {
					return fmt.Errorf("executor %q", v)
				}
			case "vus", "rate", "preAllocatedVUs", "maxVUs":
				// Integers in k6's options (its rate is an int64 per timeUnit).
				if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 1 {
					return fmt.Errorf("%s %q is not a positive integer", k, v)
				}
			case "duration", "timeUnit":
				if d, err := time.ParseDuration(v); err != nil || d <= 0 {
					return fmt.Errorf("%s %q is not a duration", k, v)
				}
			default:
				return fmt.Errorf("scenario option %q", k)
			}
		}
		return nil
	case "artillery", "artillery-maxvusers":
		// artillery run [--output FILE] SCRIPT (lib/cmds/run.js's flags);
		// then the script in words: its target and one arrival phase, whose
		// duration and arrivalRate or arrivalCount are whole (lib/dist.js
		// asserts a whole rate; a duration that is a number is seconds,
		// phases.js 41-59),
		// and for artillery-maxvusers a whole maxVusers (phases.js 36-57
		// casts it to a number; runner.js 212 compares it).
		if len(words) != 5 || words[0] != "artillery" || words[1] != "run" || words[2] != "--output" || !strings.HasSuffix(words[3], ".json") || words[4] != "test.yml" {
			return fmt.Errorf("want artillery run --output FILE.json test.yml, got %q", words)
		}
		m := regexp.MustCompile(`^test\.yml: config\.target (\S+), config\.phases \[\{duration: (\d+), (?:arrivalRate|arrivalCount): (\d+)(?:, maxVusers: (\d+))?\}\], one scenario: GET /$`).FindStringSubmatch(aside)
		if m == nil || (m[4] != "") != (tool == "artillery-maxvusers") {
			return fmt.Errorf("script %q", aside)
		}
		if m[4] == "" {
			m[4] = "1"
		}
		for _, n := range m[2:5] {
			if v, err := strconv.ParseInt(n, 10, 64); err != nil || v < 1 {
				return fmt.Errorf("%q is not a positive whole number in %q", n, aside)
			}
		}
		return checkURL(m[1] + "/")
	case "gatling-open", "gatling-closed":
		// gatling runs a simulation (a class in its own right); in words,
		// its setUp with one injection step and its scenario of one GET.
		// constantUsersPerSec takes a double, constantConcurrentUsers an
		// int, during whole seconds (OpenInjectionStep.scala,
		// ClosedInjectionStep.scala).
		if len(words) != 1 || words[0] != "gatling" {
			return fmt.Errorf("want gatling, got %q", words)
		}
		m := regexp.MustCompile(`^simulation: setUp\(scn\.inject(Open|Closed)\((constantUsersPerSec|constantConcurrentUsers)\(([0-9.]+)\)\.during\((\d+)\)\)\), scn = scenario\("omission"\)\.exec\(http\("GET /"\)\.get\("/"\)\), baseUrl "(\S+)"$`).FindStringSubmatch(aside)
		if m == nil {
			return fmt.Errorf("simulation %q", aside)
		}
		if open := tool == "gatling-open"; open != (m[1] == "Open") || open != (m[2] == "constantUsersPerSec") {
			return fmt.Errorf("%s's simulation injects %s with %s", tool, m[1], m[2])
		}
		if v, err := strconv.ParseFloat(m[3], 64); err != nil || v <= 0 || m[2] == "constantConcurrentUsers" && v != math.Trunc(v) {
			return fmt.Errorf("%s(%q)", m[2], m[3])
		}
		if v, err := strconv.ParseInt(m[4], 10, 64); err != nil || v < 1 {
			return fmt.Errorf("during(%q) is not whole seconds", m[4])
		}
		return checkURL(m[5] + "/")
	case "jmeter", "jmeter-ctt":
		// JMeter's CLOptionsDescriptor (JMeter.java): -n non-GUI, -t the
		// plan, -l the results file; then the plan in words.
		if words[0] != "jmeter" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		got, rest, err := getopt(words[1:], map[string]bool{"n": false, "t": true, "l": true, "j": true})
		if err != nil {
			return err
		}
		if len(rest) != 0 {
			return fmt.Errorf("stray words %q", rest)
		}
		if _, ok := got["n"]; !ok || !strings.HasSuffix(got["t"], ".jmx") || got["l"] == "" {
			return fmt.Errorf("want -n -t PLAN.jmx -l FILE, got %q", words)
		}
		plan, ok := strings.CutPrefix(aside, "plan: ")
		if !ok {
			return fmt.Errorf("no plan in %q", aside)
		}
		// jmeter-ctt's plan adds its timer: a throughput in samples a
		// minute (a double, ConstantThroughputTimer's), this thread only.
		m := regexp.MustCompile(`^a thread group of (\d+) threads, ramp-up (\d+) s, loop forever, scheduler duration (\d+) s; (?:a Constant Throughput Timer of (\d+(?:\.\d+)?) samples a minute, calculated for this thread only; )?one HTTP Request to (\S+)$`).FindStringSubmatch(plan)
		if m == nil {
			return fmt.Errorf("plan %q", plan)
		}
		if (m[4] != "") != (tool == "jmeter-ctt") {
			return fmt.Errorf("plan %q: a timer where none is, or none where one is", plan)
		}
		if m[4] != "" {
			if v, err := strconv.ParseFloat(m[4], 64); err != nil || v <= 0 {
				return fmt.Errorf("throughput %q is not a positive number", m[4])
			}
		}
		m = append(m[:4], m[5])
		for k, n := range m[1:4] {
			// The thread group's fields are ints: threads (at least 1),
			// ramp-up and duration in whole seconds.
			if v, err := strconv.ParseInt(n, 10, 32); err != nil || v < 0 || k == 0 && v < 1 {
				return fmt.Errorf("%q is not a count or whole seconds in %q", n, plan)
			}
		}
		return checkURL(m[4])
	case "locust":
		// argparse: -u int, -r float, -t parse_timespan, -H the host.
		if words[0] != "locust" {
			return fmt.Errorf("the executable is %q", words[0])
		}
		got, rest, err := getopt(words[1:], map[string]bool{"headless": false, "only-summary": false, "u": true, "r": true, "t": true, "H": true, "f": true})
		if err != nil {
			return err
		}
		if len(rest) != 0 {
			return fmt.Errorf("stray words %q", rest)
		}
		if !digits.MatchString(got["u"]) {
			return fmt.Errorf("-u %q is not an int", got["u"])
		}
		if _, err := strconv.ParseFloat(got["r"], 64); err != nil {
			return fmt.Errorf("-r %q is not a float", got["r"])
		}
		if v := got["t"]; v == "" || !locustSpan.MatchString(v) {
			return fmt.Errorf("-t %q: parse_timespan takes whole hours, minutes and seconds (20s, 1h30m)", v)
		}
		if u, err := url.Parse(got["H"]); err != nil || u.Scheme != "http" || u.Host == "" {
			return fmt.Errorf("-H %q", got["H"])
		}
		m := regexp.MustCompile(`constant_throughput\(([^)]*)\)`).FindStringSubmatch(aside)
		if m == nil {
			return fmt.Errorf("no constant_throughput in %q", aside)
		}
		if x, err := strconv.ParseFloat(m[1], 64); err != nil || x <= 0 {
			return fmt.Errorf("constant_throughput(%s)", m[1])
		}
		return nil
	case "bombardier", "bombardier-rate":
		// kingpin, as args_parser.go (v1.2.6) declares the flags: -c a
		// uint, -d a time.Duration, --rate a positive uint64
		// (nullableUint64; config.go 98-102 refuses 0), -l a bool, -p a
		// comma list of i|intro, p|progress, r|result (parsePrintSpec);
		// one URL argument.
		if name == "bombardier-rate" && !slices.Contains(words, "--rate") {
			return errors.New("no --rate")
		}
		return oneURL(words, "bombardier", map[string]func(string) error{
			"--rate": func(v string) error {
				if n, err := strconv.ParseUint(v, 10, 64); err != nil || n < 1 {
					return errors.New("want a positive integer")
				}
				return nil
			},
			"-c": func(v string) error {
				if n, err := strconv.ParseUint(v, 10, 64); err != nil || n < 1 {
					return errors.New("want a positive integer")
				}
				return nil
			},
			"-d": func(v string) error { _, err := time.ParseDuration(v); return err },
			"-p": func(v string) error {
				for _, part := range strings.Split(v, ",") {
					if !slices.Contains([]string{"i", "intro", "p", "progress", "r", "result"}, part) {
						return fmt.Errorf("%q is not intro, progress or result", part)
					}
				}
				return nil
			},
		}, "-l")
	case "autocannon", "autocannon-rate":
		// subarg with autocannon.js's aliases and defaults: -c a count of
		// connections, -d seconds (a number, or a timestring with a
		// unit: lib/validate.js 95-112), -R the overall rate (a number;
		// autocannon.js 68: overallRate); one URL argument.
		if name == "autocannon-rate" && !slices.Contains(words, "-R") {
			return errors.New("no -R")
		}
		positive := func(whole bool) func(string) error {
			return func(v string) error {
				n, err := strconv.ParseFloat(v, 64)
				if err != nil || n <= 0 || whole && n != math.Trunc(n) {
					return errors.New("want a positive number")
				}
				return nil
			}
		}
		return oneURL(words, "autocannon", map[string]func(string) error{"-c": positive(true), "-d": positive(false), "-R": positive(true)})
	}
	return errors.New("no grammar for this tool: add one")
}

// oneURL checks a command of single-dash flags and one URL: the executable
// is exe; each flag of valued takes the next word, which its func checks;
// each of bools takes none; any other word starting with "-" is unknown.
func oneURL(words []string, exe string, valued map[string]func(string) error, bools ...string) error {
	if words[0] != exe {
		return fmt.Errorf("the executable is %q", words[0])
	}
	var rest []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		check, ok := valued[w]
		switch {
		case ok:
			if i+1 >= len(words) {
				return fmt.Errorf("%s needs a value", w)
			}
			i++
			if err := check(words[i]); err != nil {
				return fmt.Errorf("%s %q: %v", w, words[i], err)
			}
		case slices.Contains(bools, w):
		case strings.HasPrefix(w, "-"):
			return fmt.Errorf("unknown flag %q", w)
		default:
			rest = append(rest, w)
		}
	}
	if len(rest) != 1 {
		return fmt.Errorf("want one URL, got %q", rest)
	}
	return checkURL(rest[0])
}

// TestCommandsParse holds each tool's printed command to the real tool's
// flag grammar: durations wrk, wrk2 and locust take (whole seconds), rates
// vegeta and k6 take (an integer per a time unit), and so on.
func TestCommandsParse(t *testing.T) {
	for _, q := range commandQueries {
		cfg := mustConfig(t, q)
		for _, tool := range registry {
			if tool.WholeRate() && cfg.Rate < 1000 {
				continue // wrk2 refuses a rate under 1/s (its -R)
			}
			line := tool.command(cfg)
			if err := parseCommand(t, tool.name, line); err != nil {
				t.Errorf("%s (%q): %s: %v", tool.name, q, line, err)
			}
		}
	}
	// Durations round up to whole seconds where the tool needs them.
	cfg := mustConfig(t, "duration=20010ms")
	for name, want := range map[string]string{"wrk": " -d21s ", "wrk2": " -d21s ", "locust": " -t 21s "} {
		if line := mustTool(t, name).command(cfg); !strings.Contains(line, want) {
			t.Errorf("%s: %q does not say %q", name, line, want)
		}
	}
	// The grammars refuse what the real tools refuse.
	for _, c := range []struct{ tool, line string }{
		{"bombardier", "bombardier -c 0 -d 20s " + target},
		{"bombardier", "bombardier -c 2 -d 20 " + target},
		{"bombardier", "bombardier -c 2 -d 20s -p x " + target},
		{"bombardier", "bombardier -c 2 -z 20s " + target},
		{"bombardier-rate", "bombardier -c 2 -d 20s --rate 0 " + target},
		{"bombardier-rate", "bombardier -c 2 -d 20s --rate 2.5 " + target},
		{"bombardier-rate", "bombardier -c 2 -d 20s " + target},
		{"autocannon", "autocannon -c 1.5 -d 20 " + target},
		{"autocannon", "autocannon -c 2 -d " + target},
		{"autocannon", "autocannon -c 2 -d 20 " + target + " " + target},
		{"autocannon-rate", "autocannon -c 2 -d 20 -R 0 " + target},
		{"autocannon-rate", "autocannon -c 2 -d 20 " + target},
	} {
		if err := parseCommand(t, c.tool, c.line); err == nil {
			t.Errorf("%s: %q parses, but the tool refuses it", c.tool, c.line)
		}
	}
	cfg = mustConfig(t, "rate=0.5&duration=20s")
	if line := vegetaTool.command(cfg); !strings.Contains(line, " -rate 500/1000s ") {
		t.Errorf("vegeta at 0.5/s: %q", line)
	}
}

func mustTool(t *testing.T, name string) *Tool {
	t.Helper()
	tool, err := lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestCommandsRun runs the command each tool's descriptor prints, as
// printed, for a second against a local server, wherever the tool is
// installed here (.tools/bin, where the install script puts the pinned
// versions, then $PATH): each must run, exit 0 and print something. A tool
// whose command names a file it reads (locust's locustfile, said in words
// beside the command) gets the file its Real writes, in the directory the
// command runs in; a pipeline (vegeta's) runs in sh. wrk2's command is
// "wrk …", as its build names its binary: it runs wrk2's build, which the
// install script keeps as wrk2 (Debian's wrk 4.1 refuses -R). Skipped under
// -short (make test-long runs it), for a tool not installed, and for one
// whose Real runs it through a launcher of other arguments (JMeter's plan,
// a .jmx in words, built in Java: Real.Launcher).
func TestCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real load generators for a second each: make test-long")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	dirs := []string{}
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, filepath.Join(wd, "..", "..", ".tools", "bin"))
	}
	find := func(bin string) (string, bool) {
		for _, d := range dirs {
			p := filepath.Join(d, bin)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				return p, true
			}
		}
		p, err := exec.LookPath(bin)
		return p, err == nil
	}
	ran := 0
	// A whole second, and a fitted run's odd duration and rate (its
	// commands round up to whole seconds, a rate in thousandths).
	for i, q := range []string{"duration=1s&rate=50&conns=2", "duration=1010ms&rate=333.333&conns=3"} {
		cfg := mustConfig(t, q)
		for _, name := range Names() {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				tool := mustTool(t, name)
				line := tool.command(cfg)
				words, _ := shellWords(t, line)
				bin := words[0]
				if r := tool.Real(); r != nil {
					if r.Launcher != "" {
						t.Skipf("%s: its command cannot run as printed: %s", name, r.Launcher)
					}
					bin = r.Bin // wrk2's build, kept as wrk2; vegeta, not the pipeline's echo
				}
				path, ok := find(bin)
				if !ok {
					t.Skipf("%s is not installed", bin)
				}
				dir := t.TempDir()
				if r := tool.Real(); r != nil && r.Files != nil {
					files, err := r.Files(cfg, strings.TrimPrefix(srv.URL, "http://"))
					if err != nil {
						t.Fatal(err)
					}
					for n, c := range files {
						if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				var cmd *exec.Cmd
				host := strings.TrimSuffix(target, "/")
				if strings.Contains(line, "|") {
					cmd = exec.CommandContext(ctx, "sh", "-c", strings.ReplaceAll(line, host, srv.URL))
					cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(path)+string(os.PathListSeparator)+os.Getenv("PATH"))
				} else {
					for i, w := range words {
						words[i] = strings.ReplaceAll(w, host, srv.URL)
					}
					cmd = exec.CommandContext(ctx, path, words[1:]...)
				}
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", line, err, out)
				}
				if len(out) == 0 {
					t.Errorf("%s printed nothing", line)
				}
				ran++
			})
		}
	}
	t.Logf("%d of %d tools' commands ran", ran, 2*len(Names()))
}
