// Package measure moves latency distributions in and out of
// HdrHistogram's files, the percentile distribution (.hgrm) and the
// interval log (.hlog), and a CSV of samples; the files load tools write
// it reads through the readers app/tools registers (Register), and it
// names no tool itself.
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
// Parse reads .hgrm in the Java, C and Go layouts and .hlog (V2
// histograms, with tags) itself, and every tool's printout or JSON report
// through a registered Reader: a printout by the lines that mark it, in
// the Reader's pass (When), a JSON object by its keys. It says which
// format it found, and for each percentile how the file gives it: stated,
// from a histogram, from a spectrum, or missing. Files over MaxFileSize
// (16 MiB) are refused before they are read, and a bad file's message names
// the line and the column; a file no one recognises is told every format
// that is registered. A program that parses tools' files links app/tools,
// which registers their readers from its init; without it Parse reads
// HdrHistogram's files only. The readers' toolkit is exported: Line and
// SplitLines, Decimal, ParseInt, Scan, ReadSpectrum and HgrmLayout (an
// .hgrm spectrum within a printout), Dist.Finish, LineCol and TrimTo.
//
// report -measured FILE QUERY prints the file beside the model, and its
// JSON gains measured.{format, label, count, mean_ns, p50_ns, …, max_ns,
// how, precision} (null where the file does not say) and measured_more for a
// file's further distributions. The page reads the same files.
//
// Nothing here uses package regexp, which the browser build leaves out:
// the interval log's line pattern is matched by hand (match.go, with Scan,
// which the tools' readers use too), and its tests hold it to the regexp
// on generated lines.
package measure
