package main

import (
	"encoding/json"
	"fmt"

	"omission/app/fit"
	"omission/app/fitmsg"
	"omission/app/measure"
)

// step is an answer the worker posts: More says another, the whole fit,
// follows for the same request (page.js keeps the request open for it).
type step struct {
	fitmsg.Answer
	More bool `json:"more,omitempty"`
}

// answer fits a request's file: what the worker posts back, the whole fit.
func answer(req fitmsg.Request) fitmsg.Answer {
	var last fitmsg.Answer
	answers(req, false, func(s step) { last = s.Answer })
	return last
}

// answers fits a request's file and posts its answers: with twoSteps,
// first the fit (the query, its table and the hidden numbers, the file's
// own tool's included) with More set, then the whole fit with what each
// other tool would have printed; otherwise the whole fit alone. A failure
// is one answer.
func answers(req fitmsg.Request, twoSteps bool, post func(step)) {
	a := fitmsg.Answer{ID: req.ID}
	if len(req.Data) > measure.MaxFileSize {
		a.Err = fmt.Sprintf("%s has %d bytes; the limit is %d (16 MiB)", req.Name, len(req.Data), measure.MaxFileSize)
		post(step{Answer: a})
		return
	}
	if req.Check {
		a.Check = true
		lacks, err := fit.Lacks(req.Name, []byte(req.Data))
		if err != nil {
			a.Err = err.Error()
		}
		a.Lacks = lacks
		post(step{Answer: a})
		return
	}
	rate, err := fit.ParseRate(req.Rate)
	if err != nil {
		a.Err = err.Error()
		post(step{Answer: a})
		return
	}
	opt := fit.Options{Rate: rate, NoTools: twoSteps}
	r, err := fit.Fit(req.Name, []byte(req.Data), opt)
	if err != nil {
		a.Err = err.Error()
		post(step{Answer: a})
		return
	}
	if twoSteps {
		post(step{Answer: filled(req, r, true), More: true})
		if err := r.Tools(); err != nil {
			a.Err = err.Error()
			post(step{Answer: a})
			return
		}
	}
	post(step{Answer: filled(req, r, false)})
}

// filled is the answer of fit r (toolsPending: its tools' list is still to
// come).
func filled(req fitmsg.Request, r *fit.Result, toolsPending bool) fitmsg.Answer {
	v := r.View()
	pn := panel(req.ID, req.Name, &v, toolsPending)
	a := fitmsg.Answer{ID: req.ID, Query: r.Query, View: &v, Panel: &pn}
	if !toolsPending {
		a.Fit = r
	}
	return a
}

// handle answers one message: a request as JSON, the whole answer as JSON.
func handle(msg string) string {
	var out string
	handleSteps(msg, false, func(s string) { out = s })
	return out
}

// handleSteps answers one message, posting each answer as JSON (answers).
func handleSteps(msg string, twoSteps bool, post func(string)) {
	var req fitmsg.Request
	if err := json.Unmarshal([]byte(msg), &req); err != nil {
		post(encode(step{Answer: fitmsg.Answer{ID: req.ID, Err: "the fit worker could not read the request: " + err.Error()}}))
		return
	}
	answers(req, twoSteps, func(s step) { post(encode(s)) })
}

// isCheck reports whether msg asks only whether a file is whole
// (fitmsg.Request.Check), which the worker answers before the fits and
// its warm-up.
func isCheck(msg string) bool {
	var req struct {
		Check bool `json:"check"`
	}
	return json.Unmarshal([]byte(msg), &req) == nil && req.Check
}

func encode(s step) string {
	b, err := json.Marshal(s)
	if err != nil {
		b, _ = json.Marshal(fitmsg.Answer{ID: s.ID, Err: "the fit worker could not encode its answer: " + err.Error()})
	}
	return string(b)
}
