package sim

import (
	"math/bits"
	"slices"
)

// MaxSeriesPoints bounds a time series: the run is cut into intervals of
// the duration / 120 rounded up to a whole millisecond, and a drain longer
// than the duration again is not charted (Series.Truncated says so).
const MaxSeriesPoints = 240

// SeriesInterval returns the interval of a run's time series: the duration
// divided by 120, rounded up to a whole millisecond.
func SeriesInterval(duration int64) int64 {
	const n = 120 * int64(1e6)
	return (duration + n - 1) / n * 1e6
}

// Series is what the charts draw, per client: one value per interval.
type Series struct {
	IntervalNs int64 // the length of an interval
	Points     int   // intervals charted
	Truncated  bool  // the run went on past MaxSeriesPoints intervals
	// ExactPercentiles: the per-interval percentiles are sample values; else
	// the highest value of a bucket 1/64 wide (relative) holding the sample.
	ExactPercentiles bool
	Clients          [3]ClientSeries
}

// ClientSeries is one client's server over time. Interval j covers
// [j·IntervalNs, (j+1)·IntervalNs); the last one ends at the end of the run.
type ClientSeries struct {
	QueueMean   []float64 `json:"queue_mean"`            // time-weighted mean of waiting requests
	QueueMax    []int64   `json:"queue_max"`             // most waiting requests at one instant
	Busy        []float64 `json:"busy"`                  // time-weighted mean of busy workers
	Utilisation []float64 `json:"utilisation,omitempty"` // Busy / workers (absent: unlimited workers)
	Replies     []int64   `json:"replies"`               // replies that arrived in the interval
	Rejected    []int64   `json:"rejected"`
	Failed      []int64   `json:"failed"`
	TimedOut    []int64   `json:"timed_out"`
	P50         []int64   `json:"p50_ns"` // recorded latency of the replies in the interval (0: none)
	P90         []int64   `json:"p90_ns"`
	P99         []int64   `json:"p99_ns"`
	Max         []int64   `json:"max_ns"`
	// Retries counts the attempts beyond a call's first sent in the
	// interval (retries on only: absent otherwise). The queue's figures
	// count attempts, the unit the server knows.
	Retries []int64 `json:"retries,omitempty"`
}

// seriesAcc accumulates one client's series during its run. The clock's
// integrals of the queue and of the busy workers are kept by the engine;
// this takes their values at each interval boundary.
type seriesAcc struct {
	iv                               int64
	j                                int   // the interval of the clock
	nextB                            int64 // the start of interval j+1 (never past the last)
	exact                            bool
	qAt, busyAt                      [MaxSeriesPoints + 1]u128 // the integrals at each boundary
	qEnd, busyEnd                    u128                      // and at the end of the run
	qMax                             [MaxSeriesPoints]int64
	replies, rejected, failed, timed [MaxSeriesPoints]int64
	retrying                         bool
	retries                          [MaxSeriesPoints]int64 // retries on: attempts beyond the first sent
	hists                            [][]uint32             // histogram mode: reply latencies per interval
	end                              int64
}

func newSeriesAcc(cfg Config, exact bool) *seriesAcc {
	a := &seriesAcc{iv: SeriesInterval(cfg.Duration), exact: exact, retrying: cfg.Retrying()}
	a.nextB = a.iv
	if !exact {
		a.hists = make([][]uint32, MaxSeriesPoints)
	}
	return a
}

// cross moves to the next interval at its boundary, where q requests wait;
// it returns the next boundary.
func (a *seriesAcc) cross(areaQ, areaBusy u128, q int64) int64 {
	a.j++
	a.qAt[a.j], a.busyAt[a.j] = areaQ, areaBusy
	if a.j < MaxSeriesPoints {
		a.qMax[a.j] = q
		a.nextB += a.iv
	} else {
		a.nextB = never
	}
	return a.nextB
}

func (a *seriesAcc) queued(q int64) {
	if a.j < MaxSeriesPoints && q > a.qMax[a.j] {
		a.qMax[a.j] = q
	}
}

func (a *seriesAcc) answered(o Outcome) {
	if a.j >= MaxSeriesPoints {
		return
	}
	switch o {
	case OutcomeReply:
		a.replies[a.j]++
	case OutcomeRejected:
		a.rejected[a.j]++
	case OutcomeFailed:
		a.failed[a.j]++
	case OutcomeTimedOut:
		a.timed[a.j]++
	}
}

// retried counts a retry sent at the clock.
func (a *seriesAcc) retried() {
	if a.j < MaxSeriesPoints {
		a.retries[a.j]++
	}
}

// Coarse buckets for per-interval percentiles in histogram mode: values
// below 128 exactly, then 64 buckets per power of two.
const coarseBuckets = 128 + 41*64

func coarseIndex(v int64) int {
	if v < 128 {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 7
	return 128 + (e-1)*64 + int(v>>e) - 64
}

func coarseHighest(i int) int64 {
	if i < 128 {
		return int64(i)
	}
	e := (i-128)/64 + 1
	m := int64((i-128)%64 + 64)
	return (m+1)<<e - 1
}

func (a *seriesAcc) sample(v int64) {
	if a.j >= MaxSeriesPoints {
		return
	}
	h := a.hists[a.j]
	if h == nil {
		h = make([]uint32, coarseBuckets)
		a.hists[a.j] = h
	}
	if v > histHighest {
		v = histHighest
	}
	h[coarseIndex(v)]++
}

func (a *seriesAcc) close(end int64, areaQ, areaBusy u128) {
	a.end, a.qEnd, a.busyEnd = end, areaQ, areaBusy
}

// points is the number of intervals charted, and whether the run went past them.
func (a *seriesAcc) points() (int, bool) {
	n := a.end/a.iv + 1 // the intervals that hold [0, end]
	if n > MaxSeriesPoints {
		return MaxSeriesPoints, true
	}
	return int(n), false
}

// build finishes the series. In exact mode lat and at are the replies'
// latencies and arrival instants (any order).
func (a *seriesAcc) build(workers int, rank Rank, lat, at []int64) ClientSeries {
	n, _ := a.points()
	s := ClientSeries{QueueMean: make([]float64, n), QueueMax: make([]int64, n), Busy: make([]float64, n),
		Replies: make([]int64, n), Rejected: make([]int64, n), Failed: make([]int64, n), TimedOut: make([]int64, n),
		P50: make([]int64, n), P90: make([]int64, n), P99: make([]int64, n), Max: make([]int64, n)}
	if workers > 0 {
		s.Utilisation = make([]float64, n)
	}
	if a.retrying {
		s.Retries = slices.Clone(a.retries[:n])
	}
	for j := 0; j < n; j++ {
		span := a.iv
		if rest := a.end - int64(j)*a.iv; rest < span && rest > 0 {
			span = rest
		}
		qTo, busyTo := a.qEnd, a.busyEnd
		if j+1 <= a.j {
			qTo, busyTo = a.qAt[j+1], a.busyAt[j+1]
		}
		s.QueueMean[j] = qTo.sub(a.qAt[j]).Float() / float64(span)
		s.Busy[j] = busyTo.sub(a.busyAt[j]).Float() / float64(span)
		if workers > 0 {
			s.Utilisation[j] = s.Busy[j] / float64(workers)
		}
		s.QueueMax[j] = a.qMax[j]
		s.Replies[j], s.Rejected[j], s.Failed[j], s.TimedOut[j] = a.replies[j], a.rejected[j], a.failed[j], a.timed[j]
	}
	pcts := []int64{500000, 900000, 990000}
	if a.exact {
		// Counting sort of the replies by interval, then each interval sorted.
		off := make([]int, n+1)
		for _, t := range at {
			if j := t / a.iv; j < int64(n) {
				off[j+1]++
			}
		}
		for j := 1; j <= n; j++ {
			off[j] += off[j-1]
		}
		buf := make([]int64, off[n])
		pos := slices.Clone(off[:n])
		for i, t := range at {
			if j := t / a.iv; j < int64(n) {
				buf[pos[j]] = lat[i]
				pos[j]++
			}
		}
		for j := 0; j < n; j++ {
			seg := buf[off[j]:off[j+1]]
			if len(seg) == 0 {
				continue
			}
			SortInt64s(seg)
			k := int64(len(seg))
			s.P50[j], s.P90[j], s.P99[j] = seg[RankOf(pcts[0], k, rank)-1], seg[RankOf(pcts[1], k, rank)-1], seg[RankOf(pcts[2], k, rank)-1]
			s.Max[j] = seg[k-1]
		}
		return s
	}
	for j := 0; j < n; j++ {
		h := a.hists[j]
		if h == nil {
			continue
		}
		var k int64
		for _, c := range h {
			k += int64(c)
		}
		out := []*int64{&s.P50[j], &s.P90[j], &s.P99[j]}
		for p, ppm := range pcts {
			r := RankOf(ppm, k, rank)
			var cum int64
			for i, c := range h {
				cum += int64(c)
				if cum >= r {
					*out[p] = coarseHighest(i)
					break
				}
			}
		}
		for i := len(h) - 1; i >= 0; i-- {
			if h[i] > 0 {
				s.Max[j] = coarseHighest(i)
				break
			}
		}
	}
	return s
}
