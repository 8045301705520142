package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omission/app/fitmsg"
	"omission/app/wire"
	"omission/app/worker"
)

// TestWorkerProtocol holds both workers' messages to the one protocol of
// package wire: each request and response carries its number under "id",
// a failure under "err", a cancel under "cancel", and the ready message
// decodes as the protocol's; both hosts of a program keep early messages
// in the same queue and report a failed start in the same shape.
func TestWorkerProtocol(t *testing.T) {
	header := func(name string, v any) wire.Header {
		t.Helper()
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var h wire.Header
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return h
	}
	for _, c := range []struct {
		name string
		v    any
		want wire.Header
	}{
		{"worker.Request", worker.Request{ID: 7, Cancel: true}, wire.Header{ID: 7, Cancel: true}},
		{"worker.Response", worker.Response{ID: 7, Err: "no"}, wire.Header{ID: 7, Err: "no"}},
		{"fitmsg.Request", fitmsg.Request{ID: 7}, wire.Header{ID: 7}},
		{"fitmsg.Answer", fitmsg.Answer{ID: 7, Err: "no"}, wire.Header{ID: 7, Err: "no"}},
		{"fitmsg.Answer (ready)", fitmsg.Answer{Ready: true}, wire.Header{Ready: true}},
	} {
		if got := header(c.name, c.v); got != c.want {
			t.Errorf("%s decodes as %+v, want %+v", c.name, got, c.want)
		}
	}
	var ready wire.Header
	if err := json.Unmarshal([]byte(wire.Ready), &ready); err != nil || ready != (wire.Header{Ready: true}) {
		t.Errorf("wire.Ready %s decodes as %+v (%v)", wire.Ready, ready, err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Both hosts of a program, web/worker.js in a Web Worker and
	// web/page.js's stand-in on the page's thread, give it the wire of
	// package wire: a global of its name with the early messages' queue,
	// post and onmessage.
	for _, script := range []string{"worker.js", "page.js"} {
		b, err := os.ReadFile(filepath.Join(root, "web", script))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, want := range []string{"." + wire.Host + " = wire;", "{ pending: [], onmessage: null, post: ", "wire.pending.push(d)", "wire.onmessage(d)"} {
			if !strings.Contains(s, want) {
				t.Errorf("web/%s does not give the program package wire's host (%q missing)", script, want)
			}
		}
		if !strings.Contains(s, "JSON.stringify({ id: -1, err: ") {
			t.Errorf("web/%s does not report a failed start as {id: -1, err}", script)
		}
	}
}
