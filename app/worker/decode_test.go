package worker

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"omission/app/compute"
	"omission/app/internal/jsonfill"
)

// TestDecodeResponse holds DecodeResponse to encoding/json: a response
// with every field filled, and every response the worker sends for a run
// with tools and a second run beside it, a file read and a sweep, decode
// the same both ways; a value of the wrong type is an error either way.
func TestDecodeResponse(t *testing.T) {
	var full Response
	jsonfill.Fill(&full)
	all := []Response{full, {ID: 3}}
	l := NewLocal(compute.Settings{Simulate: true, Slice: time.Hour}, true, func(r Response) { all = append(all, r) }, func() {})
	l.Send(Request{ID: 1, Query: "stall=110ms&tools=wrk,wrk2&vs=stall=50ms", Charts: ChartsOptions{Width: 640}})
	l.Send(Request{ID: 2, Query: "preset=bench", Import: []File{{Name: "a.hgrm", Data: "not a file"}}})
	l.Send(Request{ID: 4, Query: "preset=bench", Sweep: &SweepAsk{Spec: "stall:10ms..100ms/3"}})
	if len(all) < 10 {
		t.Fatalf("%d responses: the worker answered too few for the test", len(all))
	}
	kinds := map[string]bool{}
	for _, r := range all {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var want Response
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeResponse(b)
		if err != nil {
			t.Fatalf("%.200s: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the decoder's response differs from encoding/json's:\n got %+v\nwant %+v", got, want)
		}
		for _, k := range []string{"View", "Chart", "Tools", "Vs", "Measured", "Sweep", "Done"} {
			if strings.Contains(string(b), `"`+k+`":`) {
				kinds[k] = true
			}
		}
	}
	for _, k := range []string{"View", "Chart", "Tools", "Vs", "Measured", "Sweep", "Done"} {
		if !kinds[k] {
			t.Errorf("no response of the worker's held %s", k)
		}
	}
	for _, bad := range []string{`{"id":"x"}`, `{"Tools":5}`, `{"View":[]}`, `{"id":1} x`, `{"id":1`} {
		if _, err := DecodeResponse([]byte(bad)); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
		if err := json.Unmarshal([]byte(bad), new(Response)); err == nil {
			t.Errorf("%s: encoding/json read it: the case is not a bad one", bad)
		}
	}
}

// TestEncodeRequest holds EncodeRequest to json.Marshal, byte for byte: a
// request with every field filled, one with none, and those the page
// sends (a step, a cancel, tools and a comparison, files, a sweep, an
// export).
func TestEncodeRequest(t *testing.T) {
	var full Request
	jsonfill.Fill(&full)
	for _, q := range []Request{full, {}, {ID: 7, Query: "stall=110ms", Charts: ChartsOptions{Width: 640, Dark: true}, Gen: 2},
		{ID: 8, Cancel: true}, {ID: 9, Query: "a=<b>&c", Tools: []string{"wrk", "wrk2"}, Vs: "stall=50ms", Redraw: true},
		{ID: 10, Import: []File{{Name: "x.hgrm", Data: "\u2028 \xff"}}, Measured: []string{"x.hgrm"}, Incomplete: []string{"y"}},
		{ID: 11, Sweep: &SweepAsk{Spec: "stall:10ms..1s/5", Metric: "p99"}, SweepOnly: true},
		{ID: 12, Export: &Export{Format: "hgrm", Recording: "open"}}} {
		want, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := EncodeRequest(q); string(got) != string(want) {
			t.Errorf("EncodeRequest differs from json.Marshal:\n got %s\nwant %s", got, want)
		}
	}
}
