package sim

import (
	"math"
	"sort"
	"testing"
)

// The rival (github.com/telemetry-sh/coordinated-omission-lab) computes its
// four incidents deterministically in lib/simulation.ts: a mulberry32
// stream, a service of base·(1 ± jitter) times the incident's multiplier
// when it starts inside the incident, W workers taken earliest-free first,
// an open loop at a constant rate and a closed loop of
// ceil(rate·(base + think)) users who think between requests, and a
// correction of the closed loop's latencies with the interval 1/rate. What
// follows is that code in Go, operation for operation (JavaScript numbers
// are float64; Math.imul and >>> are 32-bit), so that its published
// figures can be set beside ours.

type rivalConfig struct {
	durationS, rps float64
	workers        int
	baseMs, jitter float64
	thinkMs        float64
	incStartS      float64
	incDurS        float64
	incMult        float64
	seed           uint32
}

// rivalPresets are PRESETS of lib/simulation.ts, by our presets' names.
var rivalPresets = map[string]rivalConfig{
	"pause":      {24, 180, 32, 72, 34, 35, 8, 1.4, 7, 17},
	"brownout":   {24, 155, 28, 88, 42, 45, 7, 7, 3.8, 31},
	"saturation": {24, 260, 18, 78, 28, 28, 5, 13, 2.5, 43},
	"baseline":   {24, 120, 36, 64, 24, 40, 9, 2, 1.15, 59},
}

func mulberry32(seed uint32) func() float64 {
	state := seed
	return func() float64 {
		state += 0x6d2b79f5
		v := state
		v = (v ^ v>>15) * (v | 1)
		v ^= v + (v^v>>7)*(v|61)
		return float64(v^v>>14) / 4294967296
	}
}

func rivalPercentile(values []float64, q float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	i := min(len(s)-1, max(0, int(math.Ceil(float64(len(s))*q))-1))
	return s[i]
}

type rivalCompletion struct{ arrival, finish, latency float64 }

func (c rivalConfig) service(random func() float64, startMs float64) float64 {
	incStart := c.incStartS * 1000
	incEnd := (c.incStartS + c.incDurS) * 1000
	jitter := 1 + ((random()*2-1)*math.Max(0, c.jitter))/100
	mult := 1.0
	if startMs >= incStart && startMs < incEnd {
		mult = c.incMult
	}
	return math.Max(1, c.baseMs*jitter*mult)
}

func (c rivalConfig) process(arrival float64, workers []float64, random func() float64) rivalCompletion {
	w := 0
	for i := 1; i < len(workers); i++ {
		if workers[i] < workers[w] {
			w = i
		}
	}
	start := math.Max(arrival, workers[w])
	finish := start + c.service(random, start)
	workers[w] = finish
	return rivalCompletion{arrival, finish, finish - arrival}
}

func (c rivalConfig) openLoop() []rivalCompletion {
	random := mulberry32(c.seed)
	workers := make([]float64, c.workers)
	var out []rivalCompletion
	interval := 1000 / c.rps
	for a := 0.0; a < c.durationS*1000; a += interval {
		out = append(out, c.process(a, workers, random))
	}
	return out
}

func (c rivalConfig) users() int {
	return max(1, int(math.Ceil((c.rps*(c.baseMs+c.thinkMs))/1000)))
}

func (c rivalConfig) closedLoop() []rivalCompletion {
	random := mulberry32(c.seed)
	workers := make([]float64, c.workers)
	cycle := c.baseMs + c.thinkMs
	n := c.users()
	clients := make([]float64, n)
	for i := range clients {
		clients[i] = float64(i) / float64(n) * cycle
	}
	var out []rivalCompletion
	for {
		ci := 0
		for i := 1; i < len(clients); i++ {
			if clients[i] < clients[ci] {
				ci = i
			}
		}
		a := clients[ci]
		if a >= c.durationS*1000 {
			break
		}
		done := c.process(a, workers, random)
		out = append(out, done)
		clients[ci] = done.finish + c.thinkMs
	}
	return out
}

func rivalCorrected(values []float64, e float64) []float64 {
	var out []float64
	for _, v := range values {
		out = append(out, v)
		for m := v - e; m > e; m -= e {
			out = append(out, m)
			if len(out) > 750_000 {
				return out
			}
		}
	}
	return out
}

// rivalFigures are what its simulate() reports, in ms (Math.round).
// correctedP99 is its reported figure, the larger of the measured p99 and
// that of the corrected samples; rawCorrectedP99 is the latter alone.
type rivalFigures struct {
	closedP99, correctedP99, openP99 float64
	rawCorrectedP99                  float64
	closedIssued, openIssued         int
}

func (c rivalConfig) figures() rivalFigures {
	lat := func(cs []rivalCompletion) []float64 {
		out := make([]float64, len(cs))
		for i, x := range cs {
			out[i] = x.latency
		}
		return out
	}
	closed, open := c.closedLoop(), c.openLoop()
	cl := lat(closed)
	p99 := math.Round(rivalPercentile(cl, 0.99))
	raw := math.Round(rivalPercentile(rivalCorrected(cl, 1000/c.rps), 0.99))
	return rivalFigures{
		closedP99:       p99,
		correctedP99:    math.Max(p99, raw),
		rawCorrectedP99: raw,
		openP99:         math.Round(rivalPercentile(lat(open), 0.99)),
		closedIssued:    len(closed), openIssued: len(open),
	}
}

// TestRivalPresets: each of the rival's four incidents, run through our
// model with its parameters (our preset of its name), against its own code's
// figures: the closed loop's measured p99, its interval-corrected p99, and
// the open loop's p99. The two draw different random numbers (mulberry32
// against xoshiro256**) and differ where the models do (rivalIncident in
// config.go says how), so each figure is compared within a band, and the
// shape, the closed loop's p99 below the open loop's or level with it,
// must hold in both. Its corrected figure is the larger of the measured p99
// and the corrected samples' p99; ours is set beside it the same way, and
// the corrected samples' p99s are compared too.
func TestRivalPresets(t *testing.T) {
	for _, name := range []string{"pause", "brownout", "saturation", "baseline"} {
		rc := rivalPresets[name]
		want := rc.figures()
		cfg, ok := PresetConfig(name)
		if !ok {
			t.Errorf("no preset %s", name)
			continue
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range res.Checks {
			if !c.Pass {
				t.Errorf("%s: check %s failed: %s", name, c.ID, c.Substituted)
			}
		}
		ms := func(k Kind) float64 { return float64(res.Recordings[k].P[P99]) / 1e6 }
		got := rivalFigures{closedP99: ms(Closed), correctedP99: math.Max(ms(Closed), ms(Corrected)), rawCorrectedP99: ms(Corrected), openP99: ms(Open),
			closedIssued: int(res.Clients[ClosedClient].Sent), openIssued: int(res.Clients[OpenClient].Sent)}
		t.Logf("%-10s rival: closed p99 %5.0f ms, corrected %5.0f ms (its samples' p99 %5.0f), open %5.0f ms (%d/%d requests); ours: %7.1f, %7.1f (%7.1f), %7.1f ms (%d/%d)",
			name, want.closedP99, want.correctedP99, want.rawCorrectedP99, want.openP99, want.closedIssued, want.openIssued,
			got.closedP99, got.correctedP99, got.rawCorrectedP99, got.openP99, got.closedIssued, got.openIssued)
		for _, f := range []struct {
			what      string
			want, got float64
		}{{"closed p99", want.closedP99, got.closedP99}, {"corrected p99", want.correctedP99, got.correctedP99},
			{"corrected samples' p99", want.rawCorrectedP99, got.rawCorrectedP99}, {"open p99", want.openP99, got.openP99}} {
			off := math.Abs(f.got-f.want) / f.want
			t.Logf("%-10s %-13s %+.1f %%", name, f.what, 100*(f.got-f.want)/f.want)
			if tol := rivalTolerance[name]; off > tol {
				t.Errorf("%s %s: ours %.1f ms, the rival's %.0f ms: %.1f %% apart, over %.0f %%", name, f.what, f.got, f.want, 100*off, 100*tol)
			}
		}
		// The shape: the closed loop's measured p99 against the open loop's,
		// below it in both or level in both (the baseline, within 5 %).
		if wr, gr := want.openP99/want.closedP99, got.openP99/got.closedP99; (wr > 1.05) != (gr > 1.05) {
			t.Errorf("%s: open/closed p99 %.2f in the rival's, %.2f in ours", name, wr, gr)
		}
	}
}

// rivalTolerance is how far apart a figure of ours may be from the rival's,
// per preset (presetRival in config.go says why).
var rivalTolerance = map[string]float64{"pause": 0.04, "brownout": 0.04, "saturation": 0.04, "baseline": 0.04}
