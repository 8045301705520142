package measure

import (
	"errors"
	"slices"

	"omission/sim"
)

// HlogFile is what Parse reads from the .hlog WriteHlog writes for the set
// (its distributions, percentiles, spectrum rows and intervals), built from
// the samples without encoding and decoding the log: the fit regenerates a
// log for every candidate it tries. It needs a set that kept its samples'
// times (PerRequest); TestHlogFileIsParse holds it to Parse(WriteHlog).
func (s *Set) HlogFile(name string) (*File, error) {
	if !s.PerRequest() {
		return nil, errors.New("measure: HlogFile needs per-request samples")
	}
	iv := IntervalNs(s.Span)
	n := s.Span/iv + 1
	f := &File{Name: name, Format: FormatHlog}
	for si := range s.Sources {
		src := &s.Sources[si]
		var mx int64
		for _, v := range src.Latency {
			mx = max(mx, v)
		}
		h := newExportHist(mx)
		g, ok := newGeom(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		if !ok {
			return nil, errors.New("measure: no geometry for the export histogram")
		}
		tg := &hlogTag{name: src.Name, g: g, counts: make([]int64, g.countsLen), intervals: int(n), to: float64(n*iv) / 1e9}
		// The samples of each interval, by reply time: interval j's are
		// order[from[j]:from[j+1]], in sample order (a counting sort).
		from := make([]int32, n+1)
		for _, t := range src.At {
			from[min(t/iv, n-1)+1]++
		}
		for j := int64(1); j <= n; j++ {
			from[j] += from[j-1]
		}
		order := make([]int32, len(src.At))
		next := slices.Clone(from[:n])
		for i, t := range src.At {
			j := min(t/iv, n-1)
			order[next[j]] = int32(i)
			next[j]++
		}
		// One interval's counts by index, and the indices it touched.
		cur := make([]int64, g.countsLen)
		var touched []int64
		add := func(v, c int64) error {
			k := g.indexOf(v)
			if k < 0 {
				return errors.New("measure: a value beyond the export histogram")
			}
			tg.counts[k] += c
			tg.total += c
			if cur[k] == 0 {
				touched = append(touched, k)
			}
			cur[k] += c
			return nil
		}
		for j := int64(0); j < n; j++ {
			touched = touched[:0]
			for _, i := range order[from[j]:from[j+1]] {
				v, e := src.Latency[i], src.Correct
				if err := add(v, 1); err != nil {
					return nil, err
				}
				if e <= 0 || v <= e {
					continue
				}
				// recordCorrected's runs: v−e, …, v−k·e ≥ e.
				x, left := v-e, v/e-1
				for left > 0 {
					c := min((x-lowestEquivalent(x))/e+1, left)
					if err := add(x, c); err != nil {
						return nil, err
					}
					x -= c * e
					left -= c
				}
			}
			sim.SortInt64s(touched)
			it := Interval{StartS: float64(j*iv) / 1e9, LengthS: float64(iv) / 1e9}
			for _, k := range touched {
				b := g.bar(k, cur[k])
				cur[k] = 0
				if tg.kept < maxIntervalValues { // as Parse keeps them
					it.Values = append(it.Values, ValueCount{Ns: b.To, Count: b.Count})
					tg.kept++
				}
				it.Count += b.Count
				tg.maxColumn = max(tg.maxColumn, float64(b.To)/1e6)
			}
			tg.ivs = append(tg.ivs, it)
		}
		f.Dists = append(f.Dists, hlogDist(tg, 0))
	}
	return f, nil
}
