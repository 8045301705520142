//go:build !minimal

package measure

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The checks that a file is whole (File.Incomplete). The page's app.wasm,
// built with the minimal tag, leaves them out (incomplete_minimal.go): 14 kB
// after gzip it has no room for. There the import shows a cut file's
// numbers as the file gives them; the fit, in fit.wasm, refuses it and says
// what it lacks.

// hgrmIncomplete says what an .hgrm lacks of the rows and footer every
// writer ends with; n is its count of lines.
func hgrmIncomplete(sp *spectrum, n int) []string {
	var out []string
	end := fmt.Sprintf("the file ends at line %d", n)
	if last := sp.rows[len(sp.rows)-1]; last.Percentile < 100 {
		// Every writer ends its rows with the 100 % row (1.000000).
		out = append(out, fmt.Sprintf("the rows above the %s percentile, up to the 100 %% row every writer ends with: %s", strconv.FormatFloat(last.Percentile, 'g', 6, 64)+" %", end))
	}
	_, mean := sp.footer["Mean"]
	_, mx := sp.footer["Max"]
	if !mean || !mx {
		out = append(out, "its footer (\"#[Mean = …]\" and \"#[Max = …, Total count = …]\"): "+end)
	}
	return out
}

// incomplete says what a tool's printout lacks of the layout the tool
// always prints, each part in words: a file cut before the summary a
// printout ends with, or inside its percentile table. A part a flag leaves
// out (wrk without --latency) is not missing. ls are the file's lines.
func incomplete(f *File, ls []line) []string {
	end := fmt.Sprintf("the file ends at line %d", len(ls))
	has := func(match func(t string) bool) bool {
		return slices.ContainsFunc(ls, func(l line) bool { return match(strings.TrimSpace(l.text)) })
	}
	reqs := func(t string) bool { return matchWrkReqs(t) != nil }
	var out []string
	switch f.Format {
	case FormatWrk:
		rows, inDist := 0, false
		for _, l := range ls {
			t := strings.TrimSpace(l.text)
			switch {
			case t == "Latency Distribution":
				inDist = true
			case inDist && matchWrkPct(l.text) != nil:
				rows++
			default:
				inDist = false
			}
		}
		if has(func(t string) bool { return t == "Latency Distribution" }) && rows < 4 {
			out = append(out, fmt.Sprintf("rows of its latency distribution: it holds %d of the 4 wrk prints (50, 75, 90 and 99 %%)", rows))
		}
		if !has(reqs) {
			out = append(out, "its summary, the line \"N requests in T\" that wrk prints after its latency table: "+end)
		}
	case FormatWrk2:
		if !has(reqs) {
			out = append(out, "its summary, the line \"N requests in T\" that wrk2 prints after its percentile spectrum: "+end)
		}
	case FormatHey:
		if !has(func(t string) bool { return heyCodesLine(t) != nil }) {
			out = append(out, "its status code distribution (\"[200] N responses\"), the last block hey prints and the only one that counts the responses: "+end)
		}
	case FormatAb:
		total := has(func(t string) bool { return abTotalLine(t) != nil })
		if !total {
			out = append(out, "the Total row of its connection times (min, mean and max): "+end)
		}
		table := has(func(t string) bool {
			return strings.HasPrefix(t, "Percentage of the requests served within a certain time")
		})
		longest := has(func(t string) bool { return strings.HasSuffix(t, "(longest request)") && abPctLine(t) != nil })
		switch {
		case table && !longest:
			out = append(out, "the last row of its percentile table (100 %, the longest request): "+end)
		case !table && total && len(f.Dists) > 0 && f.Dists[0].Count > 1:
			out = append(out, "its percentile table (ab prints it after the connection times unless run with -d): "+end)
		}
	case FormatFortio:
		if !has(func(t string) bool { return strings.HasPrefix(t, "All done ") }) {
			out = append(out, "its last line, \"All done N calls …\": "+end)
		}
	case FormatLocust:
		if len(f.Dists) == 0 || f.Dists[0].Count < 0 {
			out = append(out, "the Aggregated row of its request table: "+end)
		}
		if !has(func(t string) bool { return t == "Response time percentiles (approximated)" }) || len(f.Dists) == 0 || len(f.Dists[0].Points) == 0 {
			out = append(out, "the Aggregated row of its percentile table, the last table locust prints: "+end)
		}
	}
	return out
}

// hlogGaps says which intervals an interval log lacks: a run of them
// missing between two it holds (the next starts more than half an
// interval after the last one ends), the log's first intervals when they
// start more than half an interval after its StartTime or BaseTime,
// and a tag's first or last intervals when another tag starts before it
// or goes on after it (a log cut within the intervals written together).
// It reads the intervals as the reader holds them, before hlogDist.
func hlogGaps(r *hlogReader) []string {
	// rel is an interval's start in seconds from the run's: from BaseTime
	// when the log has one, from StartTime when the starts are times since
	// the epoch, else as written.
	rel := func(v float64) float64 { return v }
	ref := r.hasBase || r.hasStart
	switch {
	case r.base() != 0:
	case r.hasStart && len(r.tags) > 0 && r.tags[0].from >= r.startTime:
		rel = func(v float64) float64 { return v - r.startTime }
	}
	var w []float64
	for _, tg := range r.tags {
		for _, iv := range tg.ivs {
			w = append(w, iv.LengthS)
		}
	}
	if len(w) == 0 {
		return nil
	}
	slices.Sort(w)
	length := w[len(w)/2]
	s := func(v float64) string { return trimNum(math.Round(v*1e3) / 1e3) }
	name := func(tg *hlogTag) string {
		if tg.name == "" {
			return "(untagged)"
		}
		return tg.name
	}
	// Each gap once, with the tags it is missing from.
	var out []string
	var keys []string
	tagsOf := map[string][]string{}
	add := func(what string, tg *hlogTag) {
		if _, ok := tagsOf[what]; !ok {
			keys = append(keys, what)
		}
		tagsOf[what] = append(tagsOf[what], name(tg))
	}
	from, to := math.Inf(1), math.Inf(-1)
	type span struct{ first, last float64 }
	spans := make([]span, len(r.tags))
	for i, tg := range r.tags {
		ivs := slices.Clone(tg.ivs)
		slices.SortFunc(ivs, func(a, b Interval) int { return cmpFloat(a.StartS, b.StartS) })
		for k := 1; k < len(ivs); k++ {
			prevEnd := ivs[k-1].StartS + ivs[k-1].LengthS
			if gap := ivs[k].StartS - prevEnd; gap > length/2 {
				add(fmt.Sprintf("the intervals from %s s to %s s (%s s of the run, the log going on after them)", s(rel(prevEnd)), s(rel(ivs[k].StartS)), s(gap)), tg)
			}
		}
		if len(ivs) > 0 {
			spans[i] = span{ivs[0].StartS, ivs[len(ivs)-1].StartS + ivs[len(ivs)-1].LengthS}
			from, to = min(from, spans[i].first), max(to, spans[i].last)
		}
	}
	for i, tg := range r.tags {
		if to-spans[i].last > length/2 {
			add(fmt.Sprintf("the last intervals, from %s s to %s s, that other tags hold (the log was cut within the intervals written together)", s(rel(spans[i].last)), s(rel(to))), tg)
		}
		if spans[i].first-from > length/2 {
			add(fmt.Sprintf("the first intervals, from %s s to %s s, that other tags hold", s(rel(from)), s(rel(spans[i].first))), tg)
		}
	}
	for _, k := range keys {
		tags := tagsOf[k]
		if len(r.tags) == 1 {
			out = append(out, k)
			continue
		}
		w := "tag " + tags[0]
		if len(tags) > 1 {
			w = "tags " + strings.Join(tags, ", ")
		}
		out = append(out, k+" of "+w)
	}
	if ref && rel(from) > length/2 {
		out = append(out, fmt.Sprintf("its first intervals: the run starts at the log's StartTime or BaseTime, its first interval %s s later", s(rel(from))))
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
