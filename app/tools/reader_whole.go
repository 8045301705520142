//go:build !minimal

package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"omission/app/measure"
	"omission/app/units"
)

// The checks that a tool's printout is whole (measure.Reader.Incomplete):
// each says what a printout lacks of the layout the tool always prints,
// each part in words: a file cut before the summary a printout ends with,
// or inside its percentile table. A part a flag leaves out (wrk without
// --latency) is not missing. The page's app.wasm, built with the minimal
// tag, leaves them out, as measure leaves out its own: its readers have no
// Incomplete.

func init() {
	wrkReader.Incomplete = wrkIncomplete
	wrk2Reader.Incomplete = wrk2Incomplete
	abReader.Incomplete = abIncomplete
	heyReader.Incomplete = heyIncomplete
	fortioReader.Incomplete = fortioIncomplete
	locustReader.Incomplete = locustIncomplete
	bombardierReader.Incomplete = bombardierIncomplete
	autocannonReader.Incomplete = autocannonIncomplete
	artilleryReader.Incomplete = artilleryIncomplete
	gatlingReader.Incomplete = gatlingIncomplete
	jtlReader.Incomplete = jtlIncomplete
	k6CSVReader.Incomplete = k6CSVIncomplete
	k6JSONReader.Incomplete = k6JSONIncomplete
}

// ends is the words for where a file of ls ends.
func ends(ls []measure.Line) string { return fmt.Sprintf("the file ends at line %d", len(ls)) }

// hasLine says whether a line of ls, trimmed, matches.
func hasLine(ls []measure.Line, match func(t string) bool) bool {
	return slices.ContainsFunc(ls, func(l measure.Line) bool { return match(strings.TrimSpace(l.Text)) })
}

func hasRequests(t string) bool { return matchWrkReqs(t) != nil }

func wrkIncomplete(f *measure.File, ls []measure.Line) []string {
	var out []string
	rows, inDist := 0, false
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "Latency Distribution":
			inDist = true
		case inDist && matchWrkPct(l.Text) != nil:
			rows++
		default:
			inDist = false
		}
	}
	if hasLine(ls, func(t string) bool { return t == "Latency Distribution" }) && rows < 4 {
		out = append(out, fmt.Sprintf("rows of its latency distribution: it holds %d of the 4 wrk prints (50, 75, 90 and 99 %%)", rows))
	}
	if !hasLine(ls, hasRequests) {
		out = append(out, "its summary, the line \"N requests in T\" that wrk prints after its latency table: "+ends(ls))
	}
	return out
}

func wrk2Incomplete(f *measure.File, ls []measure.Line) []string {
	if !hasLine(ls, hasRequests) {
		return []string{"its summary, the line \"N requests in T\" that wrk2 prints after its percentile spectrum: " + ends(ls)}
	}
	return nil
}

func heyIncomplete(f *measure.File, ls []measure.Line) []string {
	if !hasLine(ls, func(t string) bool { return heyCodesLine(t) != nil }) {
		return []string{"its status code distribution (\"[200] N responses\"), the last block hey prints and the only one that counts the responses: " + ends(ls)}
	}
	return nil
}

func abIncomplete(f *measure.File, ls []measure.Line) []string {
	var out []string
	total := hasLine(ls, func(t string) bool { return abTotalLine(t) != nil })
	if !total {
		out = append(out, "the Total row of its connection times (min, mean and max): "+ends(ls))
	}
	table := hasLine(ls, func(t string) bool {
		return strings.HasPrefix(t, "Percentage of the requests served within a certain time")
	})
	longest := hasLine(ls, func(t string) bool { return strings.HasSuffix(t, "(longest request)") && abPctLine(t) != nil })
	switch {
	case table && !longest:
		out = append(out, "the last row of its percentile table (100 %, the longest request): "+ends(ls))
	case !table && total && len(f.Dists) > 0 && f.Dists[0].Count > 1:
		out = append(out, "its percentile table (ab prints it after the connection times unless run with -d): "+ends(ls))
	}
	return out
}

func fortioIncomplete(f *measure.File, ls []measure.Line) []string {
	if !hasLine(ls, func(t string) bool { return strings.HasPrefix(t, "All done ") }) {
		return []string{"its last line, \"All done N calls …\": " + ends(ls)}
	}
	return nil
}

func locustIncomplete(f *measure.File, ls []measure.Line) []string {
	var out []string
	if len(f.Dists) == 0 || f.Dists[0].Count < 0 {
		out = append(out, "the Aggregated row of its request table: "+ends(ls))
	}
	if !hasLine(ls, func(t string) bool { return t == "Response time percentiles (approximated)" }) || len(f.Dists) == 0 || len(f.Dists[0].Points) == 0 {
		out = append(out, "the Aggregated row of its percentile table, the last table locust prints: "+ends(ls))
	}
	return out
}

// bombardierIncomplete: with -l its distribution has five rows (50, 75,
// 90, 95, 99 %), and the printout ends with the status counts ("1xx - …",
// "others - N", the only count it prints) and "Throughput:".
func bombardierIncomplete(f *measure.File, ls []measure.Line) []string {
	var out []string
	if hasLine(ls, func(t string) bool { return t == "Latency Distribution" }) && len(f.Dists) > 0 && len(f.Dists[0].Points) < len(bombardierPcts) {
		out = append(out, fmt.Sprintf("rows of its latency distribution: it holds %d of the %d bombardier prints with -l (50, 75, 90, 95 and 99 %%)", len(f.Dists[0].Points), len(bombardierPcts)))
	}
	if !hasLine(ls, func(t string) bool { return strings.HasPrefix(t, "others - ") }) {
		out = append(out, "its status counts (\"1xx - …\" and \"others - N\"), which are its only count of the calls: "+ends(ls))
	} else if !hasLine(ls, func(t string) bool { return strings.HasPrefix(t, "Throughput:") }) {
		out = append(out, "its last line, \"Throughput: …\": "+ends(ls))
	}
	return out
}

// autocannonIncomplete: the printout ends with "N requests in Ds, B read"
// after its two tables.
func autocannonIncomplete(f *measure.File, ls []measure.Line) []string {
	if !hasLine(ls, func(t string) bool { return strings.Contains(t, " requests in ") && strings.HasSuffix(t, " read") }) {
		return []string{"its last line, \"N requests in Ds, B read\", after its tables: " + ends(ls)}
	}
	return nil
}

// artilleryIncomplete: the summary report holds every metric the run
// met, sorted by name (console-reporter.js printReport): a run with
// replies prints http.responses after http.response_time, and every run
// vusers.created and vusers.failed (each virtual user counts one, 0 or 1).
func artilleryIncomplete(f *measure.File, ls []measure.Line) []string {
	at := -1
	for i, l := range ls {
		if strings.HasPrefix(strings.TrimSpace(l.Text), "Summary report @ ") {
			at = i
		}
	}
	if at < 0 {
		return []string{`its summary report ("Summary report @ …"): ` + ends(ls)}
	}
	b := readArtilleryBlock(artillerySummaryLines(ls, at))
	var out []string
	required := []string{"http.responses", "vusers.created", "vusers.failed"}
	for _, m := range required {
		if _, ok := b.counters[m]; !ok {
			out = append(out, "the summary report's "+m+": "+ends(ls))
		}
	}
	// The summary merges every period's metrics (ssms.js mergeBuckets):
	// one a period report names and the summary does not is a summary cut
	// short (vusers.skipped, last of a maxVusers run's, says how many
	// arrivals were never sent).
	inPeriods := map[string]bool{}
	for i := range ls[:at] {
		if strings.HasPrefix(strings.TrimSpace(ls[i].Text), "Metrics for period to: ") {
			p := readArtilleryBlock(artillerySummaryLines(ls[:at], i))
			for n := range p.counters {
				inPeriods[n] = true
			}
			for n := range p.sums {
				inPeriods[n] = true
			}
		}
	}
	var lost []string
	for n := range inPeriods {
		_, c := b.counters[n]
		_, h := b.sums[n]
		if !c && !h && !slices.Contains(required, n) {
			lost = append(lost, n)
		}
	}
	slices.Sort(lost)
	for _, n := range lost {
		out = append(out, "the summary report's "+n+" (its period reports have it): "+ends(ls))
	}
	return out
}

// jtlIncomplete names a JTL's last line when it is cut short of the
// header's columns (JMeter writes a sample's line whole, as it ends: a
// file cut as it was written ends inside one). A cut inside the last
// column's number leaves a line with every column, and does not show.
func jtlIncomplete(_ *measure.File, ls []measure.Line) []string {
	h, hi, ok := jtlHeader(ls)
	if !ok {
		return nil
	}
	if h.headerless {
		hi-- // its first line is a sample
	}
	for i := len(ls) - 1; i > hi; i-- {
		t := strings.TrimSuffix(ls[i].Text, "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if n := len(jtlSplit(t, h.delim)); n < len(h.names) {
			return []string{fmt.Sprintf("the rest of its last sample's line, cut after %d of the %d columns the header names: %s", n, len(h.names), ends(ls))}
		}
		return nil
	}
	return nil
}

// k6CSVIncomplete: k6 writes a request's http_reqs and http_req_duration
// rows together, and every row whole (encoding/csv, then a flush): a last
// row with fewer columns than the header was cut, and an http_reqs row
// without its http_req_duration the same.
func k6CSVIncomplete(f *measure.File, ls []measure.Line) []string {
	head, _ := k6CSVFields(ls[0].Text)
	reqs, durs := 0, 0
	for i, l := range ls[1:] {
		fs, _ := k6CSVFields(l.Text)
		if i == len(ls)-2 && l.Text != "" && len(fs) < len(head) {
			// Its request's other row, if any, is the row it was.
			return []string{fmt.Sprintf("the rest of its last row, cut after %d of its %d columns: %s", len(fs), len(head), ends(ls))}
		}
		switch fs[0] {
		case "http_reqs":
			reqs++
		case "http_req_duration":
			durs++
		}
	}
	if reqs > durs {
		return []string{fmt.Sprintf("the http_req_duration rows of %s whose http_reqs rows it holds (k6 writes the two together): %s", units.Count(int64(reqs-durs))+map[bool]string{true: " request", false: " requests"}[reqs-durs == 1], ends(ls))}
	}
	return nil
}

// k6JSONIncomplete: k6 writes each sample's line whole (json.Encoder, a
// line an Encode): a last line that is not a JSON object was cut, and an
// http_reqs sample without its http_req_duration the same (k6 pushes the
// two together).
func k6JSONIncomplete(f *measure.File, ls []measure.Line) []string {
	if last := ls[len(ls)-1].Text; last != "" && !json.Valid([]byte(last)) {
		return []string{fmt.Sprintf("the rest of its last line, cut after %d characters: %s", len(last), ends(ls))}
	}
	reqs, durs := 0, 0
	for _, l := range ls {
		switch {
		case strings.HasPrefix(l.Text, `{"metric":"http_reqs","type":"Point"`):
			reqs++
		case strings.HasPrefix(l.Text, k6JSONPoint):
			durs++
		}
	}
	if reqs > durs {
		return []string{fmt.Sprintf("the http_req_duration samples of %s whose http_reqs samples it holds (k6 pushes the two together): %s", units.Count(int64(reqs-durs))+map[bool]string{true: " request", false: " requests"}[reqs-durs == 1], ends(ls))}
	}
	return nil
}

// gatlingIncomplete: Gatling's summary always has its request count, its
// four percentiles, its throughput and its Response Time Distribution.
func gatlingIncomplete(f *measure.File, ls []measure.Line) []string {
	var out []string
	s, err := readGatling(f.Name, ls)
	if err != nil {
		return nil
	}
	if len(s.points) == 0 {
		out = append(out, "its percentile lines (\"> response time 50th percentile …\")")
	}
	if !s.has["rate"] {
		out = append(out, "its mean throughput line")
	}
	if !hasLine(ls, func(t string) bool { return strings.HasPrefix(t, "---- Response Time Distribution") }) {
		out = append(out, "its Response Time Distribution ("+ends(ls)+")")
	}
	return out
}
