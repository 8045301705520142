//go:build !wasm

package cli

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"

	"omission/app/address"
	"omission/app/units"
	"omission/sim"
)

// The report command's comparison (issue 13): `report -vs QUERY2 QUERY`, or
// a share URL with vs=, runs both and prints the second and the differences.

// vsQuery returns the comparison of the report's arguments: -vs, else the
// query's own vs= key; "" for none.
func vsQuery(flagVs, query string) (string, error) {
	if flagVs != "" {
		return flagVs, nil
	}
	if i := strings.IndexByte(query, '?'); i >= 0 {
		query = query[i+1:]
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return "", err
	}
	return vals.Get(address.KeyVs), nil
}

// runVs runs the comparison's query.
func runVs(q string) (*sim.Result, error) {
	cfg, err := sim.ParseQuery(q, address.PageKeys()...)
	if err != nil {
		return nil, &exitError{2, fmt.Errorf("invalid -vs query: %v", err)}
	}
	res, err := sim.Run(cfg)
	if err != nil {
		return nil, &exitError{2, fmt.Errorf("-vs: %v", err)}
	}
	return res, nil
}

// deltaMetrics are the metrics the differences compare, named as the
// report JSON's recordings name them (durations in ns).
func deltaMetrics() []string {
	out := []string{"count", "mean_ns"}
	for _, p := range sim.Percentiles() {
		out = append(out, p.Name+"_ns")
	}
	return append(out, "max_ns", "above")
}

// metricOf is a recording's metric by its name in deltaMetrics.
func metricOf(r *sim.Recording, m string) float64 {
	switch m {
	case "count":
		return float64(r.Count)
	case "mean_ns":
		return r.Mean
	case "max_ns":
		return float64(r.Max)
	case "above":
		return float64(r.Above)
	}
	for i, p := range sim.Percentiles() {
		if p.Name+"_ns" == m {
			return float64(r.P[i])
		}
	}
	return 0
}

// deltas are the comparison's metrics less the run's, per recording.
func deltas(res, vs *sim.Result) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, k := range sim.Kinds() {
		d := map[string]float64{}
		for _, m := range deltaMetrics() {
			d[m] = metricOf(&vs.Recordings[k], m) - metricOf(&res.Recordings[k], m)
		}
		out[k.String()] = d
	}
	return out
}

// writeVsText prints the comparison's report and the differences.
func writeVsText(w io.Writer, res, vs *sim.Result) {
	fmt.Fprintf(w, "\nvs: the comparison's run\n")
	writeText(w, vs)
	fmt.Fprintf(w, "\ndelta: vs less this run (%s − %s)\n", sim.QueryWords(vs.Query), sim.QueryWords(res.Query))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, k := range sim.Kinds() {
		fmt.Fprintf(tw, "%s\t", k)
	}
	fmt.Fprint(tw, "\n")
	d := deltas(res, vs)
	for _, m := range deltaMetrics() {
		fmt.Fprintf(tw, "%s\t", strings.ReplaceAll(strings.TrimSuffix(m, "_ns"), "_", "."))
		for _, k := range sim.Kinds() {
			x := d[k.String()][m]
			switch m {
			case "count", "above":
				fmt.Fprintf(tw, "%+d\t", int64(x))
			default:
				fmt.Fprintf(tw, "%s\t", signed(units.Duration(x)))
			}
		}
		fmt.Fprint(tw, "\n")
	}
	tw.Flush()
}

func signed(s string) string {
	if strings.HasPrefix(s, "-") {
		return s
	}
	return "+" + s
}
