//go:build !minimal

package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"omission/app/measure"
	"omission/app/units"
)

// What a k6 per-request file shows of its executor, beyond the dropped
// iterations that only an arrival-rate executor writes. k6's source
// (github.com/grafana/k6; k6out.go cites the rest):
//
//   - internal/execution/scheduler.go 199–251: each second, the vus gauge
//     is GetCurrentlyActiveVUsCount() and vus_max the VUs initialised.
//   - lib/executor/constant_vus.go: every VU is activated at the start
//     and runs until the duration ends, so the vus gauge reads them all
//     at every tick before the end (after it, the VUs that finish an
//     iteration in gracefulStop leave one by one).
//   - lib/executor/ramping_vus.go: the active VUs follow startVUs and the
//     stages' targets, so the gauge moves with them.
//   - lib/executor/constant_arrival_rate.go 267–275: a VU counts as active
//     while it runs an iteration (returnVU leaves the counter to the
//     pool), so the gauge moves with the load; the iterations start at
//     their due times, one rate apart, and one that finds no VU free is
//     dropped at its due time (333–346). ramping_arrival_rate.go starts
//     them at a rate that follows its stages.
//
// So a gauge that moves before the run's end rules out constant-vus, and
// sends (with the dropped iterations' due times) that do not keep one rate
// rule out constant-arrival-rate. The model runs one of the two.

// k6Shape is a k6 per-request file's times, in ns since the epoch.
type k6Shape struct {
	unit    int64      // the finest unit of the requests' times (1e9: whole seconds), as parseK6CSV takes it
	replies []int64    // each request's reply, ascending
	sends   []int64    // each request's send (reply less duration) and each dropped iteration's due time, ascending
	dropped int        // of sends, the dropped iterations
	vus     [][2]int64 // each tick of the vus gauge: time, value
}

// add keeps one sample: its metric, time and value.
func (s *k6Shape) add(metric, at, value string) {
	t, u, err := k6Time(at)
	if err != nil {
		return
	}
	v, err := measure.ParseDecimal(value)
	if err != nil {
		return
	}
	switch metric {
	case "http_req_duration":
		ms := int64(v.Float() * 1e6)
		s.replies, s.sends = append(s.replies, t), append(s.sends, t-ms)
		if s.unit == 0 || u < s.unit {
			s.unit = u
		}
	case "dropped_iterations":
		s.sends, s.dropped = append(s.sends, t), s.dropped+1
	case "vus":
		s.vus = append(s.vus, [2]int64{t, int64(v.Float())})
	}
}

// sorted puts the replies and the sends in order, once the file is read.
func (s k6Shape) sorted() k6Shape {
	slices.Sort(s.replies)
	slices.Sort(s.sends)
	return s
}

// k6ShapeMetrics are the samples a shape reads, as a JSON output's lines
// begin (wrapper.go: metric, then type).
var k6ShapeMetrics = [][]byte{[]byte(`{"metric":"http_req_duration","type":"Point"`), []byte(`{"metric":"dropped_iterations","type":"Point"`), []byte(`{"metric":"vus","type":"Point"`)}

// k6CSVShape reads the shape of k6's CSV output (metric, timestamp and
// value lead each row).
func k6CSVShape(data []byte) (s k6Shape) {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if fs := strings.SplitN(string(l), ",", 4); len(fs) == 4 {
			s.add(fs[0], fs[1], fs[2])
		}
	}
	return s.sorted()
}

// k6JSONShape reads the shape of k6's JSON output (a Point line a sample).
func k6JSONShape(data []byte) (s k6Shape) {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if !slices.ContainsFunc(k6ShapeMetrics, func(m []byte) bool { return bytes.HasPrefix(l, m) }) {
			continue // a sample of another metric, or a metric's announcement
		}
		var p struct {
			Metric string `json:"metric"`
			Data   struct {
				Time  string      `json:"time"`
				Value json.Number `json:"value"`
			} `json:"data"`
		}
		if json.Unmarshal(l, &p) == nil {
			s.add(p.Metric, p.Data.Time, p.Data.Value.String())
		}
	}
	return s.sorted()
}

// executor says what the file rules out: notVUs, why its run was not
// constant-vus's ("": it may have been); unmodelled, why it was neither
// constant-vus's nor constant-arrival-rate's ("": one of them may have
// run it). conns is the VUs the file states (vus_max).
func (s k6Shape) executor(conns int) (notVUs, unmodelled string) {
	n := len(s.replies)
	if n == 0 || conns <= 0 {
		return "", ""
	}
	// The run's end: each VU's last reply is at or after it (k6RunLength).
	end := s.replies[max(n-conns, 0)]
	var lo, hi int64
	moved := 0
	for _, v := range s.vus {
		if v[0]+s.unit <= end-1e9 && v[1] != int64(conns) { // a tick a second before the end, or earlier
			if moved == 0 {
				lo, hi = v[1], v[1]
			}
			lo, hi, moved = min(lo, v[1]), max(hi, v[1]), moved+1
		}
	}
	if moved > 0 {
		read := fmt.Sprintf("%d VUs", lo)
		if hi > lo {
			read = fmt.Sprintf("from %d to %d VUs", lo, hi)
		}
		notVUs = fmt.Sprintf("its vus gauge read %s at %d of its ticks before the run's end, where constant-vus keeps all %d (vus_max) running", read, moved, conns)
	}
	if moved == 0 && s.dropped == 0 {
		return "", "" // constant-vus may have run it, whatever its sends
	}
	// Constant-arrival-rate's sends keep one rate: as many in each half of
	// their span, give or take one, the run's own jitter (3 and 2 %) and
	// the sends that the timestamps' unit may put in the wrong half or
	// outside the span (a reply stamped in whole seconds, less its
	// duration, is up to a second before its send), three units' worth
	// at the run's rate.
	sends := s.sends
	m := len(sends)
	first, last := sends[0], sends[m-1]
	if m < 8 || last <= first {
		return notVUs, ""
	}
	mid := first + (last-first)/2
	n1, _ := slices.BinarySearch(sends, mid)
	n2 := m - n1
	tol := 3 + m/50 + int(3*s.unit*int64(m)/(last-first))
	if d := n1 - n2; d <= tol && -d <= tol {
		return notVUs, ""
	}
	what := "its sends"
	if s.dropped > 0 {
		what = "its sends and dropped iterations"
	}
	why := fmt.Sprintf("%s fall %s in the first half of their %s and %s in the second, where constant-arrival-rate keeps one rate", what, units.Count(int64(n1)), units.Duration(float64(last-first)), units.Count(int64(n2)))
	if notVUs != "" {
		why = notVUs + "; " + why
	}
	return notVUs, why + ": a ramping executor's run (stages) or several scenarios', which the model does not run (it runs one constant executor for the whole run). Fit a run of constant-vus or constant-arrival-rate alone"
}

// state gives the fit what the file rules out: a run neither constant
// executor ran is refused (Unmodelled); one whose gauge rules out
// constant-vus is read as constant-arrival-rate's, paced (PacedKnown).
func (s k6Shape) state(st *Stated) {
	notVUs, unmodelled := s.executor(st.Conns)
	switch {
	case unmodelled != "":
		st.Unmodelled = unmodelled
	case notVUs != "":
		st.PacedKnown, st.Paced = true, true
		if s.unit >= 1e9 {
			st.Assumes = &Assumption{If: "if the run kept one arrival rate, which its whole-second times cannot show",
				Why: notVUs + ", so the fit reads the file as constant-arrival-rate's; its times in whole seconds show only a ramp far steeper than a second's blur, and a run of ramping-vus or ramping-arrival-rate would be read the same way: what the file hid holds for a constant rate"}
		}
	}
}

// durations bounds the run's length that a file stamped in whole seconds
// (k6's CSV by default, timeFormat unix) does not fix, and lists the
// whole seconds within the bounds. A send is its reply's stamp less its
// duration, up to a second early; a dropped iteration's due time is its
// stamp, up to a second early. So the run's start t0 is within a second
// after the earliest of them, A. Its end is at or before each VU's last
// reply (constant-vus: the conns-th latest, stamped E, up to a second
// early), or (constant-arrival-rate) after the last iteration due, L, and
// at most one interval of its N iterations after it: the length is more
// than E − A − 1 s and at most E − A + 1 s, or more than L − A − 1 s and
// at most (L − A + 1 s)·N/(N − 1).
func (s k6Shape) durations(conns int) ([]int64, string) {
	n := len(s.replies)
	if n == 0 || len(s.sends) < 2 || s.unit < 1e9 {
		return nil, ""
	}
	const sec = int64(1e9)
	a, l := s.sends[0], s.sends[len(s.sends)-1]
	e := s.replies[max(n-max(conns, 1), 0)]
	m := int64(len(s.sends))
	lo := min(e-a-sec, l-a-sec)
	hi := max(e-a+sec, (l-a+sec)*m/(m-1))
	var ds []int64
	for d := max(lo/sec+1, 1) * sec; d <= hi; d += sec {
		ds = append(ds, d)
	}
	if len(ds) == 0 {
		return nil, ""
	}
	return ds, fmt.Sprintf("its times are whole seconds, which bound the run's length to more than %s and at most %s (from the first send, a reply's stamp less its duration, to the last reply of each VU or the last iteration due, each stamped up to a second early): each whole second between was fitted",
		units.Duration(float64(max(lo, 0))), units.Duration(float64(hi)))
}
