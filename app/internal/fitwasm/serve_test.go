package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"omission/app/fit"
	"omission/app/fitmsg"
	"omission/app/units"
)

// reply is an answer as the test reads it: the fit's own JSON kept raw.
type reply struct {
	ID   int64           `json:"id"`
	Err  string          `json:"err"`
	View *fitmsg.View    `json:"view"`
	Fit  json.RawMessage `json:"fit"`
}

func ask(t *testing.T, req fitmsg.Request) reply {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var r reply
	if err := json.Unmarshal([]byte(handle(string(b))), &r); err != nil {
		t.Fatalf("the answer is not JSON: %v", err)
	}
	if r.ID != req.ID {
		t.Errorf("answer id %d, want %d", r.ID, req.ID)
	}
	return r
}

// TestWorkerAnswer: the worker's answer to a file is the native fit of
// the same bytes: its "fit" is fit.Fit's Result as report -fit -json
// writes it, and its view is that Result written for people (the fitted
// query, the headline's numbers, a row per residual).
func TestWorkerAnswer(t *testing.T) {
	for _, c := range []struct {
		path, rate string
		explained  bool
	}{
		{"../../testdata/fit-tcp-wrk2.txt", "", true},
		{"../../measure/testdata/export.hlog", "", true},
		{"../../measure/testdata/wrk2.txt", "", false}, // a real wrk2 file: not explained within 5 %
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(c.path)
		got := ask(t, fitmsg.Request{ID: 7, Name: name, Data: string(data), Rate: c.rate})
		if got.Err != "" {
			t.Fatalf("%s: %s", name, got.Err)
		}
		want, err := fit.Fit(name, data, fit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		if !bytes.Equal(got.Fit, wantJSON) {
			t.Errorf("%s: the answer's fit is not fit.Fit's:\n got %s\nwant %s", name, got.Fit, wantJSON)
		}
		if got.View == nil {
			t.Fatalf("%s: no view", name)
		}
		if wv := want.View(); !reflect.DeepEqual(*got.View, wv) {
			t.Errorf("%s: view\n got %+v\nwant %+v", name, *got.View, wv)
		}
		v := got.View
		if v.Query != want.Query || v.Explained != c.explained || v.Explained != want.Explained {
			t.Errorf("%s: query %q explained %v, want %q %v", name, v.Query, v.Explained, want.Query, c.explained)
		}
		if !c.explained && v.Why == "" {
			t.Errorf("%s: not explained, and no reason", name)
		}
		if v.OpenP99 != units.Duration(want.Hidden.OpenP99Ns) || v.NeverSent != units.Count(want.Hidden.NeverSent) {
			t.Errorf("%s: open p99 %s never sent %s, want %s %s", name, v.OpenP99, v.NeverSent,
				units.Duration(want.Hidden.OpenP99Ns), units.Count(want.Hidden.NeverSent))
		}
		if len(v.Rows) != len(want.Residuals) || len(v.Tools) != len(want.Hidden.Tools) || len(v.Ambiguous) != len(want.Ambiguous) {
			t.Errorf("%s: %d rows %d tools %d free, want %d %d %d", name, len(v.Rows), len(v.Tools), len(v.Ambiguous),
				len(want.Residuals), len(want.Hidden.Tools), len(want.Ambiguous))
		}
	}
}

// TestWorkerRefuses: a file the fit refuses, a bad rate and a message
// that is not a request each come back as a message, not a fit.
func TestWorkerRefuses(t *testing.T) {
	k6, err := os.ReadFile("../../measure/testdata/k6-summary.json")
	if err != nil {
		t.Fatal(err)
	}
	_, want := fit.Fit("k6-summary.json", k6, fit.Options{})
	if want == nil {
		t.Fatal("fit.Fit took the k6 summary")
	}
	if got := ask(t, fitmsg.Request{ID: 3, Name: "k6-summary.json", Data: string(k6)}); got.Err != want.Error() || got.View != nil || got.Fit != nil {
		t.Errorf("k6: err %q view %v, want %q and no fit", got.Err, got.View, want)
	}
	if got := ask(t, fitmsg.Request{ID: 4, Name: "x.hgrm", Data: "1", Rate: "-5"}); got.Err == "" || got.View != nil {
		t.Errorf("rate -5: err %q view %v", got.Err, got.View)
	}
	var r reply
	if err := json.Unmarshal([]byte(handle("not json")), &r); err != nil || r.Err == "" {
		t.Errorf("a message that is not JSON: %+v, %v", r, err)
	}
}
