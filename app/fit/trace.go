package fit

import (
	"bytes"

	"omission/app/measure"
	"omission/sim"
)

// A candidate's forward run of a recording file (.hgrm, .hlog, the CSV)
// needs every request's times and nothing of what sim.Result adds to them
// (its five distributions sorted, the closed forms, the checks, the hash):
// sim.Runner.TraceResult gives the times alone, and the file is written
// from them with measure's own writers, as measure.FromResultOf would
// (TestTraceForwardSame holds the two to the same numbers).

// traced reports whether cfg's run is walked request by request, so that
// its TraceResult keeps every request's times: a deterministic run within
// sim.ExactSamples requests a client.
func traced(cfg sim.Config) bool {
	return !cfg.EventDriven() && sim.NewSchedule(cfg.Rate).Count(cfg.Duration) <= sim.ExactSamples
}

// traceSet is the Set measure.FromResultOf makes of the named recordings
// of a walked run, from its TraceResult (hist: with each source's
// histogram, which only an .hgrm reads).
func traceSet(cfg sim.Config, kinds []sim.Kind, hist bool) (*measure.Set, error) {
	r, err := sim.Start(cfg)
	if err != nil {
		return nil, err
	}
	res := r.TraceResult()
	if res == nil {
		return nil, r.Err()
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return measure.FromTraceOf(res, hist, names...)
}

// traceForward is forward for a recording file of a walked run.
func traceForward(cfg sim.Config, in *input, src source) ([]obs, error) {
	set, err := traceSet(cfg, src.kinds, in.format != FormatCSV && in.format != measure.FormatHlog)
	if err != nil {
		return nil, err
	}
	switch in.format {
	case FormatCSV:
		return csvObs(set), nil
	case measure.FormatHlog:
		f, err := set.HlogFile(in.name)
		if err != nil {
			return nil, err
		}
		return fileObs(f), nil
	}
	var b bytes.Buffer
	if err := measure.WriteHgrm(&b, set.Sources[0].Hist); err != nil {
		return nil, err
	}
	f, err := measure.Parse(in.name, b.Bytes())
	if err != nil {
		return nil, err
	}
	return fileObs(f), nil
}
