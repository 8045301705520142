package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"omission/app/measure"
	"omission/sim"
)

// keyPos returns the line and column of the first occurrence of a JSON key.
func keyPos(data []byte, key string) (int, int) {
	i := bytes.Index(data, []byte(strconv.Quote(key)))
	if i < 0 {
		return 1, 1
	}
	return measure.LineCol(data, i)
}

// jsonNumber reads a number field of obj as a decimal (nil: absent or
// null); negative and non-finite values are errors.
func jsonNumber(obj map[string]json.RawMessage, key string) (*measure.Decimal, error) {
	raw, ok := obj[key]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, fmt.Errorf("expected a number for %q, found %s", key, measure.TrimTo(string(raw), 30))
	}
	s := n.String()
	if strings.ContainsAny(s, "eE") {
		// Exponent form: go through float64 with 17 significant digits.
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) {
			return nil, fmt.Errorf("expected a non-negative number for %q, found %s", key, s)
		}
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	d, err := measure.ParseDecimal(s)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", key, err)
	}
	return &d, nil
}

func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	return m, true
}

// statePoints copies the points at the report's percentiles into P, saying
// how the tool got them.
func statePoints(d *measure.Dist, how measure.How) {
	for _, pt := range d.Points {
		for i, pn := range sim.Percentiles() {
			if math.Abs(float64(pn.PPM)/1e4-pt.Percentile) < 1e-9 {
				d.P[i] = measure.Percentile{Ns: pt.Ns, How: how}
			}
		}
	}
}
