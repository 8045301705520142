package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	// An .hlog of two histograms tagged by endpoint: which recordings
	// made them?
	lo, err := os.ReadFile("../../testdata/fit-foreign-tags.hlog")
	if err != nil {
		t.Fatal(err)
	}
	_, want := fit.Fit("fit-foreign-tags.hlog", lo, fit.Options{})
	if want == nil {
		t.Fatal("fit.Fit took the .hlog tagged by endpoint")
	}
	if got := ask(t, fitmsg.Request{ID: 3, Name: "fit-foreign-tags.hlog", Data: string(lo)}); got.Err != want.Error() || got.View != nil || got.Fit != nil {
		t.Errorf("endpoint-tagged .hlog: err %q view %v, want %q and no fit", got.Err, got.View, want)
	}
	if got := ask(t, fitmsg.Request{ID: 4, Name: "x.hgrm", Data: "1", Rate: "-5"}); !strings.HasPrefix(got.Err, "rate: ") || !strings.Contains(got.Err, "allowed 0.001 to") || got.View != nil {
		t.Errorf("rate -5: err %q view %v", got.Err, got.View)
	}
	var r reply
	if err := json.Unmarshal([]byte(handle("not json")), &r); err != nil || r.Err == "" {
		t.Errorf("a message that is not JSON: %+v, %v", r, err)
	}
}

// TestPanel: the panel fit.wasm lays out holds only the tags and
// attributes the page renders (fitmsg.Allowed; the page drops the rest),
// every text of the file in a text node, and shows the fitted query, the
// headline's numbers and a row per residual.
func TestPanel(t *testing.T) {
	data, err := os.ReadFile("../../testdata/fit-tcp-wrk2.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := ask(t, fitmsg.Request{ID: 9, Name: "<b>x</b>.txt", Data: string(data)})
	var p struct {
		Query string       `json:"query"`
		Panel *fitmsg.Node `json:"panel"`
	}
	raw := handle(`{"id":9,"name":"<b>x</b>.txt","data":` + string(mustJSON(t, string(data))) + `}`)
	if err := json.Unmarshal([]byte(raw), &p); err != nil || p.Panel == nil {
		t.Fatalf("no panel: %v", err)
	}
	var texts []string
	metrics := map[string]string{}
	rows := 0
	var walk func(n fitmsg.Node)
	walk = func(n fitmsg.Node) {
		if n.T == "" {
			if len(n.K) > 0 || len(n.A) > 0 {
				t.Errorf("a text node with children or attributes: %+v", n)
			}
			texts = append(texts, n.X)
			return
		}
		if !fitmsg.Tag(n.T) || n.X != "" {
			t.Errorf("element %q (text %q): not one the page renders", n.T, n.X)
		}
		if len(n.A)%2 != 0 {
			t.Errorf("%s: attributes %q not in pairs", n.T, n.A)
		}
		for i := 0; i+1 < len(n.A); i += 2 {
			if !fitmsg.Attr(n.A[i], n.A[i+1]) {
				t.Errorf("%s: attribute %q is not one the page renders", n.T, n.A[i])
			}
			if n.A[i] == "data-metric" && len(n.K) == 1 {
				metrics[n.A[i+1]] = n.K[0].X
			}
			if n.A[i] == "data-metric" && n.T == "tr" {
				rows++
			}
		}
		for _, k := range n.K {
			walk(k)
		}
	}
	walk(*p.Panel)
	v := got.View
	all := strings.Join(texts, "")
	if p.Query != v.Query || !strings.Contains(all, v.Query) || !strings.Contains(all, "What <b>x</b>.txt's test hid") {
		t.Errorf("query %q (view %q); texts %q", p.Query, v.Query, all)
	}
	if metrics["fit.open_p99"] != v.OpenP99 || metrics["fit.recorded_p99"] != v.RecordedP99 || metrics["fit.never_sent"] != v.NeverSent || rows != len(v.Rows) {
		t.Errorf("headline %v, %d rows; view %s %s %s, %d rows", metrics, rows, v.OpenP99, v.RecordedP99, v.NeverSent, len(v.Rows))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWorkerTwoSteps: in the browser the worker answers a fit twice: the
// fit first (more set, its panel "shown" with the tools' list to come, the
// fitted query and headline already the whole fit's), then the whole fit,
// the answer handle gives (one fit, shown in two steps). A refusal is one
// answer.
func TestWorkerTwoSteps(t *testing.T) {
	data, err := os.ReadFile("../../testdata/fit-tcp-wrk2.txt")
	if err != nil {
		t.Fatal(err)
	}
	msg := `{"id":5,"name":"fit-tcp-wrk2.txt","data":` + string(mustJSON(t, string(data))) + `}`
	var got []string
	handleSteps(msg, true, func(s string) { got = append(got, s) })
	if len(got) != 2 {
		t.Fatalf("%d answers, want 2", len(got))
	}
	type ans struct {
		ID    int64        `json:"id"`
		More  bool         `json:"more"`
		Query string       `json:"query"`
		View  *fitmsg.View `json:"view"`
		Panel *fitmsg.Node `json:"panel"`
	}
	var first, last ans
	if err := json.Unmarshal([]byte(got[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got[1]), &last); err != nil {
		t.Fatal(err)
	}
	if whole := handle(msg); got[1] != whole {
		t.Errorf("the second answer is not the whole fit's:\n%s\n%s", got[1], whole)
	}
	state := func(a ans) string {
		for i := 0; a.Panel != nil && i+1 < len(a.Panel.A); i += 2 {
			if a.Panel.A[i] == "data-fit" {
				return a.Panel.A[i+1]
			}
		}
		return ""
	}
	if !first.More || last.More || first.ID != 5 || last.ID != 5 || state(first) != "shown" || state(last) != "done" {
		t.Errorf("first: more %v id %d %q; last: more %v id %d %q", first.More, first.ID, state(first), last.More, last.ID, state(last))
	}
	if first.Query != last.Query || first.View.OpenP99 != last.View.OpenP99 || first.View.FittedP99 != last.View.FittedP99 ||
		first.View.NeverSent != last.View.NeverSent || !reflect.DeepEqual(first.View.Rows, last.View.Rows) {
		t.Errorf("the first step's fit is not the whole fit's: %+v\n%+v", first.View, last.View)
	}
	if len(last.View.Tools) < 10 || len(first.View.Tools) > 1 {
		t.Errorf("tools: %d first, %d last", len(first.View.Tools), len(last.View.Tools))
	}
	var refusal []string
	handleSteps(`{"id":6,"name":"x.txt","data":"nothing"}`, true, func(s string) { refusal = append(refusal, s) })
	if len(refusal) != 1 || !strings.Contains(refusal[0], `"err"`) {
		t.Errorf("a refused file: %q", refusal)
	}
}

// TestWorkerCheck: a check (fitmsg.Request.Check) is answered at once with
// what fit.Lacks finds the file lacks, without a fit: a real wrk printout
// cut inside its percentile table lacks its rows; the whole printout lacks
// nothing; a file that is no measurement is an error.
func TestWorkerCheck(t *testing.T) {
	data, err := os.ReadFile("../../measure/testdata/real/wrk-c2-d5s.txt")
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.Join(bytes.SplitAfter(data, []byte("\n"))[:8], nil)
	want, err := fit.Lacks("wrk.txt", cut)
	if err != nil || len(want) == 0 {
		t.Fatalf("fit.Lacks of the cut printout: %q, %v", want, err)
	}
	check := func(id int64, data string) fitmsg.Answer {
		b, _ := json.Marshal(fitmsg.Request{ID: id, Name: "wrk.txt", Data: data, Check: true})
		var a fitmsg.Answer
		if err := json.Unmarshal([]byte(handle(string(b))), &a); err != nil {
			t.Fatalf("the answer is not JSON: %v", err)
		}
		if a.ID != id || !a.Check || a.View != nil || a.Panel != nil || a.Query != "" {
			t.Errorf("check %d answered %+v: want its id, check set, and no fit", id, a)
		}
		return a
	}
	if a := check(3, string(cut)); a.Err != "" || !reflect.DeepEqual(a.Lacks, want) {
		t.Errorf("the cut printout: lacks %q, err %q; want %q", a.Lacks, a.Err, want)
	}
	if a := check(4, string(data)); a.Err != "" || len(a.Lacks) > 0 {
		t.Errorf("the whole printout: lacks %q, err %q; want nothing", a.Lacks, a.Err)
	}
	if a := check(5, "nothing"); a.Err == "" || len(a.Lacks) > 0 {
		t.Errorf("a file that is no measurement: lacks %q, err %q; want an error", a.Lacks, a.Err)
	}
}

// TestPanelHeadlineAsks: the panel's headline gives the condition its
// numbers hold under and asks for the rate where a free rate spans the open
// loop's p99 (the real hey -q printout: no rate, no word of -q), and
// neither where the file states them (the real fortio printout).
func TestPanelHeadlineAsks(t *testing.T) {
	const cond, ask = "if hey ran without -q", "give a rate beside the button above to narrow it"
	for _, c := range []struct {
		file      string
		cond, ask bool
	}{{"../../measure/testdata/real/hey-c2-q500-z5s.txt", true, true}, {"../../testdata/fit-real-fortio.txt", false, false}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		raw := handle(`{"id":3,"name":"f.txt","data":` + string(mustJSON(t, string(data))) + `}`)
		var p struct {
			Panel *fitmsg.Node `json:"panel"`
		}
		if err := json.Unmarshal([]byte(raw), &p); err != nil || p.Panel == nil {
			t.Fatalf("%s: no panel: %v", c.file, err)
		}
		var text func(n fitmsg.Node) string
		text = func(n fitmsg.Node) string {
			var b strings.Builder
			b.WriteString(n.X)
			for _, k := range n.K {
				b.WriteString(text(k))
			}
			return b.String()
		}
		all := text(*p.Panel)
		if strings.Contains(all, cond) != c.cond || strings.Contains(all, ask) != c.ask {
			t.Errorf("%s: the panel says %q: %v, %q: %v; want %v, %v", c.file, cond, strings.Contains(all, cond), ask, strings.Contains(all, ask), c.cond, c.ask)
		}
	}
}
