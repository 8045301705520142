// Package experiment runs the model for real on loopback: an HTTP/1.1
// server that stalls on the query's schedule, and the closed, paced and
// open clients of the model, each against a fresh server, recorded with
// hdrhistogram-go and held against the model (issue 14); and real load
// generators (wrk, wrk2, hey, vegeta, fortio, locust, ab), each against a
// fresh server, beside what their profiles predict (issue 27, real.go). It
// is native only: it opens sockets, reads the clock and runs commands.
//
// It may import sim, app/measure (to record and write what it measured and
// to read the real tools' printouts), app/tools (the tools' profiles) and
// app/units (to write durations for people).
//
// # The model's clients
//
// The experiment command (experiment [-json] [-out DIR] QUERY) starts an
// HTTP/1.1 server on 127.0.0.1 that stalls on the query's schedule, counted
// from its own start, and holds each request for the service time. It runs
// the closed, paced and open clients against a fresh server each, over raw
// keep-alive TCP (the open client pipelines), and prints each recording
// measured beside the model run again with the measured round trip as its
// service time, the requests planned against those sent, and why they
// differ.
//
// With -json it prints server, measured.<recording>,
// measured_clients.<client>.{planned, sent} and model; -out DIR writes each
// measured recording as an .hlog and an .hgrm. Each client runs for the
// duration plus a drain limit (the stall plus 2 s); Ctrl-C stops it and
// prints what it has. The machine matters: on a busy machine every real
// figure moves.
//
// # Real tools
//
// -with TOOL[,TOOL…] also runs real load generators (wrk, wrk2, hey, hey-q,
// vegeta, fortio, fortio-nocatchup, locust, ab), each against a fresh
// server. It reads each printout (package measure) and prints it beside what
// the tool's profile (report -tool) predicts for the same server, with the
// stalls shifted to the tool's first request and the service time fitted
// from the run: a closed loop's to its request count, a scheduled tool's to
// its own median round trip. -json adds measured.<tool> and predicted.<tool>
// (requests, p50_ns … max_ns, null where the tool prints none) and
// real_tools (command, printout, fit, differences). Durations are whole
// seconds with -with.
//
// make tools (tools/install.sh) installs the tools: Debian's packages when
// run as root, vegeta v12.13.0 and fortio v1.66.0 into .tools/bin, and wrk2
// built from a local copy of giltene/wrk2 named by WRK2_GIT_DIR; a missing
// tool is named with how to install it. make bench runs every installed tool
// on four scenarios and prints predict.<tool>.<scenario>.<metric>_diff and
// predict.within_2pct. tools/README.md says how a run is compared, how
// closely the real tools repeat themselves, and every miss with its cause.
package experiment
