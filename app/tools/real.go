package tools

import (
	"omission/app/measure"
	"omission/sim"
)

// InstallScript installs the real tools (Debian packages as root, vegeta and
// fortio into .tools/bin, wrk2 from a local copy): named in every message
// about a missing tool.
const InstallScript = "app/experiment/tools/install.sh"

// Real is how the experiment (package experiment) runs a tool for real on
// this machine and reads its run: a part of the tool's descriptor, nil for
// the tools it does not run. It is data and pure functions: the experiment
// writes the files and starts the processes.
type Real struct {
	Bin     string // the executable
	Install string // how to install it, in words
	// Args is the command line after the executable, against a server at
	// addr (host:port); dir is the run's scratch directory, where Files are
	// written first.
	Args func(cfg sim.Config, addr, dir string) ([]string, error)
	// Files, when set, are written into the scratch directory before the
	// run: name → content.
	Files func(cfg sim.Config, addr string) (map[string]string, error)
	// Then, when set, is a second command of the same executable, run after
	// the first, whose output is the printout (vegeta report on vegeta
	// attack's results).
	Then func(dir string) []string
	// RoundTrip picks the distribution of the printout that holds reply −
	// send, its median the tool's round trip (nil: the first; wrk2 -U
	// prints it as its second; autocannon -R's, its replies' median among
	// the values its correction added); out is the printout as written.
	RoundTrip func(f *measure.File, out string) *measure.Dist
	// PredictedRequests is the model's figure for the count the tool
	// prints (nil: what it recorded).
	PredictedRequests func(o *Output) int64
	// RunLength, when set, reads from the printout how long the tool's
	// run really lasted, from its first request (ns), and says how; the
	// model runs that long instead of the query's duration.
	RunLength func(out string) (ns int64, how string, ok bool)
	// Unit is the resolution of the printout's latencies when coarser than
	// a microsecond and the experiment takes it into account (locust: whole
	// ms): a median round trip printed below it is known only to be under
	// half of it.
	Unit int64
	// ClockFit: the tool sends on a schedule of its own clock, and every
	// request it plans is sent, however late, so that its k-th request is
	// the model's k-th send: the model's clock may be set to the tool's
	// from the whole run.
	ClockFit bool
	// StartsAtConnect: the tool takes each connection's schedule start just
	// before it connects, not at its first send, so its model's clock
	// starts at the server's accept of its first request's connection.
	StartsAtConnect bool
	// GapRoundTrip: the tool sends its share back to back (autocannon
	// -R's each second), so when its printed median round trip is under
	// half its Unit the model's service is the server's median gap between
	// requests away from the stalls, the time that sets how long its share
	// takes, not the unit's floor.
	GapRoundTrip bool
	// FitMean: the printed median is not a round trip, so a scheduled
	// tool's service time (and client time) is fitted to the printed mean
	// instead.
	FitMean bool
	// Launcher, when set, says why Bin runs the tool otherwise than its
	// printed command, so that the command cannot be run as printed here
	// (jmeter-run builds in Java the plan that jmeter -t's .jmx stands
	// for).
	Launcher string
	// Printout, when set, is the file the tool writes into the scratch
	// directory that the experiment reads as its printout, in place of
	// what it prints (JMeter's results.jtl: its summary line holds no
	// percentiles).
	Printout string
}

// Requests is the model's figure for the count the tool prints.
func (r *Real) Requests(o *Output) int64 {
	if r.PredictedRequests != nil {
		return r.PredictedRequests(o)
	}
	return o.Recorded
}

// RealNames lists the tools the experiment can run, in display order.
func RealNames() []string {
	var out []string
	for _, t := range registry {
		if t.Real() != nil {
			out = append(out, t.name)
		}
	}
	return out
}

// wholeSeconds is a duration as the real tools' -d, -t and -z take it
// when the experiment runs them (the experiment refuses any other).
func wholeSeconds(cfg sim.Config) string { return fmtInt(cfg.Duration/1e9) + "s" }
