// Package fitmsg is what the page and the fit worker (fit.wasm,
// app/internal/fitwasm) say to each other, as JSON strings: a Request with
// a measured file, an Answer with the fit formatted for people. The page
// imports this package, never app/fit: the fit stays out of app.wasm.
//
// It may import the standard library only.
package fitmsg

// Request asks the worker to fit one file.
type Request struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Data string `json:"data"`
	// Rate pins the rate when the file leaves it free ("" : not pinned),
	// as report -fit FILE rate=R does.
	Rate string `json:"rate,omitempty"`
}

// Answer is the worker's reply: ID 0 says it is ready, a negative ID that
// it could not start; otherwise the request's ID with the fit (View, and
// the fit's own JSON, report -fit -json's "fit", in Fit) or why none (Err).
type Answer struct {
	ID    int64  `json:"id"`
	Ready bool   `json:"ready,omitempty"`
	Err   string `json:"err,omitempty"`
	View  *View  `json:"view,omitempty"`
	// Fit is app/fit's Result as JSON; the page does not read it (tests
	// compare it with the native fit).
	Fit any `json:"fit,omitempty"`
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
	Why       string  `json:"why,omitempty"`
	Ambiguous []Free  `json:"ambiguous"`
	// What the test did not measure. RecordedP99 is "" when the file
	// prints no p99.
	RecordedP99 string   `json:"recorded_p99"`
	FittedP99   string   `json:"fitted_p99"`
	OpenP99     string   `json:"open_p99"`
	NeverSent   string   `json:"never_sent"`
	Planned     string   `json:"planned"`
	Tools       []Tool   `json:"tools"`
	Notes       []string `json:"notes"`
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
	Metric   string `json:"metric"`
	Measured string `json:"measured"`
	Fitted   string `json:"fitted"`
	Diff     string `json:"diff"`
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
