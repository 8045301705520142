package sim

import (
	"encoding/hex"
	"encoding/json"
)

// hashDoc is what the result hash covers: the engine version, the seed,
// every parameter, the limits and every number of the report (the checks by
// id, want, got and pass). Prose (formulas, notes) and the query's spelling
// are left out, so one result has one hash however it was asked for.
type hashDoc struct {
	EngineVersion int                     `json:"engine_version"`
	Seed          string                  `json:"seed"`
	Params        map[string]string       `json:"params"`
	Limits        map[string]int64        `json:"limits"`
	Planned       int64                   `json:"planned"`
	SlotNs        int64                   `json:"slot_ns"`
	Exact         bool                    `json:"exact"`
	Clients       map[string]ClientReport `json:"clients"`
	Recordings    map[string]RecReport    `json:"recordings"`
	Checks        []hashCheck             `json:"checks"`
	Series        *SeriesReport           `json:"series"`
}

type hashCheck struct {
	ID   string  `json:"id"`
	Want float64 `json:"want"`
	Got  float64 `json:"got"`
	Pass bool    `json:"pass"`
}

// computeHash returns the SHA-256 (sum256), in hex, of the canonical JSON of the
// result's hashDoc (encoding/json: struct fields in order, map keys sorted,
// floats in their shortest exact form).
func (r *Result) computeHash() string {
	saved := r.Hash
	r.Hash = ""
	rep := r.Report()
	r.Hash = saved
	doc := hashDoc{EngineVersion: rep.EngineVersion, Seed: rep.Seed, Params: rep.Params, Limits: rep.Limits,
		Planned: rep.Planned, SlotNs: rep.SlotNs, Exact: rep.Exact, Clients: rep.Clients, Recordings: rep.Recordings, Series: rep.Series}
	doc.Checks = make([]hashCheck, len(rep.Checks))
	for i, c := range rep.Checks {
		doc.Checks[i] = hashCheck{c.ID, c.Want, c.Got, c.Pass}
	}
	b, err := json.Marshal(doc)
	if err != nil { // a number JSON cannot hold (NaN, ±Inf): hash its error instead
		b = []byte("unhashable: " + err.Error())
	}
	sum := sum256(b)
	return hex.EncodeToString(sum[:])
}
