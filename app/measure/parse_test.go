package measure

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TestParseErrors: a bad file's error names the line and column where
// reading stopped and what was expected.
func TestParseErrors(t *testing.T) {
	java, _ := os.ReadFile(filepath.Join("testdata", "java.hgrm"))
	jl := strings.Split(string(java), "\n")
	jl[4] = "       0.0x0 0.100000000000       6000           1.11"
	hlog, _ := os.ReadFile(filepath.Join("testdata", "export.hlog"))
	hl := strings.Split(string(hlog), "\n")
	for i, l := range hl {
		if strings.HasPrefix(l, "Tag=open,2.000") {
			hl[i] = strings.Replace(l, "HISTF", "HISTF!", 1)
		}
	}
	for _, c := range []struct {
		name, data string
		line, col  int
		format     Format
		msg        string
	}{
		{"bad.hgrm", strings.Join(jl, "\n"), 5, 8, FormatHgrmJava, "Value: expected a non-negative decimal number"},
		{"bad.hlog", strings.Join(hl, "\n"), 0, 0, FormatHlog, "histogram: expected base64"},
		{"bad.json", "{\n \"latencies\": {\n  \"mean\": 12,,\n", 3, 14, "", "expected valid JSON"},
		{"empty", "  \n", 1, 0, "", "the file is empty"},
	} {
		_, err := Parse(c.name, []byte(c.data))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a ParseError", c.name, err)
			continue
		}
		if c.line > 0 && (pe.Line != c.line || pe.Col != c.col) || pe.Format != c.format || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v (line %d col %d format %q), want line %d col %d format %q containing %q", c.name, err, pe.Line, pe.Col, pe.Format, c.line, c.col, c.format, c.msg)
		}
		if c.name == "bad.hlog" && (pe.Line == 0 || pe.Col == 0) {
			t.Errorf("bad.hlog: no position: %v", err)
		}
	}
}

// TestParseSizeLimit: a file over MaxFileSize is refused before it is read.
func TestParseSizeLimit(t *testing.T) {
	big := bytes.Repeat([]byte("#"), MaxFileSize+1)
	_, err := Parse("big.hlog", big)
	if err == nil || !strings.Contains(err.Error(), "the limit is 16777216") {
		t.Fatalf("%v", err)
	}
	if _, err := Parse("ok.hlog", big[:MaxFileSize]); err == nil || strings.Contains(err.Error(), "limit") {
		t.Fatalf("a file at the limit: %v", err)
	}
}

// v2 encodes a V2 compressed histogram by hand: the header fields and a
// payload of ZigZag LEB128 counts.
func v2(sig int32, lowest, highest int64, counts ...int64) string {
	var payload []byte
	for _, c := range counts {
		u := uint64(c<<1) ^ uint64(c>>63)
		for u >= 0x80 {
			payload = append(payload, byte(u)|0x80)
			u >>= 7
		}
		payload = append(payload, byte(u))
	}
	var inner bytes.Buffer
	for _, x := range []any{int32(0x1c849313), int32(len(payload)), int32(0), sig, lowest, highest, float64(1)} {
		binary.Write(&inner, binary.BigEndian, x)
	}
	inner.Write(payload)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(inner.Bytes())
	zw.Close()
	var out bytes.Buffer
	binary.Write(&out, binary.BigEndian, int32(0x1c849314))
	binary.Write(&out, binary.BigEndian, int32(z.Len()))
	out.Write(z.Bytes())
	return base64.StdEncoding.EncodeToString(out.Bytes())
}

// TestHlogDecoder: hand-made histograms decode to their counts, and hostile
// ones are refused with the reason, without allocating what they claim.
func TestHlogDecoder(t *testing.T) {
	// 3 digits from 1 to 3600e9: counts 2 at index 5 and 7 at index 2050
	// (value 2052: the second bucket counts by 2).
	ok := "Tag=a,0.000,1.000,0.000002,HIST" + v2(3, 1, 3600e9, -5, 2, -2044, 7)[4:] + "\n"
	f, err := Parse("ok.hlog", []byte("#[StartTime: 0 (seconds since epoch)]\n"+ok))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Dists[0]
	bars := d.Hist.Distribution()
	if d.Count != 9 || bars[5].Count != 2 || bars[5].From != 5 {
		t.Fatalf("count %d, bar 5 %+v", d.Count, bars[5])
	}
	if d.MaxNs != 2053 { // the highest value of 2052's bucket (width 2)
		t.Errorf("max %d", d.MaxNs)
	}
	for _, c := range []struct{ payload, msg string }{
		{v2(5, 1, 1<<62, 1), "the histograms need"},
		{v2(3, 1, 3600e9, -1<<40), "zero counts passes"},
		{v2(9, 1, 3600e9, 1), "is not a histogram's"},
		{v2(3, 1, 3600e9, 1, 2, 3)[:30], "histogram: "},
	} {
		line := "0.000,1.000,1.0," + c.payload + "\n"
		_, err := Parse("bad.hlog", []byte("#[StartTime: 0]\n"+line))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "bad.hlog:2:") {
			t.Errorf("%s…: %v, want line 2 and %q", c.payload[:12], err, c.msg)
		}
	}
}

// TestGeomIndex: the geometry's index and bar of a value are
// hdrhistogram-go's (its lowest and highest equivalent values).
func TestGeomIndex(t *testing.T) {
	for _, c := range []struct {
		lowest, highest int64
		sig             int
	}{{1, 3600e9, 3}, {1000, 1e12, 2}, {1, 1e8, 5}, {7, 1e9, 0}} {
		g, ok := newGeom(c.lowest, c.highest, c.sig)
		if !ok {
			t.Fatalf("%+v", c)
		}
		h := hdrhistogram.Import(&hdrhistogram.Snapshot{LowestTrackableValue: c.lowest, HighestTrackableValue: c.highest, SignificantFigures: int64(c.sig), Counts: make([]int64, g.countsLen)})
		values := []int64{c.lowest, 1, 999, 1000, 2047, 2048, 2049, 123456789, c.highest / 3, c.highest}
		for _, v := range values {
			if err := h.RecordValue(v); err != nil {
				t.Fatalf("%+v %d: %v", c, v, err)
			}
		}
		bs := h.Distribution() // one bar per index up to the last count
		for _, v := range values {
			idx := g.indexOf(v)
			if idx < 0 || idx >= int64(len(bs)) {
				t.Fatalf("%+v value %d: index %d of %d bars", c, v, idx, len(bs))
			}
			want := bs[idx]
			if got := g.bar(idx, want.Count); got != want || want.Count == 0 || v < want.From || v > want.To {
				t.Errorf("%+v value %d: index %d bar %+v, hdrhistogram-go's %+v", c, v, idx, got, want)
			}
		}
	}
}
