package tools

import (
	"fmt"
	"omission/app/measure"
	"omission/sim/profile"
	"strings"

	"omission/app/units"
	"omission/sim"
)

// wrk 4.1 (Debian's package; src/ is unchanged from 4.1.0 to a211dd5).
// Sources, at https://github.com/wg/wrk/blob/a211dd5/:
//   - src/wrk.c 399–400: c->start = time_us() when a request is written;
//     344: the reply records now − start; 450–454 time_us is gettimeofday's
//     microseconds.
//   - src/wrk.c 91: the latency array ends at the timeout (2000 ms,
//     src/wrk.h 22); stats_record refuses larger values and wrk counts them
//     as timeouts (344–346).
//   - src/wrk.c 146–147, 286: the run stops after -d seconds.
//   - src/wrk.c 168–171: interval = runtime_us / (complete / connections),
//     then stats_correct (src/stats.c 33–43).
//   - src/wrk.c 273–289: every 100 ms each thread records its request rate.
//   - src/wrk.c 137–139, 173–191, 546–585: the printed layout.
var wrkTool = Tool{
	name:      "wrk",
	plain:     "Each connection sends its next request as soon as the last reply is in, so a stall holds it up and the requests that fell due meanwhile are never sent. Afterwards wrk adds, for every reply slower than its average interval between requests, the samples it would have taken meanwhile at that pace: the reply's time less one interval, less two, and so on down to one interval.",
	mechanics: "wrk 4.1 -t1: conns connections back to back for the duration; latency = reply − send on its µs clock, kept up to its 2 s timeout; afterwards stats_correct re-adds v − I, v − 2I, … > I with I = runtime / (requests / connections); --latency prints 50/75/90/99% by rank round(p·n + 0.5) over that array",
	source:    "https://github.com/wg/wrk/blob/a211dd5/src/stats.c#L33-L43",
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("wrk -t1 -c%d -d%s --latency %s", cfg.Conns, wrkSeconds(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, Clock: 1000,
			RecordUntil: cfg.Duration, RecordMax: wrkTimeoutUs * 1000}
	},
	summarise: wrkSummarise,
	reads:     []measure.Format{FormatWrk},
}

// wrkReal is how the experiment runs wrkTool.
var wrkReal = Real{Bin: "wrk", Install: "on Debian: apt-get install wrk",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-t1", fmt.Sprintf("-c%d", cfg.Conns), "-d" + wholeSeconds(cfg), "--latency", "http://" + addr + "/"}, nil
	},
	PredictedRequests: func(o *Output) int64 { return o.Run.Replies }, RunLength: wrkRunLength}

const wrkTimeoutUs = 2000 * 1000 // SOCKET_TIMEOUT_MS × 1000: the array's last index

// wrkSeconds writes the duration as wrk's -d takes it: whole seconds,
// rounded up (scan_time reads an integer; so do wrk2's -d and locust's -t).
func wrkSeconds(ns int64) string {
	return fmt.Sprintf("%ds", abSeconds(ns))
}

func wrkSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	N := int64(cfg.Conns)
	// wrk's array has a slot per µs up to its timeout (wrkTimeoutUs); this
	// one stops at the largest sample, which is all the loops read (a 2 M
	// slot array cleared per run was most of the page's fit time).
	mn, mx := int64(1)<<62, int64(0)
	for _, v := range pr.Latency {
		u := v / 1000
		mn, mx = min(mn, u), max(mx, u)
	}
	data := make([]int64, mx+1)
	for _, v := range pr.Latency {
		data[v/1000]++
	}
	count := pr.Recorded
	complete := pr.Replies
	timeouts := complete - count
	runtimeUs := cfg.Duration / 1000
	if complete/N > 0 {
		interval := runtimeUs / (complete / N)
		added, err := profile.WrkStatsCorrect(data, mx, interval)
		if err != nil {
			return err
		}
		count += added
		o.Notes = append(o.Notes, fmt.Sprintf("stats_correct: interval %s added %d samples to the %d recorded", units.DurationSig(float64(interval)*1e3, 6), added, pr.Recorded))
	}
	lat := newCArray(data, mn, mx, count)

	// Req/Sec: record_rate every 100 ms while requests came in.
	var rates []int64
	replies := pr.ReplyTimes()
	start, k, reqs := int64(0), 0, int64(0)
	for tick := int64(100e6); tick <= cfg.Duration; tick += 100e6 {
		for k < len(replies) && replies[k] <= tick {
			reqs++
			k++
		}
		if reqs > 0 {
			elapsedMs := (tick - start) / 1e6
			rates = append(rates, int64(float64(reqs)/float64(elapsedMs)*1000))
			reqs, start = 0, tick
		}
	}
	rps := sparseCArray(rates, 10000000+1) // MAX_THREAD_RATE_S

	var b strings.Builder
	fmt.Fprintf(&b, "Running %s test @ %s\n", formatTimeS(ldF(float64(cfg.Duration)/1e9)), target)
	fmt.Fprintf(&b, "  1 threads and %d connections\n", N)
	fmt.Fprintf(&b, "  Thread Stats%6s%11s%8s%12s\n", "Avg", "Stdev", "Max", "+/- Stdev")
	lat.printStats(&b, "Latency", formatTimeUs)
	rps.printStats(&b, "Req/Sec", formatMetric)
	b.WriteString("  Latency Distribution\n")
	for _, p := range []float64{50, 75, 90, 99} {
		fmt.Fprintf(&b, "%7.0f%%", p)
		printUnits(&b, ldInt(lat.percentile(p)), formatTimeUs, 10)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  %d requests in %s, %sB read\n", complete, formatTimeUs(ldInt(runtimeUs)), formatBinary(ldInt(0)))
	if timeouts > 0 {
		fmt.Fprintf(&b, "  Socket errors: connect 0, read 0, write 0, timeout %d\n", timeouts)
	}
	runtimeS := float64(runtimeUs) / 1000000.0 // a double (src/wrk.c 164)
	fmt.Fprintf(&b, "Requests/sec: %9s\n", ldInt(complete).quo(ldF(runtimeS)).fixed(2))
	fmt.Fprintf(&b, "Transfer/sec: %10sB\n", formatBinary(ldInt(0)))
	o.Text = b.String()

	for i, p := range sim.Percentiles() {
		*o.Ps()[i] = lat.percentile(p.Percent()) * 1000
	}
	o.MaxNs = lat.max * 1000
	o.Notes = append(o.Notes, "bytes are not modelled: wrk's read and transfer figures print 0")
	return nil
}

// wrkRunLength reads how long a wrk run lasted from its printout: wrk 4.1
// sets stop after sleep(duration) (src/wrk.c 146-147), but a thread's loop
// ends only at its next record_rate timer, every RECORD_INTERVAL_MS = 100
// ms from the thread's start (src/wrk.c 225, 273-288; src/wrk.h 23), and
// sends until then; the time printed is from before the sleep to the
// threads' end (src/wrk.c 141, 163). So a run of -d3s lasts 3.00 s or
// 3.10 s, by where the timer's ticks fall against the sleep's end: in
// testdata/predict-runs-repeat-2026-12-03.json two runs of the same
// scenario one after the other printed one each, and their request counts
// differ by 3 %. Read to the printout's 10 ms.
func wrkRunLength(out string) (int64, string, bool) {
	n, printed, ok := wrkRunTime(out)
	if !ok {
		return 0, "", false
	}
	return n, fmt.Sprintf("wrk's own run time, \"requests in %s\" (its threads stop at their next 100 ms timer after -d, so a run lasts up to 0.1 s longer)", printed), true
}
