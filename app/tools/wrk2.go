package tools

import (
	"fmt"
	"omission/app/measure"
	"omission/sim/profile"
	"strings"

	"omission/app/units"
	"omission/sim"
)

// wrk2 (not packaged: derived from https://github.com/giltene/wrk2/blob/44a94c1/):
//   - src/wrk.c 266–281: each connection's throughput is rate/threads/1e6 per µs
//     over the connections; connects are staggered 5 ms apart (280, 337–342).
//   - src/wrk.c 433–472 usec_to_next_send: the next send is due at
//     thread_start + complete/throughput; when behind it catches up at twice
//     the throughput from the moment it fell behind.
//   - src/wrk.c 548–551, 597–612: a reply re-arms the writable event at
//     once and socket_writeable asks usec_to_next_send, so a connection
//     behind its schedule sends its next request at its reply: after a
//     stall it works through its backlog one round trip at a time (the
//     engine's wrk2Check at each reply; TestWrk2CatchUpRoundTrip). How
//     fast the connections drain together depends on the server's share
//     of the round trip: with the whole round trip as the service time of
//     one worker they take turns; with the server's service time and the
//     client's time per request (RunClient) their round trips overlap, as
//     the real wrk2's do.
//   - src/wrk.c 474–482, 601–611: when not due, a timer of
//     round(usec/1000 + 0.5) ms, re-checked when it fires.
//   - src/wrk.c 503–506, 518–521, 553–556: a reply records now −
//     (thread_start + complete_at_last_batch_start/throughput) into an
//     HdrHistogram (1 µs to 24 h, 3 digits); replies at or after stop_at are
//     not recorded.
//   - src/wrk.c 283–286, 344–369: after 10 s + 5 ms per connection the
//     histograms are reset (calibration), once some latency was recorded.
//   - src/wrk.c 160–247, 808–832: the printed layout, with
//     hdr_percentiles_print(h, stdout, 5, 1000.0, CLASSIC).
var wrk2Tool = Tool{
	name:      "wrk2",
	plain:     "Each connection sends on a fixed schedule, its share of the rate, and times each request from when it was due to leave, so a stall counts for every request it held up. A connection that fell behind sends at twice its rate until it is back on schedule. Its first 10 s (and 5 ms more per connection) calibrate it and are left out of the report.",
	mechanics: "wrk2 -t1 -R rate: conns connections, each paced at rate/conns from its staggered start (5 ms apart) by usec_to_next_send, catching up at twice that rate when behind, on millisecond timers; latency = reply − the scheduled send, on its µs clock; histograms reset at calibration (10 s + 5 ms per connection); HdrHistogram with 3 digits",
	source:    "https://github.com/giltene/wrk2/blob/44a94c1/src/wrk.c#L433-L472",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("wrk -t1 -c%d -d%s -R%d --latency %s", cfg.Conns, wrkSeconds(cfg.Duration), int64(cfg.Rate)/1000, target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.Wrk2Pace, Rate: cfg.Rate / 1000 * 1000,
			Stagger: 5e6, FromIntended: true, Clock: 1000, RecordUntil: cfg.Duration,
			Calibrate: (10000 + 5*int64(cfg.Conns)) * 1e6, CalibrateRetry: 10000 * 1e6}
	},
	summarise: wrk2Summarise,
	reads:     []measure.Format{FormatWrk2},
	rateFlag:  "-R",
}

// StartsAtConnect: wrk2 takes each connection's schedule start just
// before it connects (c->thread_start = time_us() in
// delayed_initial_connect, then connect_socket, src/wrk.c 337-341; the
// first request waits for the socket to become writable:
// socket_connected 573, socket_writeable 597-611), so its model's
// clock starts at the server's accept of its first request's
// connection. Only that connection's delay is used: the others keep
// the profile's 5 ms stagger.
var wrk2Real = Real{Bin: "wrk2", Install: "build it from github.com/giltene/wrk2: WRK2_GIT_DIR=<its git directory> " + InstallScript,
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		r := int64(cfg.Rate) / 1000
		if r < 1 || int64(cfg.Rate)%1000 != 0 {
			return nil, &sim.FieldError{Field: "rate", Value: cfg.Rate.String(), Allowed: "a whole number of requests per second for wrk2's -R"}
		}
		return []string{"-t1", fmt.Sprintf("-c%d", cfg.Conns), "-d" + wholeSeconds(cfg), fmt.Sprintf("-R%d", r), "--latency", "-U", "http://" + addr + "/"}, nil
	},
	RoundTrip: func(f *measure.File, _ string) *measure.Dist {
		for i := range f.Dists {
			if strings.HasPrefix(strings.ToLower(f.Dists[i].Label), "uncorrected") {
				return &f.Dists[i]
			}
		}
		return nil
	},
	ClockFit: true, StartsAtConnect: true}

// wrk2Summarise prints what wrk2 would for the run (src/wrk.c 160–247,
// 808–832) and reads its percentiles off the recorded histogram.
func wrk2Summarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	N := int64(cfg.Conns)
	us := make([]int64, len(pr.Latency))
	for i, v := range pr.Latency {
		us[i] = v / 1000
	}
	h, err := newCHdr(us)
	if err != nil {
		return err
	}
	if cfg.Rate%1000 != 0 {
		o.Notes = append(o.Notes, fmt.Sprintf("wrk2's -R is a whole number: the rate %s/s runs as %d/s", cfg.Rate, int64(cfg.Rate)/1000))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Running %s test @ %s\n", formatTimeS(ldF(float64(cfg.Duration)/1e9)), target)
	fmt.Fprintf(&b, "  1 threads and %d connections\n", N)
	rates, err := wrk2Calibration(&b, cfg, pr)
	if err != nil {
		return err
	}
	if err := wrk2Distribution(&b, h, rates); err != nil {
		return err
	}
	complete := wrk2Complete(cfg, pr)
	runtimeUs := cfg.Duration / 1000
	fmt.Fprintf(&b, "  %d requests in %s, %sB read\n", complete, formatTimeUs(ldInt(runtimeUs)), formatBinary(ldInt(0)))
	runtimeS := float64(runtimeUs) / 1000000.0
	fmt.Fprintf(&b, "Requests/sec: %9s\n", ldInt(complete).quo(ldF(runtimeS)).fixed(2))
	fmt.Fprintf(&b, "Transfer/sec: %10sB\n", formatBinary(ldInt(0)))
	o.Text = b.String()

	for i, p := range sim.Percentiles() {
		*o.Ps()[i] = h.valueAtPercentile(p.Percent()) * 1000
	}
	o.MaxNs = h.max() * 1000
	if pr.Calibrated == 0 {
		o.Notes = append(o.Notes, "the run ends before wrk2's calibration (10 s + 5 ms per connection): nothing is discarded, and wrk2 samples no request rate")
	} else {
		o.Notes = append(o.Notes, fmt.Sprintf("calibration at %s discarded what was recorded before it", units.DurationSig(float64(pr.Calibrated), 6)))
	}
	o.Notes = append(o.Notes, "bytes are not modelled: wrk2's read and transfer figures print 0")
	return nil
}

// wrk2Calibration prints the "Thread calibration" line, from what was
// recorded before the calibration (src/wrk.c 344–369), and returns the
// request rates sampled after it; nothing when the run ends before it.
func wrk2Calibration(b *strings.Builder, cfg sim.Config, pr *profile.Result) ([]int64, error) {
	T := pr.Calibrated
	if T <= 0 {
		return nil, nil
	}
	var before []int64
	for i, d := range pr.Done {
		if d < T {
			before = append(before, d/1000-pr.Intended[i]/1000)
		}
	}
	hc, err := newCHdr(before)
	if err != nil {
		return nil, err
	}
	mean := uint64(hc.mean())
	latency := ldInt(hc.valueAtPercentile(90.0)).quo(ldF(1000.0))
	interval := latency.mul(ldInt(2))
	if interval.cmp(ldInt(10)) < 0 {
		interval = ldInt(10)
	}
	iv := int64(interval.float()) // thread->interval is an int
	fmt.Fprintf(b, "  Thread calibration: mean lat.: %.3fms, rate sampling interval: %dms\n", float64(mean)/1000.0, iv)
	return wrk2SampleRates(cfg, pr, iv), nil
}

// wrk2SampleRates is sample_rate every iv ms from the calibration to the
// end of the run (src/wrk.c 391–405): the replies of each interval per
// second.
func wrk2SampleRates(cfg sim.Config, pr *profile.Result, iv int64) []int64 {
	T := pr.Calibrated
	var rates []int64
	replies := pr.ReplyTimes()
	k := 0
	for k < len(replies) && replies[k] <= T {
		k++
	}
	prev := T
	for tick := T + iv*1e6; tick < cfg.Duration; tick += iv * 1e6 {
		reqs := int64(0)
		for k < len(replies) && replies[k] <= tick {
			reqs++
			k++
		}
		elapsedMs := (tick - prev) / 1e6
		rates = append(rates, int64(float64(reqs)/float64(elapsedMs)*1000))
		prev = tick
	}
	return rates
}

// wrk2Distribution prints the thread stats of the latency and of the
// sampled request rates, the "Latency Distribution" percentiles and the
// detailed percentile spectrum (src/wrk.c 160–247, 808–832).
func wrk2Distribution(b *strings.Builder, h *cHdr, rates []int64) error {
	hr, err := newCHdr(rates)
	if err != nil {
		return err
	}
	rateMax := int64(0)
	for _, r := range rates {
		rateMax = max(rateMax, r)
	}

	fmt.Fprintf(b, "  Thread Stats%6s%11s%8s%12s\n", "Avg", "Stdev", "Max", "+/- Stdev")
	hdrStats(b, "Latency", h, h.max(), formatTimeUs)
	hdrStats(b, "Req/Sec", hr, rateMax, formatMetric)
	b.WriteString("  Latency Distribution (HdrHistogram - Recorded Latency)\n")
	for _, p := range []float64{50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0} {
		fmt.Fprintf(b, "%7.3f%%", p)
		printUnits(b, ldInt(h.valueAtPercentile(p)), formatTimeUs, 10)
		b.WriteString("\n")
	}
	b.WriteString("\n  Detailed Percentile spectrum:\n")
	h.percentilesPrint(b, 5, 1000.0)
	b.WriteString("----------------------------------------------------------\n")
	return nil
}

// wrk2Complete is the requests wrk2 reports completed: the replies, and
// the first reply at or after stop_at, which is counted (thread->complete++)
// before it stops the loop, when it comes before check_timeouts does.
func wrk2Complete(cfg sim.Config, pr *profile.Result) int64 {
	N := int64(cfg.Conns)
	complete := pr.Replies
	stopTick := (2000 + 5*N) * 1e6
	for stopTick < cfg.Duration {
		stopTick += 2000 * 1e6
	}
	for _, d := range pr.Done {
		if d >= cfg.Duration && d < stopTick {
			complete++
			break
		}
	}
	return complete
}

// hdrStats is wrk2's print_stats with a histogram behind the stats (mean
// and deviation from hdr_mean and hdr_stddev; src/wrk.c 808–818).
func hdrStats(b *strings.Builder, name string, h *cHdr, mx int64, f func(ld) string) {
	b.WriteString("    " + name + strings.Repeat(" ", max(0, 10-len(name))))
	if h.total == 0 {
		// 0/0: the mean and deviation are NaN, which printf writes as -nan.
		printText(b, "-nan", 8)
		printText(b, "-nan", 10)
		printUnits(b, ldInt(mx), f, 9)
		b.WriteString(padLeft("0.00", 8) + "%\n")
		return
	}
	mean, stdev := ldF(h.mean()), ldF(h.stddev())
	printUnits(b, mean, f, 8)
	printUnits(b, stdev, f, 10)
	printUnits(b, ldInt(mx), f, 9)
	w, _ := h.within(mean, stdev)
	b.WriteString(padLeft(ldF(w).fixed(2), 8) + "%\n")
}

// printText is print_units for a message already formatted.
func printText(b *strings.Builder, msg string, width int) {
	printUnits(b, ld{}, func(ld) string { return msg }, width)
}
