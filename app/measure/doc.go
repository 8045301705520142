// Package measure moves latency distributions in and out of the files that
// real tools write: HdrHistogram's percentile distribution (.hgrm) and
// interval log (.hlog), a CSV of samples, and, for import, the output of
// wrk, wrk2, k6, vegeta and oha.
//
// Export takes a *sim.Result (FromResult) or real samples (NewSource) and
// writes them with hdrhistogram-go histograms of 3 significant digits.
// Import (Parse) detects a file's format, says which, and returns the
// distributions it holds with what the file determines and what it does not.
//
// It may import sim only. The package builds for GOOS=js GOARCH=wasm: it
// reads no file, opens no socket and starts no process. Callers hand it
// bytes.
package measure
