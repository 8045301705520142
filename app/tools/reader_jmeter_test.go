package tools

import (
	"errors"
	"strings"
	"testing"

	"omission/app/measure"
	"omission/sim"
)

// jtl5 is a JTL of JMeter 5.x's default columns: two threads, a 100 ms
// stall held by both.
const jtl5 = jtlHeader5 + `
1000,1,HTTP Request,200,OK,Thread Group 1-1,text,true,,2,0,2,2,http://127.0.0.1:8080/,1,0,0
1000,2,HTTP Request,200,OK,Thread Group 1-2,text,true,,2,0,2,2,http://127.0.0.1:8080/,2,0,0
1001,101,HTTP Request,200,OK,Thread Group 1-1,text,true,,2,0,2,2,http://127.0.0.1:8080/,101,0,0
1002,100,HTTP Request,200,OK,Thread Group 1-2,text,true,,2,0,2,2,http://127.0.0.1:8080/,100,0,0
1102,1,HTTP Request,200,OK,Thread Group 1-1,text,true,,2,0,2,1,http://127.0.0.1:8080/,1,0,0
1102,1,HTTP Request,200,OK,Thread Group 1-2,text,true,,2,0,1,1,http://127.0.0.1:8080/,1,0,0
`

// TestJTL: a JTL is read by its header's names, whatever its columns and
// their order (5.x's defaults, 2.13's, a quoted message with the
// delimiter), and without a header when it has 2.13's or 5.x's default
// count of columns (2.13 writes none by default); every sample is kept
// with its start and elapsed time; end timeStamps are told from start
// ones by the threads' samples, which follow each other.
func TestJTL(t *testing.T) {
	ms := int64(1e6)
	v213 := "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,bytes,grpThreads,allThreads,Latency\n" +
		"5000,3,HTTP Request,200,OK,Thread Group 1-1,text,true,118,1,1,3\n" +
		"5003,250,HTTP Request,200,OK,Thread Group 1-1,text,true,118,1,1,250\n"
	quoted := "elapsed,timeStamp,responseMessage,threadName\n" +
		"7,20,\"Not, \"\"found\"\"\",a\n" +
		"9,27,OK,a\n"
	ends := "timeStamp,elapsed,threadName\n" +
		"1010,10,t1\n1030,20,t1\n1031,1,t1\n" // as ends: 1000–1010, 1010–1030, 1030–1031
	for _, c := range []struct {
		name, data string
		starts     []int64 // ms
		lat        []int64 // ms
		max        int64
	}{
		{"5.x", jtl5, []int64{1000, 1000, 1001, 1002, 1102, 1102}, []int64{1, 2, 101, 100, 1, 1}, 101 * ms},
		{"2.13", v213, []int64{5000, 5003}, []int64{3, 250}, 250 * ms},
		{"2.13 without its header", v213[strings.IndexByte(v213, '\n')+1:], []int64{5000, 5003}, []int64{3, 250}, 250 * ms},
		{"quoted, columns reordered", quoted, []int64{20, 27}, []int64{7, 9}, 9 * ms},
		{"end timeStamps", ends, []int64{1000, 1010, 1030}, []int64{10, 20, 1}, 20 * ms},
	} {
		f, err := measure.Parse(c.name+".jtl", []byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if err := measure.CheckRead(f, nil); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		d := f.Dists[0]
		if f.Format != FormatJTL || len(f.Incomplete) > 0 || d.Count != int64(len(c.starts)) || d.MaxNs != c.max || len(d.At) != len(c.starts) || len(d.Lat) != len(c.starts) {
			t.Errorf("%s: %s incomplete %v count %d max %d samples %d", c.name, f.Format, f.Incomplete, d.Count, d.MaxNs, len(d.At))
			continue
		}
		// At is each reply from the first start, Lat the elapsed time.
		for i := range d.At {
			if start := d.At[i] - d.Lat[i] + c.starts[0]*ms; start != c.starts[i]*ms || d.Lat[i] != c.lat[i]*ms {
				t.Errorf("%s: sample %d starts at %d ns and took %d ns, want start %d ms, %d ms", c.name, i, start, d.Lat[i], c.starts[i], c.lat[i])
			}
		}
	}
	st, ok := StatedIn(FormatJTL, []byte(jtl5), nil)
	if !ok || st.Requests != 6 || st.Conns != 2 || st.Duration != 1e9 {
		t.Errorf("stated %+v", st)
	}
}

// TestJTLErrors: a malformed JTL is a ParseError at the line and column
// where reading stopped; one whose last line is cut short of the
// header's columns (the file cut as JMeter wrote it) reads, without that
// line, and is named incomplete; the fit refuses it (measure.File's
// Incomplete).
func TestJTLErrors(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(jtl5, "\n"), "\n")
	for _, c := range []struct {
		name, data string
		line, col  int
		msg        string
	}{
		{"elapsed", strings.Replace(jtl5, "1001,101,", "1001,1x1,", 1), 4, 6, "expected the elapsed time in whole ms, found \"1x1\""},
		{"timeStamp", strings.Replace(jtl5, "1002,100,", "2024/01/02 10:00:00,100,", 1), 5, 1, "expected the timeStamp in ms since the epoch"},
		{"columns", strings.Replace(jtl5, ",1,0,0\n1102,1,", ",1,0\n1102,1,", 1), 6, 90, "expected 17 columns, as the header names, found 16"},
		{"header", "timeStamp,latency\n1,2\n", 1, 1, "expected the columns timeStamp and elapsed"},
		{"no samples", jtlHeader5 + "\n", 1, 0, "expected sample lines after the header, found none"},
		{"headerless", "1000,1,HTTP Request,200,OK,Thread Group 1-1,text,true\n", 1, 1, "a JTL without its header line"},
	} {
		_, err := measure.Parse(c.name+".jtl", []byte(c.data))
		var pe *measure.ParseError
		if !errors.As(err, &pe) || pe.Format != FormatJTL || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v, want line %d col %d containing %q", c.name, err, c.line, c.col, c.msg)
		}
	}
	last := lines[len(lines)-1]
	for _, cut := range []int{5, 40, len(last) - 4} {
		data := strings.Join(lines[:len(lines)-1], "\n") + "\n" + last[:cut]
		f, err := measure.Parse("cut.jtl", []byte(data))
		if err != nil {
			t.Errorf("cut at %d: %v", cut, err)
			continue
		}
		if f.Dists[0].Count != 5 || len(f.Incomplete) != 1 || !strings.Contains(f.Incomplete[0], "its last sample's line, cut after") {
			t.Errorf("cut at %d: count %d, incomplete %q", cut, f.Dists[0].Count, f.Incomplete)
		}
	}
}

// TestJTLPaced: a JTL's times tell a Constant Throughput Timer's paced
// threads (jmeter-ctt: idle between samples) from a closed group's
// (jmeter: the next sample as the last ends), with the timer's rate, on
// the model's files and on the real JMeter runs; the fit reads a paced
// JTL as jmeter-ctt's, not as a closed loop's.
func TestJTLPaced(t *testing.T) {
	for _, c := range []struct {
		query, tool string
		paced       bool
	}{
		{"rate=200&conns=2&stall=100ms&every=1s&duration=3s&service=1ms", "jmeter-ctt", true},
		{"rate=333.333&conns=3&stall=300ms&every=1s&first=200ms&duration=4s&service=2ms", "jmeter-ctt", true},
		// A period of 2 ms and of 1 ms: most samples' elapsed time 1 ms
		// and 0 ms under it, so the threads idle 1 ms between them.
		{"rate=500&service=445660ns&stall=169426721ns&every=2354ms&first=1300ms&duration=4s", "jmeter-ctt", true},
		{"rate=800&service=338158ns&stall=158206152ns&every=1630ms&first=1320ms&duration=5s", "jmeter-ctt", true},
		// Back to back on a service just under a ms: the next start is
		// the last one's end, no idle time at its whole-ms stamps.
		{"rate=800&service=999us&stall=158206152ns&every=1630ms&first=1320ms&duration=5s", "jmeter", false},
		{"rate=200&conns=2&stall=100ms&every=1s&duration=3s&service=1ms", "jmeter", false},
		{"rate=200&conns=2&stall=100ms&every=1s&duration=3s&service=100us", "jmeter", false},
	} {
		cfg := mustConfig(t, c.query)
		o, err := RunJSON(cfg, c.tool)
		if err != nil {
			t.Fatal(err)
		}
		f, err := measure.Parse("results.jtl", []byte(o.File))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := StatedIn(f.Format, []byte(o.File), &f.Dists[0])
		if !s.PacedKnown || s.Paced != c.paced {
			t.Errorf("%s %s: paced %v (known %v), want %v", c.tool, c.query, s.Paced, s.PacedKnown, c.paced)
		}
		if c.paced {
			// The timer's period in whole ms: 10 ms a thread at 200/s
			// over 2, 9 ms at 333.333/s over 3.
			P := jmeterPeriod(cfg) / 1e6
			if want := MeasuredRate(float64(cfg.Conns) * 1000 / float64(P)); s.Rate != want {
				t.Errorf("%s %s: rate %v, want %v (%d threads every %d ms)", c.tool, c.query, s.Rate, want, cfg.Conns, P)
			}
			if ws := Writing(FormatJTL); len(ws) != 2 || ws[1].Name() != "jmeter-ctt" || ws[1].NoFit() != "" || !ws[1].OnlyPaced() {
				t.Errorf("the tools that write a JTL: %v; jmeter-ctt's only when paced, and fitted", ws)
			}
		}
	}
	for _, name := range []string{"jmeter-2.13-t2-d5s.jtl", "jmeter-2.13-t2-d5s-header.jtl"} {
		data, f := readReal(t, name)
		if s, _ := StatedIn(f.Format, data, &f.Dists[0]); s.Paced {
			t.Errorf("%s, a closed thread group's, read as paced at %v", name, s.Rate)
		}
	}
	// A real paced run: 2 threads every 10 ms, its samples spanning
	// 4.787 s from the first start to the last, so the run ended between
	// then and 4.797 s (a thread's next target), short of the plan's 5 s.
	data, f := readReal(t, "jmeter-2.13-t2-d5s-ctt6000.jtl")
	s, _ := StatedIn(f.Format, data, &f.Dists[0])
	if !s.Paced || s.Rate != sim.RateOf(200) || s.Conns != 2 || s.Duration != 4794e6 || !strings.Contains(s.DurationFrom, "start-up") {
		t.Errorf("the real paced JTL: paced %v at %v, %d threads, %d ns (%s); want paced at 200/s, 2 threads, 4.794 s", s.Paced, s.Rate, s.Conns, s.Duration, s.DurationFrom)
	}
}
