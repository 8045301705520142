package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
)

// The text printouts of ab, hey, fortio and locust (issue 27), read from
// their real output as captured in app/measure/testdata/real (README.md
// there says the command, machine and date of each). Each one's reader is
// in its reader_NAME.go; this file holds what they share.
//
//   - ab (ApacheBench 2.3, httpd 2.4.62 support/ab.c 996-1033 and
//     1185-1202): "Complete requests: N", the "Connection Times (ms)" table
//     (whole ms: ap_round_ms, (µs + 500)/1000, line 298) and "Percentage of
//     the requests served within a certain time (ms)": p% is the sample at
//     0-based index ⌊done·p/100⌋ of the sorted total times, in whole ms;
//     100% is the longest.
//   - hey (0.1.4, requester/print.go): "Slowest/Fastest/Average" in seconds
//     with 4 decimals, "Latency distribution:" with "p% in X secs" for 10,
//     25, 50, 75, 90, 95, 99, and "[200]\tN responses".
//   - fortio (1.66.0): "Aggregated Function Time : count N avg A +/- S min M
//     max X sum T" and the "# target p% V" lines under it (seconds;
//     interpolated within its histogram's buckets).
//   - locust (2.12.1): the "Aggregated" row of the request table (# reqs,
//     Avg, Min, Max, Med in whole ms) and of "Response time percentiles
//     (approximated)" (50% … 100%, whole ms of its rounded dict).

// secondsNs reads a decimal number of seconds ("0.000558762", "1e-05") as ns.
func secondsNs(s string) (int64, error) {
	if d, err := measure.ParseDecimal(s); err == nil {
		return d.Ns(1e9)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f > 1e9 {
		return 0, fmt.Errorf("expected a number of seconds, found %q", s)
	}
	return int64(math.Round(f * 1e9)), nil
}

// statedFromPoints copies each of the printed points pts that is a
// headline percentile into d.P as stated (every printout's reader: the
// percentages compared exactly).
func statedFromPoints(d *measure.Dist, pts []measure.Point) {
	for _, pt := range pts {
		for i, pn := range sim.Percentiles() {
			if float64(pn.PPM)/1e4 == pt.Percentile {
				d.P[i] = measure.Percentile{Ns: pt.Ns, How: measure.Stated}
			}
		}
	}
}

// The readers' line matchers (abPctLine, heyPctLine, …) work on
// whitespace-separated fields (no regexp: package regexp would add to
// app.wasm what hdrhistogram-go's was removed for). Each returns nil when
// the line is not of its form; isDigits is locust.go's.

// lastPrefixed is the index of the last line of ls that starts, trimmed,
// with prefix (-1: none): the last summary of a printout that holds
// several (Artillery's, Gatling's).
func lastPrefixed(ls []measure.Line, prefix string) int {
	at := -1
	for i, l := range ls {
		if strings.HasPrefix(strings.TrimSpace(l.Text), prefix) {
			at = i
		}
	}
	return at
}
