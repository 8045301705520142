package sim_test

import (
	"fmt"

	"omission/sim"
)

// A random regime: Poisson arrivals and exponential service at two
// workers, at 105 % load, a queue of 20, a 2 ms client timeout. The run is the same for
// the same seed, natively and in WebAssembly, and its hash says so.
func Example_engine() {
	cfg, err := sim.ParseQuery("arrivals=poisson&rate=17500&dist=exponential&service=120us&stall=0&workers=2&conns=2&queue=20&timeout=2ms&duration=2s&seed=7")
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		panic(err)
	}
	for _, c := range []sim.Client{sim.ClosedClient, sim.OpenClient} {
		ec := res.Engine.Clients[c]
		fmt.Printf("%-6s sent %5d replies %5d rejected %d timed out %d\n", c, ec.Sent, ec.Replies, ec.Rejected, ec.TimedOut)
	}
	open := res.Recordings[sim.Open]
	fmt.Printf("open p50 %d ns, p99 %d ns\n", open.P[0], open.P[2])
	fmt.Println("little.open:", res.CheckFor("little.open").Pass)
	passed, total := res.Passed()
	fmt.Printf("checks %d of %d; hash %s…\n", passed, total, res.Hash[:16])
	// Output:
	// closed sent 35020 replies 35020 rejected 0 timed out 0
	// open   sent 35020 replies 32457 rejected 2487 timed out 76
	// open p50 830419 ns, p99 1775222 ns
	// little.open: true
	// checks 24 of 24; hash 6c7a39abd84d6dda…
}
