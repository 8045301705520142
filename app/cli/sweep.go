//go:build !wasm

package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"omission/app/address"
	"omission/app/units"
	"omission/sim"
	"omission/sim/sweep"
)

// The report command's sweep (issue 25): `report -sweep SPEC QUERY`, or a
// share URL with sweep=, runs the query once per point of the sweep and
// prints a row per point; `export -format csv -sweep SPEC QUERY` writes a
// CSV row per point and recording.

// sweepSpec returns the sweep of a command's arguments: -sweep, else the
// query's own sweep= key; "" for none.
func sweepSpec(flagSweep, query string) (string, error) {
	if flagSweep != "" {
		return flagSweep, nil
	}
	if i := strings.IndexByte(query, '?'); i >= 0 {
		query = query[i+1:]
	}
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return "", err
	}
	return vals.Get(address.KeySweep), nil
}

// runSweep parses spec and runs every point over cfg (the command line has
// no budget beyond the simulator's limits).
func runSweep(cfg sim.Config, spec string) (*sweep.Result, error) {
	s, err := sweep.Parse(spec)
	if err != nil {
		return nil, &exitError{2, fmt.Errorf("invalid -sweep: %v", err)}
	}
	return s.Run(cfg, nil), nil
}

// sweepCmd prints a sweep as text or JSON ({"sweep": {field, spec, query,
// value, points}}). It exits 1 when a point's check fails.
func sweepCmd(w io.Writer, cfg sim.Config, spec string, asJSON bool) error {
	res, err := runSweep(cfg, spec)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Sweep *sweep.Result `json:"sweep"`
		}{res}); err != nil {
			return err
		}
	} else {
		writeSweepText(w, res)
	}
	failing := 0
	for _, p := range res.Points {
		if p.PointReport != nil && p.Failed > 0 {
			failing++
		}
	}
	if failing > 0 {
		return &exitError{1, fmt.Errorf("checks failed at %d of %d points", failing, len(res.Points))}
	}
	return nil
}

// sweepMetrics are the text table's columns for each recording.
var sweepMetrics = []struct{ name, key string }{
	{"p50", "p50"}, {"p99", "p99"}, {"p99.9", "p99_9"}, {"max", "max"}, {"mean", "mean"}, {"above", "above_share"},
}

// sweepTextWidth is the most columns a line of the sweep's text takes.
const sweepTextWidth = 100

// writeSweepText prints the sweep as a table per recording, a row per
// point: the field's value, the recording's p50, p99, p99.9, max and mean
// (units.Duration, as the page writes them), its share above the
// threshold and the requests its client never sent. A refused point's row
// says so; its reason follows the tables. No line is wider than
// sweepTextWidth.
func writeSweepText(w io.Writer, res *sweep.Result) {
	where := "not a point of the sweep"
	for _, p := range res.Points {
		if p.Value == res.Value {
			where = "marked *"
		}
	}
	writeWrapped(w, fmt.Sprintf("sweep: %s over %s (%s=%s there: %s)", res.Spec, sim.QueryWords(res.Query), res.Field, res.Value, where), "  ")
	writeWrapped(w, fmt.Sprintf("%s, %d refused; above: the share of samples above the threshold; never sent: the requests the recording's client planned and never sent",
		units.Plural(int64(len(res.Points)), "point"), res.Refused()), "  ")
	for _, k := range sim.Kinds() {
		fmt.Fprintf(w, "\n%s\n", k)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\t", res.Field)
		for _, m := range sweepMetrics {
			fmt.Fprintf(tw, "%s\t", m.name)
		}
		fmt.Fprint(tw, "never sent\t\n")
		for _, p := range res.Points {
			mark := " "
			if p.Value == res.Value {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s%s\t", p.Value, mark)
			if p.PointReport == nil {
				fmt.Fprint(tw, "refused\t\n")
				continue
			}
			r := p.Recordings[k.String()]
			for _, m := range sweepMetrics {
				fmt.Fprintf(tw, "%s\t", sweepCell(r, m.key))
			}
			fmt.Fprintf(tw, "%d\t\n", neverSent(p.PointReport, k.Client()))
		}
		tw.Flush()
	}
	first := true
	for _, p := range res.Points {
		if p.PointReport == nil {
			if first {
				fmt.Fprintln(w)
				first = false
			}
			writeWrapped(w, fmt.Sprintf("%s=%s refused: %s", res.Field, p.Value, p.Refused), "  ")
		}
	}
}

// writeWrapped writes text in lines of at most sweepTextWidth columns,
// broken between words (a word longer than a line is cut), each line after
// the first led by indent.
func writeWrapped(w io.Writer, text, indent string) {
	line, lead := "", ""
	flush := func() {
		fmt.Fprintln(w, line)
		line, lead = "", indent
	}
	for _, word := range strings.Fields(text) {
		for utf8.RuneCountInString(lead+word) > sweepTextWidth {
			if line != "" {
				flush()
			}
			r := []rune(word)
			n := sweepTextWidth - utf8.RuneCountInString(lead)
			line, word = lead+string(r[:n]), string(r[n:])
			flush()
		}
		switch {
		case line == "":
			line = lead + word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > sweepTextWidth:
			flush()
			line = lead + word
		default:
			line += " " + word
		}
	}
	if line != "" {
		flush()
	}
}

// sweepCell writes one metric of a recording as the report's table does:
// latencies in people's units (units.Duration), the share above in percent.
func sweepCell(r sim.RecReport, key string) string {
	switch key {
	case "p50":
		return units.Duration(r.P50Ns)
	case "p99":
		return units.Duration(r.P99Ns)
	case "p99_9":
		return units.Duration(r.P999Ns)
	case "max":
		return units.Duration(r.MaxNs)
	case "mean":
		return units.Duration(r.MeanNs)
	}
	return fmt.Sprintf("%.4f%%", 100*r.AboveShare)
}

// neverSent is a client's requests planned and never sent.
func neverSent(r *sweep.PointReport, c sim.Client) int64 {
	cr := r.Clients[c.String()]
	return cr.Planned - cr.Sent
}

// sweepCSVHeader are the sweep CSV's columns: x is the value as a number
// (ns for a duration, requests per second for a rate, the count), never_sent
// the requests the recording's client planned and never sent.
var sweepCSVHeader = []string{"field", "value", "x", "query", "recording", "count", "mean_ns", "p50_ns", "p90_ns", "p99_ns",
	"p99_9_ns", "p99_99_ns", "max_ns", "above", "above_share", "never_sent", "refused"}

// exportSweep writes a sweep as CSV: a row per point and recording (the
// one named, if any), a refused point one row with its reason.
func exportSweep(w io.Writer, res *sweep.Result, recording string) error {
	kinds := sim.Kinds()
	if recording != "" {
		kinds = nil
		for _, k := range sim.Kinds() {
			if k.String() == recording {
				kinds = append(kinds, k)
			}
		}
		if kinds == nil {
			return &exitError{2, fmt.Errorf("export: -recording %q: allowed %s", recording, kindNames())}
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(sweepCSVHeader)
	for _, p := range res.Points {
		x := strconv.FormatFloat(p.X, 'f', -1, 64)
		lead := []string{res.Field, p.Value, x, p.Query}
		if p.PointReport == nil {
			cw.Write(append(lead, "", "", "", "", "", "", "", "", "", "", "", "", p.Refused))
			continue
		}
		for _, k := range kinds {
			r := p.Recordings[k.String()]
			i := func(v int64) string { return strconv.FormatInt(v, 10) }
			f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
			cw.Write(append(lead, k.String(), i(r.Count), f(r.MeanNs), i(r.P50Ns), i(r.P90Ns), i(r.P99Ns), i(r.P999Ns), i(r.P9999Ns),
				i(r.MaxNs), i(r.Above), f(r.AboveShare), i(neverSent(p.PointReport, k.Client())), ""))
		}
	}
	cw.Flush()
	return cw.Error()
}

// kindNames lists the recordings' names.
func kindNames() string {
	var out []string
	for _, k := range sim.Kinds() {
		out = append(out, k.String())
	}
	return strings.Join(out, ", ")
}
