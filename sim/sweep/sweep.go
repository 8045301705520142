package sweep

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"omission/sim"
)

// A sweep is one field moved over a range, every other field as a base
// Config has it: sweep=<field>:<from>..<to>/<form> (QUERY.md, "Sweeps").
// Its points are written through the field table, each a Config of its own
// with its own canonical query; a point that Validate or a caller's Budget
// refuses is refused alone, with its reason.

// MaxPoints is the most points a sweep may have.
const MaxPoints = 200

// sweepAllowed is the form a sweep's text takes, for its messages.
const sweepAllowed = "allowed <field>:<from>..<to>/<n> (2 to 200 points, both ends included), " +
	"/<step> with its unit (25ms; 500/s for a rate) or /x<k> (a geometric series, k > 1), e.g. stall:0..900ms/50"

// sweepForm is how a sweep spaces its points.
type sweepForm uint8

const (
	sweepCount  sweepForm = iota // n points, both ends included
	sweepStep                    // a fixed step from from, up to to
	sweepFactor                  // a geometric series from from, up to to
)

// Sweep is a parsed sweep: the field, its ends and its points' values, in
// the field's unit (ns for a duration, thousandths of a request per second
// for a rate, the number for a count).
type Sweep struct {
	Field    string
	Kind     sim.FieldKind // KindDuration, KindRate or KindCount
	from, to int64
	form     sweepForm
	n        int      // sweepCount: the points
	step     int64    // sweepStep: in the field's unit
	factor   sim.Rate // sweepFactor: k in thousandths (ParseRate's decimal)
	values   []int64
}

// Parse reads a sweep's text. Its error is a *sim.FieldError on "sweep"
// that quotes the text and says what is allowed.
func Parse(spec string) (Sweep, error) {
	bad := func(why string) (Sweep, error) {
		if why != "" {
			why += "; "
		}
		return Sweep{}, &sim.FieldError{Field: "sweep", Value: spec, Allowed: why + sweepAllowed}
	}
	name, rest, ok := strings.Cut(strings.TrimSpace(spec), ":")
	if !ok {
		return bad("no field: the text starts with the field's name and a colon")
	}
	f, ok := sim.LookupField(name)
	if !ok {
		return bad(fmt.Sprintf("%s is no field of the query; a sweep moves one of %s", sim.Quote(name), strings.Join(Fields(), ", ")))
	}
	if !sweepable(f.Kind) {
		return bad(fmt.Sprintf("%s is %s, not a number: a sweep moves a duration, a rate or a count (%s)", name, kindWords(f), strings.Join(Fields(), ", ")))
	}
	span, form, ok := strings.Cut(rest, "/")
	fromText, toText, ok2 := strings.Cut(span, "..")
	if !ok || !ok2 {
		return bad("no range from..to and form after it")
	}
	s := Sweep{Field: name, Kind: f.Kind}
	var err error
	if s.from, err = sweepEnd(f, "from", fromText); err != nil {
		return bad(err.Error())
	}
	if s.to, err = sweepEnd(f, "to", toText); err != nil {
		return bad(err.Error())
	}
	if s.from >= s.to {
		return bad(fmt.Sprintf("from %s must be below to %s", s.text(s.from), s.text(s.to)))
	}
	if err := s.parseForm(form); err != nil {
		return bad(err.Error())
	}
	if s.values, err = s.series(); err != nil {
		return bad(err.Error())
	}
	return s, nil
}

// Fields lists the fields a sweep can move: the durations, rates and
// counts of the field table, in its order.
func Fields() []string {
	var out []string
	for _, f := range sim.FieldTable() {
		if sweepable(f.Kind) {
			out = append(out, f.Name)
		}
	}
	return out
}

func sweepable(k sim.FieldKind) bool {
	return k == sim.KindDuration || k == sim.KindRate || k == sim.KindCount
}

// kindWords says what a field that cannot be swept is.
func kindWords(f sim.FieldInfo) string {
	if f.Kind == sim.KindWindows {
		return "a list of windows"
	}
	return "a choice (" + strings.Join(f.Choices, ", ") + ")"
}

// fieldText is a field's canonical text in c, as c.Query writes it.
func fieldText(c sim.Config, name string) string {
	return c.Values()[slices.Index(sim.Fields(), name)]
}

// sweepEnd reads one end of the range through the field's own text: its
// range and syntax are the field's, and a word (auto, unlimited) is no end.
func sweepEnd(f sim.FieldInfo, which, text string) (int64, error) {
	c := sim.Default()
	if fe := setField(&c, f.Name, text); fe != nil {
		return 0, fmt.Errorf("%s %s: %s", which, sim.Quote(text), fe.Allowed)
	}
	canon := fieldText(c, f.Name)
	v, err := sweepNumber(f.Kind, canon)
	if err != nil {
		return 0, fmt.Errorf("%s %s means %s=%s, not a number: a sweep's ends are numbers", which, sim.Quote(text), f.Name, canon)
	}
	return v, nil
}

// sweepNumber reads a field's canonical text as a number in its unit.
func sweepNumber(k sim.FieldKind, text string) (int64, error) {
	switch k {
	case sim.KindDuration:
		d, err := time.ParseDuration(text)
		return int64(d), err
	case sim.KindRate:
		r, err := sim.ParseRate(text)
		return int64(r), err
	}
	return strconv.ParseInt(text, 10, 64)
}

// parseForm reads what follows the '/': a number of points, a step with
// its unit, or x and a factor.
func (s *Sweep) parseForm(form string) error {
	switch {
	case strings.HasPrefix(form, "x"):
		k, err := sim.ParseRate(form[1:])
		if err != nil || k <= 1000 || k > sim.RateOf(1000) {
			return fmt.Errorf("the factor %s: allowed x followed by a number above 1 and at most 1000, with at most three decimals", sim.Quote(form))
		}
		if s.from <= 0 {
			return fmt.Errorf("a geometric series starts above 0 (from is %s)", s.text(s.from))
		}
		s.form, s.factor = sweepFactor, k
	case form != "" && strings.Trim(form, "0123456789") == "":
		n, err := strconv.Atoi(form)
		if err != nil || n < 2 || n > MaxPoints {
			return fmt.Errorf("%s points: allowed 2 to %d points", sim.Quote(form), MaxPoints)
		}
		s.form, s.n = sweepCount, n
	default:
		step, err := s.parseStep(form)
		if err != nil {
			return err
		}
		s.form, s.step = sweepStep, step
	}
	return nil
}

// parseStep reads a fixed step: a duration with its unit, or a rate as
// <number>/s. A count's step is a number of points.
func (s *Sweep) parseStep(form string) (int64, error) {
	switch s.Kind {
	case sim.KindDuration:
		d, err := time.ParseDuration(form)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("the step %s: allowed a duration above 0 with its unit (25ms)", sim.Quote(form))
		}
		return int64(d), nil
	case sim.KindRate:
		num, ok := strings.CutSuffix(form, "/s")
		r, err := sim.ParseRate(num)
		if !ok || err != nil || r <= 0 {
			return 0, fmt.Errorf("the step %s: allowed a rate above 0 with its unit, as 500/s", sim.Quote(form))
		}
		return int64(r), nil
	}
	return 0, fmt.Errorf("the form %s: %s is a count, swept by a number of points (/10) or a factor (/x2)", sim.Quote(form), s.Field)
}

// series computes the points' values: increasing, none repeated, at most
// MaxPoints.
func (s *Sweep) series() ([]int64, error) {
	var vs []int64
	switch s.form {
	case sweepCount:
		span := uint64(s.to - s.from)
		for i := 0; i < s.n; i++ {
			// from + round(i·(to−from)/(n−1)), exact in 128 bits.
			hi, lo := bits.Mul64(span, uint64(2*i))
			lo, c := bits.Add64(lo, uint64(s.n-1), 0)
			q, _ := bits.Div64(hi+c, lo, uint64(2*(s.n-1)))
			vs = append(vs, s.from+int64(q))
		}
	case sweepStep:
		if n := (s.to-s.from)/s.step + 1; n > MaxPoints {
			return nil, fmt.Errorf("a step of %s from %s to %s makes %d points: at most %d", s.text(s.step), s.text(s.from), s.text(s.to), n, MaxPoints)
		}
		for v := s.from; v <= s.to; v += s.step {
			vs = append(vs, v)
		}
	case sweepFactor:
		// round(from · (k/1000)^i), exact in integers, up to to: num/den
		// is from·k^i/1000^i.
		num, den := nat{uint64(s.from)}, nat{1}
		for {
			q, ok := num.roundQuo(den, uint64(s.to))
			if !ok {
				break
			}
			if n := len(vs); n > 0 && q == vs[n-1] {
				return nil, s.repeats(vs[n-1])
			}
			if len(vs) == MaxPoints {
				return nil, fmt.Errorf("a factor of %s from %s to %s makes more than %d points", s.factor, s.text(s.from), s.text(s.to), MaxPoints)
			}
			vs = append(vs, q)
			num = num.mulWord(uint64(s.factor))
			den = den.mulWord(1000)
		}
	}
	for i := 1; i < len(vs); i++ {
		if vs[i] <= vs[i-1] {
			return nil, s.repeats(vs[i])
		}
	}
	return vs, nil
}

// repeats is the error of a series whose value v comes twice.
func (s Sweep) repeats(v int64) error {
	return fmt.Errorf("%s twice: the points repeat once rounded to %s (fewer points, or a larger factor)", s.text(v), s.grain())
}

// grain is what a value is rounded to, in words.
func (s Sweep) grain() string {
	switch s.Kind {
	case sim.KindDuration:
		return "whole nanoseconds"
	case sim.KindRate:
		return "three decimals"
	}
	return "whole numbers"
}

// text writes a value in the field's unit as the query writes it.
func (s Sweep) text(v int64) string {
	switch s.Kind {
	case sim.KindDuration:
		return sim.FormatDuration(v)
	case sim.KindRate:
		return sim.Rate(v).String()
	}
	return strconv.FormatInt(v, 10)
}

// String is the sweep's canonical text: the ends as the query writes them.
func (s Sweep) String() string {
	form := ""
	switch s.form {
	case sweepCount:
		form = strconv.Itoa(s.n)
	case sweepStep:
		form = s.text(s.step)
		if s.Kind == sim.KindRate {
			form += "/s"
		}
	case sweepFactor:
		form = "x" + s.factor.String()
	}
	return s.Field + ":" + s.text(s.from) + ".." + s.text(s.to) + "/" + form
}

// Geometric reports whether the points are a geometric series (/x<k>).
func (s Sweep) Geometric() bool { return s.form == sweepFactor }

// Values returns the points' values as the query writes them, in order.
func (s Sweep) Values() []string {
	out := make([]string, len(s.values))
	for i, v := range s.values {
		out[i] = s.text(v)
	}
	return out
}

// Number returns a value of the field as a number for an axis: ns for a
// duration, requests per second for a rate, the count; ok is false for a
// word (auto, unlimited, unbounded).
func (s Sweep) Number(text string) (x float64, ok bool) {
	v, err := sweepNumber(s.Kind, text)
	if err != nil {
		return 0, false
	}
	if s.Kind == sim.KindRate {
		return float64(v) / 1000, true
	}
	return float64(v), true
}

// Point is one point of a sweep: the field's value, the sim.Config and its
// canonical query, and either what its run reported or why it was refused.
type Point struct {
	Value  string     `json:"value"` // the field's text at this point, as the query writes it
	X      float64    `json:"-"`     // Value as a number (Sweep.Number)
	Query  string     `json:"query"` // sim.Config.Query()
	Config sim.Config `json:"-"`
	// Refused is why the point was not run: Validate's, the sim.Budget's or
	// the run's refusal; "" for a point that ran.
	Refused string `json:"refused,omitempty"`
	*PointReport
}

// PointReport is what a sweep keeps of a point's report: the keys of the
// report JSON (sim.Report) that a sweep compares, with the same values.
type PointReport struct {
	Hash       string                      `json:"hash"`
	Engine     string                      `json:"engine"`
	Exact      bool                        `json:"exact"`
	Planned    int64                       `json:"planned"`
	Clients    map[string]sim.ClientReport `json:"clients"`
	Recordings map[string]sim.RecReport    `json:"recordings"`
	Passed     int                         `json:"passed"`
	Failed     int                         `json:"failed"`
}

// PointReportOf keeps a report's PointReport keys.
func PointReportOf(r sim.Report) *PointReport {
	return &PointReport{Hash: r.Hash, Engine: r.Engine, Exact: r.Exact, Planned: r.Planned,
		Clients: r.Clients, Recordings: r.Recordings, Passed: r.Passed, Failed: r.Failed}
}

// Points returns the sweep's points over base: base with the field set to
// each value, each validated and, with a budget, held to it. None is run.
func (s Sweep) Points(base sim.Config, budget *sim.Budget) []Point {
	out := make([]Point, 0, len(s.values))
	for i := range s.values {
		out = append(out, s.Point(base, i, budget))
	}
	return out
}

// Point returns the sweep's point i over base, as Points does: a caller
// that runs the points one by one need not make them all first.
func (s Sweep) Point(base sim.Config, i int, budget *sim.Budget) Point {
	text := s.text(s.values[i])
	p := Point{Value: text, Config: base}
	p.X, _ = s.Number(text)
	if fe := setField(&p.Config, s.Field, text); fe != nil { // not for a value in the field's range
		p.Refused = fe.Error()
	}
	p.Query = p.Config.Query()
	if p.Refused == "" {
		if err := p.Config.Validate(); err != nil {
			p.Refused = err.Error()
		} else if budget != nil {
			if fe := p.Config.Within(*budget); fe != nil {
				p.Refused = fe.Error()
			}
		}
	}
	return p
}

// Run runs a point that was not refused and keeps its report; a run a
// limit stops is refused with the limit's message.
func (p *Point) Run() {
	if p.Refused != "" || p.PointReport != nil {
		return
	}
	res, err := runPoint(p.Config)
	if err != nil {
		p.Refused = err.Error()
		return
	}
	p.PointReport = PointReportOf(res.Report())
}

// Result is a sweep over a base sim.Config and its points, run.
type Result struct {
	Field string `json:"field"`
	Spec  string `json:"spec"`  // Sweep.String
	Query string `json:"query"` // the base's canonical query
	Value string `json:"value"` // the base's value of the field
	// Geometric reports a geometric series (a log axis for the field).
	Geometric bool    `json:"-"`
	Points    []Point `json:"points"`
}

// Refused counts the points that were not run.
func (r *Result) Refused() int {
	n := 0
	for _, p := range r.Points {
		if p.Refused != "" {
			n++
		}
	}
	return n
}

// BaseNumber is the base's value of the field as a number (Sweep.Number);
// ok is false for a word (auto, unlimited).
func (r *Result) BaseNumber() (float64, bool) {
	k := sim.KindCount
	if fi, ok := sim.LookupField(r.Field); ok {
		k = fi.Kind
	}
	return Sweep{Kind: k}.Number(r.Value)
}

// Run runs every point of the sweep over base, one after the other.
func (s Sweep) Run(base sim.Config, budget *sim.Budget) *Result {
	res := s.Result(base)
	res.Points = s.Points(base, budget)
	for i := range res.Points {
		res.Points[i].Run()
	}
	return res
}

// Result is the sweep's Result over base with no points yet: a caller
// that runs the points one by one (Points, Point.Run) adds them.
func (s Sweep) Result(base sim.Config) *Result {
	return &Result{Field: s.Field, Spec: s.String(), Query: base.Query(), Value: fieldText(base, s.Field), Geometric: s.Geometric()}
}

// nat is a natural number in 64-bit words, least significant first: the
// geometric series' exact powers, without math/big (some 40 KB of
// app.wasm after gzip).
type nat []uint64

// mulWord returns x·w.
func (x nat) mulWord(w uint64) nat {
	out := make(nat, 0, len(x)+1)
	var carry uint64
	for _, d := range x {
		hi, lo := bits.Mul64(d, w)
		lo, c := bits.Add64(lo, carry, 0)
		out = append(out, lo)
		carry = hi + c
	}
	if carry != 0 {
		out = append(out, carry)
	}
	return out
}

// addNat returns x + y.
func (x nat) addNat(y nat) nat {
	if len(x) < len(y) {
		x, y = y, x
	}
	out := make(nat, 0, len(x)+1)
	var carry uint64
	for i, d := range x {
		var e uint64
		if i < len(y) {
			e = y[i]
		}
		var c1, c2 uint64
		d, c1 = bits.Add64(d, e, 0)
		d, c2 = bits.Add64(d, carry, 0)
		out = append(out, d)
		carry = c1 + c2
	}
	if carry != 0 {
		out = append(out, carry)
	}
	return out
}

// cmp compares x and y: −1, 0 or 1.
func (x nat) cmp(y nat) int {
	x, y = x.trim(), y.trim()
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (x nat) trim() nat {
	for len(x) > 0 && x[len(x)-1] == 0 {
		x = x[:len(x)-1]
	}
	return x
}

// roundQuo returns round(x/den) (halves up), when it is at most limit
// (< 2⁶²); ok is false when it is more. It searches for the largest q
// with q·2den ≤ 2x + den.
func (x nat) roundQuo(den nat, limit uint64) (q int64, ok bool) {
	rhs := x.mulWord(2).addNat(den)
	den2 := den.mulWord(2)
	fits := func(q uint64) bool { return den2.mulWord(q).cmp(rhs) <= 0 }
	if fits(limit + 1) {
		return 0, false
	}
	lo, hi := uint64(0), limit+1 // fits(lo), !fits(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int64(lo), true
}
