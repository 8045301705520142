package tools

import (
	"cmp"
	"fmt"
	"math"
	"omission/app/measure"
	"omission/sim/profile"
	"slices"
	"strings"

	"omission/sim"
)

// ab, ApacheBench 2.3 (Debian's apache2-utils; httpd 2.4.62
// support/ab.c, https://github.com/apache/httpd/blob/2.4.62/support/ab.c):
//   - 2461–2462: -t T sets the time limit and sizes the sample array to
//     MAX_REQUESTS (50000, line 245); an -n given after -t raises it again,
//     hence -n 1000000 in the command.
//   - 1998, 2111: the run loops while lasttime < stoptime (start + T) and
//     done < requests. lasttime is set at every reply and every write
//     (1827, 919), and checked after each poll: the replies of the first
//     wake-up at or after the deadline are still saved, the ones in flight
//     after it are not.
//   - 1796–1828 (with -k): a reply saves s->time = c->done − c->start,
//     and the next request is written at once with c->start = now: latency
//     = reply − send on apr_time_now's µs clock, back to back on each of
//     the -c connections. 1776–1781: connections 2 … c are opened when the
//     first reply's head arrives (not modelled: they start at 0 here).
//   - 1760–1762: -k needs "Keep-Alive" in the reply head.
//   - 1037–1066, 1092–1123: min, mean (integer µs division), sample
//     standard deviation and the median (for an odd count the mean of
//     elements n/2 and n/2+1 of the sorted array, as written), each then
//     rounded to whole ms by ap_round_ms, (µs + 500)/1000 (298).
//   - 1189–1202: "Percentage of the requests served within a certain time
//     (ms)": for p in 50, 66, 75, 80, 90, 95, 98, 99 (percs, 397) the
//     element at 0-based index ⌊done·p/100⌋ of the times sorted ascending
//     (comprando, 937), and 100 % the longest, all ap_round_ms.
//   - 1015–1025: requests per second = done / timetaken, time per request
//     = concurrency · timetaken · 1000 / done and timetaken · 1000 / done,
//     timetaken = (lasttime − start) / 10⁶ (973).
var abTool = Tool{
	name:      "ab",
	plain:     "A fixed number of keep-alive connections, each sending its next request as soon as the last reply is in, until the time is up: during a stall they wait, and the requests that fell due meanwhile are never sent. It sorts the times it kept and prints, in whole milliseconds, the time that p in a hundred of them do not pass, for a few percentages up to 99, and the longest.",
	mechanics: "ab -k -c conns -t D: conns connections back to back until the deadline (the replies of the first wake-up at or after it still count, later ones in flight do not); latency = reply − send on a µs clock; p% = sorted[⌊n·p/100⌋] (0-based), printed as round(µs/1000) ms for 50, 66, 75, 80, 90, 95, 98, 99 and 100 %",
	source:    "https://github.com/apache/httpd/blob/2.4.62/support/ab.c#L1189-L1202",
	zero:      &Zero{Printed: "0", Unit: "ms", Why: "ab prints whole milliseconds, (µs + 500)/1000: a time below 0.5 ms prints 0"},
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("ab -k -c %d -t %d -n %d %s", cfg.Conns, abSeconds(cfg.Duration), abRequests, target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, Clock: 1000,
			Duration: abSeconds(cfg.Duration) * 1e9}
	},
	summarise: abSummarise,
	reads:     []measure.Format{FormatAb},
	unit:      PrintUnit{Ns: 1e6, Words: "whole ms"},
}

// abReal is how the experiment runs abTool.
var abReal = Real{Bin: "ab", Install: "on Debian: apt-get install apache2-utils",
	Args: func(cfg sim.Config, addr, _ string) ([]string, error) {
		return []string{"-k", "-c", fmt.Sprint(cfg.Conns), "-t", fmt.Sprint(cfg.Duration / 1e9), "-n", "1000000", "http://" + addr + "/"}, nil
	}}

// abRequests is the command's -n: the most requests ab saves.
const abRequests = 1000000

// abSeconds is -t: whole seconds (atoi), at least 1, rounded up.
func abSeconds(ns int64) int64 { return max((ns+999999999)/1e9, 1) }

// abMs is ap_round_ms.
func abMs(us int64) int64 { return (us + 500) / 1000 }

// abSaved returns the indices of the requests ab saves, in reply order: every
// reply before the deadline and those of the first instant at or after it,
// at most -n.
func abSaved(pr *profile.Result, deadline int64) []int {
	order := pr.ReplyOrder()
	var out []int
	first := int64(-1)
	for _, i := range order {
		d := pr.Done[i]
		if d >= deadline {
			if first < 0 {
				first = d
			}
			if d != first {
				break
			}
		}
		out = append(out, i)
		if len(out) == abRequests {
			break
		}
	}
	return out
}

func abSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	deadline := abSeconds(cfg.Duration) * 1e9
	saved := abSaved(pr, deadline)
	var lasttime int64
	for _, i := range saved {
		lasttime = max(lasttime, pr.Done[i])
	}
	// The loop ends at or after the deadline.
	return abPrint(cfg, pr, o, saved, max(lasttime, deadline))
}

// abNTool is ab -n N without -t: write_request and start_connect start at
// most N requests (support/ab.c 848-850, 1393: started < requests), and
// the run ends when all N are done (2111). N is the query's planned count,
// rate × duration.
var abNTool = Tool{
	name:      "ab-n",
	plain:     "As ab with a number of requests instead of a time: the connections send back to back until that many have been sent, and the run lasts until the last reply, however long the stalls make it. It prints the same table.",
	mechanics: "ab -k -c conns -n N, N = rate × duration: conns connections back to back, at most N requests started, the run ends at the N-th reply; latency = reply − send on a µs clock; p% = sorted[⌊N·p/100⌋], printed as round(µs/1000) ms",
	source:    "https://github.com/apache/httpd/blob/2.4.62/support/ab.c#L846-L850",
	zero:      abTool.zero,
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("ab -k -c %d -n %d %s", cfg.Conns, abN(cfg), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack, Clock: 1000, Duration: abNBound(cfg)}
	},
	summarise: abNSummarise,
}

// abN is -n: the query's planned requests.
func abN(cfg sim.Config) int64 { return max(sim.NewSchedule(cfg.Rate).Count(cfg.Duration), 1) }

// abNBound is a run length by which the model's connections have sent N
// requests: N services spread over the connections the server serves at
// once, stretched by the share of each period the stalls take, plus a
// stall and a second.
func abNBound(cfg sim.Config) int64 {
	busy := int64(cfg.Conns)
	if cfg.Workers > 0 {
		busy = min(busy, int64(cfg.Workers))
	}
	work := float64(abN(cfg)) * float64(max(cfg.Service, 1)) / float64(busy)
	if cfg.Stall > 0 && cfg.Every > 0 {
		work *= float64(cfg.Every) / float64(cfg.Every-cfg.Stall)
	}
	return min(int64(work*1.25)+cfg.Stall+1e9, sim.MaxDuration)
}

func abNSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	n := abN(cfg)
	// The first N requests sent, in send order (the runner's order), and
	// their replies: a later send cannot delay an earlier one's reply.
	idx := make([]int, 0, n)
	for i := range pr.Send {
		if int64(len(idx)) == n {
			break
		}
		idx = append(idx, i)
	}
	if int64(len(idx)) < n {
		return fmt.Errorf("ab -n %d: the model sent only %d requests in %s", n, len(idx), sim.FormatDuration(pr.Profile.Duration))
	}
	var lasttime int64
	for _, i := range idx {
		lasttime = max(lasttime, pr.Done[i])
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(pr.Done[a], pr.Done[b]) })
	return abPrint(cfg, pr, o, idx, lasttime)
}

// abPrint writes ab's printout for the saved requests (in reply order) and
// the run's end, lasttime.
func abPrint(cfg sim.Config, pr *profile.Result, o *Output, saved []int, lasttime int64) error {
	done := int64(len(saved))
	o.Recorded = done
	times := make([]int64, done) // µs
	for k, i := range saved {
		times[k] = pr.Done[i]/1000 - pr.Send[i]/1000 // apr_time_now's µs
	}
	var b strings.Builder
	b.WriteString("This is ApacheBench, Version 2.3 <$Revision$>\n")
	b.WriteString("Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/\n")
	b.WriteString("Licensed to The Apache Software Foundation, http://www.apache.org/\n\n")
	b.WriteString("Benchmarking 127.0.0.1 (be patient)\n\n\n")
	b.WriteString("Server Software:        \nServer Hostname:        127.0.0.1\nServer Port:            8080\n\n")
	b.WriteString("Document Path:          /\nDocument Length:        2 bytes\n\n")
	timetaken := float64(lasttime/1000) / 1e6
	fmt.Fprintf(&b, "Concurrency Level:      %d\n", cfg.Conns)
	fmt.Fprintf(&b, "Time taken for tests:   %.3f seconds\n", timetaken)
	fmt.Fprintf(&b, "Complete requests:      %d\n", done)
	b.WriteString("Failed requests:        0\n")
	fmt.Fprintf(&b, "Keep-Alive requests:    %d\n", done)
	if timetaken > 0 && done > 0 {
		fmt.Fprintf(&b, "Requests per second:    %.2f [#/sec] (mean)\n", float64(done)/timetaken)
		fmt.Fprintf(&b, "Time per request:       %.3f [ms] (mean)\n", float64(cfg.Conns)*timetaken*1000/float64(done))
		fmt.Fprintf(&b, "Time per request:       %.3f [ms] (mean, across all concurrent requests)\n", timetaken*1000/float64(done))
	}
	sorted := slices.Clone(times)
	sim.SortInt64s(sorted)
	if done > 0 {
		var total int64
		var mn, mx int64 = math.MaxInt64, 0
		for _, t := range times {
			total += t
			mn, mx = min(mn, t), max(mx, t)
		}
		mean := total / done
		var sd float64
		for _, t := range times {
			a := float64(t) - float64(mean)
			sd += a * a
		}
		if done > 1 {
			sd = math.Sqrt(sd / float64(done-1))
		} else {
			sd = 0
		}
		median := sorted[done/2]
		if done > 1 && done%2 == 1 {
			median = (sorted[done/2] + sorted[done/2+1]) / 2
		}
		row := func(label string, mn, mean int64, sd float64, median, mx int64) {
			fmt.Fprintf(&b, "%s%5d %4d %5.1f %6d %7d\n", label, abMs(mn), abMs(mean), sd/1000, abMs(median), abMs(mx))
		}
		b.WriteString("\nConnection Times (ms)\n              min  mean[+/-sd] median   max\n")
		row("Connect:    ", 0, 0, 0, 0, 0)
		row("Processing: ", mn, mean, sd, median, mx)
		row("Waiting:    ", mn, mean, sd, median, mx)
		row("Total:      ", mn, mean, sd, median, mx)
		if d := math.Abs(float64(abMs(mean) - abMs(median))); d > 2*sd/1000 {
			b.WriteString("ERROR: The median and mean for the total time are more than twice the standard\n       deviation apart. These results are NOT reliable.\n")
		} else if d > sd/1000 {
			b.WriteString("WARNING: The median and mean for the total time are not within a normal deviation\n        These results are probably not that reliable.\n")
		}
	}
	if done > 1 {
		b.WriteString("\nPercentage of the requests served within a certain time (ms)\n")
		for _, p := range []int64{50, 66, 75, 80, 90, 95, 98, 99} {
			fmt.Fprintf(&b, "  %d%%  %5d\n", p, abMs(sorted[done*p/100]))
		}
		fmt.Fprintf(&b, " 100%%  %5d (longest request)\n", abMs(sorted[done-1]))
	}
	o.Text = b.String()
	if done > 0 {
		for k, p := range sim.Percentiles() {
			*o.Ps()[k] = abMs(sorted[min(done*p.PPM/1000000, done-1)]) * 1e6
		}
		o.MaxNs = abMs(sorted[done-1]) * 1e6
	}
	o.Notes = append(o.Notes, "ab prints no 99.9 or 99.99 %: those are the same rule, sorted[⌊n·p/100⌋], at those ranks",
		"bytes and connect times are not modelled: keep-alive connections connect once; the transfer lines are left out")
	return nil
}
