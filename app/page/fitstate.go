package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/worker"
)

// setFit keeps what page.js last said of a file's fit (a fitmsg.Answer,
// parsed: its panel, progress or a failure laid out as nodes), or drops it
// (nil: the file is gone, or a new one of its name came), in a new map so
// that the panel sees a change.
func (b *beside) setFit(name string, a app.Value) {
	m := map[string]app.Value{name: a}
	for k, v := range b.fits {
		if k != name {
			m[k] = v
		}
	}
	b.fits = m
}

// fileCheck is what the fit worker (fit.Lacks, in fit.wasm) said of
// whether a file the reader gave is whole: the page's own reading, in
// app.wasm, leaves that check out, and shows the file's numbers at once.
// State is "checking" (asked, no word yet), "whole" (nothing in the file
// shows that it is not), "incomplete" (Lacks says what it lacks, each part
// in words) or "unknown" (no check could be made: Why).
type fileCheck struct {
	State string
	Lacks []string
	Why   string
}

// setCheck keeps what page.js last said of whether a file is whole, in a
// new map so that the panel sees a change.
func (b *beside) setCheck(name string, c fileCheck) {
	m := map[string]fileCheck{name: c}
	for k, v := range b.checks {
		if k != name {
			m[k] = v
		}
	}
	b.checks = m
}

// checkWords is what the table's column label and the checks' notes add
// to a file's name for its check: "" when it is whole or unknown.
func checkWords(c fileCheck) string {
	switch c.State {
	case "checking":
		return " (checking that the file is whole…)"
	case "incomplete":
		return worker.IncompleteWords
	}
	return ""
}
