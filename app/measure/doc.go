// Package measure moves latency distributions in and out of the files that
// real tools write: HdrHistogram's percentile distribution (.hgrm) and
// interval log (.hlog), a CSV of samples, and, for import, the output of
// wrk, wrk2, ab, hey, fortio, locust, k6, vegeta and oha.
//
// Export takes a *sim.Result (FromResult) or real samples (NewSource) and
// writes them with hdrhistogram-go histograms of 3 significant digits.
// Import (Parse) detects a file's format, says which, and returns the
// distributions it holds with what the file determines and what it does not.
//
// It may import sim only. The package builds for GOOS=js GOARCH=wasm: it
// reads no file, opens no socket and starts no process. Callers hand it
// bytes.
//
// # Export
//
// The export command (export -format hgrm|hlog|csv) and the page's
// downloads ("Take the recordings with you", made in its Web Worker) write
// the same bytes for the same query:
//
//   - .hgrm: one recording in the layout of Java HdrHistogram's
//     outputPercentileDistribution, values in milliseconds, 5 ticks per half
//     distance; byte for byte what Java prints for the same counts.
//   - .hlog: every recording, one tag each, written with hdrhistogram-go's
//     HistogramLogWriter, values in nanoseconds, one interval per second of
//     simulated time, or one interval for the whole run when the run kept no
//     per-request times (beyond the exact bound, or from the event engine).
//   - .csv: every sample, as recording,time_ns,latency_ns,synthetic.
//
// A file is named after its run, its preset and the first digits of the
// result's hash (RunName): omission-tcp-1a2b3c4d-open.hgrm, or
// omission-tcp-1a2b3c4d.hlog for every recording.
//
// # Import
//
// Parse reads wrk 4.x and wrk2 output (both spectra with -U), .hgrm in the
// Java, C and Go layouts, .hlog (V2 histograms, with tags), k6
// --summary-export JSON, vegeta report -type json, oha --json, and the
// printouts of ab, hey, fortio load and locust --headless --only-summary
// (tooltext.go; real printouts are kept in testdata/real). It says which
// format it found, and for each percentile how the file gives it: stated,
// from a histogram, from a spectrum, or missing. Files over MaxFileSize
// (16 MiB) are refused before they are read, and a bad file's message names
// the line and the column.
//
// report -measured FILE QUERY prints the file beside the model, and its
// JSON gains measured.{format, label, count, mean_ns, p50_ns, …, max_ns,
// how, precision} (null where the file does not say) and measured_more for a
// file's further distributions. The page reads the same files.
//
// Nothing here uses package regexp, which the browser build leaves out:
// wrk's and the interval log's line patterns are matched by hand
// (match.go), and its tests hold them to the regexps on generated lines.
package measure
