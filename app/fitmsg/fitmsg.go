package fitmsg

import "strings"

// Request asks the worker to fit one file.
type Request struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Data string `json:"data"`
	// Rate pins the rate when the file leaves it free ("" : not pinned),
	// as report -fit FILE rate=R does.
	Rate string `json:"rate,omitempty"`
	// Check asks only whether the file is whole (fit.Lacks), not for its
	// fit: the page asks it of each file the reader gives, at once.
	Check bool `json:"check,omitempty"`
}

// Answer is the worker's reply: ID 0 says it is ready, a negative ID that
// it could not start; otherwise the request's ID with the fit or why none
// (Err). Panel is the fit laid out for the page, which renders it as it
// comes (Node); Query the fitted query, for "Open the fitted run"; View
// the same numbers by name; Fit the fit's own JSON (report -fit -json's
// "fit").
type Answer struct {
	ID    int64  `json:"id"`
	Ready bool   `json:"ready,omitempty"`
	Err   string `json:"err,omitempty"`
	Query string `json:"query"`
	Panel *Node  `json:"panel,omitempty"`
	View  *View  `json:"view,omitempty"`
	// Fit is app/fit's Result as JSON; the page does not read it (tests
	// compare it with the native fit).
	Fit any `json:"fit,omitempty"`
	// Check answers a Check request: Lacks says what the file lacks of
	// its format's whole layout, each part in words (empty: nothing shows
	// that it is not whole); Err, set instead, that it could not be read.
	Check bool     `json:"check,omitempty"`
	Lacks []string `json:"lacks,omitempty"`
}

// View is a fit as the page shows it: every number already written for
// people (app/units), so that the page formats nothing.
type View struct {
	File      string  `json:"file"`
	Format    string  `json:"format"`
	Source    string  `json:"source"`
	Query     string  `json:"query"` // canonical; "" is the bench preset's
	Params    []Param `json:"params"`
	Rows      []Row   `json:"rows"`
	Explained bool    `json:"explained"`
	Worst     string  `json:"worst"` // "+0.12 %"
	// Verdict is the sentence that says whether, and how well, the model
	// explains the file (fit.Result.Verdict).
	Verdict   string `json:"verdict"`
	Why       string `json:"why,omitempty"`
	Ambiguous []Free `json:"ambiguous"`
	// What the test did not measure. RecordedP99 is "" when the file
	// prints no p99.
	RecordedP99 string `json:"recorded_p99"`
	FittedP99   string `json:"fitted_p99"`
	OpenP99     string `json:"open_p99"`
	NeverSent   string `json:"never_sent"`
	Planned     string `json:"planned"`
	// AtModelRate, when the file gives no rate, says that the never-sent
	// count and the tools' p99 are the model's at a rate of its choosing.
	AtModelRate string `json:"at_model_rate,omitempty"`
	// Assumes, when the file does not say how its tool ran, is the
	// condition the open loop's p99 and the rest hold under.
	Assumes string   `json:"assumes,omitempty"`
	Tools   []Tool   `json:"tools"`
	Notes   []string `json:"notes"`
}

// Param is a fitted parameter and how the file gave it.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	How   string `json:"how"`
}

// Row is one number of the file: measured, fitted and their difference.
type Row struct {
	Dist     string `json:"dist"`
	Metric   string `json:"metric"` // the JSON's key: count, p99_ns, …
	Name     string `json:"name"`   // for people: "p99", "spectrum (worst of 11 rows): 98 %"
	Measured string `json:"measured"`
	Fitted   string `json:"fitted"`
	Diff     string `json:"diff"` // "-50.00 %, within 1 ms rounding"
	Headline bool   `json:"headline"`
}

// Free is a parameter the file leaves free, with the range that fits as
// well ("any value" when unbounded).
type Free struct {
	Param string `json:"param"`
	Value string `json:"value"`
	Range string `json:"range"`
	Why   string `json:"why"`
}

// Tool is what a tool would have printed at p99 for the fitted server.
type Tool struct {
	Name string `json:"name"`
	P99  string `json:"p99"`
}

// Node is one element of the panel, or a text (T empty): the page makes
// each an element of a tag it allows (Tags) with the attributes it allows
// (Attr), and every text a text node, so nothing the file holds becomes
// markup. The tag "open" is the page's own link to the fitted run.
type Node struct {
	T string   `json:"t,omitempty"` // tag
	C string   `json:"c,omitempty"` // class
	A []string `json:"a,omitempty"` // attributes, name and value in turn
	X string   `json:"x,omitempty"` // text
	K []Node   `json:"k,omitempty"` // children
}

// Tag reports whether a panel's element may have the tag t. The link to
// the fitted run ("a") is page.js's, from the fitted query.
func Tag(t string) bool {
	return t != "" && strings.Contains(" section div p h3 table caption thead tbody tr th td ul li strong code span a ", " "+t+" ")
}

// Attr reports whether a panel's element may carry the attribute name
// with value v: an href only to a path of this site.
func Attr(name, v string) bool {
	if name == "href" {
		return len(v) > 0 && v[0] == '/' && !strings.HasPrefix(v, "//") && !strings.Contains(v, "\\")
	}
	return strings.HasPrefix(name, "data-") || strings.Contains(" id class scope role aria-labelledby ", " "+name+" ")
}
