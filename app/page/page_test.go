//go:build !wasm

package page

import (
	"net/url"
	"omission/app/address"
	"omission/app/compute"
	"omission/app/ui"
	"omission/app/view"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

// host mounts a component in go-app's test engine and keeps a context to
// drive it. Its render func builds the child from the host's view, so that
// setView hands the child new props the way a parent does.
type host struct {
	app.Compo
	render func(v *view.View) app.UI
	view   *view.View
	ctx    app.Context
	child0 app.UI
}

// OnPreRender is OnMount where go-app runs natively.
func (h *host) OnPreRender(ctx app.Context) { h.ctx = ctx }

func (h *host) Render() app.UI {
	ui := h.render(h.view)
	if h.child0 == nil {
		h.child0 = ui
	}
	return app.Div().Body(ui)
}

// setView re-renders the host with a new result.
func (h *host) setView(e app.TestEngine, v *view.View) {
	h.ctx.Dispatch(func(app.Context) { h.view = v })
	e.ConsumeAll()
}

// load mounts the host in a new test engine; the page runs simulations
// natively there.
func load(t *testing.T, h *host) app.TestEngine {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return e
}

// fakeHistory records the URL bar.
type fakeHistory struct {
	entries []string // the history; the last is the current entry
	pushes  int
}

func (f *fakeHistory) replace(ctx app.Context, u *url.URL) {
	if len(f.entries) == 0 {
		f.entries = append(f.entries, "")
	}
	f.entries[len(f.entries)-1] = u.String()
	ctx.Page().ReplaceURL(u)
}

func (f *fakeHistory) push(ctx app.Context, u *url.URL) {
	f.entries = append(f.entries, u.String())
	f.pushes++
	ctx.Page().ReplaceURL(u)
}

func (f *fakeHistory) current() string {
	if len(f.entries) == 0 {
		return ""
	}
	return f.entries[len(f.entries)-1]
}

// testSettings run simulations natively, in the slices of the browser.
var testSettings = compute.Settings{Simulate: true, Slice: 12 * time.Millisecond}

// mountPage loads a page with a fake URL bar in a test engine.
func mountPage(t *testing.T) (app.TestEngine, *Page, *fakeHistory) {
	t.Helper()
	hist := &fakeHistory{}
	p := &Page{hist: hist, Settings: testSettings}
	h := &host{render: func(*view.View) app.UI { return p }}
	e := load(t, h)
	return e, p, hist
}

// root0 is the host's child component as mounted: the first one rendered
// (later renders only hand their props to it).
func (h *host) root0() app.UI { return h.child0 }

// visit stands for the browser opening the page at /?q: the URL changes,
// then go-app calls OnNav.
func visit(e app.TestEngine, p *Page, q string) {
	p.ctx.Page().ReplaceURL(&url.URL{Path: "/", RawQuery: q})
	act(e, p, p.OnNav)
}

// act runs f on the UI goroutine the way an event of the page does, so the
// page renders afterwards, and waits for everything it started.
func act(e app.TestEngine, p *Page, f func(ctx app.Context)) {
	p.ctx.Dispatch(f)
	e.ConsumeAll()
}

// tags returns the attributes of every element with the given tag in
// go-app's HTML encoding: values are Go-quoted, and an attribute whose
// value is "true" is written bare (a bare attribute reads as "true" here).
func tags(html, tag string) []map[string]string {
	var out []map[string]string
	attrRe := regexp.MustCompile(`([a-zA-Z-]+)(=?)(?:"((?:[^"\\]|\\.)*)")?`)
	for _, m := range regexp.MustCompile(`<`+tag+`(\s[^>]*)?>`).FindAllStringSubmatch(html, -1) {
		attrs := map[string]string{}
		for _, a := range attrRe.FindAllStringSubmatch(m[1], -1) {
			v := "true"
			if a[2] == "=" {
				v = a[3]
				if u, err := strconv.Unquote(`"` + v + `"`); err == nil {
					v = u
				}
			}
			attrs[a[1]] = v
		}
		out = append(out, attrs)
	}
	return out
}

// cellValues reads the data-metric cells of encoded HTML.
func cellValues(html string) map[string]string {
	out := map[string]string{}
	for _, a := range tags(html, "td") {
		if id := a["data-metric"]; id != "" {
			if v, ok := a["data-ns"]; ok {
				out[id] = v
			} else {
				out[id] = a["data-value"]
			}
		}
	}
	return out
}

func TestPageBench(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "preset=bench")
	if got := p.phase(); got != "ready" {
		t.Fatalf("phase %q after loading the bench preset (status %+v)", got, p.status)
	}
	if p.shown.Query != "" {
		t.Errorf("the bench preset's canonical query is %q, want empty", p.shown.Query)
	}
	if hist.pushes != 0 || !strings.HasSuffix(hist.current(), "/") {
		t.Errorf("loading rewrote the URL to %q with %d pushes; want the canonical / in place", hist.current(), hist.pushes)
	}
	html := app.HTMLString(p)
	got := cellValues(html)
	// The page shows exactly what view formats of the simulator's run (whose
	// numbers the view and sim tests hold to seed 000's).
	res, err := sim.Run(sim.Default())
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range view.Build(1, res, 0).Rows {
		for _, c := range r.Cells {
			want++
			if got[c.ID] != c.Exact {
				t.Errorf("%s = %q, want %q", c.ID, got[c.ID], c.Exact)
			}
		}
	}
	if want < 60 || got["open.p99"] != "195100000" {
		t.Errorf("%d cells, open.p99 = %q", want, got["open.p99"])
	}
	for _, a := range tags(html, "div") {
		if a["id"] == "omission" && (a["data-state"] != "ready") {
			t.Errorf("root: %v", a)
		}
	}
	var cost map[string]string
	for _, a := range tags(html, "span") {
		if a["id"] == "cost" {
			cost = a
		}
	}
	if cost == nil || cost["data-ms"] == "" || cost["data-requests"] != "280020" {
		t.Errorf("cost line: %v", cost)
	}
	checks := 0
	for _, a := range tags(html, "details") {
		if strings.HasPrefix(a["id"], "check-") {
			checks++
			if a["data-pass"] != "true" {
				t.Errorf("%s: data-pass %q", a["id"], a["data-pass"])
			}
		}
	}
	if checks != p.shown.Total || checks < 50 {
		t.Errorf("%d checks on the page, the result has %d", checks, p.shown.Total)
	}
}

func TestPageEditsAndHistory(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "")

	// Editing a control replaces the URL and recomputes.
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "300ms", 0) })
	if hist.pushes != 0 || !strings.HasSuffix(hist.current(), "/?stall=300ms") {
		t.Fatalf("after the edit: URL %q, %d pushes", hist.current(), hist.pushes)
	}
	if p.phase() != "ready" || p.shown.Query != "stall=300ms" {
		t.Fatalf("after the edit: phase %q, shown %q", p.phase(), p.shown.Query)
	}
	if v := p.shown.CellByID("open.max").Exact; v != "300100000" {
		t.Errorf("open.max with a 300ms stall = %s", v)
	}

	// A preset adds a history entry.
	act(e, p, func(ctx app.Context) { p.choosePreset(ctx, "tcp") })
	if hist.pushes != 1 || !strings.HasSuffix(hist.current(), "/?preset=tcp") {
		t.Fatalf("after the preset: URL %q, %d pushes", hist.current(), hist.pushes)
	}
	if p.shown.Query != "preset=tcp" || p.inputs[fieldIndex("preset")] != "tcp" || p.inputs[fieldIndex("stall")] != "500ms" {
		t.Fatalf("after the preset: shown %q, inputs %v", p.shown.Query, p.inputs)
	}

	// Back: the browser shows the previous URL and the page follows it.
	visit(e, p, "stall=300ms")
	if p.shown.Query != "stall=300ms" || p.inputs[fieldIndex("stall")] != "300ms" || p.inputs[fieldIndex("preset")] != "bench" {
		t.Fatalf("after back: shown %q, inputs %v", p.shown.Query, p.inputs)
	}

	// An invalid value: its message, the URL holds what was typed, and the
	// run uses the preset's value for it, exactly as loading that URL does.
	seq := p.shown.Seq
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "-5ms", 0) })
	if p.phase() != "ready" || p.shown.Seq == seq || p.shown.Query != "" {
		t.Fatalf("after an invalid edit: phase %q, shown seq %d (was %d), query %q", p.phase(), p.shown.Seq, seq, p.shown.Query)
	}
	if !strings.HasSuffix(hist.current(), "/?stall=-5ms") {
		t.Errorf("after an invalid edit the URL is %q", hist.current())
	}
	if loaded := readQuery("stall=-5ms"); loaded.cfg != p.cfg {
		t.Errorf("the edit runs %+v, loading its URL runs %+v", p.cfg, loaded.cfg)
	}
	fe := p.errs.Field("stall")
	if fe == nil || !strings.Contains(fe.Error(), "allowed") {
		t.Fatalf("stall error: %v", p.errs)
	}
	root := app.HTMLString(p)
	if !strings.Contains(root, `class="status partial"`) {
		t.Error("the page does not say a value is invalid")
	}
	// The message sits beside the stall control: page > main > .first >
	// .top > .ways > the controls' form > the parameters' fold > .fields >
	// the stall field (a component) > its fifth child (after the label, the
	// hint, the definition and the inputs).
	msg := app.P().ID("err-stall").Class("error").DataSet("error", "stall").Aria("live", "polite")
	if err := app.Match(msg, p, 0, 2, 0, 0, 0, 1, 0, 2, 1, fieldIndex("stall")-1, 0, 4); err != nil {
		t.Error(err)
	}
	if err := app.Match(app.Text(fe.Error()), p, 0, 2, 0, 0, 0, 1, 0, 2, 1, fieldIndex("stall")-1, 0, 4, 0); err != nil {
		t.Error(err)
	}
	// The box is marked invalid and keeps what was typed.
	box := p.inputs[fieldIndex("stall")]
	if box != "-5ms" {
		t.Errorf("the stall box holds %q", box)
	}

	// Fixing it recomputes.
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "250ms", 0) })
	if p.phase() != "ready" || p.shown.Query != "stall=250ms" {
		t.Fatalf("after fixing: phase %q shown %q", p.phase(), p.shown.Query)
	}
}

func TestPageInvalidURL(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "stall=-5ms&rate=abc&bogus=1")
	for _, f := range []string{"stall", "rate"} {
		if p.errs.Field(f) == nil {
			t.Errorf("no message for %s: %v", f, p.errs)
		}
	}
	// The unknown key is dropped, with a notice.
	if p.errs.Field("bogus") != nil || len(p.notices) != 1 || !strings.Contains(p.notices[0], `"bogus"`) {
		t.Errorf("bogus: errs %v, notices %q", p.errs, p.notices)
	}
	// The other fields run; the invalid ones use the preset's values.
	if p.phase() != "ready" || p.shown.Query != "" {
		t.Errorf("phase %q shown %q", p.phase(), p.shown.Query)
	}
	if p.inputs[fieldIndex("stall")] != "-5ms" || p.inputs[fieldIndex("rate")] != "abc" {
		t.Errorf("the controls hold %q and %q, want what the URL said", p.inputs[fieldIndex("stall")], p.inputs[fieldIndex("rate")])
	}
	if !strings.HasSuffix(hist.current(), "/?rate=abc&stall=-5ms") {
		t.Errorf("the URL is %q, want the invalid values as typed and no unknown key", hist.current())
	}
	html := app.HTMLString(p)
	for _, f := range []string{"stall", "rate"} {
		if !strings.Contains(html, `data-error="`+f+`"`) {
			t.Errorf("no message element for %s", f)
		}
	}
	if !strings.Contains(html, "stall: &#34;-5ms&#34; is not allowed: allowed 0s to 24h") {
		t.Errorf("the stall message does not name its range:\n%s", html)
	}
	if !strings.Contains(html, `data-notices="1"`) {
		t.Error("no notice of the dropped key")
	}
}

func TestPageShowsURLTextAsText(t *testing.T) {
	e, p, _ := mountPage(t)
	script := `<script>alert(1)</script>`
	img := `"><img src=x onerror=alert(1)>`
	visit(e, p, "stall="+url.QueryEscape(script)+"&service="+url.QueryEscape(img)+"&"+url.QueryEscape(script)+"=1")
	// The message is a text node (escaped by the DOM), the box's value a
	// property: neither is parsed as markup.
	if err := app.Match(app.Text(p.errs.Field("stall").Error()), p, 0, 2, 0, 0, 0, 1, 0, 2, 1, fieldIndex("stall")-1, 0, 4, 0); err != nil {
		t.Error(err)
	}
	if !strings.Contains(p.errs.Field("stall").Error(), script) {
		t.Errorf("the message does not quote the value: %q", p.errs.Field("stall").Error())
	}
	html := app.HTMLString(p)
	if !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the script text is not shown escaped")
	}
	if len(p.notices) != 1 || !strings.Contains(p.notices[0], "script") {
		t.Errorf("the unknown key has no notice: %q", p.notices)
	}
}

// TestNoRawHTML: nothing any page shows of its state is inserted as
// markup, so nothing from the URL or an imported file can be. (The charts'
// SVG is shown as an image of a data: URL, never as markup.)
func TestNoRawHTML(t *testing.T) {
	files, err := filepath.Glob("../*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../*.go")
	files = append(files, more...)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, bad := range []string{"app.Raw(", "innerHTML", "insertAdjacentHTML", "outerHTML"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d files read", n)
	}
}

func TestTableComponent(t *testing.T) {
	h := &host{render: func(v *view.View) app.UI { return &resultsTable{IView: v} }}
	e := load(t, h)
	if err := app.Match(app.P().Class("empty"), h.root0(), 0, 1); err != nil {
		t.Errorf("before a result: %v", err)
	}
	v := benchView(t)
	h.setView(e, v)
	tbl := h.root0().(*resultsTable)
	// section > .table-wrap > table > tbody > row p99 > the open column.
	row := -1
	for i, r := range v.Rows {
		if r.Metric == "p99" {
			row = i
		}
	}
	col := -1 // the open loop's column, after the metric's name
	for i, c := range v.Columns {
		if c.Recording == sim.Open.String() {
			col = 1 + i
		}
	}
	c := v.CellByID("open.p99")
	want := app.Td().DataSet("metric", "open.p99").DataSet("ns", "195100000").Title("%s", proofTitle(*c))
	if err := app.Match(want, tbl, 0, 2, 0, 2, row, col); err != nil {
		t.Error(err)
	}
	if err := app.Match(app.Text("195.1 ms"), tbl, 0, 2, 0, 2, row, col, 0, 0); err != nil {
		t.Error(err)
	}
	ratio := app.Td().Class("ratio").DataSet("ratio", "p99").DataSet("value", "1951")
	if err := app.Match(ratio, tbl, 0, 2, 0, 2, row, 6); err != nil {
		t.Error(err)
	}
	if err := app.Match(&resultsTable{IView: v}, tbl); err != nil {
		t.Error(err)
	}
}

func TestChecksFollowProof(t *testing.T) {
	h := &host{render: func(v *view.View) app.UI { return &checksList{IView: v} }}
	e := load(t, h)
	h.setView(e, benchView(t))
	cl := h.root0().(*checksList)
	h.ctx.SetState(ui.StateProof, "open.p99")
	e.ConsumeAll()
	if cl.selected != "open.p99" || !cl.open["open.p99"] || cl.none != nil {
		t.Fatalf("selected %q open %v none %v", cl.selected, cl.open["open.p99"], cl.none)
	}
	html := app.HTMLString(cl)
	found := false
	for _, a := range tags(html, "details") {
		if a["id"] == "check-open.p99" {
			found = true
			if _, open := a["open"]; !open || !strings.Contains(a["class"], "selected") || a["data-pass"] != "true" {
				t.Errorf("check-open.p99: %v", a)
			}
		}
	}
	if !found {
		t.Fatal("no check-open.p99")
	}
	if !strings.Contains(html, "195.1 ms (195,100,000 ns)") {
		t.Error("the open check does not show its values")
	}

	// corrected.sent is a client's number: its check is closed.sent.
	h.ctx.SetState(ui.StateProof, "corrected.sent")
	e.ConsumeAll()
	if cl.selected != "closed.sent" {
		t.Errorf("corrected.sent opens %q", cl.selected)
	}

	// No closed form: the panel says so and lists the invariants.
	cfg, _ := sim.PresetConfig("note60")
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.setView(e, view.Build(2, res, 1))
	h.ctx.SetState(ui.StateProof, "open.p99")
	e.ConsumeAll()
	if cl.none == nil || cl.selected != "" || len(cl.none.Invariants) == 0 {
		t.Fatalf("note60 open.p99: selected %q none %+v", cl.selected, cl.none)
	}
	html = app.HTMLString(cl)
	if !strings.Contains(html, `id="proof-none"`) || !strings.Contains(html, "simulation only") || !strings.Contains(html, "inv.conservation.open") {
		t.Errorf("the panel of a number without closed form:\n%s", html)
	}
}

func TestHeadlineComponent(t *testing.T) {
	h := &host{render: func(v *view.View) app.UI { return &headline{IView: v} }}
	e := load(t, h)
	h.setView(e, benchView(t))
	hl := h.root0()
	html := app.HTMLString(hl)
	got := map[string]string{}
	for _, a := range tags(html, "span") {
		if id := a["data-headline"]; id != "" {
			got[id] = a["data-ns"] + a["data-value"]
		}
	}
	want := map[string]string{"closed.p99": "100000", "open.p99": "195100000", "paced.never_sent": "19980"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("headline %s = %q, want %q", k, got[k], v)
		}
	}
	if !strings.Contains(html, "1951×") || !strings.Contains(html, "71 of 71 checks passed") && !strings.Contains(html, "checks passed") {
		t.Errorf("headline:\n%s", html)
	}
}

// TestHandlerPanicIsReported: a panic in an event handler is caught and
// shown; the app goes on.
func TestHandlerPanicIsReported(t *testing.T) {
	e, p, _ := mountPage(t)
	visit(e, p, "")
	h, _ := ui.On("test/panic", func(ctx app.Context, ev app.Event) { panic("boom") })
	act(e, p, func(ctx app.Context) { h(ctx, app.Event{}) })
	if !strings.Contains(p.fault, "boom") {
		t.Fatalf("fault %q", p.fault)
	}
	if html := app.HTMLString(p); !strings.Contains(html, "Something went wrong") {
		t.Error("the page does not say something went wrong")
	}
	// It still works.
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "300ms", 0) })
	if p.phase() != "ready" || p.shown.Query != "stall=300ms" {
		t.Errorf("after the panic: phase %q shown %q", p.phase(), p.shown.Query)
	}
}

// TestStaleEdit: an edit typed into a control that had not yet shown the
// page's latest text (a URL just loaded) wins, and the control is handed its
// text again so that it shows the edit, not the URL's old value.
func TestStaleEdit(t *testing.T) {
	e, p, _ := mountPage(t)
	visit(e, p, "")
	stale := p.gens[fieldIndex("stall")]
	visit(e, p, "rate=1") // the page sets every control's text again
	if p.gens[fieldIndex("stall")] == stale {
		t.Fatal("loading a URL did not set the controls' texts")
	}
	before := p.gens[fieldIndex("stall")]
	act(e, p, func(ctx app.Context) {
		ctx.NewActionWithValue(actionEdit, edit{Field: "stall", Text: "300ms", Gen: stale})
	})
	if p.inputs[fieldIndex("stall")] != "300ms" || p.gens[fieldIndex("stall")] == before || p.shown.Query != "rate=1&stall=300ms" {
		t.Errorf("after a stale edit: input %q, generation %d (was %d), shown %q", p.inputs[fieldIndex("stall")], p.gens[fieldIndex("stall")], before, p.shown.Query)
	}
	// An edit at the control's current generation keeps it.
	now := p.gens[fieldIndex("stall")]
	act(e, p, func(ctx app.Context) {
		ctx.NewActionWithValue(actionEdit, edit{Field: "stall", Text: "400ms", Gen: now})
	})
	if p.inputs[fieldIndex("stall")] != "400ms" || p.gens[fieldIndex("stall")] != now {
		t.Errorf("after a current edit: input %q, generation %d (was %d)", p.inputs[fieldIndex("stall")], p.gens[fieldIndex("stall")], now)
	}
}

// TestPageURLOneEscaping: the URL the page writes keeps a valid ',' as the
// simulator writes it when another field is invalid, and the page's own
// keys come after the simulator's fields.
func TestPageURLOneEscaping(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "tools=wrk%2Ck6-arrival&outages=5s-6s%2C7s-8s&rate=abc")
	if want := "/?rate=abc&outages=5s-6s,7s-8s&tools=wrk,k6-arrival"; !strings.HasSuffix(hist.current(), want) {
		t.Errorf("the URL is %q, want it to end %q", hist.current(), want)
	}
	if p.errs.Field("rate") == nil || p.inputs[fieldIndex("outages")] != "5s-6s,7s-8s" {
		t.Errorf("errs %v, outages box %q", p.errs, p.inputs[fieldIndex("outages")])
	}
}

// TestPageRefusedLooksRefused: a refused state (fields that conflict)
// shows no number; the headline and the table say it is refused and name
// the fields to change; the downloads are disabled and say why, and so do
// the tools ticked (issue 26, items 1 and 6).
func TestPageRefusedLooksRefused(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "")
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("rate"), "20000", 0) })
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("every"), "100ms", 0) })
	if p.phase() != "refused" || p.shown != nil {
		t.Fatalf("phase %q, shown %v", p.phase(), p.shown)
	}
	if !strings.HasSuffix(hist.current(), "/?rate=20000&every=100ms") || p.inputs[fieldIndex("rate")] != "20000" || p.inputs[fieldIndex("every")] != "100ms" {
		t.Errorf("URL %q, boxes rate %q every %q", hist.current(), p.inputs[fieldIndex("rate")], p.inputs[fieldIndex("every")])
	}
	for _, f := range []string{"stall", "every"} {
		if fe := p.errs.Field(f); fe == nil || fe.Reason != sim.ReasonConflict {
			t.Errorf("%s: %v", f, p.errs)
		}
	}
	visit(e, p, "rate=20000&every=100ms&tools=wrk")
	html := app.HTMLString(p)
	for _, want := range []string{
		`class="headline refused"`, `class="results refused"`, "Refused: nothing was simulated.",
		"stall and every do not hold together", `data-refused-field="stall"`, `href="#in-every"`,
		`data-error="stall"`, `data-error="every"`, `data-empty="downloads"`, `data-empty="tools"`, "so no tool was played",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the refused page does not show %s", want)
		}
	}
	for _, gone := range []string{"once it has loaded", "No result yet", `data-metric="open.p99"`, `data-headline=`} {
		if strings.Contains(html, gone) {
			t.Errorf("the refused page shows %s", gone)
		}
	}
	for _, b := range tags(html, "button") {
		if _, ok := b["data-export"]; ok && b["disabled"] != "true" {
			t.Errorf("download %s is not disabled", b["data-export"])
		}
	}
	// Mending one field runs, with numbers again.
	visit(e, p, "rate=20000&every=100ms&duration=1s")
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "50ms", 0) })
	if p.phase() != "ready" || p.shown.Query != "rate=20000&stall=50ms&every=100ms&duration=1s" {
		t.Errorf("after mending: phase %q", p.phase())
	}
}

// TestShowValue: the show key lists the open folds in one order, whatever
// order or unknown names it was given.
func TestShowValue(t *testing.T) {
	for _, c := range []struct {
		show, fold string
		open       bool
		want       string
	}{
		{"", "params", true, "params"},
		{"params", "params", false, ""},
		{"why,params", "cases", true, "cases,params,why"},
		{"nope,more", "why", false, "more"},
		{"params,params", "params", true, "params"},
	} {
		if got := ShowValue(c.show, c.fold, c.open); got != c.want {
			t.Errorf("ShowValue(%q, %q, %v) = %q, want %q", c.show, c.fold, c.open, got, c.want)
		}
	}
}

// TestPagePinsFolds: a fold open because its field was set away from the
// preset stays open when the reader sets that field back (show=params),
// and a fold the reader never saw open is not pinned.
func TestPagePinsFolds(t *testing.T) {
	e, p, hist := mountPage(t)
	visit(e, p, "rate=300")
	if params, _ := formFolds(p.inputs, p.msgs, p.addr.Get(address.KeyShow)); !params {
		t.Fatal("?rate=300 does not open the parameters")
	}
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("rate"), "5000", 0) })
	if !strings.HasSuffix(hist.current(), "/?show=params") {
		t.Errorf("after the rate set back the URL is %q, want the parameters kept open", hist.current())
	}
	visit(e, p, "")
	act(e, p, func(ctx app.Context) { p.setInput(ctx, fieldIndex("stall"), "300ms", 0) })
	if !strings.HasSuffix(hist.current(), "/?stall=300ms") {
		t.Errorf("an edit in a closed fold made the URL %q", hist.current())
	}
}
