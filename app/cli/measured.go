//go:build !wasm

package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// measuredFile is a measurement read for report -measured.
type measuredFile struct {
	file *measure.File
}

// loadMeasured reads a measurement file, refusing one over
// measure.MaxFileSize before reading it.
func loadMeasured(path string) (*measuredFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("report: -measured: %v", err)
	}
	if st.Size() > measure.MaxFileSize {
		return nil, fmt.Errorf("report: -measured: %s has %d bytes; the limit is %d (16 MiB)", path, st.Size(), measure.MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: -measured: %v", err)
	}
	f, err := measure.Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("report: -measured: %v", err)
	}
	return &measuredFile{f}, nil
}

// withMeasured is the report's JSON with the measurement: measured is the
// file's first distribution, measured_more the others (wrk2's uncorrected
// spectrum, further .hlog tags).
type withMeasured struct {
	reportJSON
	Measured     *measure.Summary  `json:"measured"`
	MeasuredMore []measure.Summary `json:"measured_more,omitempty"`
}

func (m *measuredFile) json(rep reportJSON) any {
	if m == nil {
		return rep
	}
	all := m.file.Summaries()
	return withMeasured{reportJSON: rep, Measured: &all[0], MeasuredMore: all[1:]}
}

// text prints the measured distributions beside the model's recordings.
func (m *measuredFile) text(w io.Writer, res *sim.Result) {
	if m == nil {
		return
	}
	f := m.file
	fmt.Fprintf(w, "\nmeasured: %s (%s)\n", f.Name, f.Format.Title())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, k := range sim.Kinds() {
		fmt.Fprintf(tw, "%s\t", k)
	}
	sums := f.Summaries()
	for _, s := range sums {
		fmt.Fprintf(tw, "measured %s\t", s.Label)
	}
	fmt.Fprint(tw, "\n")
	opt := func(p *int64) string {
		if p == nil {
			return "-"
		}
		return units.Duration(*p)
	}
	row := func(name string, model func(r *sim.Recording) string, meas func(s *measure.Summary) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for i := range res.Recordings {
			fmt.Fprintf(tw, "%s\t", model(&res.Recordings[i]))
		}
		for i := range sums {
			fmt.Fprintf(tw, "%s\t", meas(&sums[i]))
		}
		fmt.Fprint(tw, "\n")
	}
	row("count", func(r *sim.Recording) string { return fmt.Sprint(r.Count) }, func(s *measure.Summary) string {
		if s.Count == nil {
			return "-"
		}
		return fmt.Sprint(*s.Count)
	})
	row("mean", func(r *sim.Recording) string { return units.Duration(r.Mean) }, func(s *measure.Summary) string {
		if s.MeanNs == nil {
			return "-"
		}
		return units.Duration(*s.MeanNs)
	})
	for i, p := range sim.Percentiles() {
		row(strings.ReplaceAll(p.Name, "_", "."), func(r *sim.Recording) string { return units.Duration(r.P[i]) }, func(s *measure.Summary) string {
			return opt([]*int64{s.P50Ns, s.P90Ns, s.P99Ns, s.P999Ns, s.P9999Ns}[i])
		})
	}
	row("max", func(r *sim.Recording) string { return units.Duration(r.Max) }, func(s *measure.Summary) string { return opt(s.MaxNs) })
	tw.Flush()
	for _, s := range sums {
		var how []string
		for _, p := range sim.Percentiles() {
			how = append(how, fmt.Sprintf("%s %s", strings.ReplaceAll(p.Name, "_", "."), s.How[p.Name]))
		}
		fmt.Fprintf(w, "measured %s: %s; precision: %s\n", s.Label, strings.Join(how, ", "), s.Precision)
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
}
