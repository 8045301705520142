// Package fit runs the model backwards: from a measured file it finds the
// deterministic query (service, stall, every, first, rate, duration and
// conns) whose recording, as the tool or writer that made the file would
// print it, reproduces the numbers the file holds; it says how well, and
// which parameters the file leaves free; and, from the fitted query, it
// says what the test never measured: the open loop's p99 on the same
// server, the requests never sent and what each other tool would have
// printed. It reads wrk, wrk2, hey, ab, fortio and locust printouts,
// vegeta's, oha's and k6's JSON, JMeter's JTL, .hgrm, .hlog and the
// project's per-sample CSV. The same file always gives the same fit.
//
// The report command runs it (report -fit FILE [rate=R]), and so does the
// page's "What did this test hide?", in fit.wasm (app/internal/fitwasm).
//
// It may import app/measure, app/tools, app/units, app/fitmsg and sim.
//
// # How a file is fitted
//
// A first estimate comes from the shapes the closed forms give: a closed
// loop's K samples of L+S, an open loop's staircase L+S−j·(T−S), the step E
// of a correction, the times of a CSV's slow samples, an .hlog's replies
// per interval. A bounded search on exact runs follows, each run's file
// written again by the same writer or printed by the same tool profile and
// compared: a relative coordinate search whose step is halved in each of
// four rounds; the stall counts 1 to 24 where the file holds no times; a
// golden-section search over first and every inside an .hlog's bounds.
// Options.Abort, when set, is asked before each run of the model.
//
// The verdict holds the count, mean, min, max and p50 to p99.99 to 5 %,
// but for the latencies below the stalls: one the model puts under ten
// service times, where no stall reaches, and the file under that or a
// tenth of the stall, is below the stalls: the client's own time (its
// wake-ups, its system calls) or a spread in the server's service, which
// the file does not tell apart; shown and named so, not held
// (Residual.Own). A real closed
// loop's p99.9 of 2.6 ms under 140 ms stalls is one. A percentile more
// than 5 % off in value is held in the share of samples above it instead
// when the model's spectrum or values place the file's value at a rank
// whose share above is within 5 % of the file's, 100 − p: that share is
// what the stalls decide (a stall delays rate·(stall − t) samples by t or
// more), and on a stall's steep slope a share 2 % off moves the value 16 %
// (a real wrk2 printout's p90, 12.06 ms against the model's 13.99 ms).
// Shown and named so, not held (Residual.Ranked, rank_diff in the JSON).
// A mean more than 5 % off whose excess over the median is within 5 %,
// where the median is the client's own, is the body's shift summed over
// every request, not the stalls': shown and named so, not held
// (Residual.OverBody, body_diff; a real wrk2 run's mean was 5.4 % off from
// its 0.3 ms a request, its excess 2.8 %). The ranges that "fit as well"
// keep the same rule (explains). A spectrum's other rows, an
// .hlog's intervals and the slow samples' times count in the score but
// are not held to it; the verdict line names the worst of them when it is
// further off. When no stall model comes within 5 % the report says why
// and exits with status 1.
//
// When no stall model explains a file and its worst number is more than
// 20 % off, the engine's lognormal, exponential and uniform services are
// tried with the fitted stalls, their parameters taken from the file's
// percentiles (three runs, not a search), and one that fits better is
// offered (fit.offered in the JSON, and in the reason printed;
// TestOfferSpread). A tool's printout is offered one too, since the tool
// profiles draw a service distribution as the event engine does.
//
// # What it prints
//
// Every number of the file, measured beside fitted; the parameters in the
// page's units, with the query's exact value beside one they round ("every
// 1.002 s (exactly 1001888399ns)"), while the query and the JSON keep exact
// values; what the file leaves free, each with the range that fits as well
// (ambiguous); and what the test hid: the p99 it recorded, the open loop's
// p99 on the same server, the requests never sent and each tool's p99. With
// -json: fit.{query, params, residuals, hidden, ambiguous, …}.
//
// A closed loop's file, or wrk's, records no due times and so has no rate:
// the model runs at a server 10 % busy (or, when the run's length is the
// count's, at one whose stalls take a tenth of it), and the open loop's p99
// is given as a range over every rate that explains the file (rateSpan:
// rates from 1/4096 to 32 times that one, each with the stalls placed three
// ways); rate=R gives the rate and one number. A parameter the file leaves
// free is printed as not in the file, with its range, not as a value.
// A paced client's .hgrm without its rate leaves the stall free too: the
// send a stall holds may leave up to a slot (1/rate) less a service after
// the stall began, so the stall is the slowest reply less a service (to
// the file's precision) plus up to that, and a lower rate has a longer
// slot (How a range is found).
// TestRateUnknown draws rates, periods and first stalls at random and holds
// every model that explains a closed .hgrm to the stated ranges.
// A file without times leaves the period and the first stall free.
//
// # How a range is found
//
// A range the fit says fits as well holds every model it found to explain
// the file within the verdict's 5 % (or, for a file no model explains,
// to come within half again of the fit's score): the free parameters are
// sampled after the search, each sample run and compared as the search's
// are, and each range widened to every sample kept, not only to the
// points the search passed through.
//
// An .hgrm of the open, corrected or paced-corrected recording without its
// rate shows K·J late samples: K stalls of J, twice as many of about half
// as many at about half the rate, and so on. The file fixes the service
// and the stall; the stall count, the rate, the run's length (the count
// over the rate), the period and the first stall it leaves free together.
// For each stall count the rate is sampled on a grid about the rate its
// staircase gives (0.80 to 1.12 times it, nine rates from it outwards,
// until one explains the file). The rates that explain a file lie in
// narrow bands or islands a few tenths of a per cent wide, because a
// percentile at the tail's edge (the p90, when a tenth of the samples are
// late) runs from far below the file's to far above it as the rate moves,
// so where no grid rate explains the file the two numbers furthest off are
// each bisected (seven times) where they change sign. The fewest stalls
// that explain the file are found by trying the counts upwards from one,
// the most by trying them downwards from the last tried; for these two,
// the rates are followed out to the last one that explains the file, in
// steps that double while it does and then a scan in steps of a quarter
// of a per cent across the next two per cent, which goes on from any rate
// in it that explains the file; the first rate out past the last in is
// tried with the stalls placed three ways (in proportion to the run,
// spread over all of it, packed at its start), and the first rate out is
// the range's end. Three counts between them are sampled at their best
// rate. The rate is then free between the ends (an end not found within
// the steps is left open), the run's length between theirs, the period up
// to the longest run over the fewest stalls less one, the first stall up
// to the longest run, and the open loop's p99 over every sample kept; the
// best sample becomes the fit when it fits better than the search's. This
// costs 140 to 165 runs of the model where the search alone took about 43
// (TestRoundTrip's files: about 0.37 s a fit where 0.11 s; the bench
// preset's open .hgrm, with the tools, 1.2 s where 0.7 s).
//
// A paced client's .hgrm without its rate: a stall that begins δ earlier
// and lasts δ longer ends when it did and gives the same file, for δ up to
// the slot less a service less the slow replies' spread. At every other
// rate rateSpan keeps (steps of 2), and at the highest, the model with its
// stall at that far end (its first stall begun δ before a send) is run and
// kept when it explains the file, and the open loop's p99 is widened with
// it. The stall is free from the slowest reply less a service, less a
// 512th of the reply for the .hgrm's buckets, with no upper bound (the
// rate has none below); the far ends at the model's rate and the highest
// are named. This costs about 14 runs of the model more (TestRoundTrip's
// paced files: 73 runs a fit where 59, about 0.65 s of CPU where 0.50).
//
// # What each format states
//
//   - An .hgrm without its rate cannot tell K stalls of J late samples from
//     other counts at other rates: it says so (rate, duration, period and
//     first free) when another count explains it too, over the counts and
//     rates sampled (How a range is found). A paced recording's .hgrm
//     counts the requests sent, the slots its stalls covered left out, and
//     a corrected one's the samples its correction added: the run's
//     length follows the rate and stall of each candidate with them.
//   - An .hlog of one histogram whose tag names no recording (untagged, or a
//     tag of the user's own) is tried as each recording in turn and the best
//     kept; ambiguous lists the others that explain it too, as source, with
//     their queries. A log of the open recording alone takes its rate from
//     its replies per interval.
//   - hey prints to 0.1 ms and ab to whole milliseconds. Their printouts
//     state the requests and the run's length (ab its concurrency too), so
//     one worker's requests·service + stalls·stall = duration gives the
//     service for each stall count; the counts whose runs print the same
//     numbers leave the service, the period and (ab) the stall free, and
//     hidden.open_p99_range_ns is the open loop's p99 over them. A printed
//     number one unit from the model's counts as within the rounding
//     (residuals[].rounded). A hey printout does not say whether it ran with
//     -q: it is fitted as hey's closed loop, and the fit says so beside what
//     the file hid (hidden.assumes: "if hey ran without -q, …") and among
//     what the file leaves free (the "assumed" entry), from what its
//     reader says the file states (tools.Stated.Assumes). A -q run's
//     printout is not fitted as one: its workers' dropped ticks are not
//     modelled by the fit's search.
//   - A back-to-back tool's printout without times (wrk, bombardier, ab,
//     hey, autocannon) trades stalls for service: requests·service +
//     stalls·stall = duration holds for many counts. After the search,
//     countSpan asks every count from one to as many as fit in the run
//     (each run with the service its requests give, and its stall searched
//     within −20 % to +5 % when that does not explain the file), outwards
//     until three counts in a row do not. The counts that explain the file
//     set the ranges of the period, the first stall, the stall and the
//     service (each count's, widened by the 1 % a single value claims) and
//     the open loop's p99; when the count the search took does not explain
//     the file and another does, the best of those is the fit.
//   - fortio states its rate, connections and duration, and whether it
//     caught up (fortio or fortio-nocatchup). Its exact min is the service
//     and its histogram's rows count the slow replies (each stall gives each
//     connection at most one). It times each call from its send, so the
//     slowest reply is the stall less the time from the stall's start to that
//     send: the stall is searched, and left free, within [max − 2·conns·service,
//     max − service + (conns+1)/rate]. A printout not yet explained is tried
//     at eight phases of the stalls between the sends. The stall counts its
//     rows allow (slow/conns to slow) that explain it by the verdict's rule
//     (the client's own numbers not held) leave the period and the first
//     stall free between theirs, and the open loop's p99 spans the fewest
//     and the most of them at both ends of the stall's range.
//   - vegeta's JSON report states its requests and measured rate, whence the
//     rate asked for (rate·(requests − 1)/requests, whole when within 0.2 %)
//     and the duration. vegeta sends every hit on time, so its min is the
//     service, its max the stall plus a service, and its mean's excess the
//     stalls met (J = ⌈L/(T − S)⌉ hits a stall). A report not explained is
//     tried with the first stall at eight places, since its t-digest places a
//     percentile at the tail's knee by the replies' order.
//   - oha's JSON does not say whether it ran with --latency-correction: oha
//     and oha-corrected are both fitted and the better kept. It states the
//     duration, the responses and, in "aborted due to deadline", the
//     connections; the rate is the responses over the duration, then
//     searched. oha-corrected is fitted as vegeta is (timed from the tick),
//     oha as fortio is (timed from the send).
//   - k6's --summary-export states its requests and rate (whence the
//     duration) and vus_max (the connections), but not its executor:
//     dropped iterations make it constant-arrival-rate's (fitted as fortio
//     is), and without them constant-vus (a closed loop, as wrk) and
//     constant-arrival-rate are both fitted.
//   - Artillery's console and run --output report state neither the rate
//     nor the duration: the reader finds the one phase (a whole
//     arrivalRate, or an arrivalCount over whole seconds) whose uniform
//     arrivals, sent and skipped, fit the span of its metrics. A maxVusers
//     run counts the arrivals its cap skipped (vusers.skipped) but not the
//     cap: the fit tries the caps the skipped count and the percentiles
//     allow (capsOf), each at the stall count it implies and one either
//     side, then beside each cap that explains the file the next, until one
//     does not (capEdges); the skipped count is held as a number of the
//     file ("never sent"), and the caps that explain it are a range, the
//     stall and the open loop's p99 widened over them. A report that
//     skipped nothing is artillery's: a cap never reached changed nothing.
//   - k6's --out csv stamped in whole seconds (its default, timeFormat
//     unix) gives every request's duration and order but not its time: the
//     stamps bound the run's length to about a second either side
//     (tools.Stated.Durations), and each whole second within is fitted as a
//     candidate of its own (withDurations); the lengths that explain the
//     file are a range, and the rate, the stall, the period, the first
//     stall, the service and the open loop's p99 are widened over them.
//     Its vus gauge and its sends tell its executor as JSON's and a finer
//     CSV's do (tools/k6executor.go).
//   - Of several candidate fits (recordings, executors, caps, run
//     lengths), one that explains the file beats one that does not,
//     whatever their scores (a score counts a number within the printout's
//     rounding as missed); then the lower score.
//   - A closed loop's service at more than one connection is its median over
//     the connections (they share the one worker), and its stall the slowest
//     reply less conns services.
//   - locust's summary (--headless --only-summary) takes its run time from
//     the log line "Run time limit set to N seconds" when the file keeps
//     locust's stderr, else from # reqs over req/s; its users from "All users
//     spawned: … (U total users)", else one is assumed and said to be free.
//     It prints whole milliseconds, so the service is free within what the
//     Min column and the 50 % key leave. The percentile table brackets the
//     slow replies (n − int(n·p)), one a user a stall; the fewest stalls that
//     explain the summary are fitted, with the rate and period free over the
//     others, and the stall is searched within what the Max column leaves.
//   - JMeter's JTL lists every sample with its start and elapsed time
//     (whole ms, two truncated stamps: within a ms either way), its
//     threads (the connections) and, by when each thread's last samples
//     ended, the thread group's whole seconds. Its samples are a closed
//     loop's, read as the CSV's closed recording is: the stall from the
//     slow replies' median, the first stall and the period from their
//     send times, one stall a cluster of slow samples on more than one
//     thread. A real run's hiccups (a JVM's warm-up, a collection) are
//     told from the stalls: a slowest reply more than a tenth above the
//     slow replies' median is left out of the stall, and the period is
//     taken over the stalls the file shows whole. The stall is free
//     within the stamps' millisecond either way when that is more than
//     1 % of it; the rate is not in the file.
//     TestRoundTripJMeter fits 40 random queries' JTLs at one to four
//     threads (half with their rate given): stall, period and service met
//     or free with the truth inside, every one explained. The real JTLs
//     kept (JMeter 2.13, 2 threads, 100 ms stalls every second) give stall
//     101 ms (its range 100.4–102.4 ms) and period 999 ms, but are not
//     explained: their hiccups (a 190 ms warm-up, 25–50 ms pauses) are not
//     stalls of the model.
//   - A JTL whose threads idle a ms or more after most samples, their
//     starts a whole period apart, is a Constant Throughput Timer's
//     (jmeter-ctt; tools' jtlPaced): its rate is the threads over that
//     period, and every rate whose period rounds to the same whole ms is
//     free with it (tools.Tool.SameRates), the open loop's p99 over them.
//     Its threads send together, so a stall began anywhere within a
//     period before the first send it held: the stall's length is
//     searched at five starts across it, and stated free over what the
//     search finds and the bound the slowest reply M gives, [M − a ms −
//     (threads+1)·service, M + a ms + the period]; its start with it.
//     JMeter's scheduler counts its whole seconds from the thread group's
//     start, before the first sample: when the samples end short of them,
//     the run is their span (the earliest last start plus the period).
//     TestRoundTripJMeterCTT fits 40 random queries' JTLs at one to four
//     threads: stall, period and service met or free with the truth
//     inside, the open loop's p99 met or inside its range, every one
//     explained. The real JTL kept (JMeter 2.13, 2 threads every 10 ms,
//     100 ms stalls every second) gives stall 102 ms (its range 97–112 ms)
//     and period 1.001 s, explained (TestFitRealJMeterCTT).
//
// # Files that are cut
//
// A file that holds part of a run is refused, with what it lacks
// (IncompleteError; measure.File.Incomplete): a printout that ends before
// the line its tool always prints last (wrk's and wrk2's "N requests in T",
// hey's status codes, ab's 100 % row, fortio's "All done", locust's
// percentile table) or inside its percentile table, an .hgrm without its
// 100 % row or footer, an .hlog with intervals missing between others, at
// its start or at one tag's end, and a CSV whose recordings of one schedule
// hold different counts or whose open recording's due times jump. A log or
// CSV cut exactly between two intervals or within its first recording reads
// as a shorter run's: nothing in it shows otherwise. TestCutPrintouts fits
// every prefix of 30 real and model files, line by line; TestHlogGap removes
// random runs of intervals.
//
// # How well it works
//
// TestRoundTrip (200 random queries in the closed forms' regime, the CSV of
// each and in turn one other file; about a minute and a half, skipped
// under -short and -race, run by make test) logs per format how often
// each parameter is met, left free with the truth inside its range, or
// missed. The CSV meets all of them and every format meets the service
// and the stall (the paced recording's .hgrm without its rate leaves the
// stall free, the truth inside); the .hlog, wrk2's printout and every file
// fitted with its rate given meet the hidden open p99 within 1 %, and
// most leave the period free. Fitted without their rate, wrk's printout
// and the .hgrm of every recording hold the truth inside every range they
// state (the rate, the period, the open loop's p99 and the paced
// recording's stall), which the test holds them to; one paced-corrected
// .hgrm of 25 is not explained within 5 %. The paced recording's stall is
// free from the slowest reply less a service up, since the unknown rate
// leaves the slot free (where the fit claimed a value, one of 25 missed
// by 1.1 %).
// wrk2's printout is not explained within 5 % in 4 of 25: its median,
// which wrk2's millisecond timers set, is 10 to 38 % off.
//
// Each tool's own round trip holds 40 random queries' files to their query:
// TestRoundTripHeyAb, TestRoundTripFortio (on 160 of another seed 158 pass),
// TestRoundTripVegeta (193 of 200: five t-digest knees unexplained, two open
// p99s off), TestRoundTripOha (158 of 160), TestRoundTripK6 (all pass) and
// TestRoundTripLocust (157 of 160: three at four users with a service near a
// millisecond stay unexplained).
//
// Real files are harder, because a real round trip spreads and is mostly the
// client's own time, which the fitted server then spends on each request
// (the tools' client time, app/experiment, is not a query field). Of the
// real files kept in app/measure/testdata and app/experiment/testdata:
//
//   - the real locust summary (2 users, 100 ms stalls every second from
//     500 ms) is explained: stall 99.9 ms, period 1.002 s, first 504 ms;
//   - the experiment's closed client's .hlog (140 ms stalls every 1.307 s
//     from 383 ms) is explained: stall 140.3 ms, period 1.306 s, the first
//     stall within [296.9 ms, 459.5 ms]; its p50 to p99.9 are the
//     client's own;
//   - autocannon's JSON (whole milliseconds, 2 connections, 100 ms stalls
//     every second from 500 ms; 4 or 5 met its 5 s) is explained with 1 to
//     5 stalls: its p99.99 of 5 ms is the client's own time under ten
//     stall hits or fewer. A count that explains the file comes before one
//     that only scores lower (seven stalls, which put that p99.99 at the
//     stall, scored lowest and stated 6 to 10);
//   - an ab run at one connection fits within 5 %, but its stall range lies
//     3 % above the true 10 ms; one at 8 connections fits with 22–24 stalls
//     where there were 6;
//   - the real wrk and bombardier printouts of that server (five 100 ms
//     stalls) are explained: wrk with five stalls of 100.9 ms, no other
//     count (before countSpan: four of 106 ms, NOT EXPLAINED); bombardier's
//     text and JSON with 1 to 46 and 1 to 49 stalls, their period free and
//     the open loop's p99 within a range that holds the truth (before: 19
//     stalls, the period in [108 ms, 277.8 ms]). TestRealPrintouts holds
//     these, ab's, hey's, autocannon's and the two fortio printouts' (five
//     stalls, explained by 5 to 10 and 5 to 7: before their counts were tied
//     by the verdict's rule, which holds no mean the model puts among the
//     body, their periods stopped at 833 ms and their open loop's p99 range
//     above the truth); vegeta's and wrk2's are held to their ranges, not
//     yet to the verdict (below);
//   - hey runs are not explained (the offered distribution brings one from
//     75 % to 37 % off), nor are vegeta, wrk and wrk2;
//   - vegeta reports' p90 is 37–41 % off in value, where the real round
//     trips spread and the fit takes the min as the one service; held by
//     the share above it, which the model's run gives (4 % for
//     app/testdata's, explained; 5.0 % for the one above, on the
//     tolerance's edge); the stalls found come within 1–18 % of the
//     schedule's;
//     wrk2's real printout is explained: its p90 is 16 % off in value, where
//     each stall's late samples meet the client's own drain after it, and
//     2 % in the share above it; its stall is 1.9 % above the server's (the
//     client's own delay on the slowest reply) and its open loop's p99,
//     stated as one value, 2 % above the truth;
//   - the k6 file is fitted, not explained: its p50 is 48 % off.
//
// oha and k6 do not run on the build machine, so no real file of theirs is
// fitted. Fitting real hey and ab files is not yet right.
package fit
