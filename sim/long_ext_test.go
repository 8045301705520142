package sim_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	. "omission/sim"
	"omission/sim/internal/simtest"
)

// sameResult requires two results of one configuration to be the same:
// every number of the report, every check, the hash.
func sameResult(t *testing.T, name string, walk, long *Result) {
	t.Helper()
	a, _ := json.Marshal(walk.Report())
	b, _ := json.Marshal(long.Report())
	if string(a) != string(b) || walk.Hash != long.Hash {
		for k := range walk.Recordings {
			x, y := walk.Recordings[k], long.Recordings[k]
			if x.Count != y.Count || x.Mean != y.Mean || x.P != y.P || x.Max != y.Max || x.Above != y.Above {
				t.Errorf("%s %s: walk count %d mean %v P %v max %d above %d; long count %d mean %v P %v max %d above %d",
					name, Kind(k), x.Count, x.Mean, x.P, x.Max, x.Above, y.Count, y.Mean, y.P, y.Max, y.Above)
			}
		}
		for c := range walk.Clients {
			x, y := walk.Clients[c], long.Clients[c]
			if x.Sent != y.Sent || x.LastCompletion != y.LastCompletion || x.StallsMet != y.StallsMet {
				t.Errorf("%s %s: walk sent %d last %d stalls %d; long sent %d last %d stalls %d", name, Client(c), x.Sent, x.LastCompletion, x.StallsMet, y.Sent, y.LastCompletion, y.StallsMet)
			}
		}
		for i := range walk.Checks {
			if i < len(long.Checks) && (walk.Checks[i].ID != long.Checks[i].ID || walk.Checks[i].Got != long.Checks[i].Got || walk.Checks[i].Pass != long.Checks[i].Pass) {
				t.Errorf("%s: check %s got %v pass %v; long %s got %v pass %v", name, walk.Checks[i].ID, walk.Checks[i].Got, walk.Checks[i].Pass, long.Checks[i].ID, long.Checks[i].Got, long.Checks[i].Pass)
			}
		}
		if len(walk.Checks) != len(long.Checks) {
			t.Errorf("%s: %d checks walked, %d long", name, len(walk.Checks), len(long.Checks))
		}
		t.Errorf("%s: reports differ (hash %s vs %s)", name, walk.Hash, long.Hash)
	}
}

// TestLongMatchesWalk: the long path gives the walk's result, report and
// hash, on random configurations of every kind.
func TestLongMatchesWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2026))
	n := 1500
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		cfg := simtest.RandomLongConfig(r)
		sameResult(t, cfg.Query(), simtest.RunWalkPath(t, cfg), simtest.RunLongPath(t, cfg))
		if t.Failed() {
			t.Fatalf("stopped at configuration %d", i)
		}
	}
}

// TestLongMatchesWalkPresets: the presets and the golden traces'
// configurations, through both paths.
func TestLongMatchesWalkPresets(t *testing.T) {
	qs := []string{"", "rank=ceil", "preset=tcp", "preset=tcp&rank=ceil", "preset=note60", "preset=note60-single", "preset=clients10", "preset=clients10&workers=7&rank=ceil",
		"rate=1000&service=300us&stall=2500us&every=10ms&first=2ms&duration=20ms",
		"rate=1000&service=800us&stall=1500us&every=4ms&first=2300us&duration=12ms",
		"rate=3000&service=900us&stall=2ms&every=7ms&first=1ms&duration=10ms&conns=3&workers=2",
		"rate=333.333&service=2ms&stall=40ms&every=700ms&first=10ms&duration=3s&conns=4&workers=3"}
	for _, q := range qs {
		cfg := simtest.Parse(t, q)
		sameResult(t, fmt.Sprintf("%q", q), simtest.RunWalkPath(t, cfg), simtest.RunLongPath(t, cfg))
	}
}
