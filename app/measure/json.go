package measure

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// parseJSON reads a JSON object and hands it to the registered reader
// whose keys it has.
func parseJSON(name string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, jsonError(name, "", data, err)
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		l, c := LineCol(data, int(off)+len(data[off:])-len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return nil, &ParseError{Name: name, Line: l, Col: c, Msg: "expected the end of the file after the JSON object"}
	}
	for _, r := range readers {
		if r.ReadJSON != nil && r.keyed(top) {
			return r.ReadJSON(name, data, top)
		}
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return nil, &ParseError{Name: name, Line: 1, Col: 1, Msg: fmt.Sprintf("expected JSON from %s; found keys %s", expectedJSON, TrimTo(strings.Join(keys, ", "), 80))}
}

// jsonError turns a decoding error into a ParseError at its line.
func jsonError(name string, f Format, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := 0
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1 // the offending byte
		msg = "expected valid JSON: " + se.Error()
	case errors.As(err, &te):
		off = int(te.Offset)
		msg = fmt.Sprintf("expected %s at %s, found a JSON %s", te.Type, te.Field, te.Value)
	}
	l, c := LineCol(data, off)
	return &ParseError{Name: name, Format: f, Line: l, Col: c, Msg: msg}
}

// LineCol converts a byte offset of data to a 1-based line and column.
func LineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	l := 1 + bytes.Count(data[:off], []byte("\n"))
	c := off - bytes.LastIndexByte(data[:off], '\n')
	return l, c
}
