package measure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A Reader reads the files of one load tool (its printout or its JSON
// report). This package knows no tool: app/tools registers a Reader for
// each format its tools write (Register, from its init), and Parse asks
// them in the order they were registered. A program that parses a tool's
// file links app/tools.
type Reader struct {
	Format Format
	Title  string // the format in words: "… output", "… JSON"

	// A printout: any of Marks on a line (trimmed of spaces) shows the
	// tool's printout, When says in which of Parse's passes they are
	// asked, and Read reads the whole file.
	When  When
	Marks []Mark
	Read  func(name string, ls []Line) (*File, error)
	// AfterJSON, when not empty, marks a printout that may start with
	// JSON log lines: a file holding it is read as text.
	AfterJSON string
	// Incomplete says what a printout lacks of the layout the tool always
	// prints (File.Incomplete); nil when nothing can be missing. The page
	// (built with the minimal tag) does not ask it.
	Incomplete func(f *File, ls []Line) []string

	// A JSON report: any of Keys is on the top-level object, and ReadJSON
	// reads it.
	Keys     []Keys
	ReadJSON func(name string, data []byte, top map[string]json.RawMessage) (*File, error)
}

// Keys are keys of a JSON report's top-level object that tell the tool: A,
// and B or, when B is empty, a value of A that holds Holds.
type Keys struct{ A, B, Holds string }

// A Mark is a line of a tool's printout, trimmed: one that starts with
// Prefix and holds Contains, or, when Exact, one that is Prefix.
type Mark struct {
	Prefix, Contains string
	Exact            bool
}

// marked says whether any of r's marks is on the line t.
func (r *Reader) marked(t string) bool {
	for _, m := range r.Marks {
		if m.Exact && t == m.Prefix || !m.Exact && strings.HasPrefix(t, m.Prefix) && strings.Contains(t, m.Contains) {
			return true
		}
	}
	return false
}

// When is a pass of Parse over a printout's lines.
type When int

const (
	// First: asked of every line before any other reader (for a printout
	// that holds other tools' lines or an .hgrm spectrum).
	First When = iota
	// Anywhere: asked of every line, after the First readers, before the
	// line-by-line pass.
	Anywhere
	// InTurn: asked line by line after the .hlog and .hgrm markers of the
	// same line; the first line no one marks that is not a comment ends
	// the search.
	InTurn
)

// readers are the registered readers, in their order;
// expected and expectedJSON name what Parse reads in its messages.
var (
	readers      []*Reader
	expected     = "an .hgrm percentile distribution or an .hlog interval log"
	expectedJSON = "no reader registered"
)

// Register sets the readers Parse asks, in their order. expect
// names every format Parse then reads, for its message when it recognises
// none ("…, an .hgrm percentile distribution, an .hlog interval log, or
// JSON from …"), and expectJSON the JSON reports with the keys that tell
// them ("COMMAND (key1, key2), … or …"), for a JSON object no reader's.
func Register(expect, expectJSON string, rs ...*Reader) {
	readers, expected, expectedJSON = rs, expect, expectJSON
}

// keyed says whether any of r's keys are on top.
func (r *Reader) keyed(top map[string]json.RawMessage) bool {
	for _, k := range r.Keys {
		if top[k.A] != nil && (k.B != "" && top[k.B] != nil || k.B == "" && bytes.Contains(top[k.A], []byte(k.Holds))) {
			return true
		}
	}
	return false
}

// JSON reports whether f is a tool's JSON report (its reader reads JSON),
// not a printout.
func (f Format) JSON() bool { r := readerOf(f); return r != nil && r.ReadJSON != nil }

func readerOf(f Format) *Reader {
	for _, r := range readers {
		if r.Format == f {
			return r
		}
	}
	return nil
}

// detectText recognises a text format and parses it.
func detectText(name string, ls []Line) (*File, error) {
	for _, w := range [...]When{First, Anywhere} {
		for _, l := range ls {
			t := strings.TrimSpace(l.Text)
			for _, r := range readers {
				if r.Read != nil && r.When == w && r.marked(t) {
					return r.Read(name, ls)
				}
			}
		}
	}
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#[Histogram log format version") || strings.HasPrefix(t, "#[StartTime:") ||
			strings.HasPrefix(t, "#[BaseTime:") || strings.HasPrefix(t, `"StartTimestamp"`) || matchHlogLine(t) {
			return parseHlog(name, ls)
		}
		if f := HgrmLayout(l.Text); f != "" {
			return parseHgrm(name, f, ls, indexOf(ls, l.N))
		}
		for _, r := range readers {
			if r.Read != nil && r.When == InTurn && r.marked(t) {
				return r.Read(name, ls)
			}
		}
		if strings.HasPrefix(t, "#") {
			continue // a comment before an .hlog's first marker
		}
		return nil, &ParseError{Name: name, Line: l.N, Col: 1, Msg: fmt.Sprintf("expected %s; found %q", expected, TrimTo(l.Text, 60))}
	}
	return nil, &ParseError{Name: name, Line: 1, Msg: "expected " + expected + "; found only comments"}
}

func indexOf(ls []Line, n int) int {
	for i := range ls {
		if ls[i].N == n {
			return i
		}
	}
	return 0
}
