//go:build !wasm

package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"omission/app/address"
	"omission/app/units"
	"omission/app/view"
	"omission/sim"
)

// TestReportFailures: the report of a run whose calls failed says so as
// the page does. With no call answered (a timeout under the service time)
// its table shows no latency ("none", never 0 s) and every missing
// ratio has its reason under the table; the JSON holds the headline's
// words, each p99 beside its failed share.
func TestReportFailures(t *testing.T) {
	for _, q := range []string{"preset=retry-storm&timeout=500us", "outages=4s-4500ms&attempts=10&backoff=0s&timeout=50ms"} {
		res := mustRun(t, q)
		var b bytes.Buffer
		writeText(&b, res)
		text := b.String()
		none := res.Recordings[sim.Closed].Count == 0
		table := text[strings.Index(text, "open/closed\n"):strings.Index(text, "\ncorrection:")]
		latency := regexp.MustCompile(`(?m)\S  +.*\d (ns|µs|ms|s|min|h|d)\b`) // a duration in a cell, not a label
		if none && latency.MatchString(table) {
			t.Errorf("%s: no call answered, yet the table shows a latency:\n%s", q, table)
		}
		if !strings.Contains(table, "\nopen/closed none: calls failed: ") {
			t.Errorf("%s: the missing ratios have no reason:\n%s", q, table)
		}
		for _, k := range []sim.Kind{sim.Closed, sim.Open} {
			e := &res.Engine.Clients[k.Client()]
			failed := units.Count(e.Sent-e.Replies) + " of " + units.Plural(e.Sent, "call")
			if none {
				failed = "none of its " + units.Plural(e.Sent, "call") + " was answered"
			}
			if !strings.Contains(text, failed) {
				t.Errorf("%s: the report does not say %q of the %s loop:\n%s", q, failed, k, text[:strings.Index(text, "open/closed\n")])
			}
		}

		var out bytes.Buffer
		if err := run(&out, &bytes.Buffer{}, []string{"report", "-json", q}); err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Headline view.Said `json:"headline"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if want := view.Build(0, res, 0).Headline.Said(); len(rep.Headline.Cards) != 4 || rep.Headline.Cards[0] != want.Cards[0] || rep.Headline.Story != want.Story {
			t.Errorf("%s: the JSON's headline %+v, want the view's %+v", q, rep.Headline, want)
		}
	}
}

// mustRun runs a query natively.
func mustRun(t testing.TB, q string) *sim.Result {
	t.Helper()
	cfg, err := sim.ParseQuery(q, address.PageKeys()...)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", q, err)
	}
	return res
}
