package sim

import "math"

// Named values the page, the charts, the animation and the report address
// the model's lists by, so that no caller counts positions itself.

// Clients returns the three clients in display order: closed, paced, open.
func Clients() []Client { return []Client{ClosedClient, PacedClient, OpenClient} }

// Indexes of Recording.P, in the order of Percentiles.
const (
	P50 = iota
	P90
	P99
	P999
	P9999
	NumPercentiles
)

// RankAt returns the 1-based rank of the fraction p (0 to 1) among n
// samples under rule r, clamped to [1, n]: RankOf for a fraction that need
// not be a whole number of parts per million, such as the points of a
// chart's curve. (The reported percentiles use RankOf's exact integers.)
func RankAt(p float64, n int64, r Rank) int64 {
	x := p * float64(n)
	var k float64
	if r == RankCeil {
		k = math.Ceil(x - 1e-9)
	} else {
		k = math.Floor(x + 0.5 + 1e-9)
	}
	return min(max(int64(k), 1), n)
}

// Recording returns the recording that holds what client c measured itself
// (closed, paced, open; the corrected ones are re-recordings).
func (c Client) Recording() Kind { return [...]Kind{Closed, Paced, Open}[c] }
