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
	// Expect names the format in Parse's message when nothing is
	// recognised: the tool's name for a printout ("…, NAME or … output"),
	// or for a JSON report the command that writes it and, in brackets,
	// the keys that tell it ("COMMAND (key1, key2)").
	Expect string

	// A printout: Mark says whether a line (trimmed of spaces) shows the
	// tool's printout, When says in which of Parse's passes it is asked,
	// and Read reads the whole file.
	When When
	Mark func(t string) bool
	Read func(name string, ls []Line) (*File, error)
	// AfterJSON, when not empty, marks a printout that may start with
	// JSON log lines: a file holding it is read as text.
	AfterJSON string
	// Incomplete says what a printout lacks of the layout the tool always
	// prints (File.Incomplete); nil when nothing can be missing. The page
	// (built with the minimal tag) does not ask it.
	Incomplete func(f *File, ls []Line) []string

	// A JSON report: Is says whether the top-level object's keys are the
	// tool's, ReadJSON reads it.
	Is       func(top map[string]json.RawMessage) bool
	ReadJSON func(name string, data []byte, top map[string]json.RawMessage) (*File, error)
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

// readers are the registered readers, in the order of Register's calls.
var readers []Reader

// Register adds readers to those Parse asks, after the ones it has.
func Register(rs ...Reader) { readers = append(readers, rs...) }

func readerOf(f Format) *Reader {
	for i := range readers {
		if readers[i].Format == f {
			return &readers[i]
		}
	}
	return nil
}

// textAfterJSON says whether data, which starts with '{', is a printout
// after JSON log lines.
func textAfterJSON(data []byte) bool {
	for _, r := range readers {
		if r.AfterJSON != "" && bytes.Contains(data, []byte(r.AfterJSON)) {
			return true
		}
	}
	return false
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// expectedAny names every format Parse reads, for its message when it
// recognises none.
func expectedAny() string {
	var text, js []string
	for _, r := range readers {
		if r.Read != nil {
			text = append(text, r.Expect)
		} else {
			name, _, _ := strings.Cut(r.Expect, " (")
			js = append(js, name)
		}
	}
	s := "an .hgrm percentile distribution, an .hlog interval log"
	if len(text) > 0 {
		s = orList(text) + " output, " + s
	}
	if len(js) > 0 {
		s += ", or JSON from " + orList(js)
	}
	return s
}

// detectText recognises a text format and parses it.
func detectText(name string, ls []Line) (*File, error) {
	for _, w := range [...]When{First, Anywhere} {
		for _, l := range ls {
			t := strings.TrimSpace(l.Text)
			for i := range readers {
				if r := &readers[i]; r.Read != nil && r.When == w && r.Mark(t) {
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
		if f := hgrmLayout(l.Text); f != "" {
			return parseHgrm(name, f, ls, indexOf(ls, l.N))
		}
		for i := range readers {
			if r := &readers[i]; r.Read != nil && r.When == InTurn && r.Mark(t) {
				return r.Read(name, ls)
			}
		}
		if strings.HasPrefix(t, "#") {
			continue // a comment before an .hlog's first marker
		}
		return nil, &ParseError{Name: name, Line: l.N, Col: 1, Msg: fmt.Sprintf("expected %s; found %q", expectedAny(), TrimTo(l.Text, 60))}
	}
	return nil, &ParseError{Name: name, Line: 1, Msg: "expected " + expectedAny() + "; found only comments"}
}

func indexOf(ls []Line, n int) int {
	for i := range ls {
		if ls[i].N == n {
			return i
		}
	}
	return 0
}
