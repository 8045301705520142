package page

import (
	"fmt"
	"omission/app/address"
	"strings"

	"omission/sim"
)

// The page's one rule for a query, whether it comes from the address bar
// or from the controls, so that what the page shows is always what loading
// its URL shows. It is sim.ParseQuery's, the command line's too:
//
//   - every valid field takes effect;
//   - a field whose value is invalid on its own runs with the preset's
//     value; the URL keeps the text as typed, and the field and the summary
//     say why (a choice whose required companion is missing, dist=lognormal
//     without service_p95 or arrivals=ramp without to, runs without that
//     choice until the companion is given);
//   - fields valid alone but not together (sim.ReasonConflict: stall ≥
//     every …) are all marked, each message naming the other field and its
//     value; the controls and the URL keep the reader's values, and the run
//     is refused: nothing runs and no number is shown;
//   - an unknown key, or a key given more than once, is dropped from the
//     URL at once, with a notice saying what was dropped and which value
//     the field kept;
//   - a run over a limit (the simulator's, or the page's own budget) is
//     refused: nothing runs and no number is shown for it; so is a run
//     whose invalid fields, at the preset's values, then conflict or pass a
//     limit (never the preset's run in the reader's place).
//
// The headline always describes exactly the run whose numbers are shown:
// when the state is refused, it and the table say so and name the fields
// to change.

// queryState is what one query means for the page.
type queryState struct {
	cfg     sim.Config      // what runs (when refused is empty; else the reader's values, which do not run)
	canon   string          // its canonical query
	inputs  []string        // the text of each control, in sim.Fields() order
	invalid sim.Errors      // values refused: each field runs with the preset's value
	dropped sim.Errors      // unknown and repeated keys, gone from the URL
	refused sim.Errors      // conflicts and limits: nothing runs
	addr    address.Address // what the URL holds: query and the page's own keys
	query   string          // addr's simulator fields: canon, or the invalid values as typed
	extra   address.Address // addr's page keys (address.PageKeys()) as given
}

// errs returns every message of the state, for the controls.
func (s *queryState) errs() sim.Errors {
	out := append(append(sim.Errors(nil), s.invalid...), s.refused...)
	return out
}

// readQuery reads a raw query (the URL's) under the page's rule.
func readQuery(raw string) queryState { return readAddress(address.ParseAddress(raw)) }

// readAddress reads an address (the URL's, or the controls' with the page's
// keys) under the page's rule.
func readAddress(in address.Address) queryState {
	cfg, err := sim.ParseQuery(in.String(), address.PageKeys()...)
	st := queryState{cfg: cfg, extra: in.Only(address.PageKeys()...)}
	errs := asErrors(err)
	if derr := in.Err(); derr != nil {
		// What the address could not decode is not in it (sim's message).
		errs = append(sim.Errors{{Field: "query", Allowed: "cannot be decoded: " + derr.Error()}}, errs...)
	}
	for _, fe := range errs {
		switch {
		case fe.Reason == sim.ReasonUnknown || fe.Reason == sim.ReasonRepeated:
			st.dropped = append(st.dropped, fe)
		case fe.Reason.Refuses(): // a conflict or a limit
			st.refused = append(st.refused, fe)
		default:
			st.invalid = append(st.invalid, fe)
		}
	}
	if len(st.refused) == 0 {
		if fe := cfg.Within(pageBudget(cfg)); fe != nil {
			st.refused = append(st.refused, fe)
		}
	}
	st.canon = cfg.Query()
	st.readFields(in)
	return st
}

// readFields sets the controls' texts and the address from the fields of
// in: the controls show what the URL holds, a valid value in its canonical
// writing, an invalid one as typed, a missing one at the preset's value.
// When nothing is invalid or refused, every field given runs as given and
// cfg holds its canonical writing; otherwise each one given is read again
// over the preset, since cfg may hold the preset's value instead.
func (st *queryState) readFields(in address.Address) {
	cfgVals := st.cfg.Values()
	preset := cfgVals[fieldIndex("preset")]
	if v, ok := in.Given("preset"); ok && st.invalid.Field("preset") != nil {
		preset = v
	}
	base, ok := sim.PresetConfig(preset)
	if !ok {
		base = sim.Default()
	}
	baseVals := base.Values()
	clean := len(st.invalid) == 0 && len(st.refused) == 0
	st.inputs = base.Values()
	st.inputs[fieldIndex("preset")] = preset
	addr := st.extra
	if preset != "bench" {
		addr = addr.With("preset", preset)
	}
	for i, name := range fieldNames {
		v, ok := in.Given(name)
		switch {
		case name == "preset":
			continue
		case !ok || st.dropped.Field(name) != nil:
			if st.invalid.Field(name) != nil {
				st.inputs[i] = "" // a required value that is missing
			}
			continue
		}
		canon, fe := cfgVals[i], (*sim.FieldError)(nil)
		if !clean {
			canon, fe = sim.CanonicalField(preset, name, v)
		}
		switch {
		case fe != nil || st.invalid.Field(name) != nil:
			st.inputs[i] = v
			addr = addr.With(name, v)
		default:
			st.inputs[i] = canon
			if canon != baseVals[i] {
				addr = addr.With(name, canon)
			}
		}
	}
	st.addr = addr
	st.query = addr.Without(address.PageKeys()...).String()
}

// pageBudget is what the page lets one run cost: the simulator's page
// budget, with the run's own query in the message's pointer to the command
// line.
func pageBudget(cfg sim.Config) sim.Budget {
	b := sim.PageBudget()
	b.Elsewhere = fmt.Sprintf("run it natively, where the limits are the simulator's own: go run ./app report %s", shellQuote(cfg.Query()))
	return b
}

// shellQuote quotes a query for a shell command line.
func shellQuote(q string) string {
	return "'" + strings.ReplaceAll(q, "'", `'\''`) + "'"
}

// droppedNotice words what readQuery dropped from the URL (ui's wording,
// shared with the article and the embeds).
func droppedNotice(fe *sim.FieldError, base sim.Config) string {
	kept := ""
	if i := fieldIndex(fe.Field); i >= 0 {
		kept = base.Values()[i]
	}
	return address.DroppedNotice(fe, "The run keeps the preset's value", kept)
}

// withCompanions keeps the fields that belong to a choice in step with it
// after field i changed (sim.Dependents): choosing dist=lognormal offers
// service_p95 with a value that runs, and leaving that choice clears it, so
// that no edit leaves a state only another edit elsewhere can mend.
func withCompanions(inputs []string, i int, cfg sim.Config) {
	for _, d := range sim.Dependents() {
		if fieldNames[i] != d.Owner {
			continue
		}
		j := fieldIndex(d.Field)
		switch {
		case inputs[i] == d.Choice && unset(inputs[j]):
			inputs[j] = companionDefault(d.Field, cfg)
		case inputs[i] != d.Choice:
			inputs[j] = ""
		}
	}
}

// unset tells whether a companion's text holds no value: empty, or its
// zero (0s for a duration, 0 for the ramp's end rate), which a choice that
// requires it does not take.
func unset(text string) bool {
	t := strings.TrimSpace(text)
	return t == "" || t == "0s" || t == "0"
}

// companionDefault is a value a companion field starts from: one that runs
// with the rest of the state, inside its range.
func companionDefault(field string, cfg sim.Config) string {
	S := max(cfg.Service, 1000)
	twice := min(2*max(cfg.Rate, 1), sim.MaxRate) // the ramp's end, a burst's rate
	switch field {
	case "service_p95":
		return sim.FormatDuration(min(4*S, sim.MaxTime))
	case "service_max":
		return sim.FormatDuration(min(2*S, sim.MaxTime))
	case "to":
		return twice.String()
	case "bursts":
		from := cfg.Duration / 2
		return sim.FormatDuration(from) + "-" + sim.FormatDuration(from+max(cfg.Duration/10, 1)) + "@" + twice.String()
	}
	return ""
}
