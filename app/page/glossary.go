package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The words of the first screen, defined where they appear (a term shows
// its definition on hover and on focus, web/app.css and web/page.js) and
// gathered in the glossary at the foot of the page. Each use of a term is
// described by the glossary's entry (aria-describedby="def-<id>"), so a
// screen reader reads the same definition a sighted reader sees.

// glossaryTerm is one word of the page and what it means.
type glossaryTerm struct {
	ID, Term, Def string
}

// glossary lists the page's words, in the order the glossary shows them.
var glossary = []glossaryTerm{
	{"coordinated-omission", "coordinated omission",
		"A load generator that waits for the server stops sending while the server is stuck, so the requests that would have been slow are never sent and never measured: its percentiles look healthy."},
	{"stall", "stall",
		"A pause during which the server answers nothing: a garbage collection, a lock, a full disk. Here the server stalls on a schedule."},
	{"closed", "closed loop",
		"A load generator that sends a request only when the previous one on its connection has been answered, and times it from when it was sent. It waits out a stall with the server."},
	{"paced", "paced client",
		"A load generator that sleeps until the next slot of its schedule; when it is late, it sends at once and carries on from there, so the slots it missed are never sent."},
	{"open", "open loop",
		"A load generator that sends every request when the schedule says, whatever is still unanswered, and times it from when it was due: what users who arrive on their own would see."},
	{"corrected", "closed, corrected",
		"The closed loop's samples with HdrHistogram's correction: for every sample longer than the expected interval E, it adds the samples that the requests it did not send would have recorded (the sample minus E, minus 2E, … down to E)."},
	{"paced_corrected", "paced, corrected",
		"The paced client's samples with the same correction, taking the schedule's interval as E."},
	{"interval", "expected interval E",
		"The time between two requests that the correction assumes. By default it is the connections divided by the rate: the gap each connection was meant to leave."},
	{"percentile", "percentile (p99)",
		"The p99 is the latency that 99% of the samples are at or below: one sample in a hundred is slower. p50 is the median; p99.9 leaves one in a thousand above it."},
	{"never-sent", "never sent",
		"Requests of the schedule that the client skipped: it planned them and sent nothing. Their latency is in no recording."},
	{"rank", "percentile rank",
		"Which sample a percentile picks among n: round takes rank p·n rounded to the nearest (HdrHistogram's C and Go libraries), ceil rounds up (the nearest-rank rule, as Java's HdrHistogram). They differ by one sample at most."},
	{"checks", "checks",
		"Every number on the page is compared with a formula derived from the parameters alone (a closed form), or, where none applies, with properties every run must have (invariants). A check passes when they agree; each number links to its own."},
	{"preset", "preset",
		"A starting point taken from a published source. The address keeps the preset's short name and only the values you changed."},
}

// termDef returns the definition of a term of the glossary.
func termDef(id string) string {
	for _, g := range glossary {
		if g.ID == id {
			return g.Def
		}
	}
	return ""
}

// term renders a word of the page with its definition: a button described
// by the word's glossary entry, and a tip that shows on hover, on focus and
// when pressed (for touch screens), and that Escape hides (web/page.js).
// The tip is aria-hidden: the description already reads it.
func term(id, text string) app.UI {
	return app.Span().Class("term").Body(
		app.Button().Type("button").Class("term-btn").Aria("describedby", "def-"+id).Text(text),
		app.Span().Class("tip").Aria("hidden", "true").Text(termDef(id)),
	)
}

// renderGlossary is the list of the page's words.
func renderGlossary() app.UI {
	items := make([]app.UI, 0, 2*len(glossary))
	for _, g := range glossary {
		items = append(items,
			app.Dt().ID("g-"+g.ID).Body(app.Dfn().Text(g.Term)),
			app.Dd().ID("def-"+g.ID).Text(g.Def),
		)
	}
	return app.Section().ID("glossary").Class("glossary").Aria("labelledby", "glossary-title").Body(
		app.H2().ID("glossary-title").Text("The words on this page"),
		app.Dl().Body(items...),
	)
}
