package tools

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"omission/app/measure"
	"omission/sim"
)

// tdigestValue is testdata/tdigest/Drive.java's value(set, i): the times
// each set adds, drawn the same way on both sides.
func tdigestValue(set, i int) float64 {
	switch set {
	case 0:
		return float64(1 + (i*7919)%3)
	case 1:
		if i%1000 < 40 {
			return float64(400 - (i%1000)*10)
		}
		return float64(1 + (i*31)%2)
	case 2:
		return float64(int64(i) * 2654435761 % 5000)
	}
	if i%97 == 0 {
		return float64(1200 + i%300)
	}
	return float64(2 + (i*13)%7)
}

// The port of t-digest 3.3's AVLTreeDigest against the library itself:
// testdata/tdigest-3.3-avl.txt is what testdata/tdigest/Drive.java
// printed, compiled against t-digest's release commit 8d5c152 with its
// Random seeded 0 (-Dtdseed unset), four sets of 1 to 100,000 values:
// each set's size, centroid count and the quantiles 0, .25, .5, .75, .9,
// .95, .99, .999 and 1 as Java's hexadecimal doubles. Every bit must agree.
func TestAVLDigestMatchesJava(t *testing.T) {
	f, err := os.Open("testdata/tdigest-3.3-avl.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs := []float64{0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1}
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3+len(qs) {
			t.Fatalf("line %q: %d fields", sc.Text(), len(fs))
		}
		set, _ := strconv.Atoi(fs[0])
		n, _ := strconv.Atoi(fs[1])
		d := newAVLDigest(100)
		for i := range n {
			d.add(tdigestValue(set, i))
		}
		if got := strconv.Itoa(d.size); got != fs[2] {
			t.Errorf("set %d, %d values: %s centroids, Java %s", set, n, got, fs[2])
		}
		for k, q := range qs {
			want, err := strconv.ParseFloat(fs[3+k], 64)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.quantile(q); got != want {
				t.Errorf("set %d, %d values: quantile(%v) = %v, Java %v", set, n, q, got, want)
			}
		}
		lines++
	}
	if lines != 36 {
		t.Fatalf("read %d lines, want 36", lines)
	}
}

// The console's lines as Gatling's own tests pin them
// (ConsoleTemplateSpec.scala, ConsoleDataWriterSpec.scala).
func TestGatlingConsoleLines(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{gatlingRow("numberOfRequestsStatistics", [3]string{"20", "19", "1"}),
			"> numberOfRequestsStatistics                                                         |        20 |        19 |         1"},
		{gatlingRange("t < 42 ms", 90, 42),
			"> t < 42 ms                                                                                                  90    (42%)"},
		{gatlingNumber(123456), "123,456"},
		{gatlingNumber(166.6666), "166.667"},
		{gatlingNumber(0), "0"},
		{gatlingRank(50), "50th"}, {gatlingRank(99.9), "99.9th"}, {gatlingRank(1), "1st"}, {gatlingRank(12), "12th"},
	} {
		if c.got != c.want {
			t.Errorf("got\n%q\nwant\n%q", c.got, c.want)
		}
	}
}

// What the summary prints, read back: the Total column's figures are the
// simulation's, and the older layout ("(OK=… KO=…)") reads the same.
func TestGatlingReadsItsSummary(t *testing.T) {
	for _, name := range []string{"gatling-open", "gatling-closed"} {
		cfg, err := sim.ParseQuery("rate=200&stall=300ms&every=2s&duration=10s&conns=4")
		if err != nil {
			t.Fatal(err)
		}
		o, err := Run(cfg, name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parseGatling(name, measure.SplitLines([]byte(o.Text)))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, o.Text)
		}
		d := f.Dists[0]
		if d.MaxNs != o.MaxNs || d.P[0].Ns != o.P50Ns || d.P[2].Ns != o.P99Ns || d.Count != o.Run.Recorded {
			t.Errorf("%s: read max %d p50 %d p99 %d count %d, printed %d %d %d %d", name, d.MaxNs, d.P[0].Ns, d.P[2].Ns, d.Count, o.MaxNs, o.P50Ns, o.P99Ns, o.Run.Recorded)
		}
	}
	old := `================================================================================
---- Global Information --------------------------------------------------------
> request count                                       2000 (OK=1990   KO=10    )
> min response time                                      0 (OK=0      KO=60000 )
> max response time                                  60001 (OK=310    KO=60001 )
> mean response time                                   301 (OK=1      KO=60000 )
> std deviation                                       4000 (OK=20     KO=0     )
> response time 50th percentile                          1 (OK=1      KO=60000 )
> response time 75th percentile                          1 (OK=1      KO=60000 )
> response time 95th percentile                          2 (OK=2      KO=60001 )
> response time 99th percentile                        250 (OK=240    KO=60001 )
> mean requests/sec                                 181.818 (OK=180.909 KO=0.909 )
---- Response Time Distribution ------------------------------------------------
`
	f, err := parseGatling("old.txt", measure.SplitLines([]byte(old)))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Dists[0]
	if d.Count != 2000 || d.MaxNs != 60001e6 || d.P[2].Ns != 250e6 || len(d.Points) != 4 {
		t.Errorf("the older layout: count %d max %d p99 %d, %d points", d.Count, d.MaxNs, d.P[2].Ns, len(d.Points))
	}
	req, dur, _ := gatlingStated([]byte(old), &d)
	if req != 1990 || dur != 11e9 {
		t.Errorf("stated %d requests over %d ns, want 1990 over 11 s", req, dur)
	}
}

// A 500 ms stall at 1000/s for 6 s, open: t-digest 3.3 (the library
// itself, unseeded: 343 to 348 ms in three runs over these times) puts
// the p99 near 342 ms where the times' own is 440 ms; the output says so.
func TestGatlingSaysWhereItsDigestStrays(t *testing.T) {
	cfg, err := sim.ParseQuery("rate=1000&service=10062ns&stall=500ms&every=0s&first=3s&duration=6s")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Run(cfg, "gatling-open")
	if err != nil {
		t.Fatal(err)
	}
	if o.P99Ns != 342e6 {
		t.Errorf("p99 %d ns, want 342 ms", o.P99Ns)
	}
	if len(o.Notes) == 0 || !strings.Contains(o.Notes[0], "99th") || !strings.Contains(o.Notes[0], "342") || !strings.Contains(o.Notes[0], "440") {
		t.Errorf("notes %q: want the 99th percentile's 342 ms against the times' 440 ms", o.Notes)
	}
}
