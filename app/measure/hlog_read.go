package measure

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// An .hlog (HdrHistogram/HdrHistogram de84b0a,
// src/main/java/org/HdrHistogram/HistogramLogWriter.java and
// HistogramLogReader.java; hdrhistogram-go v1.4.0 log_writer.go,
// log_reader.go) is comment lines ("#[Histogram log format version 1.3]",
// "#[StartTime: <s> (seconds since epoch), …]", "#[BaseTime: <s> …]"), an
// optional legend line starting "\"StartTimestamp\"", and interval lines
// "[Tag=<tag>,]<start s>,<length s>,<max>,<base64 histogram>". Each
// histogram is the V2 compressed encoding (AbstractHistogram.java
// encodeIntoCompressedByteBuffer; hdrhistogram-go hdr_encoding.go): a
// big-endian cookie 0x1c849304|0x10 and length, then zlib of a 40-byte header
// (cookie 0x1c849303|0x10, payload length, normalizing index offset,
// significant digits, lowest and highest trackable values, conversion
// ratio) and the counts as ZigZag LEB128 longs, a negative one standing for
// that many zero counts.
//
// This reader decodes the counts itself, straight into one hdrhistogram-go
// histogram per tag, so that a hostile geometry or a long run of lines never
// allocates more than the limits below.

const (
	// MaxTags is the most tags an .hlog may hold.
	MaxTags = 64
	// maxIntervalValues bounds the values a tag's intervals keep one by
	// one (2 MiB a tag); an interval past it keeps its count only.
	maxIntervalValues = 1 << 17
	// maxCounts bounds the counts of all tags' histograms together (4 M
	// counts, 32 MiB: 5 significant digits from 1 ns to an hour fit).
	maxCounts = 1 << 22
	// maxInflated bounds the decompressed payload of a whole file.
	maxInflated = 128 << 20
)

type hlogTag struct {
	name      string
	g         geom
	counts    []int64 // by index of g
	total     int64
	maxColumn float64 // the largest Interval_Max column
	intervals int
	first     int // line of its first interval
	from, to  float64
	// ivs are the tag's intervals in file order, their values in the
	// tag's raw units until hlogDist scales them; cur collects the line
	// being decoded.
	ivs  []Interval
	cur  []ValueCount
	kept int   // values kept in ivs, at most maxIntervalValues
	curN int64 // the samples of the line being decoded

}

// parseHlog reads an interval log: one distribution per tag, its intervals
// added together.
func parseHlog(name string, ls []Line) (*File, error) {
	r := &hlogReader{name: name}
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		ok, err := r.header(l, t)
		if err != nil {
			return nil, err
		}
		if ok {
			continue
		}
		if err := r.interval(l); err != nil {
			return nil, err
		}
	}
	if len(r.tags) == 0 {
		return nil, &ParseError{Name: name, Format: FormatHlog, Line: len(ls), Msg: "expected at least one interval line \"[Tag=…,]<start>,<length>,<max>,HIST…\", found none"}
	}
	f := &File{Name: name, Format: FormatHlog, Incomplete: hlogGaps(r)}
	base := r.base()
	for _, tg := range r.tags {
		f.Dists = append(f.Dists, hlogDist(tg, base))
	}
	return f, nil
}

// hlogReader is what parseHlog keeps across an interval log's lines: the
// tags met so far, the StartTime and BaseTime comments, and the counts and
// inflated bytes spent against the limits above.
type hlogReader struct {
	name                string
	tags                []*hlogTag
	startTime, baseTime float64
	hasStart, hasBase   bool
	counts, inflated    int64
	z                   inflater
}

// perr is a ParseError at column col of line l.
func (r *hlogReader) perr(l Line, col int, msg string, a ...any) error {
	return &ParseError{Name: r.name, Format: FormatHlog, Line: l.N, Col: col, Msg: fmt.Sprintf(msg, a...)}
}

// header reads a comment line (t is the line trimmed): "#[StartTime: …]"
// and "#[BaseTime: …]" are kept, other comments and the legend line
// ("\"StartTimestamp\"…") skipped. It reports whether the line was one of
// these.
func (r *hlogReader) header(l Line, t string) (bool, error) {
	switch {
	case strings.HasPrefix(t, "#[StartTime:"):
		v, err := leadingFloat(t[len("#[StartTime:"):])
		if err != nil {
			return true, r.perr(l, len("#[StartTime:")+2, "expected seconds since the epoch, %v", err)
		}
		r.startTime, r.hasStart = v, true
		return true, nil
	case strings.HasPrefix(t, "#[BaseTime:"):
		v, err := leadingFloat(t[len("#[BaseTime:"):])
		if err != nil {
			return true, r.perr(l, len("#[BaseTime:")+2, "expected seconds since the epoch, %v", err)
		}
		r.baseTime, r.hasBase = v, true
		return true, nil
	case strings.HasPrefix(t, "#"), strings.HasPrefix(t, `"StartTimestamp"`):
		return true, nil
	}
	return false, nil
}

// interval reads one interval line,
// "[Tag=<tag>,]<start s>,<length s>,<max>,<base64 histogram>": the
// histogram's counts go to its tag (a new tag is added, up to MaxTags), the
// columns to the tag's time span and largest Interval_Max.
func (r *hlogReader) interval(l Line) error {
	col := 1
	tag := ""
	rest := l.Text
	if strings.HasPrefix(rest, "Tag=") {
		i := strings.IndexByte(rest, ',')
		if i < 0 {
			return r.perr(l, 1, "expected \"Tag=<name>,\" then an interval, found no comma")
		}
		tag = rest[4:i]
		rest, col = rest[i+1:], i+2
	}
	parts := strings.SplitN(rest, ",", 4)
	if len(parts) != 4 {
		return r.perr(l, col, "expected an interval \"<start>,<length>,<max>,<histogram>\", found %q", TrimTo(rest, 60))
	}
	var nums [3]float64
	c := col
	for k := 0; k < 3; k++ {
		v, err := strconv.ParseFloat(parts[k], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || v != v {
			return r.perr(l, c, "expected a non-negative number (%s), found %q", [3]string{"StartTimestamp", "Interval_Length", "Interval_Max"}[k], parts[k])
		}
		nums[k] = v
		c += len(parts[k]) + 1
	}
	var tg *hlogTag
	for _, x := range r.tags {
		if x.name == tag {
			tg = x
		}
	}
	payload := strings.TrimSpace(parts[3])
	if err := r.z.decodeInterval(payload, &tg, tag, &r.counts, &r.inflated); err != nil {
		return r.perr(l, c, "histogram: %v", err)
	}
	if !containsTag(r.tags, tg) {
		if len(r.tags) == MaxTags {
			return r.perr(l, 1, "more than %d tags", MaxTags)
		}
		tg.first, tg.from, tg.to = l.N, nums[0], nums[0]+nums[1]
		r.tags = append(r.tags, tg)
	}
	tg.intervals++
	iv := Interval{StartS: nums[0], LengthS: nums[1], Count: tg.curN, Values: tg.cur}
	tg.ivs, tg.cur, tg.curN = append(tg.ivs, iv), nil, 0
	tg.maxColumn = max(tg.maxColumn, nums[2])
	tg.from, tg.to = min(tg.from, nums[0]), max(tg.to, nums[0]+nums[1])
	return nil
}

// base is the time the interval timestamps count from. With a BaseTime they
// are relative to it; without, readers take them as relative to StartTime
// when they are more than a year before it (HistogramLogReader.java).
func (r *hlogReader) base() float64 {
	switch {
	case r.hasBase:
		return r.baseTime
	case r.hasStart && r.tags[0].from < r.startTime-365*24*3600:
		return r.startTime
	}
	return 0
}

// hlogDist is one tag's distribution: its counts as a histogram, their
// mean, min, max and percentile rows in the unit hlogUnit infers, and notes
// on the unit and on the tag's intervals (their times counted from base).
// The tag's counts are handed to the histogram.
func hlogDist(tg *hlogTag, base float64) Dist {
	// The bars with counts, in value order: every statistic walks these,
	// never the whole geometry.
	var bars []hdrhistogram.Bar
	for i, c := range tg.counts {
		if c != 0 {
			bars = append(bars, tg.g.bar(int64(i), c))
		}
	}
	hist := hdrhistogram.Import(&hdrhistogram.Snapshot{LowestTrackableValue: tg.g.lowest, HighestTrackableValue: tg.g.highest,
		SignificantFigures: int64(tg.g.sig), Counts: tg.counts, IntegerToDoubleConversionRatio: 1})
	tg.counts = nil
	d := Dist{Label: tg.name, Count: tg.total, MinNs: -1, MaxNs: -1, Hist: hist, bars: bars}
	if d.Label == "" {
		d.Label = "(untagged)"
	}
	unit, how := hlogUnit(tg, bars)
	d.UnitNs = unit
	if d.Count > 0 {
		var sum float64
		for _, b := range bars {
			sum += float64(b.From+(b.To-b.From+1)>>1) * float64(b.Count)
		}
		d.HasMean, d.MeanNs = true, sum/float64(d.Count)*float64(unit)
		d.MaxNs = bars[len(bars)-1].To * unit
		d.MinNs = bars[0].From * unit
	}
	for _, r := range percentileRows(bars, d.Count, TicksPerHalfDistance) {
		d.Points = append(d.Points, Point{Percentile: r.level, Ns: r.value * unit, Count: r.count})
	}
	for _, iv := range tg.ivs {
		iv.StartS += base
		for k := range iv.Values {
			iv.Values[k].Ns *= unit
		}
		d.Intervals = append(d.Intervals, iv)
	}
	tg.ivs = nil
	d.Precision = fmt.Sprintf("%d significant digits (the file's histograms, values in %s)", tg.g.sig, unitName(unit))
	d.Notes = append(d.Notes, how, fmt.Sprintf("%d intervals from %s to %s s (line %d on).", tg.intervals, trimNum(base+tg.from), trimNum(base+tg.to), tg.first))
	d.Finish(false)
	return d
}

func containsTag(tags []*hlogTag, t *hlogTag) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

func trimNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func leadingFloat(s string) (float64, error) {
	fs := fields(s)
	if len(fs) == 0 {
		return 0, fmt.Errorf("found nothing")
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(fs[0].text, "]"), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("found %q", fs[0].text)
	}
	return v, nil
}

// hlogUnit infers the unit of a tag's values from the Interval_Max column,
// which writers print in milliseconds by convention (Java and hdrhistogram-go
// divide by 1e6 from ns, HdrHistogramJS by 1000 from µs): the ratio of the
// histogram's max to the column is the power of 1000 that turns values into
// ms.
func hlogUnit(tg *hlogTag, bars []hdrhistogram.Bar) (int64, string) {
	mx := 0.0
	if len(bars) > 0 {
		mx = float64(bars[len(bars)-1].To)
	}
	if mx == 0 || tg.maxColumn == 0 {
		return 1, "Values are taken as nanoseconds (the Interval_Max column does not tell the unit)."
	}
	ratio := mx / tg.maxColumn
	for _, u := range []struct {
		ratio float64
		ns    int64
	}{{1e6, 1}, {1e3, 1e3}, {1, 1e6}, {1e-3, 1e9}} {
		if ratio > u.ratio/3 && ratio < u.ratio*3 {
			return u.ns, fmt.Sprintf("Values are %s: the histograms' max is %s times the Interval_Max column (milliseconds by convention).", unitName(u.ns), trimNum(u.ratio))
		}
	}
	return 1, fmt.Sprintf("Values are taken as nanoseconds: the histograms' max is %.3g times the Interval_Max column, no power of 1000.", ratio)
}

func unitName(ns int64) string {
	switch ns {
	case 1:
		return "ns"
	case 1e3:
		return "µs"
	case 1e6:
		return "ms"
	case 1e9:
		return "s"
	}
	return fmt.Sprintf("%d ns", ns)
}

// inflater reuses one zlib reader and buffer across a file's lines.
type inflater struct {
	zr  io.ReadCloser
	br  bytes.Reader
	buf []byte
}

// decodeInterval decodes one V2 compressed histogram and adds its counts to
// the tag's histogram (created with this line's geometry when *tg is nil).
// counts and inflated are the file's totals so far, checked against
// maxCounts and maxInflated.
func (z *inflater) decodeInterval(payload string, tg **hlogTag, tag string, counts, inflated *int64) error {
	compressed, err := hlogCompressed(payload)
	if err != nil {
		return err
	}
	if err := z.reset(compressed); err != nil {
		return err
	}
	g, plen, err := z.header()
	if err != nil {
		return err
	}
	if *inflated+plen > maxInflated {
		return fmt.Errorf("the file's histograms inflate to more than %d MiB", maxInflated>>20)
	}
	*inflated += plen
	buf, err := z.payload(plen)
	if err != nil {
		return err
	}
	t := *tg
	if t == nil {
		if *counts+g.countsLen > maxCounts {
			return fmt.Errorf("the histograms need %d counts together; this reader allows %d", *counts+g.countsLen, maxCounts)
		}
		*counts += g.countsLen
		t = &hlogTag{name: tag, g: g, counts: make([]int64, g.countsLen)}
		*tg = t
	}
	return t.add(g, buf)
}

// hlogCompressed reads the envelope of a V2 compressed histogram, base64
// of the big-endian cookie 0x1c849304|0x10 and length, and returns the zlib
// stream that follows.
func hlogCompressed(payload string) ([]byte, error) {
	if len(payload) < 12 {
		return nil, fmt.Errorf("expected a base64 compressed histogram (\"HISTF…\"), found %q", TrimTo(payload, 20))
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("expected base64: %v", err)
	}
	if len(raw) < 8 {
		return nil, fmt.Errorf("truncated: %d bytes", len(raw))
	}
	cookie := int32(binary.BigEndian.Uint32(raw[0:4]))
	if cookie&^0xf0 != 0x1c849304 {
		if cookie&^0xf0 == 0x1c849301 || cookie&^0xf0 == 0x1c849302 || cookie&^0xf0 == 0x1c849303 {
			return nil, fmt.Errorf("an uncompressed or V0/V1 histogram (cookie %#x); only V2 compressed histograms are read", uint32(cookie))
		}
		return nil, fmt.Errorf("expected the V2 compressed cookie 0x1c849314, found %#x", uint32(cookie))
	}
	clen := int64(binary.BigEndian.Uint32(raw[4:8]))
	if clen > int64(len(raw)-8) {
		return nil, fmt.Errorf("the compressed length %d exceeds the %d bytes present", clen, len(raw)-8)
	}
	return raw[8 : 8+clen], nil
}

// reset points the zlib reader at a new compressed stream, creating it on
// the first line (and again after a stream it could not start on).
func (z *inflater) reset(compressed []byte) error {
	z.br.Reset(compressed)
	var err error
	if z.zr == nil {
		z.zr, err = zlib.NewReader(&z.br)
	} else {
		err = z.zr.(zlib.Resetter).Reset(&z.br, nil)
	}
	if err != nil {
		z.zr = nil
		return fmt.Errorf("zlib: %v", err)
	}
	return nil
}

// header inflates the 40-byte header (cookie 0x1c849303|0x10, payload
// length, normalizing index offset, significant digits, lowest and highest
// trackable values, conversion ratio) and returns the histogram's geometry
// and its payload's length, once both are possible.
func (z *inflater) header() (geom, int64, error) {
	var hdr [40]byte
	if _, err := io.ReadFull(z.zr, hdr[:]); err != nil {
		return geom{}, 0, fmt.Errorf("zlib: the 40-byte header: %v", err)
	}
	if c := int32(binary.BigEndian.Uint32(hdr[0:4])); c&^0xf0 != 0x1c849303 {
		return geom{}, 0, fmt.Errorf("expected the V2 encoding cookie 0x1c849313 inside, found %#x", uint32(c))
	}
	plen := int64(int32(binary.BigEndian.Uint32(hdr[4:8])))
	sig := int32(binary.BigEndian.Uint32(hdr[12:16]))
	lowest := int64(binary.BigEndian.Uint64(hdr[16:24]))
	highest := int64(binary.BigEndian.Uint64(hdr[24:32]))
	g, ok := newGeom(lowest, highest, int(sig))
	if !ok || highest < lowest {
		return geom{}, 0, fmt.Errorf("the geometry (lowest %d, highest %d, %d significant digits) is not a histogram's", lowest, highest, sig)
	}
	if plen < 0 || plen > 9*g.countsLen {
		return geom{}, 0, fmt.Errorf("the payload length %d is impossible for %d counts", plen, g.countsLen)
	}
	return g, plen, nil
}

// payload inflates the counts that follow the header, which must be
// exactly plen bytes; below 1 MiB they go to the reused buffer.
func (z *inflater) payload(plen int64) ([]byte, error) {
	var buf []byte
	if plen < 1<<20 {
		if int64(cap(z.buf)) < plen+1 {
			z.buf = make([]byte, 1<<20)
		}
		n, err := io.ReadFull(z.zr, z.buf[:plen+1])
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, fmt.Errorf("zlib: %v", err)
		}
		buf = z.buf[:n]
	} else {
		// A large claim: grow only as far as the stream really goes.
		var err error
		if buf, err = io.ReadAll(io.LimitReader(z.zr, plen+1)); err != nil {
			return nil, fmt.Errorf("zlib: %v", err)
		}
	}
	if int64(len(buf)) != plen {
		return nil, fmt.Errorf("the payload has %d bytes, its header says %d", len(buf), plen)
	}
	return buf, nil
}

// add decodes a payload of ZigZag LEB128 counts (a negative one standing
// for that many zero counts) in geometry g and adds them to the tag's
// counts, moving each value to the tag's own geometry when g is another.
func (t *hlogTag) add(g geom, buf []byte) error {
	same := g == t.g
	var idx int64
	for p := 0; p < len(buf); {
		v, n := zigzag(buf[p:])
		if n <= 0 {
			return fmt.Errorf("a truncated or overlong count at payload byte %d", p)
		}
		p += n
		if v < 0 {
			if v == math.MinInt64 || -v > g.countsLen-idx {
				return fmt.Errorf("a run of %d zero counts passes the %d counts", -v, g.countsLen)
			}
			idx -= v
			continue
		}
		if idx >= g.countsLen {
			return fmt.Errorf("counts past the %d the geometry has", g.countsLen)
		}
		if v > 0 {
			if v > math.MaxInt64-t.total {
				return fmt.Errorf("counts overflow")
			}
			k := idx
			if !same {
				// Another line's geometry: the value's index in the tag's.
				if k = t.g.indexOf(g.valueAt(idx)); k < 0 {
					return fmt.Errorf("a value of %d does not fit tag %q's histogram (highest %d)", g.valueAt(idx), t.name, t.g.highest)
				}
			}
			t.counts[k] += v
			t.total += v
			t.curN += v
			if t.kept < maxIntervalValues {
				t.cur = append(t.cur, ValueCount{Ns: t.g.bar(k, v).To, Count: v})
				t.kept++
			}
		}
		idx++
	}
	return nil
}

// zigzag decodes one ZigZag LEB128 long of at most 9 bytes as
// HdrHistogram's ZigZagEncoding.getLong (the 9th byte carries 8 bits).
func zigzag(b []byte) (int64, int) {
	var u uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, -1
		}
		c := uint64(b[i])
		if i == 8 {
			u |= c << 56
			return int64(u>>1) ^ -int64(u&1), 9
		}
		u |= (c & 0x7f) << (7 * uint(i))
		if c&0x80 == 0 {
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
	}
	return 0, -1
}
