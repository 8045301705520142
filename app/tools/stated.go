//go:build !minimal

package tools

import "omission/app/measure"

// What each tool's file states of its run beyond its latencies
// (Tool.stated, asked by the fit through StatedIn), what the fit assumes
// of a file that does not say how its tool ran (Stated.Assumes), and why it
// does not fit a tool's files it knows (Tool.noFit).
// Each NAMEStated is in its tool's reader_NAME.go, beside the reader of the
// same file; the page's app.wasm, built with the minimal tag, runs no fit
// and leaves them out.
func init() {
	wrkTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns = wrkStated(data)
	}
	wrk2Tool.stated = wrkTool.stated
	heyTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration = heyStated(data)
		s.Assumes = &Assumption{If: "if hey ran without -q, which its printout does not say",
			Why: "hey's printout does not say whether it ran with -q: the fit reads it as hey -c -z, a closed loop, and does not fit a -q run's printout (its workers paced, their missed ticks dropped), whose stalls, rate and open loop's p99 differ; what the file hid holds for a run without -q"}
	}
	abTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns = abStated(data)
	}
	vegetaTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Rate = vegetaStated(data)
	}
	ohaTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.RateHint, s.Slow = ohaStated(data)
	}
	k6VUsTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Dropped = k6Stated(data)
	}
	k6VUsCSVTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Dropped, s.DurationFrom = k6CSVStated(data, d)
		shape := k6CSVShape(data)
		shape.state(s)
		if s.Duration == 0 {
			s.Durations, s.DurationsFrom = shape.durations(s.Conns)
		}
	}
	k6VUsJSONTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Dropped, s.DurationFrom = k6JSONStated(data, d)
		k6JSONShape(data).state(s)
	}
	locustTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Slow, s.SlowHi, s.DurationFrom = locustStated(data, d)
		s.ConnsFrom = "stated (\"All users spawned\")"
		s.Unmodelled = locustRamp(data, s.Duration)
	}
	fortioTool.stated = func(data []byte, _ *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Rate, s.Skips, s.Slow = fortioStated(data)
		s.SkipsKnown = true
	}
	bombardierTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.Conns, s.Rate, s.PacedKnown = bombardierStated(data, d)
		s.Paced = s.Rate > 0
		if !s.PacedKnown {
			s.Assumes = &Assumption{If: "if bombardier ran without --rate, which its printout does not say",
				Why: "bombardier's printout does not say whether it ran with --rate (its -o json does): the fit reads it as bombardier -c -d, a closed loop, and does not fit a --rate run's printout (its connections paced by a token bucket, what a stall held back never sent), whose rate and open loop's p99 differ; what the file hid holds for a run without --rate"}
		}
	}
	autocannonTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		var corrected bool
		s.Requests, s.Duration, s.Conns, corrected = autocannonStated(data, d)
		s.PacedKnown, s.Paced = corrected, corrected
		if !corrected {
			s.Assumes = &Assumption{If: "if autocannon ran without -R, which its output does not say",
				Why: "autocannon's output does not say whether it ran with -R (its -j output does when a reply was slow enough for -R's correction to add latencies): the fit reads it as autocannon -c -d, a closed loop, and does not fit a -R run's output (each connection's share of the rate in each second), whose rate and open loop's p99 differ; what the file hid holds for a run without -R"}
		}
	}
	// The fit knows autocannon -R's -j output as autocannon-rate's, and
	// does not yet fit it.
	autocannonRateTool.noFit = "its latencies are recorded with -R's correction (an expected interval of 1 ms: a reply of v ms adds v − 1, …, 1 ms), so its histogram holds more values than replies, all but the fastest in whole ms; the fit does not yet regenerate that reading, and says nothing rather than guess (report -tool autocannon-rate prints what such a run shows on a query of yours)"
	artilleryTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Dropped, s.Duration, s.Rate, s.DurationFrom, s.Unmodelled = artilleryStated(data, d)
		if s.Rate > 0 {
			s.RateFrom = "from its arrivals (requests and skipped) and " + s.DurationFrom + ": the one phase (a whole arrivalRate, or an arrivalCount over whole seconds) whose uniform arrivals fit them"
			s.DurationFrom = "the phase's whole seconds that fit its arrivals at that rate (" + s.DurationFrom + ")"
		}
	}
	gatlingOpenTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		s.Requests, s.Duration, s.DurationFrom = gatlingStated(data, d)
	}
	gatlingClosedTool.stated = gatlingOpenTool.stated
	// The fit reads Gatling's summary as both injections' and fits
	// neither yet.
	gatlingOpenTool.noFit = "its summary does not say whether its users were injected open (constantUsersPerSec) or closed (constantConcurrentUsers), and its four t-digest percentiles, whole-ms mean and count fix neither reading well enough yet: fitted as an open injection's, 3 of 40 simulated summaries got a range that missed the truth (the t-digest's percentiles move with where a stall fell, which the summary does not show); as a closed one's, 9 of 40 a service range that missed it. The fit says nothing rather than state such ranges (report -tool gatling-open or gatling-closed prints what such a run shows on a query of yours)"
	gatlingClosedTool.noFit = gatlingOpenTool.noFit
	jmeterTool.stated = func(data []byte, d *measure.Dist, s *Stated) {
		samples, threads := jtlSamples(data, d)
		s.Requests, s.Duration, s.Conns, s.DurationFrom = jtlStated(samples, threads)
		s.ConnsFrom = "the threads the JTL names"
		s.Unmodelled = jtlRampUp(samples, threads)
		// The JTL's times show whether a Constant Throughput Timer paced
		// its threads (jmeter-ctt) or not (jmeter).
		s.PacedKnown = true
		var period int64
		if s.Paced, s.Rate, period = jtlPaced(samples, threads); s.Paced {
			s.RateFrom = "the threads over the median time between a thread's sample starts (its Constant Throughput Timer's period)"
			if end, cut := jtlPacedEnd(samples, threads, period, s.Duration); cut {
				s.Duration = end
				s.DurationFrom = "the samples' span, the earliest of the threads' last starts plus the timer's period: JMeter's scheduler counts its whole seconds from the thread group's start, and its own start-up before the first sample (which the JTL does not show) cut the run short of them"
			}
		}
	}
	jmeterCTTTool.stated = jmeterTool.stated
}
