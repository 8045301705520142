//go:build !wasm

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"

	"omission/app/fit"
	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// The report command's fit (issue 23): `report -fit FILE [QUERY]` fits the
// deterministic model to a measured file and prints the fitted query, the
// fit table and what the test never measured. A rate in QUERY pins the
// rate when the file leaves it free (a closed loop's or wrk's file).

// fitCmd fits path's file. It exits 2 when the file cannot be read or
// fitted, 1 when no stall model explains it within fit.Tolerance.
func fitCmd(w io.Writer, path, query string, asJSON bool) error {
	st, err := os.Stat(path)
	if err != nil {
		return &exitError{2, fmt.Errorf("report: -fit: %v", err)}
	}
	if st.Size() > measure.MaxFileSize {
		return &exitError{2, fmt.Errorf("report: -fit: %s has %d bytes; the limit is %d (16 MiB)", path, st.Size(), measure.MaxFileSize)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return &exitError{2, fmt.Errorf("report: -fit: %v", err)}
	}
	var opt fit.Options
	if q := strings.TrimPrefix(query[strings.IndexByte(query, '?')+1:], "?"); q != "" {
		vals, err := url.ParseQuery(q)
		if err != nil {
			return &exitError{2, fmt.Errorf("invalid query: %v", err)}
		}
		for k := range vals {
			if k != "rate" {
				return &exitError{2, fmt.Errorf("report: -fit: the query may pin rate only (the file gives the other fields), found %q", k)}
			}
		}
		r, err := fit.ParseRate(vals.Get("rate"))
		if err != nil {
			return &exitError{2, fmt.Errorf("invalid query: %v", err)}
		}
		opt.Rate = r
	}
	r, err := fit.Fit(path, data, opt)
	if err != nil {
		return &exitError{2, fmt.Errorf("report: -fit: %v", err)}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Fit *fit.Result `json:"fit"`
		}{r}); err != nil {
			return err
		}
	} else {
		writeFitText(w, r)
	}
	if !r.Explained {
		return &exitError{1, fmt.Errorf("no stall model explains the file within %g %%", fit.Tolerance*100)}
	}
	return nil
}

func writeFitText(w io.Writer, r *fit.Result) {
	fmt.Fprintf(w, "fit: %s (%s), %s\n", r.File, r.Format, r.Source)
	fmt.Fprintf(w, "query: %s\n\n", sim.QueryWords(r.Query))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "parameter\tvalue\thow\n")
	for _, p := range r.Params {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, r.ParamWords(p), p.How)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "distribution\tnumber\tmeasured\tfitted\tdifference\t\n")
	for _, x := range r.Residuals {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", x.Dist, fit.RowWords(x), fit.Number(x, x.Measured), fit.Number(x, x.Fitted), r.DiffWords(x))
	}
	tw.Flush()
	if r.Explained {
		fmt.Fprintf(w, "\n%s\n", r.Verdict())
	} else {
		fmt.Fprintf(w, "\nNOT EXPLAINED: %s\n", r.Why)
	}
	if len(r.Ambiguous) > 0 {
		fmt.Fprintln(w, "\nwhat the file leaves free (every value in the range fits as well):")
		for _, a := range r.Ambiguous {
			fmt.Fprintf(w, "  %s = %s, %s: %s\n", a.Param, a.Words(), a.RangeWords(), a.Why)
		}
	}
	h := r.Hidden
	fmt.Fprintln(w, "\nwhat the test did not measure:")
	if h.RecordedP99Ns >= 0 {
		fmt.Fprintf(w, "  the test recorded p99 = %s (the fitted model: %s)\n", units.Duration(h.RecordedP99Ns), units.Duration(h.FittedP99Ns))
	}
	fmt.Fprintf(w, "  an open loop on the same server would have recorded p99 %s", h.OpenP99Words())
	if len(h.OpenP99RangeNs) == 2 && h.OpenP99Words() != "= "+units.Duration(h.OpenP99Ns) {
		fmt.Fprintf(w, " (%s)", h.OpenP99RangeWhy)
	}
	fmt.Fprintln(w, fit.OpenP99After(h.Assumes, h.AtModelRate != "", strings.HasPrefix(h.OpenP99Words(), "between "), "", "rate=R after the file: "))
	fmt.Fprintf(w, "  requests never sent: %s of %s planned", units.Count(h.NeverSent), units.Count(h.Planned))
	if h.AtModelRate != "" {
		fmt.Fprintf(w, " (%s; these grow with it)", h.AtModelRate)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "  each tool's p99")
	if h.AtModelRate != "" {
		fmt.Fprintf(w, " (%s)", h.AtModelRate)
	}
	fmt.Fprint(w, ":")
	for i, t := range h.Tools {
		sep := ","
		if i == 0 {
			sep = ""
		}
		p99 := units.Duration(t.P99Ns)
		if t.Zero != nil {
			p99 = t.Zero.Printed + " " + t.Zero.Unit // "0 ms": the page says why
		}
		fmt.Fprintf(w, "%s %s %s", sep, t.Tool, p99)
	}
	fmt.Fprintln(w)
	for _, n := range append(h.Notes, r.Notes...) {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
