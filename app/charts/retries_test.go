package charts

import (
	"strings"
	"testing"

	"omission/app/units"
	"omission/sim"
)

// TestRetriesOverTime: in a run with retries the latency panels draw the
// retries per interval (the series' counts, which sum to each client's
// RetryCounts.Retries), named in the legend and counted in the caption; the
// queue panels add the attempts in flight, whose time integral is Little's
// law over attempts at the client (the run's check little.attempts: ∫
// attempts in flight dt, the same integer), never above the calls in
// flight, with a table column each. A run without retries has none of it.
func TestRetriesOverTime(t *testing.T) {
	for _, q := range []string{"preset=retry-storm", "rate=800&service=1ms&workers=1&queue=3&attempts=4&backoff=3ms&stall=0&duration=1s&arrivals=poisson&dist=exponential&conns=2"} {
		res := run(t, q)
		rc := retriesOf(res)
		if rc == nil {
			t.Fatalf("%s: no retries to chart", q)
		}
		lt := render(t, res, LatencyTime, Options{})
		if !strings.Contains(lt.SVG, ">retries sent</text>") {
			t.Errorf("%s: no retries in the latency legend", q)
		}
		var any int64
		for i, c := range sim.Clients() {
			want := res.Engine.Clients[c].Retry.Retries
			if rc.sum[i] != want {
				t.Errorf("%s %s: the bars hold %d retries, the run sent %d", q, c, rc.sum[i], want)
			}
			if !strings.Contains(lt.Caption, c.String()+" "+units.Count(want)) {
				t.Errorf("%s %s: the caption does not count %d retries: %s", q, c, want, lt.Caption)
			}
			any += want
		}
		if any == 0 {
			t.Fatalf("%s: no retry at all: the test checks nothing", q)
		}
		qd := render(t, res, QueueDepth, Options{})
		qc, ok := queueData(res, Options{Width: 800})
		if !ok {
			t.Fatalf("%s: no queue data", q)
		}
		for i, c := range sim.Clients() {
			cd := &qc.clients[i]
			if !cd.attempts {
				t.Fatalf("%s %s: no attempts in flight drawn", q, c)
			}
			ch := res.CheckFor("little.attempts." + c.String())
			if ch == nil || !ch.Pass {
				t.Fatalf("%s %s: check little.attempts %+v", q, c, ch)
			}
			T := float64(res.Engine.Clients[c].End)
			if got := float64(cd.attArea) / T; got != ch.Got {
				t.Errorf("%s %s: ∫ attempts in flight dt / T = %v, Little's law over attempts gives %v", q, c, got, ch.Got)
			}
			for k := range cd.attCols {
				if cd.attCols[k] > cd.sentCols[k] {
					t.Fatalf("%s %s: column %d has %d attempts in flight, %d calls", q, c, k, cd.attCols[k], cd.sentCols[k])
				}
			}
			if !strings.Contains(qd.Caption, "up to "+itoa(cd.attPeak)+" attempts in flight") || !strings.Contains(strings.Join(qd.Table.Header, "|"), c.String()+" attempts in flight") {
				t.Errorf("%s %s: the queue caption or table lacks the attempts in flight: %s", q, c, qd.Caption)
			}
		}
		if !strings.Contains(qd.SVG, ">attempts in flight (no backoff)</text>") {
			t.Errorf("%s: no attempts in the queue legend", q)
		}
	}
	res := bench(t)
	for _, k := range []Kind{LatencyTime, QueueDepth} {
		if ch := render(t, res, k, Options{}); strings.Contains(ch.SVG, "retries sent") || strings.Contains(ch.SVG, "attempts in flight") || strings.Contains(ch.Caption, "Retries") {
			t.Errorf("%s: a run without retries shows retries", k)
		}
	}
}
