package sim

import (
	"fmt"
	"strings"
	"testing"
)

// engineTrace runs cfg through the engine with every client's event trace on.
func engineTrace(t *testing.T, cfg Config) (string, *Result) {
	t.Helper()
	e := newEngineRun(cfg)
	var b strings.Builder
	fmt.Fprintf(&b, "query %s\n", cfg.Query())
	for _, s := range e.sims {
		s.trace = &b
	}
	for !e.step(1 << 20) {
	}
	if e.err != nil {
		t.Fatal(e.err)
	}
	res := e.result()
	res.Hash = res.computeHash()
	for c, ec := range res.Engine.Clients {
		fmt.Fprintf(&b, "client %s planned %d sent %d replies %d rejected %d failed %d timed out %d wasted %d (%d ns) end %d\n",
			Client(c), ec.Planned, ec.Sent, ec.Replies, ec.Rejected, ec.Failed, ec.TimedOut, ec.Wasted, ec.WastedNs, ec.End)
	}
	for _, k := range Kinds() {
		r := res.Recordings[k]
		fmt.Fprintf(&b, "recording %s count %d mean %v p %v max %d above %d\n", k, r.Count, r.Mean, r.P, r.Max, r.Above)
	}
	fmt.Fprintf(&b, "hash %s\n", res.Hash)
	return b.String(), res
}

// TestEngineGoldenTraces pins the event trace of small runs, every
// feature, every client: each event as it leaves the heap (time, client,
// kind, request slot, sequence, queue, busy workers) and what it did.
func TestEngineGoldenTraces(t *testing.T) {
	for name, q := range map[string]string{
		"poisson": "arrivals=poisson&rate=2000&dist=exponential&service=300us&workers=2&conns=2&stall=2ms&every=10ms&first=3ms&duration=10ms&seed=7",
		"timeout": "rate=1000&service=1500us&queue=1&timeout=2ms&outages=4ms-6ms&stall=0&duration=12ms&conns=2",
		"ramp":    "arrivals=ramp&rate=500&to=3000&dist=lognormal&service=200us&service_p95=900us&duration=8ms&stall=0&seed=3",
		"burst":   "arrivals=burst&rate=300&bursts=2ms-4ms@5000&dist=uniform&service=100us&service_max=700us&workers=unlimited&duration=8ms&stall=0",
		"retry":   "rate=1000&service=1500us&queue=1&timeout=2ms&outages=4ms-6ms&stall=0&duration=12ms&conns=2&attempts=3&backoff=1ms",
		"slow":    "rate=1000&service=700us&stall=2ms&every=0s&first=5ms&slow=3ms-7ms@x2.5&think=300us&think_max=1500us&duration=10ms&conns=2&seed=4",
	} {
		tr, res := engineTrace(t, parse(t, q))
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: %s want %v got %v", name, c.ID, c.Want, c.Got)
			}
		}
		engineGolden(t, "engine_trace_"+name+".golden", tr)
	}
}

// hashQueries are the configurations whose hashes are pinned: every
// feature, both paths, both rank rules.
var hashQueries = []string{
	"",
	"preset=tcp&rank=ceil",
	"preset=clients10",
	"arrivals=poisson&seed=1",
	"arrivals=poisson&seed=18446744073709551615",
	"arrivals=poisson&dist=exponential&service=150us&workers=4&conns=4&rate=20000&stall=0&duration=3s&seed=42",
	"arrivals=ramp&to=9000&dist=lognormal&service=80us&service_p95=400us&workers=2&conns=3&duration=2s",
	"arrivals=burst&bursts=1s-1200ms@30000&dist=uniform&service=50us&service_max=300us&queue=20&workers=2&conns=8&duration=2s",
	"arrivals=poisson&service=100us&timeout=50ms&queue=500&outages=1s-1300ms&duration=2s&conns=2&rank=ceil",
	"preset=note60&dist=exponential&timeout=100ms&duration=40s",
	"preset=retry-storm&arrivals=poisson&dist=exponential&workers=2&service=1500us&queue=2000&seed=5",
	"preset=brownout&think_max=90ms&attempts=2&timeout=2s&seed=9",
}

// TestEngineGoldenHashes: the same query gives the same hash, natively and
// under js/wasm (both runs read this one golden file), and the hash is
// that of the canonical JSON of the numbers.
func TestEngineGoldenHashes(t *testing.T) {
	var b strings.Builder
	for _, q := range hashQueries {
		res, err := Run(parse(t, q))
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(res.Hash) != 64 || res.Hash != res.Report().Hash || res.Hash != res.computeHash() {
			t.Errorf("%q: hash %q, report %q", q, res.Hash, res.Report().Hash)
		}
		fmt.Fprintf(&b, "%s %s\n", res.Hash, q)
	}
	engineGolden(t, "engine_hashes.golden", b.String())
}

// TestHashCovers: the hash moves with the seed, any parameter, and any
// number; not with the spelling of the query or its preset.
func TestHashCovers(t *testing.T) {
	base := "arrivals=poisson&rate=2000&dist=exponential&service=300us&workers=2&duration=1s&stall=0"
	h := func(q string) string {
		res, err := Run(parse(t, q))
		if err != nil {
			t.Fatal(err)
		}
		return res.Hash
	}
	h0 := h(base)
	for _, q := range []string{base + "&seed=1", base + "&above=2ms", base + "&rank=ceil", base + "&queue=1000000", base + "&interval=1ms"} {
		if h(q) == h0 {
			t.Errorf("%s: same hash as without the change", q)
		}
	}
	if h(base+"&seed=0&timeout=0s&queue=unbounded") != h0 {
		t.Errorf("spelling defaults out changed the hash")
	}
	// The bench preset spelled out in full is the same result.
	p, _ := PresetConfig("tcp")
	explicit := fmt.Sprintf("rate=%s&service=%s&stall=%s&every=%s&first=%s&duration=%s", p.Rate, FormatDuration(p.Service),
		FormatDuration(p.Stall), FormatDuration(p.Every), FormatDuration(p.First), FormatDuration(p.Duration))
	if h(explicit) != h("preset=tcp") {
		t.Errorf("preset=tcp and its parameters spelled out hash differently")
	}
	// A number changed in the result changes the hash.
	res, _ := Run(parse(t, base))
	res.Recordings[Open].P[2]++
	if res.computeHash() == h0 {
		t.Errorf("a changed p99 kept the hash")
	}
}
