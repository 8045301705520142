package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
	"omission/sim/profile"
)

// JMeter, read at apache/jmeter bb30edfe8c (paths under src/; the 2.13
// differences at the tag v2_13):
//   - core/.../threads/ThreadGroup.java 199-219 scheduleThread: with the
//     scheduler on, each thread's end time is the group's start plus the
//     duration (whole seconds), 222-256 start: the threads start
//     ramp-up/threads apart (together at ramp-up 0).
//   - core/.../threads/JMeterThread.java 259-308 run: each thread takes the
//     next sampler of its loop as soon as the last sample is done (loop
//     count forever with the scheduler); 459-503 processSampler and
//     239-245 stopSchedulerIfNeeded: after each sample it stops once now ≥
//     the end time, so a sample started before it runs to its end and is
//     written. An HTTP Request has no response timeout by default.
//   - core/.../samplers/SampleResult.java 122-123, 1146-1162, 1183-1199:
//     sampleStart and sampleEnd stamp whole milliseconds (454-464
//     currentTimeInMillis), elapsed = end − start; the timeStamp is the
//     start when sampleresult.timestamp.start is true, which
//     bin/jmeter.properties 584 sets (the code's default is the end).
//   - core/.../save/CSVSaveService.java 420-445 the header and 840-948
//     resultToDelimitedString the row, each column in turn when saved;
//     SampleSaveConfiguration.java 286-384 and bin/jmeter.properties
//     499-553 the defaults of 5.x: timeStamp (ms), elapsed, label,
//     responseCode, responseMessage, threadName, dataType, success,
//     failureMessage, bytes, sentBytes, grpThreads, allThreads, URL,
//     Latency, IdleTime, Connect. JMeter 2.13 (bin/jmeter.properties
//     476-506 at v2_13) saves no failureMessage, sentBytes, URL, IdleTime
//     or Connect: timeStamp,elapsed,label,responseCode,responseMessage,
//     threadName,dataType,success,bytes,grpThreads,allThreads,Latency.
//     A sample is written when it ends: the rows come in reply order.
//     AbstractThreadGroup.java 404: a thread is named "Thread Group 1-N".
//   - core/.../reporters/Summariser.java 193-210 (a "summary +" delta line
//     when a sample ends at an epoch second s > last + 5 with s mod 30 ≤
//     5, then the "summary =" total when it holds more), 296-316
//     testEnded (the last delta, when some line came before, and the
//     total), 338-378 format; SummariserRunningSample.java 150-185: the
//     elapsed time from its start to its last sample, the rate counter /
//     elapsed · 1000, the average runningSum / counter in whole ms;
//     jorphan/.../JOrphanUtils.java 555-557 formatDuration.
//   - jorphan/.../math/StatCalculator.java 152-173 getPercentPoint: the
//     Aggregate and Summary reports' percentile p is the first value whose
//     running count reaches Math.round(n·p) (the smallest when that is
//     0), the maximum at p ≥ 1.
//
// The Constant Throughput Timer (components/.../timers/
// ConstantThroughputTimer.java 181-194 delay, 210-250 calculateDelay), as
// jmeter-ctt: in its default mode, "this thread only" (ThisThreadOnly,
// 245-248), each thread's next target is its previous target plus
// round(60000/throughput) ms (throughput in samples a minute per thread);
// a thread already past its target when the timer asks sends at once and
// takes now as its new target (186-190): the slots a stall made it miss
// are never caught up. The first sample goes without a delay
// (previousTime 0), so with ramp-up 0 the threads start together. That is
// sim/profile's Reanchor, Aligned, with a Period of whole milliseconds
// per thread; the model takes the new target at the late send's instant,
// not at its millisecond. The shared modes (AllActiveThreads_Shared,
// 253-265) keep one schedule for all threads, max(now, last + period), and
// do not catch up either: not modelled.
var jmeterTool = Tool{
	name:      "jmeter",
	plain:     "A thread group: a fixed number of threads, each sending its next request as soon as the last reply is in, until the time is up. During a stall they wait, and the requests they would have sent are never sent nor written. Its results file (JTL) lists every request with its start and its time in whole milliseconds, so the stalls show in it.",
	mechanics: "jmeter -n with a thread group of conns threads, ramp-up 0, loop forever, scheduler duration D (whole seconds): each thread sends its next sample when the last is done, and stops after the first sample that ends at or after D; elapsed = end − start in whole ms (timeStamp the start); every sample is written to the JTL; the Aggregate report's percentile p is the first value whose running count reaches round(p·n)",
	source:    "https://github.com/apache/jmeter/blob/bb30edfe8c/src/core/src/main/java/org/apache/jmeter/threads/JMeterThread.java#L259-L308",
	zero:      &Zero{Printed: "0", Unit: "ms", Why: "JMeter stamps whole milliseconds: a reply faster than 1 ms has an elapsed time of 0 or 1 ms, by where it fell between two clock ticks"},
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("jmeter -n -t plan.jmx -l results.jtl (plan: a thread group of %d threads, ramp-up 0 s, loop forever, scheduler duration %d s; one HTTP Request to %s)",
			cfg.Conns, jmeterSeconds(cfg.Duration), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.BackToBack,
			Duration: jmeterSeconds(cfg.Duration) * 1e9, Clock: 1e6}
	},
	summarise: jmeterSummarise,
	reads:     []measure.Format{FormatJTL},
	file:      FormatJTL,
	kind:      "results file (JTL)",
	unit:      PrintUnit{Ns: 1e6, Words: "whole ms", Stamped: true},
}

// jmeterReal is how the experiment runs jmeterTool: jmeter -n -t
// plan.jmx -l results.jtl, the plan built with JMeter's API by
// app/experiment/tools/jmeter-Run.java (Debian's JMeter 2.13 cannot load
// a .jmx), through the launcher the install script writes; its JTL, with
// its header, is the printout.
var jmeterReal = Real{Bin: "jmeter-run", Install: "apt-get install jmeter (Debian's 2.13, with its java), then " + InstallScript + ", which writes the launcher .tools/bin/jmeter-run",
	Args: func(cfg sim.Config, addr, dir string) ([]string, error) {
		return jmeterArgs(cfg, addr, dir, nil)
	},
	Launcher: "jmeter-run builds with JMeter's API the plan that the command's plan.jmx stands for (its thread group described in words): Debian's JMeter 2.13 loads no .jmx",
	Printout: "results.jtl",
	Unit:     1e6}

// jmeterCTTReal is how the experiment runs jmeterCTTTool: the same, with
// the timer (ctt=N samples a minute, this thread only).
var jmeterCTTReal = Real{Bin: jmeterReal.Bin, Install: jmeterReal.Install, Launcher: jmeterReal.Launcher,
	Args: func(cfg sim.Config, addr, dir string) ([]string, error) {
		return jmeterArgs(cfg, addr, dir, []string{"ctt=" + strconv.FormatFloat(jmeterThroughput(cfg), 'f', -1, 64)})
	},
	Printout:  jmeterReal.Printout,
	RunLength: jmeterRunLength,
	Unit:      jmeterReal.Unit}

// jmeterRunLength is a paced JTL's run as the fit reads it (jtlPacedEnd):
// JMeter's scheduler counts its whole seconds from the thread group's
// start, and its start-up before the first sample cuts the run short.
func jmeterRunLength(out string) (int64, string, bool) {
	f, err := measure.Parse("results.jtl", []byte(out))
	if err != nil || len(f.Dists) == 0 {
		return 0, "", false
	}
	st, ok := StatedIn(f.Format, []byte(out), &f.Dists[0])
	if !ok || !st.Paced || st.Duration <= 0 || st.DurationFrom == "" {
		return 0, "", false
	}
	return st.Duration, "the JTL's samples: " + st.DurationFrom, true
}

// jmeterArgs is jmeter-Run.java's command line: host, port, threads,
// whole seconds, the JTL, then extra settings, the JTL's header and
// JMeter's log in the scratch directory (jmeter.properties' log_file,
// else jmeter.log where it was started).
func jmeterArgs(cfg sim.Config, addr, dir string, extra []string) ([]string, error) {
	// host:port as the experiment's server listens (127.0.0.1:PORT);
	// split by hand, as package net would weigh on the page's app.wasm.
	i := strings.LastIndexByte(addr, ':')
	if i < 1 || i == len(addr)-1 {
		return nil, fmt.Errorf("jmeter: server address %q is not host:port", addr)
	}
	args := []string{addr[:i], addr[i+1:], strconv.Itoa(cfg.Conns), strconv.FormatInt(jmeterSeconds(cfg.Duration), 10), dir + "/results.jtl"}
	return append(append(args, extra...), "jmeter.save.saveservice.print_field_names=true", "log_file="+dir+"/jmeter.log"), nil
}

// jmeterCTTTool is jmeterTool with a Constant Throughput Timer, "this
// thread only", of 60·rate/conns samples a minute: each thread paced at
// round(1000·conns/rate) ms (at least 1), its missed slots never sent.
var jmeterCTTTool = Tool{
	name:      "jmeter-ctt",
	plain:     "A thread group whose Constant Throughput Timer paces each thread: a thread waits for its next target time, its last target plus a fixed period, and sends. A thread that comes back from a stall past its target sends at once and counts its period from there: the requests a stall made it miss are never sent nor written. Its results file (JTL) lists every request with its start and its time in whole milliseconds.",
	mechanics: "jmeter -n with a thread group of conns threads, ramp-up 0, loop forever, scheduler duration D (whole seconds; a D that is not is a run whose samples span D, its thread group started ⌈D⌉ − D before the first), and a Constant Throughput Timer of 60·rate/conns samples a minute calculated for this thread only: thread k's targets are 0, P, 2P, … with P = round(60000/throughput) ms (0: no delay, back to back); a thread late for its target sends at once and its targets start again there; no sample starts at or after D; elapsed = end − start in whole ms; every sample is written to the JTL; the Aggregate report's percentile p is the first value whose running count reaches round(p·n)",
	source:    "https://github.com/apache/jmeter/blob/bb30edfe8c/src/components/src/main/java/org/apache/jmeter/timers/ConstantThroughputTimer.java#L181-L250",
	zero:      jmeterTool.zero,
	command: func(cfg sim.Config) string {
		return fmt.Sprintf("jmeter -n -t plan.jmx -l results.jtl (plan: a thread group of %d threads, ramp-up 0 s, loop forever, scheduler duration %d s; a Constant Throughput Timer of %s samples a minute, calculated for this thread only; one HTTP Request to %s)",
			cfg.Conns, jmeterSeconds(cfg.Duration), strconv.FormatFloat(jmeterThroughput(cfg), 'f', -1, 64), target)
	},
	profile: func(cfg sim.Config) profile.Profile {
		P := jmeterPeriod(cfg)
		if P == 0 {
			// A period that rounds to 0 ms never delays a thread: back to
			// back, as without the timer.
			return jmeterTool.profile(cfg)
		}
		return profile.Profile{Conc: profile.Connections, Conns: cfg.Conns, Send: profile.Reanchor, Aligned: true,
			Period: P, Duration: jmeterCTTRun(cfg.Duration), Clock: 1e6}
	},
	summarise: jmeterSummarise,
	reads:     []measure.Format{FormatJTL},
	file:      FormatJTL,
	kind:      "results file (JTL)",
	rateKey:   jmeterPeriod,
	unit: PrintUnit{Ns: 1e6, Words: "whole ms", Stamped: true,
		ServiceFree: "the JTL's elapsed times are differences of two whole-ms stamps, each within a ms of the service either way: its least time and its median bound the service to a ms or two, and the server kept up with the threads (under their period)"},
	onlyPaced: true,
}

// jmeterThroughput is the timer's throughput, samples a minute per
// thread, to the thousandth.
func jmeterThroughput(cfg sim.Config) float64 {
	return math.Round(60*float64(cfg.Rate)/float64(cfg.Conns)) / 1000
}

// jmeterPeriod is the timer's period per thread in ns: round(60000 /
// throughput) ms (0 when the throughput is over 120,000 a minute).
func jmeterPeriod(cfg sim.Config) int64 {
	return int64(math.Round(60000/jmeterThroughput(cfg))) * 1e6
}

// jmeterCTTRun is how long a paced thread group's samples span, from its
// first: a whole number of seconds, the plan's duration; any other
// duration D stands for the plan's ⌈D⌉ s counted from the thread group's
// start, which came ⌈D⌉ − D before its first sample (JMeter's own
// start-up, which the JTL does not show: a real run's was 0.2 s).
func jmeterCTTRun(ns int64) int64 {
	if ns%1e9 == 0 {
		return jmeterSeconds(ns) * 1e9
	}
	return ns
}

// jmeterSeconds is the thread group's duration as the plan holds it:
// whole seconds, rounded up, at least 1.
func jmeterSeconds(ns int64) int64 { return abSeconds(ns) }

// jmeterSample is one row of the JTL: the sample's start and elapsed
// time in whole ms, its thread, and its end in ns.
type jmeterSample struct {
	start, elapsed int64
	thread         int32
	done           int64
}

// jmeterSamples are the run's samples in the order JMeter writes them:
// as they end.
func jmeterSamples(pr *profile.Result) []jmeterSample {
	order := pr.ReplyOrder()
	out := make([]jmeterSample, 0, len(order))
	for _, i := range order {
		out = append(out, jmeterSample{start: pr.Send[i] / 1e6, elapsed: pr.Done[i]/1e6 - pr.Send[i]/1e6, thread: pr.Conn[i], done: pr.Done[i]})
	}
	return out
}

// jmeterRunning is SummariserRunningSample: a count, a sum and the
// extremes of elapsed times (ms), from start to its last sample's end.
type jmeterRunning struct {
	n, sum, min, max int64
	start, end       int64 // ms
}

func (r *jmeterRunning) add(s jmeterSample) {
	if r.n == 0 || s.elapsed < r.min {
		r.min = s.elapsed
	}
	r.max = max(r.max, s.elapsed)
	r.n++
	r.sum += s.elapsed
	r.end = s.start + s.elapsed
}

// line is Summariser.format: "summary + N in hh:mm:ss = R/s Avg: …".
func (r *jmeterRunning) line(typ string, threads string) string {
	elapsed := r.end - r.start
	secs := (elapsed + 500) / 1000
	rate := "******"
	if elapsed > 0 {
		rate = fmt.Sprintf("%6s", strconv.FormatFloat(float64(r.n)/float64(elapsed)*1000, 'f', 1, 64))
	}
	var avg int64
	if r.n > 0 {
		avg = r.sum / r.n
	}
	s := fmt.Sprintf("summary %s %6d in %02d:%02d:%02d = %s/s Avg: %5d Min: %5d Max: %5d Err: %5d (0.00%%)",
		typ, r.n, secs/3600, secs%3600/60, secs%60, rate, avg, r.min, r.max, 0)
	return s + threads
}

func jmeterSummarise(cfg sim.Config, pr *profile.Result, o *Output) error {
	ss := jmeterSamples(pr)
	var b strings.Builder
	b.WriteString("Creating summariser <summary>\nCreated the tree successfully using plan.jmx\n")
	// The summariser, as the samples end: a delta line at each 30 s of the
	// run's clock (the model's run starts at the epoch).
	delta, total := jmeterRunning{}, jmeterRunning{}
	var last int64
	reported := false
	for _, s := range ss {
		delta.add(s)
		now := (s.start + s.elapsed) / 1000
		if now > last+5 && now%30 <= 5 {
			// Every thread runs until the end of the run's last second.
			b.WriteString(delta.line("+", fmt.Sprintf(" Active: %d Started: %d Finished: 0", cfg.Conns, cfg.Conns)) + "\n")
			total = jmeterMove(total, delta)
			if total.n != delta.n {
				b.WriteString(total.line("=", "") + "\n")
			}
			delta = jmeterRunning{start: now * 1000, end: now * 1000}
			last, reported = now, true
		}
	}
	if reported && delta.n > 0 {
		b.WriteString(delta.line("+", fmt.Sprintf(" Active: 0 Started: %d Finished: %d", cfg.Conns, cfg.Conns)) + "\n")
	}
	total = jmeterMove(total, delta)
	b.WriteString(total.line("=", "") + "\n")
	b.WriteString("... end of run\n")
	o.Text = b.String()
	if o.wantJSON {
		o.File = jmeterJTL(ss)
	}
	// The Aggregate report's percentiles (StatCalculator.getPercentPoint:
	// rank round(p·n), at least 1), of the elapsed times: the profile's
	// latencies on its millisecond clock.
	for i, p := range sim.Percentiles() {
		*o.Ps()[i] = pr.Dist.Percentile(p.PPM, sim.RankRound)
	}
	o.MaxNs = pr.Dist.Max()
	o.Notes = append(o.Notes, "bytes are not modelled (0 in the JTL); the run starts at the Unix epoch, and the console's dated lines are left out")
	return nil
}

// jmeterMove is Totals.moveDelta: the delta added to the total, whose
// end becomes the delta's.
func jmeterMove(total, delta jmeterRunning) jmeterRunning {
	if delta.n == 0 {
		return total
	}
	if total.n == 0 || delta.min < total.min {
		total.min = delta.min
	}
	total.max = max(total.max, delta.max)
	total.n += delta.n
	total.sum += delta.sum
	total.end = delta.end
	return total
}

// jtlHeader5 is the JTL's header with JMeter 5.x's default columns.
const jtlHeader5 = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect"
