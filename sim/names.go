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

// Corrected returns the recording that re-records what client c measured
// with HdrHistogram's expected-interval correction, and the interval E it
// corrects with under cfg: the closed client's with cfg.ExpectedInterval(),
// the paced client's with its slot, cfg.PacedInterval(). ok is false for the
// open client, which nothing corrects.
func (c Client) Corrected(cfg Config) (k Kind, e int64, ok bool) {
	switch c {
	case ClosedClient:
		return Corrected, cfg.ExpectedInterval(), true
	case PacedClient:
		return PacedCorrected, cfg.PacedInterval(), true
	}
	return 0, 0, false
}

// ClientNames returns the clients' names in display order.
func ClientNames() []string {
	out := make([]string, 0, len(clientNames))
	for _, c := range Clients() {
		out = append(out, c.String())
	}
	return out
}

// ParseClient returns the client a name names.
func ParseClient(name string) (Client, bool) {
	for _, c := range Clients() {
		if c.String() == name {
			return c, true
		}
	}
	return 0, false
}
