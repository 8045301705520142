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
// after gzip it has no room for. There the import shows a file's numbers
// as soon as it has read them and asks fit.wasm, which holds these checks,
// whether the file is whole (app/fit's Lacks): beside a cut file, and in
// its column of the results table, the page then says it is incomplete and
// what it lacks; the fit refuses it and says the same.

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

// incomplete asks the reader of a tool's printout what the file lacks
// (Reader.Incomplete); ls are the file's lines.
func incomplete(f *File, ls []Line) []string {
	if r := readerOf(f.Format); r != nil && r.Incomplete != nil {
		return r.Incomplete(f, ls)
	}
	return nil
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
