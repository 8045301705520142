package fit

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
)

// obs is one distribution as a file holds it, in a form both the measured
// file and the fitted model's regenerated file take, so that they compare
// number by number.
type obs struct {
	label     string
	count     int64   // -1: not in the file
	mean      float64 // -1: not in the file
	min, max  int64   // -1: not in the file
	p         [5]int64
	pExact    [5]bool // the file states the percentile or its histogram gives it (not a spectrum row's bound)
	points    []measure.Point
	vc        []measure.ValueCount // the distribution's values with counts, ascending (nil: not in the file)
	intervals []measure.Interval
	exact     bool    // samples one by one (the CSV, a JTL)
	at, lat   []int64 // exact: the recorded samples' reply times and latencies
	// ranks, for a model's run of a tool, holds the latencies it recorded,
	// whatever its file prints of them (rankAt).
	ranks *sim.Dist
	// dropped is the requests the file counts as never sent (k6's
	// dropped_iterations, Artillery's vusers.skipped), on its first
	// distribution; 0 when it counts none. On a model's file, -1: not
	// compared (forward).
	dropped int64
}

// fromDist takes what measure read.
// fileObs returns what each distribution of a parsed file holds.
func fileObs(f *measure.File) []obs {
	os := make([]obs, 0, len(f.Dists))
	for i := range f.Dists {
		os = append(os, fromDist(&f.Dists[i]))
	}
	return os
}

func fromDist(d *measure.Dist) obs {
	if d.At != nil {
		// Every request with its time (a tool's per-request output): its
		// samples, as the project's CSV gives them.
		return fromSamples(d.Label, d.At, d.Lat, d.Lat)
	}
	o := obs{label: d.Label, count: d.Count, mean: -1, min: d.MinNs, max: d.MaxNs, points: d.Points, intervals: d.Intervals}
	if d.HasMean {
		o.mean = d.MeanNs
	}
	for i, p := range d.P {
		o.p[i] = -1
		if p.How != measure.Missing {
			o.p[i] = p.Ns
		}
		o.pExact[i] = p.How == measure.Stated || p.How == measure.FromHistogram
	}
	if d.Lat != nil {
		o.vc = countValues(slices.Sorted(slices.Values(d.Lat))) // every duration, without times
	}
	if d.Hist != nil && d.Hist.TotalCount() > 0 {
		for _, b := range d.Hist.Distribution() {
			if b.Count > 0 {
				o.vc = append(o.vc, measure.ValueCount{Ns: b.To * d.UnitNs, Count: b.Count})
			}
		}
	}
	return o
}

// Residual is one number of the file: measured, fitted, and the relative
// difference (fitted − measured) / measured (absolute ns when measured is 0).
type Residual struct {
	Dist     string  `json:"dist"`
	Metric   string  `json:"metric"`
	Measured float64 `json:"measured"`
	Fitted   float64 `json:"fitted"`
	Diff     float64 `json:"diff"`
	// Headline: a number the file prints itself (count, mean, min, max,
	// a percentile); the rest are its spectrum rows and intervals, summed up
	// as their worst.
	Headline bool `json:"headline"`
	// Row names the worst of a summed-up residual: "98 %" (a spectrum's
	// row), "interval 3, count", "slow sample 4".
	Row string `json:"row,omitempty"`
	// Rounded: one printed unit or less from the model's (Result.RoundingNs),
	// within the printout's rounding however large its difference in per
	// cent; not a miss.
	Rounded bool `json:"rounded,omitempty"`
	// Own: a latency (a percentile, the mean or the minimum) the model
	// puts under OwnServices service times, where no stall reaches, and
	// the file under that or a tenth of the stall (fit.go's own): the
	// client's own time per request (its loopback, its system calls, its
	// wake-ups) and the server's service, which the stall model does not
	// claim. Shown, and named so; not a miss.
	Own bool `json:"own,omitempty"`
	// Ranked: a percentile more than the tolerance off in value, but not
	// in the share of samples above it, which is what the stalls decide
	// (each stall delays rate·(stall − t) samples by t or more): the
	// model puts the file's value at a rank whose share above it is within
	// the tolerance of the file's, 100 − p (RankDiff, relative). On a
	// stall's steep slope a share 2 % off moves the value 16 % (a real
	// wrk2 printout's p90). Shown, and named so; not a miss.
	Ranked   bool    `json:"ranked,omitempty"`
	RankDiff float64 `json:"rank_diff,omitempty"`
	// OverBody: the mean, more than the tolerance off, whose excess over
	// the median (BodyDiff, relative) is within it, where the median is
	// the client's own (Own): the difference is the body's shift summed
	// over every request, not the stalls' (fit.go's overBody). Shown, and
	// named so; not a miss.
	OverBody bool    `json:"over_body,omitempty"`
	BodyDiff float64 `json:"body_diff,omitempty"`
}

// latency reports whether r is a latency the printout rounds to its unit
// (the mean, the minimum, a percentile, the maximum, a spectrum row), not
// a count: the count of replies is exact in every file, so a printout's
// rounding never excuses it.
func (r Residual) latency() bool {
	return strings.HasSuffix(r.Metric, "_ns") || strings.HasPrefix(r.Metric, "spectrum")
}

// OwnServices is how many service times a latency stays under to be the
// client's own rather than the stalls': a stall of ten service times or
// less is not one the fit tells from a slow request.
const OwnServices = 10

func relDiff(m, f float64) float64 {
	if m == 0 {
		if f == 0 {
			return 0
		}
		return 1
	}
	return (f - m) / math.Abs(m)
}

// compare lists the residuals of fitted f against measured m and returns
// their score: the sum of the headline numbers' absolute relative
// differences, each capped at 1, plus the mean of the spectrum's and the
// intervals'.
func compare(m, f *obs) ([]Residual, float64) {
	var rs []Residual
	score := 0.0
	add := func(metric string, mv, fv float64) {
		r := Residual{Dist: m.label, Metric: metric, Measured: mv, Fitted: fv, Diff: relDiff(mv, fv), Headline: true}
		rs = append(rs, r)
		score += math.Min(math.Abs(r.Diff), 1)
	}
	if m.count >= 0 {
		add("count", float64(m.count), float64(f.count))
	}
	if m.mean >= 0 {
		add("mean_ns", m.mean, f.mean)
	}
	if m.min >= 0 {
		add("min_ns", float64(m.min), float64(f.min))
	}
	for i, p := range sim.Percentiles() {
		if m.p[i] >= 0 {
			add(p.Name+"_ns", float64(m.p[i]), float64(f.p[i]))
			if r := &rs[len(rs)-1]; math.Abs(r.Diff) > Tolerance {
				if at, ok := rankAt(f, m.p[i]); ok {
					above := 100 - p.Percent()
					r.RankDiff = ((100 - at) - above) / above
					r.Ranked = math.Abs(r.RankDiff) <= Tolerance
				}
			}
		}
	}
	if m.max >= 0 {
		add("max_ns", float64(m.max), float64(f.max))
	}
	if m.dropped > 0 && f.dropped >= 0 {
		// An exact count, as the replies': the model's run must skip as
		// many.
		add("dropped", float64(m.dropped), float64(f.dropped))
	}
	// The spectrum: each measured row's value against the fitted value at
	// its percentile.
	if len(m.points) > 0 {
		worst, sum := 0.0, 0.0
		wm, wf, wp := 0.0, 0.0, 0.0
		for _, pt := range m.points {
			fv := valueAt(f, pt.Percentile)
			d := relDiff(float64(pt.Ns), float64(fv))
			sum += math.Min(math.Abs(d), 1)
			if math.Abs(d) >= math.Abs(worst) {
				worst, wm, wf, wp = d, float64(pt.Ns), float64(fv), pt.Percentile
			}
		}
		rs = append(rs, Residual{Dist: m.label, Metric: "spectrum (worst of " + itoa(len(m.points)) + " rows)", Measured: wm, Fitted: wf, Diff: worst,
			Row: rowIf(worst, strconv.FormatFloat(wp, 'f', -1, 64)+" %")})
		score += sum / float64(len(m.points))
	}
	if len(m.intervals) > 0 {
		worst, sum := 0.0, 0.0
		wm, wf, wr := 0.0, 0.0, ""
		n := max(len(m.intervals), len(f.intervals))
		for i := 0; i < n; i++ {
			var mc, fc, mx, fx float64
			if i < len(m.intervals) {
				mc, mx = float64(m.intervals[i].Count), float64(ivMax(&m.intervals[i]))
			}
			if i < len(f.intervals) {
				fc, fx = float64(f.intervals[i].Count), float64(ivMax(&f.intervals[i]))
			}
			for j, d := range [][2]float64{{mc, fc}, {mx, fx}} {
				x := relDiff(d[0], d[1])
				sum += math.Min(math.Abs(x), 1)
				if math.Abs(x) >= math.Abs(worst) {
					worst, wm, wf, wr = x, d[0], d[1], "interval "+itoa(i+1)+", "+[...]string{"count", "max"}[j]
				}
			}
		}
		rs = append(rs, Residual{Dist: m.label, Metric: "intervals (worst count or max of " + itoa(len(m.intervals)) + ")", Measured: wm, Fitted: wf, Diff: worst, Row: rowIf(worst, wr)})
		score += sum / float64(2*n)
	}
	if m.exact {
		// The slow samples' times: when each stall showed.
		ma, fa := slowTimes(m), slowTimes(f)
		d := relDiff(float64(len(ma)), float64(len(fa)))
		worst := d
		wm, wf, wr := float64(len(ma)), float64(len(fa)), "their number"
		if len(ma) == len(fa) && len(ma) > 0 {
			worst = 0
			for i := range ma {
				x := relDiff(float64(ma[i]), float64(fa[i]))
				if math.Abs(x) >= math.Abs(worst) {
					worst, wm, wf, wr = x, float64(ma[i]), float64(fa[i]), "slow sample "+itoa(i+1)
				}
			}
		}
		rs = append(rs, Residual{Dist: m.label, Metric: "slow samples' times (worst)", Measured: wm, Fitted: wf, Diff: worst, Row: rowIf(worst, wr)})
		score += math.Min(math.Abs(worst), 1)
	}
	return rs, score
}

// rowIf names a summed-up residual's worst row, when it differs at all.
func rowIf(worst float64, row string) string {
	if worst == 0 {
		return ""
	}
	return row
}

// rankAt is the percentile (0–100) at which the fitted distribution f
// reaches v: the share of the latencies a tool's model run recorded at or
// below v (ranks), else between its spectrum's rows (linear between the
// two that bracket v: the values a spectrum gives are its rows'), else the
// share of its values at or below v. ok is false when f holds none of
// them, or v lies outside its spectrum.
func rankAt(f *obs, v int64) (float64, bool) {
	switch {
	case f.ranks != nil && f.ranks.Count() > 0:
		return 100 * float64(f.ranks.CountAtOrBelow(v)) / float64(f.ranks.Count()), true
	case len(f.points) > 0:
		for i := 1; i < len(f.points); i++ {
			lo, hi := f.points[i-1], f.points[i]
			if lo.Ns <= v && v <= hi.Ns {
				if hi.Ns == lo.Ns {
					return hi.Percentile, true
				}
				return lo.Percentile + (hi.Percentile-lo.Percentile)*float64(v-lo.Ns)/float64(hi.Ns-lo.Ns), true
			}
		}
	case len(f.vc) > 0:
		var c, n int64
		for _, x := range f.vc {
			if x.Ns <= v {
				c += x.Count
			}
			n += x.Count
		}
		return 100 * float64(c) / float64(n), true
	}
	return 0, false
}

// valueAt is the fitted distribution's value at percentile p (0–100): its
// first spectrum row at or above p, else from its values.
func valueAt(f *obs, p float64) int64 {
	for _, pt := range f.points {
		if pt.Percentile >= p {
			return pt.Ns
		}
	}
	if len(f.vc) > 0 && f.count > 0 {
		r := int64(math.Ceil(p / 100 * float64(f.count)))
		var c int64
		for _, v := range f.vc {
			c += v.Count
			if c >= r {
				return v.Ns
			}
		}
	}
	return f.max
}

func ivMax(iv *measure.Interval) int64 {
	if len(iv.Values) == 0 {
		return 0
	}
	return iv.Values[len(iv.Values)-1].Ns
}

// slowTimes are the send times (reply − latency) of the recorded samples in
// the upper half of the range: one per stall for a closed loop.
func slowTimes(o *obs) []int64 {
	if len(o.lat) == 0 {
		return nil
	}
	lo, hi := o.lat[0], o.lat[0]
	for _, v := range o.lat {
		lo, hi = min(lo, v), max(hi, v)
	}
	var out []int64
	for i, v := range o.lat {
		if hi > lo && 2*v >= lo+hi {
			out = append(out, o.at[i]-v)
		}
	}
	return out
}

func itoa(n int) string {
	const digits = "0123456789"
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{digits[n%10]}, b...)
		n /= 10
	}
	return string(b)
}

// stallSends groups the slow samples of a file that holds every request
// with its time (slowTimes: their sends) into the stalls they met: a slow
// send more than half the stall l after the last one starts the next
// stall (the slow sends of one stall lie within half of it: a request
// sent later into it waits less than half). For each stall, its first and
// last slow send, in time order.
func stallSends(o *obs, l int64) [][2]int64 {
	s := slowTimes(o)
	slices.Sort(s)
	var out [][2]int64
	for i, t := range s {
		if i == 0 || 2*(t-s[i-1]) > l {
			out = append(out, [2]int64{t, t})
		}
		out[len(out)-1][1] = t
	}
	return out
}
