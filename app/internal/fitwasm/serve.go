package main

import (
	"encoding/json"
	"fmt"

	"omission/app/fit"
	"omission/app/fitmsg"
	"omission/app/measure"
)

// answer fits a request's file: what the worker posts back.
func answer(req fitmsg.Request) fitmsg.Answer {
	a := fitmsg.Answer{ID: req.ID}
	if len(req.Data) > measure.MaxFileSize {
		a.Err = fmt.Sprintf("%s has %d bytes; the limit is %d (16 MiB)", req.Name, len(req.Data), measure.MaxFileSize)
		return a
	}
	rate, err := fit.ParseRate(req.Rate)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	opt := fit.Options{Rate: rate}
	r, err := fit.Fit(req.Name, []byte(req.Data), opt)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	v := r.View()
	a.Query, a.View, a.Fit = r.Query, &v, r
	pn := panel(req.ID, req.Name, &v)
	a.Panel = &pn
	return a
}

// handle answers one message: a request as JSON, the answer as JSON.
func handle(msg string) string {
	var req fitmsg.Request
	var a fitmsg.Answer
	if err := json.Unmarshal([]byte(msg), &req); err != nil {
		a = fitmsg.Answer{ID: req.ID, Err: "the fit worker could not read the request: " + err.Error()}
	} else {
		a = answer(req)
	}
	b, err := json.Marshal(a)
	if err != nil {
		b, _ = json.Marshal(fitmsg.Answer{ID: req.ID, Err: "the fit worker could not encode its answer: " + err.Error()})
	}
	return string(b)
}
