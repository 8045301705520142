package sim

import "testing"

// TestPercentileOfSent checks the percentile over every call sent, a call
// never answered ranked above every answer, against the sorted list of the
// sent calls written out with the unanswered ones as +infinity.
func TestPercentileOfSent(t *testing.T) {
	answered := []int64{5, 1, 9, 3, 7, 2, 8, 4, 6, 10}
	rec := Recording{Count: int64(len(answered)), Dist: exactDist(append([]int64(nil), answered...))}
	const inf = int64(1) << 62
	for _, rank := range []Rank{RankRound, RankCeil} {
		for sent := int64(10); sent <= 40; sent++ {
			all := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
			for len(all) < int(sent) {
				all = append(all, inf)
			}
			for _, ppm := range []int64{500000, 900000, 990000} {
				want := all[RankOf(ppm, sent, rank)-1]
				got, ok := rec.PercentileOfSent(ppm, sent, rank)
				if ok != (want != inf) || (ok && got != want) {
					t.Errorf("rank %v, sent %d, ppm %d: got %d, %v; want %d", rank, sent, ppm, got, ok, want)
				}
			}
		}
	}
	if _, ok := (&Recording{}).PercentileOfSent(990000, 0, RankRound); ok {
		t.Error("nothing sent: a percentile was returned")
	}
	if _, ok := (&Recording{}).PercentileOfSent(990000, 5, RankRound); ok {
		t.Error("nothing answered: a percentile was returned")
	}
}
