//go:build !minimal

package tools

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"omission/app/internal/k6gauge"
	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// k6Made is a k6 run built by hand from k6's mechanics (k6executor.go):
// each request's send and duration, each dropped iteration's due time.
func k6Made(sends, durs, dropped []int64) *profile.Result {
	n := len(sends)
	pr := &profile.Result{Send: sends, Done: make([]int64, n), Rec: make([]bool, n), DroppedAt: dropped, Recorded: int64(n), Replies: int64(n)}
	for i := range sends {
		pr.Done[i], pr.Rec[i] = sends[i]+durs[i], true
		pr.End = max(pr.End, pr.Done[i])
	}
	return pr
}

var k6Stamp = regexp.MustCompile(`(?m)^[a-z_]+,[^,]+,`)

// withGauge rewrites a file's vus ticks to active(t), t from the epoch.
func withGauge(t *testing.T, file string, csv bool, active func(t int64) int64) string {
	out, n, err := k6gauge.Rewrite(file, csv, active)
	if err != nil || n == 0 {
		t.Fatalf("the file's vus ticks: %d rewritten, %v", n, err)
	}
	return out
}

// busy is arrival-rate's gauge: the VUs in an iteration at t.
func busy(pr *profile.Result) func(t int64) int64 {
	return func(t int64) int64 {
		var n int64
		for i := range pr.Send {
			if pr.Send[i] <= t && t < pr.Done[i] {
				n++
			}
		}
		return n
	}
}

// TestK6Executors: what a k6 per-request file's vus gauge and sends show
// of its executor. A ramping-vus run (VUs joining one a second) and a
// ramping-arrival-rate run (50/s to 200/s) are refused, naming what shows
// it; a constant-arrival-rate run through a stall, whose gauge moves with
// its busy VUs, is read as paced (constant-vus ruled out); a constant-vus
// run through a stall, its gauge steady, is left to both readings.
func TestK6Executors(t *testing.T) {
	const ms = int64(1e6)
	var cases []struct {
		name              string
		pr                *profile.Result
		conns             int
		active            func(int64) int64
		unmodelled, paced bool
	}
	add := func(name string, pr *profile.Result, conns int, active func(int64) int64, unmodelled, paced bool) {
		cases = append(cases, struct {
			name              string
			pr                *profile.Result
			conns             int
			active            func(int64) int64
			unmodelled, paced bool
		}{name, pr, conns, active, unmodelled, paced})
	}
	{ // ramping-vus: VU v joins at v s, back to back at 10 ms, until 5 s
		var sends, durs []int64
		for v := int64(0); v < 4; v++ {
			for at := v * 1000 * ms; at < 5000*ms; at += 10 * ms {
				sends, durs = append(sends, at), append(durs, 10*ms)
			}
		}
		add("ramping-vus", k6Made(sends, durs, nil), 4, func(t int64) int64 { return min(t/(1000*ms)+1, 4) }, true, false)
	}
	{ // ramping-arrival-rate: 50/s rising to 200/s over 5 s, 2 ms each
		var sends, durs []int64
		for at := 0.0; at < 5; at += 1 / (50 + 30*at) {
			sends, durs = append(sends, int64(at*1e9)), append(durs, 2*ms)
		}
		pr := k6Made(sends, durs, nil)
		add("ramping-arrival-rate", pr, 5, busy(pr), true, false)
	}
	{ // constant-arrival-rate, 100/s for 5 s, a stall from 2 s to 2.3 s
		var sends, durs []int64
		for at := int64(0); at < 5000*ms; at += 10 * ms {
			d := 2 * ms
			if at >= 2000*ms && at < 2300*ms {
				d = 2300*ms - at + 2*ms
			}
			sends, durs = append(sends, at), append(durs, d)
		}
		pr := k6Made(sends, durs, nil)
		add("constant-arrival-rate", pr, 40, busy(pr), false, true)
	}
	{ // constant-vus, 2 VUs back to back at 10 ms for 5 s, the same stall
		var sends, durs []int64
		for v := 0; v < 2; v++ {
			for at := int64(0); at < 5000*ms; {
				d := 10 * ms
				if at >= 2000*ms && at < 2300*ms {
					d = 2300*ms - at + 10*ms
				}
				sends, durs = append(sends, at), append(durs, d)
				at += d
			}
		}
		add("constant-vus", k6Made(sends, durs, nil), 2, func(int64) int64 { return 2 }, false, false)
	}
	for _, c := range cases {
		cfg := sim.Default()
		cfg.Conns, cfg.Duration = c.conns, 5e9
		for _, form := range []string{"json", "csv", "csv in whole seconds"} {
			csv := form != "json"
			file := withGauge(t, k6JSON(cfg, c.pr), false, c.active)
			if csv {
				file = withGauge(t, k6CSV(cfg, c.pr), true, c.active)
			}
			if form == "csv in whole seconds" { // timeFormat unix, k6's default
				file = k6Stamp.ReplaceAllStringFunc(file, func(m string) string {
					i := strings.IndexByte(m, ',')
					if m[:i] == "metric_name" {
						return m // the header
					}
					at, err := time.Parse(time.RFC3339Nano, m[i+1:len(m)-1])
					if err != nil {
						t.Fatal(err)
					}
					return m[:i+1] + strconv.FormatInt(at.Unix()+1_700_000_000, 10) + ","
				})
			}
			f, err := measure.Parse("run", []byte(file))
			if err != nil {
				t.Fatal(err)
			}
			s, _ := StatedIn(f.Format, []byte(file), &f.Dists[0])
			name := c.name + ", " + form
			if s.Conns != c.conns {
				t.Errorf("%s: %d VUs read, want vus_max's %d", name, s.Conns, c.conns)
			}
			if form == "csv in whole seconds" && c.unmodelled && s.Unmodelled == "" {
				// Whole seconds blur the sends: a ramp that does not show
				// is read as constant-arrival-rate's, saying so.
				if !s.PacedKnown || s.Assumes == nil || !strings.Contains(s.Assumes.If, "whole-second") {
					t.Errorf("%s: neither refused nor read with the condition stated: %+v", name, s)
				}
				continue
			}
			if got := s.Unmodelled != ""; got != c.unmodelled {
				t.Errorf("%s: refused %v (%q), want %v", name, got, s.Unmodelled, c.unmodelled)
			}
			if c.unmodelled && !strings.Contains(s.Unmodelled, "first half") {
				t.Errorf("%s: the refusal does not say what the sends show: %q", name, s.Unmodelled)
			}
			if got := s.PacedKnown && s.Paced; got != c.paced {
				t.Errorf("%s: read as paced %v, want %v", name, got, c.paced)
			}
		}
	}
}
