package tools

import (
	"slices"
	"strings"
	"testing"

	"omission/app/measure"
)

// TestAbRule holds the ab profile to ab's rules computed afresh from the
// run it played: it saves every reply before the -t deadline and those of
// the first instant at or after it; p% is the saved time at 0-based index
// ⌊n·p/100⌋ of the sorted µs times, rounded to whole ms; and its printout,
// read back by package measure's ab parser (the one that reads real ab),
// gives the same count, percentiles and longest request.
func TestAbRule(t *testing.T) {
	for _, q := range []string{
		"stall=100ms&every=1s&first=500ms&duration=3s&service=1ms",
		"stall=300ms&every=700ms&first=100ms&duration=2s&service=150us&conns=3",
		"stall=0s&duration=1s&service=2ms&conns=2",
	} {
		cfg := mustConfig(t, q)
		o, err := Run(cfg, "ab")
		if err != nil {
			t.Fatal(err)
		}
		pr := o.Run
		deadline := abSeconds(cfg.Duration) * 1e9
		var times []int64
		first := int64(-1)
		for _, i := range pr.ReplyOrder() {
			if d := pr.Done[i]; d >= deadline {
				if first < 0 {
					first = d
				} else if d != first {
					continue
				}
			}
			times = append(times, pr.Done[i]/1000-pr.Send[i]/1000)
		}
		slices.Sort(times)
		n := int64(len(times))
		if n < 100 || o.Recorded != n {
			t.Fatalf("%s: ab saved %d, the rule %d", q, o.Recorded, n)
		}
		for k, p := range []struct {
			ppm int64
			got int64
		}{{500000, o.P50Ns}, {900000, o.P90Ns}, {990000, o.P99Ns}, {999000, o.P999Ns}} {
			want := (times[n*p.ppm/1000000] + 500) / 1000 * 1e6
			if p.got != want {
				t.Errorf("%s: percentile %d: %d, the rule %d", q, k, p.got, want)
			}
		}
		f, err := measure.Parse("ab.txt", []byte(o.Text))
		if err != nil {
			t.Fatalf("%s: the printout does not read back: %v\n%s", q, err, o.Text)
		}
		d := f.Dists[0]
		if f.Format != FormatAb || d.Count != n || d.P[0].Ns != o.P50Ns || d.P[1].Ns != o.P90Ns || d.P[2].Ns != o.P99Ns || d.MaxNs != o.MaxNs {
			t.Errorf("%s: read back %s count %d p50 %d p90 %d p99 %d max %d; the profile %d %d %d %d %d",
				q, f.Format, d.Count, d.P[0].Ns, d.P[1].Ns, d.P[2].Ns, d.MaxNs, n, o.P50Ns, o.P90Ns, o.P99Ns, o.MaxNs)
		}
	}
}

// TestAbNClosedForm: ab -n on the bench server (one worker, 100 µs) with
// two connections, a 100 ms stall every second from 500 ms: N = 5000/s × 3 s
// = 15 000 requests are 1.5 s of service, and the stalls at 0.5 s and 1.5 s
// fall inside the run, so the last reply is at exactly 1.7 s; the longest
// request is the one that met a stall at its start, 100.1 ms, printed 100.
func TestAbNClosedForm(t *testing.T) {
	cfg := mustConfig(t, "stall=100ms&every=1s&first=500ms&duration=3s&conns=2&rate=5000")
	o, err := Run(cfg, "ab-n")
	if err != nil {
		t.Fatal(err)
	}
	if o.Recorded != 15000 || o.MaxNs != 100e6 || !strings.Contains(o.Text, "Time taken for tests:   1.700 seconds\n") || !strings.Contains(o.Text, "Complete requests:      15000\n") {
		t.Errorf("recorded %d, max %d ns:\n%s", o.Recorded, o.MaxNs, o.Text)
	}
	if o.Command != "ab -k -c 2 -n 15000 "+target {
		t.Errorf("command %q", o.Command)
	}
}
