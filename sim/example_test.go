package sim_test

import (
	"fmt"

	"omission/sim"
)

// Run the bench preset (seed 000) and print each recording's percentiles.
func ExampleRun() {
	cfg, err := sim.ParseQuery("preset=bench")
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%-16s %8s %10s %10s %10s %10s\n", "recording", "count", "p50 us", "p90 us", "p99 us", "p99.9 us")
	for _, r := range res.Recordings {
		fmt.Printf("%-16s %8d %10.1f %10.1f %10.1f %10.1f\n", r.Kind, r.Count, float64(r.P[0])/1e3, float64(r.P[1])/1e3, float64(r.P[2])/1e3, float64(r.P[3])/1e3)
	}
	passed, total := res.Passed()
	fmt.Printf("%d of %d checks passed\n", passed, total)
	// Output:
	// recording           count     p50 us     p90 us     p99 us   p99.9 us
	// closed             100000      100.0      100.0      100.0      100.0
	// paced               80020      100.0      100.0      100.0      100.0
	// open               100000      100.0   150100.0   195100.0   199600.0
	// corrected          119980      100.0    80300.0   188100.0   198900.0
	// paced_corrected    100000      100.0   100100.0   190100.0   199100.0
	// 71 of 71 checks passed
}
