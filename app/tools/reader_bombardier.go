package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"omission/app/measure"
	"omission/sim"
)

// FormatBombardier is bombardier's text output (-l for its latency
// distribution); FormatBombardierJSON its -o json report.
const (
	FormatBombardier     measure.Format = "bombardier"
	FormatBombardierJSON measure.Format = "bombardier-json"
)

var bombardierReader = measure.Reader{
	Format: FormatBombardier, Title: "bombardier output",
	When:  measure.Anywhere,
	Marks: []measure.Mark{{Prefix: "Bombarding ", Contains: " connection(s)"}, {Prefix: "Statistics        Avg      Stdev        Max", Exact: true}},
	Read:  parseBombardier,
}

var bombardierJSONReader = measure.Reader{
	Format: FormatBombardierJSON, Title: "bombardier JSON (-o json)",
	Keys:     []measure.Keys{{A: "spec", B: "result"}},
	ReadJSON: parseBombardierJSON,
}

// bombardierValue reads a formatTimeUs value ("91.00us", "0.97ms",
// "10.01s") as ns: its units are wrk's format_time_us's (wrkValue).
func bombardierValue(s string) (int64, error) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' })
	if i <= 0 || wrkUnits[s[i:]] == 0 {
		return 0, fmt.Errorf("expected a time with its unit (us, ms, s, m or h), found %q", s)
	}
	return wrkValue(s[:i], s[i:])
}

// bombardierPrecision is what formatTimeUs keeps: two decimals of its unit.
const bombardierPrecision = "two decimals of us, ms or s (10 ms from 1 s)"

// bombardierRule is what its text and its JSON say of its percentiles.
const bombardierRule = "bombardier's p% is the first value whose running count reaches round(p·n); its latencies include the failed calls'."

func parseBombardier(name string, ls []measure.Line) (*measure.File, error) {
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	perr := func(l measure.Line, msg string, a ...any) error {
		return &measure.ParseError{Name: name, Format: FormatBombardier, Line: l.N, Col: 1, Msg: fmt.Sprintf(msg, a...)}
	}
	inDist, sawStats, sawCodes := false, false, false
	var count int64
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		f := strings.Fields(t)
		if inDist {
			if len(f) == 2 && strings.HasSuffix(f[0], "%") && isDigits(strings.TrimSuffix(f[0], "%")) {
				p, _ := strconv.Atoi(strings.TrimSuffix(f[0], "%"))
				ns, err := bombardierValue(f[1])
				if err != nil {
					return nil, perr(l, "%s: %v", f[0], err)
				}
				d.Points = append(d.Points, measure.Point{Percentile: float64(p), Ns: ns, Count: -1})
				continue
			}
			inDist = false
		}
		switch {
		case t == "Statistics        Avg      Stdev        Max":
			sawStats = true
		case len(f) == 4 && f[0] == "Latency":
			mean, err1 := bombardierValue(f[1])
			mx, err2 := bombardierValue(f[3])
			if err1 != nil || err2 != nil {
				return nil, perr(l, "expected \"Latency <avg> <stdev> <max>\", found %q", t)
			}
			d.HasMean, d.MeanNs, d.MaxNs = true, float64(mean), mx
		case t == "Latency Distribution":
			inDist = true
		case strings.HasPrefix(t, "1xx - "):
			for _, part := range strings.Split(t, ",") {
				_, v, ok := strings.Cut(part, " - ")
				n, err := measure.ParseInt(strings.TrimSpace(v))
				if !ok || err != nil {
					return nil, perr(l, "expected \"1xx - N, 2xx - N, …\", found %q", t)
				}
				count += n
			}
			sawCodes = true
		case strings.HasPrefix(t, "others - "):
			n, err := measure.ParseInt(strings.TrimPrefix(t, "others - "))
			if err != nil {
				return nil, perr(l, "others: %v", err)
			}
			count += n
		}
	}
	if !sawStats {
		return nil, &measure.ParseError{Name: name, Format: FormatBombardier, Line: len(ls), Msg: "expected bombardier's \"Statistics  Avg  Stdev  Max\" table, found none"}
	}
	if sawCodes {
		d.Count = count // every call is in its latencies, failed or not
	}
	statedFromPoints(&d, d.Points)
	d.Precision = bombardierPrecision
	d.Notes = append(d.Notes, bombardierRule)
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatBombardier, Dists: []measure.Dist{d}}, nil
}

// parseBombardierJSON reads -o json's result.latency (µs: mean, stddev,
// max and, with -l, percentiles "50" … "99") and its status counts.
func parseBombardierJSON(name string, data []byte, top map[string]json.RawMessage) (*measure.File, error) {
	fail := func(key, msg string) error {
		l, c := keyPos(data, key)
		return &measure.ParseError{Name: name, Format: FormatBombardierJSON, Line: l, Col: c, Msg: msg}
	}
	res, ok := object(top["result"])
	if !ok {
		return nil, fail("result", "expected \"result\" to be an object")
	}
	d := measure.Dist{Label: "latency", Count: -1, MinNs: -1, MaxNs: -1, UnitNs: 1}
	var count int64
	for _, k := range []string{"req1xx", "req2xx", "req3xx", "req4xx", "req5xx", "others"} {
		v, err := jsonNumber(res, k)
		if err != nil {
			return nil, fail(k, err.Error())
		}
		if v != nil {
			n, err := v.Ns(1)
			if err != nil {
				return nil, fail(k, err.Error())
			}
			count += n
			d.Count = count
		}
	}
	lat, ok := object(res["latency"])
	if !ok {
		return nil, fail("result", "expected \"result\" to hold \"latency\", an object: bombardier writes it when a call completed")
	}
	us := func(key string) (float64, bool, error) {
		raw, ok := lat[key]
		if !ok {
			return 0, false, nil
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || f < 0 || math.IsInf(f, 0) || f > 1e12 {
			return 0, false, fmt.Errorf("expected %q to be a number of µs, found %s", key, raw)
		}
		return f, true, nil
	}
	if v, ok, err := us("mean"); err != nil {
		return nil, fail("mean", err.Error())
	} else if ok {
		d.HasMean, d.MeanNs = true, v*1e3
	}
	if v, ok, err := us("max"); err != nil {
		return nil, fail("max", err.Error())
	} else if ok {
		d.MaxNs = int64(math.Round(v * 1e3))
	}
	if pcts, ok := object(lat["percentiles"]); ok {
		for _, p := range bombardierPcts {
			k := strconv.Itoa(int(math.Round(p * 100)))
			v, err := jsonNumber(pcts, k)
			if err != nil {
				return nil, fail(k, err.Error())
			}
			if v == nil {
				continue
			}
			ns, err := v.Ns(1e3)
			if err != nil {
				return nil, fail(k, err.Error())
			}
			d.Points = append(d.Points, measure.Point{Percentile: p * 100, Ns: ns, Count: -1})
		}
	}
	statedFromPoints(&d, d.Points)
	d.Precision = "whole µs"
	d.Notes = append(d.Notes, bombardierRule)
	d.Finish(false)
	return &measure.File{Name: name, Format: FormatBombardierJSON, Dists: []measure.Dist{d}}, nil
}

// bombardierStated reads what bombardier states of its run: its intro
// line "Bombarding URL for D using C connection(s)" (text), or the JSON's
// spec.numberOfConnections, spec.testDurationSeconds and spec.rate (the
// JSON has it only with --rate, so it says whether there was one; the text
// does not); the calls are the status counts, failed calls included.
func bombardierStated(data []byte, d *measure.Dist) (requests, duration int64, conns int, rate sim.Rate, rateKnown bool) {
	if d != nil && d.Count > 0 {
		requests = d.Count
	}
	var m struct {
		Spec struct {
			Conns    int     `json:"numberOfConnections"`
			Duration float64 `json:"testDurationSeconds"`
			Rate     *uint64 `json:"rate"` // templates.go 114-116: only with --rate
		} `json:"spec"`
	}
	if json.Unmarshal(data, &m) == nil {
		rateKnown = true
		if m.Spec.Rate != nil && *m.Spec.Rate > 0 && *m.Spec.Rate < 1e9 {
			rate = sim.RateOf(int64(*m.Spec.Rate))
		}
		if m.Spec.Conns > 0 && m.Spec.Conns <= 1e5 {
			conns = m.Spec.Conns
		}
		if m.Spec.Duration > 0 && m.Spec.Duration < 1e6 {
			duration = int64(math.Round(m.Spec.Duration * 1e9))
		}
		return requests, duration, conns, rate, rateKnown
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimSpace(strings.TrimLeft(l, "\r")))
		if len(f) == 7 && f[0] == "Bombarding" && f[2] == "for" && f[4] == "using" && f[6] == "connection(s)" {
			if dd, err := time.ParseDuration(f[3]); err == nil {
				duration = int64(dd)
			}
			if c, err := strconv.Atoi(f[5]); err == nil {
				conns = c
			}
		}
	}
	return requests, duration, conns, 0, false
}
