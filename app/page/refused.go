package page

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
)

// refusal is why nothing runs for the page's query (querystate.go's
// refused): fields that do not hold together, or a limit, and the fields to
// change. The zero value: not refused. The headline, the table, the charts,
// the tools and the files each say it in place of their numbers.
type refusal struct {
	On       bool
	Conflict bool     // fields valid alone but not together (else a limit)
	Fields   []string // the fields to change, each once, in the order of the messages
}

// refusalOf reads the refusing errors of a state.
func refusalOf(es sim.Errors) refusal {
	var r refusal
	seen := map[string]bool{}
	for _, fe := range es {
		if !fe.Reason.Refuses() {
			continue
		}
		r.On = true
		r.Conflict = r.Conflict || fe.Reason == sim.ReasonConflict
		if !seen[fe.Field] {
			seen[fe.Field] = true
			r.Fields = append(r.Fields, fe.Field)
		}
	}
	return r
}

// refusedTitle is the refusal in a few words.
const refusedTitle = "Refused: nothing was simulated."

// what says why, and what to change.
func (r refusal) what() string {
	list := joinAnd(r.Fields)
	if r.Conflict {
		return list + " do not hold together: change one of them (the message beside each says what it must be, naming the other)."
	}
	return "The run is over a limit: change " + list + " (the message beside it says which limit, what the run would cost and what to change)."
}

// sentence is the refusal in one sentence, for a panel that is empty
// because of it (its topic: "no tool was played").
func (r refusal) sentence(topic string) string {
	if r.Conflict {
		return "Refused: nothing was simulated, so " + topic + ": " + joinAnd(r.Fields) + " do not hold together; change one of them (see the messages beside the fields)."
	}
	return "Refused: nothing was simulated, so " + topic + ": the run is over a limit; change " + joinAnd(r.Fields) + " (see the message beside it)."
}

// render is the refusal as the headline and the table show it: the title,
// then why, with a link to each field to change.
func (r refusal) render(class string) []app.UI {
	links := []app.UI{}
	for i, f := range r.Fields {
		if i > 0 {
			links = append(links, app.Text(map[bool]string{true: " and ", false: ", "}[i == len(r.Fields)-1]))
		}
		links = append(links, app.A().Href("#in-"+f).DataSet("jump", "1").DataSet("refused-field", f).Text(f))
	}
	verb := "Change "
	if r.Conflict {
		verb = "Change one of "
	}
	return []app.UI{
		app.P().Class(class, "refused-title").Text(refusedTitle),
		app.P().Class("refused-what").Text(r.what()),
		app.P().Class("refused-fields").Body(append(append([]app.UI{app.Text(verb)}, links...), app.Text("."))...),
	}
}

// emptyClass is the class of a panel's line saying why it is empty.
func emptyClass(r refusal) []string {
	if r.On {
		return []string{"empty", "refused"}
	}
	return []string{"empty"}
}

// joinAnd lists names: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
