package tools

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
)

// FormatOha is oha --json.
const FormatOha measure.Format = "oha"

var ohaReader = measure.Reader{
	Format: FormatOha, Title: "oha JSON",
	Keys:     []measure.Keys{{A: "latencyPercentiles", B: "summary"}},
	ReadJSON: parseOha,
}

// oha's JSON (hatoo/oha b8cd846, src/printer.rs print_json 144-441) holds
// summary.{slowest, fastest, average} and latencyPercentiles.{p10 … p99.99}
// in seconds (Duration::as_secs_f64 of each successful request), and
// statusCodeDistribution, the successful responses by status. Percentiles
// are exact samples: the sorted successes' element at index floor(p·n)
// (src/result_data.rs percentile_iter 42-51); a missing one is null.
func parseOha(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	sum, ok1 := object(top["summary"])
	pcts, ok2 := object(top["latencyPercentiles"])
	if !ok1 || !ok2 {
		l, c := keyPos(data, "summary")
		return nil, &measure.ParseError{Name: name, Format: FormatOha, Line: l, Col: c, Msg: "expected \"summary\" and \"latencyPercentiles\" to be objects"}
	}
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	sec := func(obj map[string]json.RawMessage, key string) (int64, bool, error) {
		v, err := jsonNumber(obj, key)
		if err != nil || v == nil {
			return 0, false, err
		}
		n, err := v.Ns(1e9)
		return n, err == nil, err
	}
	fail := func(key string, err error) error {
		l, c := keyPos(data, key)
		return &measure.ParseError{Name: name, Format: FormatOha, Line: l, Col: c, Msg: err.Error()}
	}
	if v, ok, err := sec(sum, "average"); err != nil {
		return nil, fail("average", err)
	} else if ok {
		d.HasMean, d.MeanNs = true, float64(v)
	}
	if v, ok, err := sec(sum, "slowest"); err != nil {
		return nil, fail("slowest", err)
	} else if ok {
		d.MaxNs = v
	}
	if v, ok, err := sec(sum, "fastest"); err != nil {
		return nil, fail("fastest", err)
	} else if ok {
		d.MinNs = v
	}
	if sc, ok := object(top["statusCodeDistribution"]); ok {
		var n int64
		for k := range sc {
			c, err := jsonNumber(sc, k)
			if err != nil {
				return nil, fail(k, err)
			}
			if c != nil {
				x, _ := c.Ns(1)
				n += x
			}
		}
		d.Count = n
	}
	for key := range pcts {
		p, err := strconv.ParseFloat(strings.TrimPrefix(key, "p"), 64)
		if !strings.HasPrefix(key, "p") || err != nil || p < 0 || p > 100 {
			continue
		}
		v, ok, err := sec(pcts, key)
		if err != nil {
			return nil, fail(key, err)
		}
		if ok {
			d.Points = append(d.Points, measure.Point{Percentile: p, Ns: v, Count: -1})
		}
	}
	sort.Slice(d.Points, func(i, j int) bool { return d.Points[i].Percentile < d.Points[j].Percentile })
	statePoints(&d, measure.Stated)
	d.Precision = "seconds as float64 (to the ns); exact samples at index floor(p·n)"
	d.Notes = append(d.Notes, "The count is the successful responses (statusCodeDistribution); errors are not in the latencies.")
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatOha, Dists: []measure.Dist{d}}, nil
}

// ohaStated reads what oha's JSON (src/printer.rs print_json) states of
// its run: summary.total (the duration), the responses of
// statusCodeDistribution and the connections errorDistribution's "aborted
// due to deadline" counts (every connection task is aborted at the
// deadline, src/client.rs), whence the rate as the responses over the
// duration (oha sends each tick it queued); and the responses in
// responseTimeHistogram's bins from half the slowest up (the slow replies;
// -1 when it has none).
func ohaStated(data []byte) (requests, duration int64, conns int, rate sim.Rate, slow int64) {
	var m struct {
		Summary struct {
			Total   float64 `json:"total"`
			Slowest float64 `json:"slowest"`
		} `json:"summary"`
		Hist   map[string]int64 `json:"responseTimeHistogram"`
		Codes  map[string]int64 `json:"statusCodeDistribution"`
		Errors map[string]int64 `json:"errorDistribution"`
	}
	slow = -1
	if json.Unmarshal(data, &m) != nil || m.Summary.Total <= 0 || m.Summary.Total > 1e6 {
		return 0, 0, 0, 0, -1
	}
	duration = int64(math.Round(m.Summary.Total * 1e9))
	for _, n := range m.Codes {
		requests += n
	}
	aborted := m.Errors["aborted due to deadline"]
	if aborted > 0 && aborted <= 1e5 {
		conns = int(aborted)
	}
	if requests > 0 {
		// The aborted are connection tasks, idle or not: not requests.
		rate = MeasuredRate(float64(requests) / m.Summary.Total)
	}
	if len(m.Hist) > 0 {
		slow = 0
		for k, n := range m.Hist {
			if v, err := strconv.ParseFloat(k, 64); err == nil && 2*v >= m.Summary.Slowest {
				slow += n
			}
		}
	}
	return requests, duration, conns, rate, slow
}
