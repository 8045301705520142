package page

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/units"
	"omission/sim"
)

// stepEvent is the event web/page.js sends a number box (data-step) when
// the reader presses ArrowUp or ArrowDown (a step) or Page Up or Page Down
// (three): detail {steps: n}.
const stepEvent = "omission-step"

// stepHint is what a number box's hint adds: that the arrow keys step it.
const stepHint = "; ↑ ↓ step it"

// steps tells whether a field's box steps with the arrow keys: a rate, a
// duration or a count (not a choice, nor a list of windows).
func (s fieldSpec) steps() bool {
	return s.Choices == nil && (s.Kind == sim.KindRate || s.Kind == sim.KindDuration || s.Kind == sim.KindCount)
}

// Where the boxes' ladders end: durations from 1 µs to a day, rates from
// one to ten million requests a second, counts up to a million (the
// simulator's own limits say the rest).
const (
	stepMaxDuration = int64(24 * time.Hour)
	stepMaxRate     = 10_000_000 * 1000 // milli-requests a second
	stepMaxCount    = 1_000_000
)

// stepText returns a number box's text after steps arrow-key steps: its
// value read as the field's kind, moved along the article's ladder of
// round numbers (units.Ladder: durations and counts may step down to 0; a
// seed, which has no scale, by one), written as the query writes it. ok is
// false when the text is no number of the field (a word such as auto, a
// typo): the box keeps the text untouched.
func stepText(spec fieldSpec, text string, steps int) (string, bool) {
	text = strings.TrimSpace(text)
	switch {
	case !spec.steps() || steps == 0:
		return "", false
	case spec.Kind == sim.KindRate:
		r, err := sim.ParseRate(text)
		if err != nil {
			return "", false
		}
		v := units.Step(units.Ladder(1000, stepMaxRate, 1000, 0), int64(r), steps)
		return sim.Rate(v).String(), true
	case spec.Kind == sim.KindDuration:
		d, err := time.ParseDuration(text)
		if err != nil || d < 0 {
			return "", false
		}
		ladder := append([]int64{0}, units.Ladder(1000, stepMaxDuration, 1, 0)...)
		return sim.FormatDuration(units.Step(ladder, int64(d), steps)), true
	case spec.StepByOne:
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil || steps < 0 && n < uint64(-steps) || steps > 0 && n > ^uint64(0)-uint64(steps) {
			return "", false
		}
		if steps > 0 {
			return strconv.FormatUint(n+uint64(steps), 10), true
		}
		return strconv.FormatUint(n-uint64(-steps), 10), true
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 {
		return "", false
	}
	ladder := append([]int64{0}, units.Ladder(1, stepMaxCount, 1, 10)...)
	return strconv.FormatInt(units.Step(ladder, n, steps), 10), true
}

// hint is the field's hint under its label, saying that the arrow keys
// step a number box.
func (s fieldSpec) hint() string {
	if s.steps() && s.Hint != "" {
		return s.Hint + stepHint
	}
	return s.Hint
}

// step moves the box's value steps rungs (stepText) and runs it at once,
// as a slider does: each press replaces the URL's entry, never adds one.
func (c *fieldControl) step(ctx app.Context, steps int) {
	text := ctx.JSSrc().Get("value").String()
	next, ok := stepText(specOf(c.IName), text, steps)
	if !ok || next == text {
		ctx.PreventUpdate()
		return
	}
	ctx.JSSrc().Set("value", next)
	c.edit(ctx, next, slidingDelay)
}
