package measure

import "omission/sim"

// Summary is one measured distribution in the report's JSON form
// (report -measured, the page): the metrics the file determines, null where
// it does not, and where each percentile came from.
type Summary struct {
	Format      Format   `json:"format"`
	FormatTitle string   `json:"format_title"`
	File        string   `json:"file"`
	Label       string   `json:"label"`
	Count       *int64   `json:"count"`
	MeanNs      *float64 `json:"mean_ns"`
	MinNs       *int64   `json:"min_ns"`
	sim.Tail[*int64]
	// How says, per percentile, "stated", "interpolated", "estimated",
	// "histogram", "spectrum" or "missing" (see How).
	How       map[string]How `json:"how"`
	Missing   []string       `json:"missing"`
	Precision string         `json:"precision"`
	Points    int            `json:"points"` // the file's own spectrum points
	Notes     []string       `json:"notes"`
}

// Summary returns distribution i of the file in the report's form.
func (f *File) Summary(i int) Summary {
	d := &f.Dists[i]
	s := Summary{Format: f.Format, FormatTitle: f.Format.Title(), File: f.Name, Label: d.Label,
		How: map[string]How{}, Missing: []string{}, Precision: d.Precision, Points: len(d.Points)}
	s.Notes = append(append([]string{}, f.Notes...), d.Notes...)
	if d.Count >= 0 {
		s.Count = ptr(d.Count)
	} else {
		s.Missing = append(s.Missing, "count")
	}
	if d.HasMean {
		s.MeanNs = ptr(d.MeanNs)
	} else {
		s.Missing = append(s.Missing, "mean")
	}
	if d.MinNs >= 0 {
		s.MinNs = ptr(d.MinNs)
	} else {
		s.Missing = append(s.Missing, "min")
	}
	dst := s.Ps()
	for k, p := range d.P {
		s.How[p.Name] = p.How
		if p.How == Missing {
			s.Missing = append(s.Missing, p.Name)
			continue
		}
		*dst[k] = ptr(p.Ns)
	}
	if d.MaxNs >= 0 {
		s.MaxNs = ptr(d.MaxNs)
	} else {
		s.Missing = append(s.Missing, "max")
	}
	return s
}

// Summaries returns every distribution of the file in the report's form.
func (f *File) Summaries() []Summary {
	out := make([]Summary, len(f.Dists))
	for i := range f.Dists {
		out[i] = f.Summary(i)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
