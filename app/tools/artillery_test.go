package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sketchesJS is where the project's tools script installs Artillery's
// DDSketch (@artilleryio/sketches-js), or "" when it is not there.
func sketchesJS(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is missing: the DDSketch is held to Artillery's own with it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".tools", "artillery", "node_modules", "@artilleryio", "sketches-js")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("Artillery is not installed (" + InstallScript + " installs it): the DDSketch is held to its own with it")
	}
	return dir
}

// TestDDSketchMatchesArtillery holds ddsketch to the DDSketch Artillery
// 2.0.20 runs (@artilleryio/sketches-js 2.1.1, in node): the bin of every
// whole millisecond up to 100 s (Artillery's response times), and the
// summaries of random sets of latencies, whole and fractional (its
// session lengths), after the protobuf clones of a period's and of the
// aggregate's sketch.
func TestDDSketchMatchesArtillery(t *testing.T) {
	dir := sketchesJS(t)
	r := rand.New(rand.NewPCG(7, 2026))
	var sets [][]float64
	for i := 0; i < 30; i++ {
		n := 1 + r.IntN(3000)
		vals := make([]float64, n)
		for j := range vals {
			switch i % 3 {
			case 0: // whole ms, most fast, a stall's ramp
				vals[j] = float64(r.IntN(2))
				if r.IntN(10) == 0 {
					vals[j] = float64(r.IntN(500))
				}
			case 1: // session lengths: fractions of a ms
				vals[j] = math.Round(r.Float64()*3000*1e4) / 1e4
			default:
				vals[j] = float64(r.IntN(100000))
			}
		}
		sets = append(sets, vals)
	}
	in, err := json.Marshal(sets)
	if err != nil {
		t.Fatal(err)
	}
	js := `const {DDSketch} = require(process.argv[1]);
const sets = JSON.parse(require("fs").readFileSync(0, "utf8"));
const round = (x) => Math.round(x * 10) / 10;
const m = new DDSketch({relativeAccuracy: 0.01}).mapping;
const keys = [];
for (let v = 1; v <= 100000; v++) keys.push(m.key(v));
const sums = sets.map((vals) => {
  let h = new DDSketch({relativeAccuracy: 0.01});
  for (const v of vals) h.accept(v);
  const out = [];
  for (const clones of [2, 3]) {
    let c = h;
    for (let i = 0; i < clones; i++) c = DDSketch.fromProto(c.toProto());
    out.push([0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999].map((q) => round(c.getValueAtQuantile(q))));
  }
  return out;
});
process.stdout.write(JSON.stringify({keys, sums}));`
	cmd := exec.Command("node", "-e", js, dir)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got struct {
		Keys []int
		Sums [][2][]float64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	s := newDDSketch()
	for v := 1; v <= 100000; v++ {
		if k := int(math.Ceil(math.Log2(float64(v)) * s.mult)); k != got.Keys[v-1] {
			t.Fatalf("%d ms: bin %d, Artillery's %d", v, k, got.Keys[v-1])
		}
	}
	for i, vals := range sets {
		h := newDDSketch()
		for _, v := range vals {
			h.add(v)
		}
		for c, clones := range []int{artilleryPeriodClones, artilleryAggregateClones} {
			qs := []float64{0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999}
			for j, v := range h.quantiles(qs, clones) {
				q := qs[j]
				if v := jsRound1(v); v != got.Sums[i][c][j] {
					t.Errorf("set %d (%d values), %d clones: q%g = %g, Artillery's %g", i, len(vals), clones, q, v, got.Sums[i][c][j])
				}
			}
		}
	}
}
