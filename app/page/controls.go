package page

import (
	"fmt"
	"math"
	"omission/app/ui"
	"omission/app/view"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

// fieldSpec describes the control of one query field: what the simulator
// says of it (sim.FieldTable: its name, kind, choices, whether it is an
// engine field) and the page's own words for it (fieldWords).
type fieldSpec struct {
	Name  string // the query key
	Kind  sim.FieldKind
	Label string
	Unit  string // shown after the input
	Hint  string // what it means, under the label
	Def   string // what it means in full: shown on hover and focus
	// Slider lists the canonical values a range slider steps through (nil:
	// no slider). The text box takes any value.
	Slider []string
	// Toggle is a word the field accepts instead of a number ("unlimited",
	// "auto"), offered as a checkbox; Fallback is the value when unchecked.
	Toggle, Fallback string
	Choices          []string // a select instead of a text box
	Engine           bool     // one of the event engine's parameters, shown folded
	// StepByOne: the arrow keys add or take one (a seed has no scale);
	// another number box steps along a ladder of round numbers (step.go).
	StepByOne bool
}

// fieldWords are the page's words for the controls, by field name: label,
// unit, hint, definition, slider and the toggle's fallback. The rest of a
// spec is the simulator's (fieldSpecs). A field the simulator adds that has
// no words here still gets a control, labelled with its name and hinted with
// its doc line. They are written as a list (fieldWordList), which the
// compiler lays out as data: the same map literal compiled to 12 kB of init
// code in app.wasm.
var fieldWordList = []struct {
	name  string
	words fieldSpec
}{
	{"preset", fieldSpec{Label: "Preset"}},
	{"rate", fieldSpec{Label: "Rate", Unit: "req/s", Hint: "requests due per second, up to three decimals", Def: "How many requests the schedule asks for each second: request i is due at i ÷ rate. Every client gets the same schedule.", Slider: []string{"1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000", "20000", "50000", "100000", "200000", "500000", "1000000"}}},
	{"service", fieldSpec{Label: "Service time", Unit: "per request", Hint: "a Go duration: 10us, 1ms", Def: "How long the server takes to answer one request when it is not stalled, written as a Go duration: 100us, 2ms, 1s.", Slider: []string{"0s", "1us", "2us", "5us", "10us", "20us", "50us", "100us", "200us", "500us", "1ms", "2ms", "5ms", "10ms", "20ms", "50ms", "100ms"}}},
	{"stall", fieldSpec{Label: "Stall length", Unit: "duration", Hint: "how long the server freezes; 0s: never", Def: "How long each stall lasts: the server answers nothing for this long. 0s: it never stalls.", Slider: []string{"0s", "1ms", "2ms", "5ms", "10ms", "20ms", "50ms", "100ms", "200ms", "500ms", "1s", "2s", "5s", "10s"}}},
	{"every", fieldSpec{Label: "Stall every", Unit: "duration", Hint: "period of the stalls; 0s: a single stall", Def: "The time from the start of one stall to the start of the next. 0s: a single stall."}},
	{"first", fieldSpec{Label: "First stall at", Unit: "duration", Hint: "when the first stall begins", Def: "When the first stall begins, counted from the start of the run."}},
	{"duration", fieldSpec{Label: "Run length", Unit: "duration",
		Hint: "requests fall due during this time", Def: "Requests fall due during this time; the run goes on until the last of them is answered."}},
	{"interval", fieldSpec{Label: "Expected interval", Unit: "duration", Hint: "the gap the correction assumes; auto: connections ÷ rate", Def: "The time between two requests that the closed loop's correction assumes (its E): for each sample longer than E it adds the samples the unsent requests would have recorded. Auto: the connections divided by the rate. The paced correction always uses 1 ÷ rate.",
		Fallback: "1ms"}},
	{"above", fieldSpec{Label: "Threshold", Unit: "duration", Hint: "count the samples above this latency", Def: "Samples above this latency count as slow, in the table's above rows.", Slider: []string{"0s", "10us", "20us", "50us", "100us", "200us", "500us", "1ms", "2ms", "5ms", "10ms", "20ms", "50ms", "100ms", "200ms", "500ms", "1s"}}},
	{"conns", fieldSpec{Label: "Connections", Unit: "closed loop", Hint: "requests the closed loop keeps in flight", Def: "How many requests the closed loop keeps in flight, one per connection: it sends on a connection only once that connection's last request is answered."}},
	{"workers", fieldSpec{Label: "Workers", Unit: "server", Hint: "requests the server serves at once", Def: "How many requests the server works on at once; the others wait in its queue. Unlimited: every request is served as soon as it arrives, or as soon as a stall ends.",
		Fallback: "1"}},
	{"rank", fieldSpec{Label: "Percentile rank", Hint: "how a percentile picks its sample", Def: "Which sample a percentile picks among n: round takes rank p·n rounded to the nearest (HdrHistogram's C and Go libraries); ceil rounds it up (the nearest-rank rule, as Java's HdrHistogram). They differ by one sample at most."}},

	// The event engine's fields.
	{"arrivals", fieldSpec{Label: "Arrivals", Hint: "constant: due every 1/rate; the others are random (seeded)"}},
	{"to", fieldSpec{Label: "Ramp to", Unit: "req/s", Hint: "ramp: the rate at the end of the run"}},
	{"bursts", fieldSpec{Label: "Bursts", Unit: "from-to@rate,…", Hint: "burst: windows with their own rate, e.g. 5s-6s@20000"}},
	{"dist", fieldSpec{Label: "Service distribution", Hint: "the service time is the first parameter"}},
	{"service_p95", fieldSpec{Label: "Service p95", Unit: "duration", Hint: "lognormal: its 95th percentile"}},
	{"service_max", fieldSpec{Label: "Service max", Unit: "duration", Hint: "uniform: its maximum"}},
	{"queue", fieldSpec{Label: "Queue", Unit: "waiting", Hint: "room for waiting requests; 0: none, unbounded: no limit", Fallback: "100"}},
	{"timeout", fieldSpec{Label: "Client timeout", Unit: "duration", Hint: "0s: none"}},
	{"outages", fieldSpec{Label: "Outages", Unit: "from-to,…", Hint: "windows when the server refuses everything, e.g. 5s-6s"}},
	{"attempts", fieldSpec{Label: "Attempts", Unit: "per call", Hint: "1: no retry; a failed attempt is sent again, up to this many in all", Def: "How many attempts a call may take, the first included. An attempt that is rejected by a full queue, failed by an outage or timed out is sent again after the backoff, until one is answered in time or the attempts are spent. The recordings time the whole call, from its first attempt."}},
	{"backoff", fieldSpec{Label: "Backoff", Unit: "duration", Hint: "the fixed wait before a retry (attempts above 1)", Def: "How long a client waits after a failed attempt before it sends the next one. It is fixed: no jitter, and it does not grow from one retry to the next."}},
	{"slow", fieldSpec{Label: "Slowdowns", Unit: "from-to@xk,…", Hint: "windows when each service that starts takes k times as long, e.g. 2s-3s@x10", Def: "Windows in which the server is slow rather than stopped: a request whose service starts inside a window takes k times its service (k from 1 to 1000, up to three decimals). A service that started before the window keeps its length; one that waited out a stall starts when the stall ends, and that instant decides."}},
	{"think", fieldSpec{Label: "Think time", Unit: "duration", Hint: "the closed loop's pause after each call; 0s: none", Def: "How long each closed-loop connection waits after a call ends, as a user reads a page before the next click. The connection sends its next request when the pause is over, or when that request is due if later. The paced and open clients do not pause."}},
	{"think_max", fieldSpec{Label: "Think time max", Unit: "duration", Hint: "with a think time: the pause is uniform up to this; 0s: fixed", Def: "With a think time, each pause is drawn uniformly between the think time and this, from its own seeded stream. 0s: every pause is the think time."}},
	{"seed", fieldSpec{Label: "Seed", Hint: "the seed of every random stream", StepByOne: true}},
}

// fieldWords is fieldWordList by name (TestFieldWordsOnce: no name twice).
var fieldWords = func() map[string]fieldSpec {
	m := make(map[string]fieldSpec, len(fieldWordList))
	for _, w := range fieldWordList {
		m[w.name] = w.words
	}
	return m
}()

// fieldSpecs are the controls' specs by field name: the simulator's table
// with the page's words over it, built once. A choice field is a select of
// its choices; another field's one word (auto, unlimited, unbounded) is its
// toggle.
var fieldSpecs = sync.OnceValue(func() map[string]fieldSpec {
	specs := map[string]fieldSpec{}
	for _, f := range sim.FieldTable() {
		s := fieldWords[f.Name]
		s.Name, s.Kind, s.Engine = f.Name, f.Kind, f.Engine
		switch {
		case f.Kind == sim.KindChoice:
			s.Choices = f.Choices
		case len(f.Choices) == 1:
			s.Toggle = f.Choices[0]
		}
		if s.Label == "" {
			s.Label, s.Hint = f.Name, f.Doc
		}
		specs[f.Name] = s
	}
	return specs
})

// specOf returns the control spec of a field.
func specOf(name string) fieldSpec { return fieldSpecs()[name] }

// specAt returns the control spec of sim.Fields()[i].
func specAt(i int) fieldSpec { return specOf(fieldNames[i]) }

// sliderIndex returns the slider position nearest to a field's text, or -1
// when the text is not a number of the field's kind.
func sliderIndex(spec fieldSpec, text string) int {
	if len(spec.Slider) == 0 {
		return -1
	}
	x, ok := fieldNumber(spec.Kind, text)
	if !ok {
		return -1
	}
	best, bestD := -1, math.Inf(1)
	for i, s := range spec.Slider {
		y, _ := fieldNumber(spec.Kind, s)
		d := math.Abs(math.Log1p(x) - math.Log1p(y))
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// fieldNumber reads a rate or a duration as a number, for slider positions.
func fieldNumber(kind sim.FieldKind, text string) (float64, bool) {
	if kind == sim.KindRate {
		r, err := sim.ParseRate(text)
		return float64(r) / 1000, err == nil
	}
	d, err := time.ParseDuration(text)
	return float64(d), err == nil && d >= 0
}

// controlsPanel is the form: the presets and a control for every query
// field, each with its message when the value is invalid. The page owns the
// values; the panel shows them and reports edits to the page.
type controlsPanel struct {
	app.Compo

	IInputs  []string   // the text of each control, in sim.Fields() order
	ISliders []int      // slider positions
	IErrs    []fieldMsg // the messages of the invalid fields

	IToggleOff []string // per field: the value it takes when its toggle is unticked
	IGens      []int    // per field: fieldControl.IGen
	IShow      string   // the folds the URL keeps open (address.KeyShow)
}

// The controls send the page what the reader did; the page owns the values
// (props down, actions up).
const (
	actionEdit   = "omission/page/edit"   // Value: an edit
	actionSubmit = "omission/page/submit" // the form was submitted
	actionPreset = "omission/page/preset" // Value: the preset's name
)

// edit is one control's new text and how long to wait before it runs.
type edit struct {
	Field string // the field's query name
	Text  string
	Delay time.Duration
	Gen   int // the control's generation of the page's text when the reader typed
}

// fieldMsg is one message: the field it belongs to and its text.
type fieldMsg struct {
	Field, Text string
}

func (c *controlsPanel) msg(field string) (string, bool) {
	for _, m := range c.IErrs {
		if m.Field == field {
			return m.Text, true
		}
	}
	return "", false
}

func (c *controlsPanel) input(i int) string {
	if i < len(c.IInputs) {
		return c.IInputs[i]
	}
	return ""
}

// Render builds the form from the props.
func (c *controlsPanel) Render() app.UI {
	var general []app.UI
	for _, m := range c.IErrs {
		if fieldIndex(m.Field) < 0 {
			general = append(general, app.Li().Class("error").DataSet("error", m.Field).Text(m.Text))
		}
	}
	paramsOpen, moreOpen := formFolds(c.IInputs, c.IErrs, c.IShow)
	var fields, engine []app.UI
	for i := 1; i < len(c.IInputs); i++ {
		if !c.offered(i) {
			continue
		}
		f := c.field(i)
		switch {
		case !specAt(i).Engine:
			fields = append(fields, f)
		case moreOpen:
			// Folded away, the engine's controls are not built at all.
			engine = append(engine, f)
		}
	}
	var more app.UI = app.Text("")
	if hasEngine(len(c.IInputs)) {
		more = fold(foldMore, moreOpen, "engine",
			app.Summary().Text("More parameters: arrivals, service distribution, queue, timeout, outages, retries, slowdowns, think time"),
			app.Div().Class("fields").Body(engine...))
	}
	return app.Form().Class("controls").Aria("label", "Parameters").
		OnSubmit(ui.On("submit", func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			ctx.NewAction(actionSubmit)
		})).
		Body(
			c.renderPresets(),
			// Always there, so that the fields keep their place (and their
			// components) when a message comes or goes.
			app.Ul().Class("errors").Aria("live", "polite").Hidden(len(general) == 0).Body(general...),
			fold(foldParams, paramsOpen, "params",
				app.Summary().Body(app.Span().Class("fold-q").Text("Change the server and the load")),
				app.Div().Class("fields").Body(fields...),
				more,
			),
		)
}

// formFolds tells whether the parameters' and the engine's folds are drawn
// open. A fold opens by itself when a field in it is in error or set away
// from the preset's value, so that a URL never hides its state; the reader
// opens and closes it otherwise, and the URL keeps that (show, address.KeyShow).
func formFolds(inputs []string, msgs []fieldMsg, show string) (params, more bool) {
	base := presetInputs(inputs[fieldIndex("preset")])
	setAway := map[bool]bool{} // by Engine: a field of that fold is set or in error
	for i := 1; i < len(inputs); i++ {
		bad := slices.ContainsFunc(msgs, func(m fieldMsg) bool { return m.Field == fieldNames[i] })
		if bad || i < len(base) && inputs[i] != base[i] && inputs[i] != "" {
			setAway[specAt(i).Engine] = true
		}
	}
	more = setAway[true] || shows(show, foldMore)
	return setAway[false] || more || shows(show, foldParams), more
}

// The page's folds whose open state the URL keeps (address.KeyShow), in the
// order the key lists them.
const (
	foldCases  = "cases"  // the published cases past the first few
	foldParams = "params" // every parameter of the query
	foldMore   = "more"   // the event engine's parameters, inside params
	foldWhy    = "why"    // why the two p99 differ, under the headline's cards
)

var foldOrder = [...]string{foldCases, foldParams, foldMore, foldWhy}

// ShowValue returns the value of address.KeyShow that lists the folds of show
// (a value of the key) with fold open or closed, in foldOrder; folds it
// does not know are dropped.
func ShowValue(show, fold string, open bool) string {
	var out []string
	for _, f := range foldOrder {
		on := shows(show, f)
		if f == fold {
			on = open
		}
		if on {
			out = append(out, f)
		}
	}
	return strings.Join(out, ",")
}

// shows tells whether show (a value of address.KeyShow) keeps fold open.
func shows(show, fold string) bool { return slices.Contains(strings.Split(show, ","), fold) }

// shows tells whether the URL keeps fold open.
func (c *controlsPanel) shows(fold string) bool { return shows(c.IShow, fold) }

// fold is a <details> of the page, drawn open when open. The reader's
// toggle goes to the page as the fold's state in the DOM when the handler
// runs (go-app runs it a dispatch later, maybe after another toggle) beside
// the state drawn, and the page sets the URL's show key from it: the last
// state wins, a toggle to the state drawn (the browser's own, when it draws
// a fold open) changes nothing, and a render in between, which changes no
// attribute it drew before, leaves the reader's fold as it is.
func fold(name string, open bool, class string, summary app.UI, body ...app.UI) app.UI {
	toggle, scope := ui.On("fold/"+name+"/"+strconv.FormatBool(open), func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(actionFold, foldState{Name: name, Open: ctx.JSSrc().Get("open").Bool(), Drawn: open})
	})
	d := app.Details().Class("fold", class).DataSet("fold", name).On("toggle", toggle, scope).Body(append([]app.UI{summary}, body...)...)
	if open {
		d = d.Open(true) // only when true: see renderField
	}
	return d
}

// actionFold tells the page a fold's state (its Value: a foldState).
const actionFold = "omission/page/fold"

// foldState is one fold opened or closed by the reader, and how the page
// drew it.
type foldState struct {
	Name        string
	Open, Drawn bool
}

// presetInputs returns the controls' texts of a preset (the default query's
// when name is no preset).
func presetInputs(name string) []string {
	if cfg, ok := sim.PresetConfig(name); ok {
		return cfg.Values()
	}
	return defaultInputs()
}

// offered tells whether field i has a control now: a field that belongs to
// a choice of another (sim.Dependents) is offered with that choice, and
// whenever it holds a value or a message, so that it can be mended.
func (c *controlsPanel) offered(i int) bool {
	name := fieldNames[i]
	for _, d := range sim.Dependents() {
		if d.Field != name {
			continue
		}
		_, bad := c.msg(name)
		text := strings.TrimSpace(c.input(i))
		return bad || c.input(fieldIndex(d.Owner)) == d.Choice || text != "" && text != "0s" && text != "0"
	}
	return true
}

// field returns the control of field i with its current props.
func (c *controlsPanel) field(i int) app.UI {
	f := &fieldControl{IName: fieldNames[i], IText: c.input(i)}
	if i < len(c.IToggleOff) {
		f.IToggleOff = c.IToggleOff[i]
	}
	if i < len(c.IGens) {
		f.IGen = c.IGens[i]
	}
	f.IMsg, f.IBad = c.msg(fieldNames[i])
	if i < len(c.ISliders) {
		f.ISlider = c.ISliders[i]
	}
	f.ISliderTop = c.sliderTop(i)
	return f
}

// sliderTop is the last slider position field i's travel may reach (-1:
// the whole slider): a stall's slider stops below the period, since a
// stall as long as every leaves the server no time and is refused. A
// value typed in the box past it is still taken, and refused with its
// message.
func (c *controlsPanel) sliderTop(i int) int {
	spec := specAt(i)
	if fieldNames[i] != "stall" || len(spec.Slider) == 0 {
		return -1
	}
	for j, n := range fieldNames {
		if n != "every" {
			continue
		}
		every, ok := fieldNumber(sim.KindDuration, c.input(j))
		if !ok || every <= 0 {
			return -1 // a single stall: any length
		}
		top := 0
		for k, v := range spec.Slider {
			if x, _ := fieldNumber(spec.Kind, v); x < every {
				top = k
			}
		}
		return top
	}
	return -1
}

// hasEngine tells whether the simulator has fields beyond the page's own.
func hasEngine(n int) bool {
	for i := 1; i < n; i++ {
		if specAt(i).Engine {
			return true
		}
	}
	return false
}

// fieldControl is the control of one field: label, hint, input (and slider
// or checkbox) and its message. A component of its own so that an edit
// re-renders one field, not the form.
type fieldControl struct {
	app.Compo

	IName   string // the field's query name
	IText   string // its text
	ISlider int    // its slider position (-1: none)
	// ISliderTop is the last position the slider may reach (-1: its last):
	// the travel stops short of values the other fields refuse.
	ISliderTop int
	IMsg       string // its message when invalid
	IBad       bool

	IToggleOff string // the value when its toggle is unticked
	// IGen counts the times the page set the text from elsewhere (the URL, a
	// preset, a companion field's choice); while it stands still, the text
	// is the reader's own.
	IGen int

	// The control's own text and slider, kept in step with what the reader
	// types: the page hears of an edit a dispatch later, and a render in
	// between must not write an older text back into the box.
	text   string
	slider int
	gen    int
	synced bool
}

// OnMount and OnUpdate run on the UI goroutine when the control is mounted
// and when the page hands it new props: a text the page set from elsewhere
// replaces the reader's.
func (c *fieldControl) OnMount(ctx app.Context)  { c.adopt() }
func (c *fieldControl) OnUpdate(ctx app.Context) { c.adopt() }

// OnPreRender is OnMount where go-app runs natively.
func (c *fieldControl) OnPreRender(ctx app.Context) { c.adopt() }

func (c *fieldControl) adopt() {
	if !c.synced || c.IGen != c.gen {
		c.text, c.slider, c.gen, c.synced = c.IText, c.ISlider, c.IGen, true
	}
}

// scope names one of the control's handlers. It names the component
// instance too: go-app keeps an element's handler while its scope stays the
// same, and a handler bound by an instance go-app has since replaced would
// record the reader's text in that instance, not in the one on screen.
func (c *fieldControl) scope(event string) string {
	return fmt.Sprintf("%s/%s/%p", event, c.IName, c)
}

// edit records the reader's text at once and tells the page.
func (c *fieldControl) edit(ctx app.Context, text string, delay time.Duration) {
	c.text = text
	if pos := sliderIndex(specOf(c.IName), text); pos >= 0 {
		c.slider = pos
	}
	ctx.NewActionWithValue(actionEdit, edit{Field: c.IName, Text: text, Delay: delay, Gen: c.gen})
}

// Render builds the control from the props.
func (c *fieldControl) Render() app.UI {
	spec := specOf(c.IName)
	id := "in-" + spec.Name
	errID := "err-" + spec.Name
	text, msg, bad := c.text, c.IMsg, c.IBad
	described := "hint-" + spec.Name
	if spec.Def != "" {
		described += " def-in-" + spec.Name
	}
	if !c.synced {
		text = c.IText // prerendering: no hook has run
	}
	var input app.UI
	switch {
	case spec.Choices != nil:
		input = c.choiceInput(spec, id, described, text)
	default:
		input = c.textInputs(spec, id, described+" "+errID, text, bad)
	}
	cls := "field"
	if bad {
		cls += " invalid"
	}
	return app.Div().Class(cls).DataSet("field", spec.Name).Body(
		app.Label().For(id).Text(spec.Label),
		app.Small().ID("hint-"+spec.Name).Class("hint").Text(spec.hint()),
		// The definition shows while the field has the focus or the pointer
		// (web/app.css); the input is described by it.
		app.If(spec.Def != "", func() app.UI {
			return app.Span().ID("def-in-"+spec.Name).Class("tip", "field-tip").Text(spec.Def)
		}),
		input,
		app.If(bad, func() app.UI {
			return app.P().ID(errID).Class("error").DataSet("error", spec.Name).Aria("live", "polite").Text(msg)
		}),
	)
}

// choiceInput returns the select of a field with choices, text chosen,
// described by the elements of the IDs in described.
func (c *fieldControl) choiceInput(spec fieldSpec, id, described, text string) app.UI {
	opts := make([]app.UI, len(spec.Choices))
	for j, ch := range spec.Choices {
		o := app.Option().Value(ch).Text(ch)
		if text == ch {
			o = o.Selected(true)
		}
		opts[j] = o
	}
	// The select's value property keeps the choice once the reader has
	// used it (a selected attribute no longer would).
	return app.Select().ID(id).Name(spec.Name).Aria("describedby", described).Attr("value", text).
		OnChange(ui.On(c.scope("select"), func(ctx app.Context, e app.Event) {
			c.edit(ctx, ctx.JSSrc().Get("value").String(), 0)
		})).Body(opts...)
}

// textInputs returns the text box of a field holding text, its unit, and
// its toggle and slider when it has them; bad marks the text invalid, and
// the elements of the IDs in described describe the box.
func (c *fieldControl) textInputs(spec fieldSpec, id, described, text string, bad bool) app.UI {
	toggled := spec.Toggle != "" && text == spec.Toggle
	box := app.Input().Type("text").ID(id).Name(spec.Name).Class("text").
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		Value(text).
		Aria("invalid", bad).Aria("describedby", described).
		OnInput(ui.On(c.scope("input"), func(ctx app.Context, e app.Event) {
			c.edit(ctx, ctx.JSSrc().Get("value").String(), typingDelay)
		})).
		OnChange(ui.On(c.scope("change"), func(ctx app.Context, e app.Event) {
			c.edit(ctx, ctx.JSSrc().Get("value").String(), 0)
		}))
	if spec.steps() {
		// ArrowUp and ArrowDown step it (web/page.js sends stepEvent); the
		// text typed is otherwise the reader's own.
		step, scope := ui.On(c.scope("step"), func(ctx app.Context, e app.Event) {
			c.step(ctx, e.Get("detail").Get("steps").Int())
		})
		box = box.DataSet("step", "ladder").On(stepEvent, step, scope)
	}
	if toggled {
		// Only when true: go-app writes a false boolean attribute into
		// prerendered HTML as present.
		box = box.Disabled(true)
	}
	parts := []app.UI{box, app.Span().Class("unit").Text(spec.Unit)}
	if spec.Toggle != "" {
		parts = append(parts, c.toggleInput(spec, id, toggled))
	}
	if spec.Slider != nil {
		parts = append(parts, c.sliderInput(spec, id))
	}
	return app.Div().Class("inputs").Body(parts...)
}

// toggleInput returns the labelled checkbox of a field with a toggle, ticked when
// toggled: ticking it sets the toggle's value, unticking it IToggleOff.
func (c *fieldControl) toggleInput(spec fieldSpec, id string, toggled bool) app.UI {
	cb := app.Input().Type("checkbox").ID(id + "-" + spec.Toggle).
		OnChange(ui.On(c.scope("toggle"), func(ctx app.Context, e app.Event) {
			v := c.IToggleOff
			if ctx.JSSrc().Get("checked").Bool() {
				v = spec.Toggle
			}
			c.edit(ctx, v, 0)
		}))
	if toggled || app.IsClient {
		cb = cb.Checked(toggled) // a property in the browser: it can go back to false
	}
	return app.Label().Class("toggle").Body(cb, app.Text(" "+spec.Toggle))
}

// sliderInput returns the slider of a field with one, at the control's position
// (the props' before any hook has run).
func (c *fieldControl) sliderInput(spec fieldSpec, id string) app.UI {
	pos := max(c.slider, 0)
	if !c.synced {
		pos = max(c.ISlider, 0)
	}
	top := len(spec.Slider) - 1
	if c.ISliderTop >= 0 && c.ISliderTop < top {
		top = c.ISliderTop
	}
	return app.Input().Type("range").ID(id+"-slider").Class("slider").
		Min(0).Max(top).Step(1).Value(strconv.Itoa(min(pos, top))).
		Aria("label", spec.Label+" (slider)").
		OnInput(ui.On(c.scope("slide"), func(ctx app.Context, e app.Event) {
			if k := ctx.JSSrc().Get("valueAsNumber").Int(); k >= 0 && k < len(spec.Slider) {
				c.edit(ctx, spec.Slider[k], slidingDelay)
			}
		})).
		OnChange(ui.On(c.scope("slid"), func(ctx app.Context, e app.Event) {
			if k := ctx.JSSrc().Get("valueAsNumber").Int(); k >= 0 && k < len(spec.Slider) {
				c.edit(ctx, spec.Slider[k], 0)
			}
		}))
}

// presetWords are the presets as the page names them for a reader: a label
// and where the preset comes from, in words. The URL keeps the preset's key
// (sim.Presets).
var presetWords = [...]struct{ Name, Label, From string }{
	{"bench", "A stall every second", "The reference run of a virtual-clock benchmark that checks every number against a formula."},
	{"tcp", "A real TCP experiment", "A blog post's experiment: a TCP server that stops for half a second every five, measured by a closed, a paced and an open client."},
	{"note60", "One long stall, workers to spare", "A back-of-the-envelope note's case. Its estimates hold because the server has enough workers to answer the backlog at once."},
	{"note60-single", "One long stall, one busy worker", "The same note's server with a single worker that is busy all the time: the queue a stall leaves never drains."},
	{"clients10", "Ten connections", "An essay's example: the load of a closed-loop generator spread over ten connections."},
	{"retry-storm", "A retry storm after an outage", "The engine's retry rules at work: a server 80 % busy goes away for half a second, and the open loop's retries, each after a timeout, more than double the attempts it sends. Much of the server's work goes to attempts whose callers already gave up, while the closed loop loses two calls."},
	{"pause", "A stop-the-world pause", "The coordinated-omission lab's first incident: for 1.4 s every service that starts takes seven times as long, as in a long garbage-collection pause, on a server with workers to spare. The open loop's p99 comes out more than twice the closed loop's." + rivalNearest},
	{"brownout", "A downstream brownout", "The lab's brownout: for 7 s a dependency makes every service that starts 3.8 times as long, and the workers cannot keep up. The open loop's p99 comes out more than six times the closed loop's, whose users slow down with the server." + rivalNearest},
	{"saturation", "A saturated worker pool", "The lab's pool saturation: too few workers for the rate even before its incident, then ×2.5 for 13 s. The open loop's queue grows all through the run and its p99 passes 10 s, while the closed loop's stays under half a second." + rivalNearest},
	{"baseline", "A healthy baseline", "The lab's control case: a slowdown of only ×1.15 for 2 s on a server with workers to spare. The closed and open loops' p99 agree within 5 %: with no backlog there is nothing to omit." + rivalNearest},
}

// rivalNearest says where the lab's four incidents are the nearest
// counterpart in our model rather than the same (sim.rivalIncident maps
// the rest exactly: its uniform jitter, its workers, its incident as a
// slowdown window, its users and their think time, its correction's
// interval 1 ÷ rate, its 500 ms objective, its nearest-rank percentiles).
const rivalNearest = " Nearest, not the same: our closed loop also keeps to the schedule's rate, where the lab's users send as soon as they have thought, and it sends every request of the schedule, late ones after the end."

// presetWord returns a preset's label and origin for people (its key and
// nothing if the page has no words for it).
func presetWord(name string) (label, from string) {
	for _, w := range presetWords {
		if w.Name == name {
			return w.Label, w.From
		}
	}
	return name, ""
}

// firstCases are the published cases shown beside the form: the reference
// run and a real experiment. The others (the healthy baseline, the lab's
// incidents, the notes' cases) are one click away, in the cases fold.
var firstCases = [...]string{"bench", "tcp"}

// renderPresets builds the preset buttons, each with its label and, for
// hover, focus and screen readers, where it comes from; the one the state
// starts from is pressed (its description stands under "Why do they
// differ?", with the run's story). The first cases stand in the open; the
// rest are in a fold, open when the state starts from one of them.
func (c *controlsPanel) renderPresets() app.UI {
	first := make([]app.UI, 0, len(firstCases))
	rest := make([]app.UI, 0, len(presets))
	chosen := c.input(fieldIndex("preset"))
	restOpen := c.shows(foldCases)
	for _, ps := range presets {
		name := ps.Name
		pressed := chosen == name
		label, from := presetWord(name)
		desc := from + " " + view.Summary(&ps.Config)
		b := app.Span().Class("term", "preset-term").Body(
			app.Button().Type("button").Class("preset").DataSet("preset", name).
				Aria("pressed", map[bool]string{true: "true", false: "false"}[pressed]).Aria("describedby", "preset-desc-"+name).
				OnClick(ui.On("preset/"+name, func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(actionPreset, name)
				})).
				Text(label),
			app.Span().ID("preset-desc-"+name).Class("tip").Text(desc),
		)
		if slices.Contains(firstCases[:], name) {
			first = append(first, b)
		} else {
			rest = append(rest, b)
			restOpen = restOpen || pressed
		}
	}
	msg, bad := c.msg("preset")
	return app.FieldSet().Class("presets").Body(
		app.Legend().Class("way").Text("Play with a server that stalls"),
		app.Div().Class("preset-buttons").Body(first...),
		fold(foldCases, restOpen || bad, "cases",
			app.Summary().Text(fmt.Sprintf("%d more cases", len(rest))),
			app.Div().Class("preset-buttons").Body(rest...),
		),
		app.If(bad, func() app.UI {
			return app.P().ID("err-preset").Class("error").DataSet("error", "preset").Text(msg)
		}),
	)
}

// fieldMessages words the field errors for the reader: the field, the value
// given and the range allowed.
func fieldMessages(errs sim.Errors) []fieldMsg {
	if len(errs) == 0 {
		return nil
	}
	out := make([]fieldMsg, len(errs))
	for i, fe := range errs {
		out[i] = fieldMsg{Field: fe.Field, Text: fe.Error()}
	}
	return out
}

// presets are the simulator's named configurations.
var presets = sim.Presets()

// SliderPosition returns the position of field's slider for a text, or -1
// when the field has no slider or the text is not a value of its kind.
func SliderPosition(field, text string) int {
	return sliderIndex(specOf(field), text)
}
