package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"omission/sim"
)

// TestPacedAtRate: a paced client's .hgrm fitted with its rate given
// (rate=R) at low rates, where a slot is a large part of the stall and the
// stalls begin anywhere within one: the stall the fit states is within 1 %
// of the truth, or a range that holds it (the send a stall holds may leave
// up to a slot after the stall began: slotSpan.freeAtRate).
func TestPacedAtRate(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("fits 12 files: make test-truth")
	}
	r := rand.New(rand.NewPCG(39, 42))
	ranged := 0
	for i := 0; i < 12; i++ {
		rate := []int{5, 10, 20, 50}[r.IntN(4)]
		stall := 150 + r.IntN(700)
		every := 2000 + r.IntN(2000)
		first := 300 + r.IntN(1500)
		svc := 100 + r.IntN(4900)
		q := fmt.Sprintf("rate=%d&stall=%dms&every=%dms&first=%dms&service=%dus&duration=20s", rate, stall, every, first, svc)
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		name, data := fileFor(t, cfg, "hgrm-paced")
		rt, err := ParseRate(fmt.Sprint(rate))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Fit(name, data, Options{Rate: rt, NoTools: true})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		truth := cfg.Stall
		stated := false
		for _, f := range res.Ambiguous {
			if f.Param != "stall" {
				continue
			}
			stated = true
			lo, hi, err := f.DurationSpan()
			if err != nil {
				t.Fatal(err)
			}
			if truth < lo || truth > hi {
				t.Errorf("%s: the stall's range [%s, %s] does not hold the true %s", q, f.Lo, f.Hi, sim.FormatDuration(truth))
			}
			ranged++
		}
		if got := res.Config.Stall; !stated && math.Abs(float64(got-truth)) > 0.01*float64(truth) {
			t.Errorf("%s: the stall is stated as one value, %s, for a true %s", q, sim.FormatDuration(got), sim.FormatDuration(truth))
		}
	}
	t.Logf("%d of 12 stalls stated as a range", ranged)
}
