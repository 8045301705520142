// Command rivalratio prints, from the results.json of the rival benchmark
// (../shared/bench/rivalbench, which loads Omission and the React rival in
// one run), issue 42's figures as ratios Omission ÷ rival in make bench's
// form: BENCH page.<figure>.vs_rival <ratio> ratio, with each side's
// median beside it. Medians as the benchmark's own table takes them.
//
//	go run ./app/internal/rivalratio WORK/results.json
//
// It may import the standard library only.
package main
