//go:build !wasm

package article

import (
	"math"
	"omission/app/address"
	"omission/app/charts"
	"omission/app/compute"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"omission/sim"
)

// The queries of the article's own values (articleQueries), canonical.
const (
	qBench     = ""
	qTCP       = "preset=tcp"
	qTCP100    = "preset=tcp&above=100ms"
	qNote      = "preset=note60"
	qSingle    = "preset=note60-single"
	qClients   = "preset=clients10"
	qClients10 = "preset=clients10&above=100ms"
	qBenchE1ms = "interval=1ms"
)

// wordsWithDigits are the only words with digits the article's literal text
// may hold: names, not numbers.
var wordsWithDigits = map[string]bool{"p50": true, "p90": true, "p99": true, "p99.9": true, "wrk2": true}

// everySeg calls f for every segment of the article, those of claims
// included.
func everySeg(f func(sec *section, g seg)) {
	for _, sec := range theArticle().sections {
		for _, b := range sec.blocks {
			walk(b.para, func(g seg) { f(sec, g) })
		}
	}
}

// TestArticleTypesNoNumber: every number in the article is computed; a digit
// in its literal text (outside a few names), a claim's sentences included,
// fails.
func TestArticleTypesNoNumber(t *testing.T) {
	everySeg(func(_ *section, g seg) {
		for _, w := range strings.FieldsFunc(g.text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:()", r) }) {
			w = strings.TrimRight(w, ".")
			if strings.IndexFunc(w, unicode.IsDigit) >= 0 && !wordsWithDigits[w] {
				t.Errorf("typed number %q in %q", w, g.text)
			}
		}
	})
}

func newCache() *compute.Cache { return compute.NewCache(16, compute.FigureRequests) }

// TestArticleNumbers computes every number and holds the text's claims to
// them, so the prose can never disagree with the simulator.
func TestArticleNumbers(t *testing.T) {
	cache := newCache()
	nums, err := Numbers(cache)
	if err != nil {
		t.Fatal(err)
	}
	get := func(q, m string) float64 {
		t.Helper()
		v, ok := nums[NumRef{q, m}]
		if !ok {
			t.Fatalf("the article has no number %s %s", q, m)
		}
		return v.Value
	}
	// Seed 000's published values, through the article.
	for m, want := range map[string]float64{"closed.p99": 100e3, "open.p99": 195.1e6, "closed.max": 200.1e6, "open.above": 39820, "corrected.p99": 188.1e6, "corrected.p90": 80.3e6, "open.p90": 150.1e6, "form.J": 2000, "form.k": 999, "closed.stalls": 20, "ratio.p99": 1951} {
		if got := get(qBench, m); got != want {
			t.Errorf("bench %s = %v, want %v", m, got, want)
		}
	}
	// "only its slowest few samples admit that anything happened": p99.9 is
	// still the service time; p99.99 is not (20 slow samples in 100,000).
	if res, _ := cache.Run(qBench); res.Recordings[sim.Closed].P[sim.P999] != res.Config.Service || res.Recordings[sim.Closed].P[sim.P9999] == res.Config.Service {
		t.Error("closed p99.9 is not the service time, or p99.99 is")
	}
	// The paced client: never-sent slots are "almost one for one" the stalled slots.
	stalled := 4 * 500e6 / 1e6 // four 500 ms stalls at one slot a millisecond
	if ns := get(qTCP, "paced.never_sent"); ns < 0.95*stalled || ns > 1.05*stalled {
		t.Errorf("paced never sent %v, about %v stalled slots", ns, stalled)
	}
	if get(qTCP100, "closed.above") != 4 {
		t.Error("tcp closed above 100 ms is not one per stall")
	}
	// The note holds with spare workers: p99 near 400 ms, mean near 9.3 ms,
	// p99.9 near 940 ms (seed 004), and so does its estimate.
	for m, want := range map[string]float64{"open.p99": 400e6, "open.mean": 9.3e6, "open.p99_9": 940e6,
		"note.p99": 400e6, "note.mean": 9.3e6, "note.p99_9": 940e6} {
		if got := get(qNote, m); got < 0.98*want || got > 1.02*want {
			t.Errorf("note60 %s = %v, not about %v", m, got, want)
		}
	}
	if res, _ := cache.Run(qSingle); get(qSingle, "open.p99") < float64(res.Config.Stall) {
		t.Error("single worker: p99 not above the stall")
	}
	// Ten connections: ten slow samples; the means differ.
	if get(qClients10, "closed.above") != get(qClients, "config.conns") {
		t.Error("clients10: slow closed samples are not one per connection")
	}
	if get(qClients, "closed.mean") == get(qClients, "corrected.mean") {
		t.Error("clients10: the means are equal; the text says they are not")
	}
	if get(qBenchE1ms, "corrected.p99") == get(qBench, "corrected.p99") {
		t.Error("a different E gives the same corrected p99; the text says it does not")
	}
}

// TestNoteEstimate: the note's arithmetic (seed 004), by hand. 60,000
// requests, 1,000 due in the stall at 1 ms each: the p99 is the 601st
// slowest, 1 s − 600 ms, plus the 1 ms service; the p99.9 the 61st slowest;
// the mean 1 ms + Σ_{k<1000} (1 s − k ms) / 60,000.
func TestNoteEstimate(t *testing.T) {
	res, err := newCache().Run(qNote)
	if err != nil {
		t.Fatal(err)
	}
	if n := slotsInStalls(res); n != 1000 {
		t.Errorf("slots in the stall: %d, want 1000", n)
	}
	for name, want := range map[string]float64{"p99": 401e6, "p99_9": 941e6, "p50": 1e6,
		"mean": 1e6 + (1000*1e9-1e6*999*1000/2)/60000} {
		if got, ok := noteEstimate(res, name); !ok || math.Abs(got-want) > 1e-6 {
			t.Errorf("note estimate %s = %v (%v), want %v", name, got, ok, want)
		}
	}
}

// verdicts computes the article for a URL query and returns each claim's
// verdict by section slug and claim id (a claim used twice in a section
// answers once per use: the last wins), failing on any error.
func verdicts(t *testing.T, c *compute.Cache, raw string) (*articleState, map[string]map[string]bool) {
	t.Helper()
	st := theArticle().compute(c, raw)
	if len(st.notes) > 0 {
		t.Fatalf("%q: notes %v", raw, st.notes)
	}
	out := map[string]map[string]bool{}
	for i, sec := range theArticle().sections {
		v := st.views[i]
		if v.err != "" {
			t.Fatalf("%q: section %q: %s", raw, sec.slug, v.err)
		}
		out[sec.slug] = map[string]bool{}
		for c, ok := range v.verdicts {
			out[sec.slug][c.id+" "+c.name] = ok
		}
	}
	return st, out
}

// TestClaimsHold: at the article's own values every claim holds, so the
// prose reads as written; and every claim of claims.go is used.
func TestClaimsHold(t *testing.T) {
	_, vs := verdicts(t, newCache(), "")
	used := map[string]bool{}
	for slug, m := range vs {
		for id, ok := range m {
			used[strings.Fields(id)[0]] = true
			if !ok {
				t.Errorf("section %q: claim %s does not hold at the article's own values", slug, id)
			}
		}
	}
	for _, id := range claimIDs {
		if !used[id] {
			t.Errorf("claim %q is not used by the article", id)
		}
	}
}

// TestClaimChecks: every claim of claimIDs but those on the section as a
// whole has a check, and every check is a claim of claimIDs.
func TestClaimChecks(t *testing.T) {
	n := 0
	for _, id := range claimIDs {
		_, ok := claimChecks[id]
		switch {
		case claimOnSection(id):
			if ok {
				t.Errorf("claim %q is on the section as a whole, yet has a check", id)
			}
		case !ok:
			t.Errorf("claim %q has no check in claimChecks", id)
		default:
			n++
		}
	}
	if len(claimChecks) != n {
		t.Errorf("%d checks, %d of them for claims of claimIDs", len(claimChecks), n)
	}
}

// TestClaimsTurn: a value that leaves a claim's regime shows the other
// sentence, with numbers the simulator computed (no error), for each claim.
func TestClaimsTurn(t *testing.T) {
	c := newCache()
	for _, tc := range []struct {
		raw, section, claim string
	}{
		{"schedule.service=400us", "schedule", "spare bench"},
		{"schedule.service=200us", "schedule", "spare bench"}, // exactly busy: no spare capacity either
		{"closed.stall=500us", "closed", "one-slow-per-stall bench"},
		{"closed.every=100ms&closed.stall=50ms", "closed", "p999-is-service bench"},
		{"closed.stall=800ms", "closed", "regime bench"},
		{"closed.stall=320ms", "closed", "regime bench"}, // the last backlog runs past the run's end (TestClaimsApart)
		{"closed.stall=800ms", "closed", "drains bench"},
		{"paced.stall=20ms", "paced", "as-published "},
		{"paced.stall=50ms", "paced", "one-slow-per-stall tcp100"},
		{"note.stall=200ms", "note", "as-published "},
		{"clients.conns=1", "clients", "mean-rises clients10"},
		{"clients.conns=1", "clients", "added-slower clients10"},
		{"clients.conns=100&clients.stall=160ms", "clients", "one-slow-per-conn clients10-100ms"},
		{"fixes.stall=5ms", "fixes", "correction-lifts bench"},
		{"fixes.interval=200us", "fixes", "e-not-slot bench-e1ms"},
	} {
		st, vs := verdicts(t, c, tc.raw)
		ok, found := vs[tc.section][tc.claim]
		if !found {
			t.Errorf("%s: no claim %q in section %q (%v)", tc.raw, tc.claim, tc.section, vs[tc.section])
			continue
		}
		if ok {
			t.Errorf("%s: claim %q still holds", tc.raw, tc.claim)
		}
		if _, err := st.numbers(); err != nil {
			t.Errorf("%s: %v", tc.raw, err)
		}
	}
}

// TestClaimsApart: a run can leave the closed forms' regime and still drain
// each backlog before the next stall (at 320 ms the last one runs past the
// end of the run): the sawtooth sentence follows its own claim.
func TestClaimsApart(t *testing.T) {
	_, vs := verdicts(t, newCache(), "closed.stall=320ms")
	if c := vs["closed"]; c["regime bench"] || !c["drains bench"] {
		t.Errorf("at 320 ms: %v, want regime false and drains true", c)
	}
}

// TestAdjustRanges: every adjustable at each end it can reach (the other
// values the article's) runs within the figures' limit, and every claim
// and number of its section computes.
func TestAdjustRanges(t *testing.T) {
	c := newCache()
	for _, sec := range theArticle().sections {
		for _, adj := range sec.adjs {
			lo, hi := sec.bounds(adj, nil)
			own, _ := sec.current(adj, nil)
			if lo > own || hi < own || lo == hi {
				t.Errorf("%s: bounds %d..%d around its own value %d", adj.key(), lo, hi, own)
			}
			f := adj.fieldOf()
			for _, v := range []int64{lo, hi} {
				raw := adj.key() + "=" + f.format(v)
				st := theArticle().compute(c, raw)
				if len(st.notes) > 0 {
					t.Errorf("%s: %v", raw, st.notes)
					continue
				}
				if _, err := st.numbers(); err != nil {
					t.Errorf("%s: %v", raw, err)
				}
			}
		}
	}
}

// TestArticleKeys: the article's adjustable numbers are ui's article keys,
// in the same order, and the simulator's parser accepts them beside a query.
func TestArticleKeys(t *testing.T) {
	if got, want := ArticleKeys(), address.ArticleKeys(); !reflect.DeepEqual(got, want) {
		t.Errorf("the article's keys are %v; address.ArticleKeys lists %v", got, want)
	}
	if _, err := sim.ParseQuery("preset=tcp&paced.stall=1s&fixes.interval=2ms", address.PageKeys()...); err != nil {
		t.Errorf("the article's keys are refused: %v", err)
	}
}

// TestLadder: the ladder is increasing, holds every adjustable's own value,
// keeps 1/rate a whole number of nanoseconds, and steps as a spin button.
func TestLadder(t *testing.T) {
	for _, sec := range theArticle().sections {
		for _, adj := range sec.adjs {
			f := adj.fieldOf()
			l := adjustLadder(f, adj.lo, adj.hi)
			own, _ := sec.current(adj, nil)
			found := false
			for i, v := range l {
				if i > 0 && v <= l[i-1] {
					t.Errorf("%s: ladder not increasing at %d", adj.key(), v)
				}
				found = found || v == own
				if f.kind == kindRate && !sim.NewSchedule(sim.Rate(v)).Exact() {
					t.Errorf("%s: rate %s leaves 1/rate inexact", adj.key(), f.format(v))
				}
			}
			if !found {
				t.Errorf("%s: its own value %s is not on the ladder %v", adj.key(), f.format(own), l)
			}
		}
	}
}

// TestReadValues: a value from the URL is taken as given within its range;
// one that cannot be read, is out of range, or makes the section's runs
// invalid is refused with a note naming the key and the range.
func TestReadValues(t *testing.T) {
	a := theArticle()
	vals, notes := a.readValues("closed.stall=300ms&paced.rate=2000&figure=x")
	if len(notes) > 0 || vals["closed"]["stall"] != "300ms" || vals["paced"]["rate"] != "2000" {
		t.Errorf("valid values: %v, notes %v", vals, notes)
	}
	for raw, want := range map[string]string{
		"closed.stall=lots":                     "closed.stall=\"lots\" is not a value of stall length",
		"closed.stall=5s":                       "closed.stall=\"5s\": this section allows stall length from 100 µs to 800 ms",
		"closed.stall=600ms&closed.every=500ms": "were not used",
		"clients.conns=0":                       "from 1 connection to 100 connections",
	} {
		vals, notes := a.readValues(raw)
		if len(vals) != 0 || len(notes) != 1 || !strings.Contains(notes[0], want) {
			t.Errorf("%s: values %v, notes %q, want a note with %q", raw, vals, notes, want)
		}
	}
	// Adjusting a value back to the article's own removes it.
	sec := a.sections[2]
	adj := sec.adjs[0]
	if got := sec.with(adj, Values{"stall": "300ms"}, 200e6); len(got) != 0 {
		t.Errorf("back to the article's value: %v", got)
	}
}

// TestQueryFor: a reader's value reaches the queries that follow the one it
// sets, except where they set the field themselves.
func TestQueryFor(t *testing.T) {
	secs := map[string]*section{}
	for _, s := range theArticle().sections {
		secs[s.slug] = s
	}
	for _, c := range []struct {
		slug, name string
		vals       Values
		want       string
	}{
		{"paced", "tcp100", Values{"stall": "1s"}, "preset=tcp&stall=1s&above=100ms"},
		{"fixes", "bench-e1ms", Values{"stall": "300ms"}, "stall=300ms&interval=1ms"},
		{"fixes", "bench", Values{"interval": "2ms"}, ""},
		{"fixes", "bench-e1ms", Values{"interval": "2ms"}, "interval=2ms"},
		{"note", "single", Values{"stall": "2s"}, "preset=note60-single&stall=2s"},
	} {
		if got, err := queryFor(secs[c.slug], c.name, c.vals); err != nil || got != c.want {
			t.Errorf("%s %s %v: %q (%v), want %q", c.slug, c.name, c.vals, got, err, c.want)
		}
	}
}

// TestArticleSource: article.txt parses, every slot names a known query,
// and a malformed slot, claim or heading is refused with its line.
func TestArticleSource(t *testing.T) {
	a, err := parseArticle(articleSource)
	if err != nil {
		t.Fatal(err)
	}
	headings, figures, numbers, claims, adjs := 0, 0, 0, 0, 0
	for _, sec := range a.sections {
		if sec.heading != "" {
			headings++
		}
		adjs += len(sec.adjs)
		for _, b := range sec.blocks {
			if b.figure != nil {
				figures++
			}
			walk(b.para, func(g seg) {
				if g.num != nil {
					numbers++
				}
				if g.claim != nil {
					claims++
				}
			})
		}
	}
	if a.title == "" || headings < 6 || figures < 3 || numbers < 50 || claims < 15 || adjs < 10 {
		t.Errorf("title %q, %d headings, %d figures, %d numbers, %d claims, %d adjustable", a.title, headings, figures, numbers, claims, adjs)
	}
	for src, want := range map[string]string{
		"# T\n\nA {nope:open.p99} slot.":                       "article.txt:3",
		"# T\n\nAn *open emphasis.":                            "not closed",
		"# T\n\n[figure spectrum]":                             "article.txt:3",
		"# T\n\n[figure pie bench]":                            `figure: "pie" is not allowed: allowed spectrum, distribution, latency-time, queue-depth, landscape or animation`,
		"# T\n\nA {open.p99} without query":                    "QUERY-NAME",
		"# T\n\nA {bench:config.stall 1ms..2ms} without slug.": "needs a section with a slug",
		"# T\n\n## S {#s}\n\n{bench:config.stall 1ms..2ms} and {bench:config.stall 1ms..2ms}": "adjusts stall twice",
		"# T\n\n## S {#s}\n\n{bench:open.p99 1ms..2ms}":                                       "can be adjusted",
		"# T\n\n## S {#s}\n\n{bench:config.stall 2ms..1ms}":                                   "positive and increasing",
		"# T\n\n[if spare bench: no else]":                                                    "otherwise too",
		"# T\n\n[if nope bench: a | b]":                                                       "no claim",
		"# T\n\n[if spare: a | b]":                                                            "needs a query name",
		"# T\n\n[if as-published bench: a | b]":                                               "takes no query name",
		"# T\n\n## S {#s}\n\n[if spare bench: {bench:config.stall 1ms..2ms} | b]":             "inside a claim",
		"# T\n\n## S {#s}\n\n## U {#s}":                                                       "used twice",
	} {
		if _, err := parseArticle(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", src, err, want)
		}
	}
}

// TestEmbedFigures: the embed takes every chart by its name, draws the
// spectrum when no figure is named, and for any other quotes the value and
// names the allowed figures, the animation last, in the form of the
// visualiser's message for an invalid field (sim.FieldError; it used to be
// "figure: allowed …" without the value).
func TestEmbedFigures(t *testing.T) {
	for _, k := range charts.Kinds() {
		var e Embed
		if e.read("figure=" + k.String() + "&preset=tcp"); e.err != "" || e.anim || e.kind != k || e.query != "preset=tcp" {
			t.Errorf("figure=%s: kind %s, anim %v, query %q, err %q", k, e.kind, e.anim, e.query, e.err)
		}
	}
	var e Embed
	if e.read("preset=tcp"); e.err != "" || e.kind != charts.Spectrum {
		t.Errorf("no figure: kind %s, err %q", e.kind, e.err)
	}
	if e.read("figure=animation&anim=1"); e.err != "" || !e.anim || e.query != "anim=1" {
		t.Errorf("figure=animation: anim %v, query %q, err %q", e.anim, e.query, e.err)
	}
	const want = `figure: "pie" is not allowed: allowed spectrum, distribution, latency-time, queue-depth, landscape or animation`
	if e.read("figure=pie"); e.err != want {
		t.Errorf("figure=pie: %q, want %q", e.err, want)
	}
	long := strings.Repeat("x", 100)
	if e.read("figure=" + long); !strings.HasPrefix(e.err, `figure: "`+long[:sim.MaxQuoted]+`"… (100 characters) is not allowed: allowed spectrum`) {
		t.Errorf("a long figure is quoted whole or not cut: %q", e.err)
	}
}

// TestEmbedRule: an embed reads its query by the visualiser's rule. An
// unknown key and a key given twice leave the URL (clean) with a notice in
// the visualiser's words; an invalid field is marked and runs with the
// preset's value; a run over a limit is refused.
func TestEmbedRule(t *testing.T) {
	var e Embed
	e.read("figure=spectrum&rate=2000&bogus=1&stall=1s&stall=2s")
	if e.err != "" || !e.drop {
		t.Fatalf("err %q, drop %v, clean %q", e.err, e.drop, e.clean)
	}
	if e.clean != "rate=2000&figure=spectrum" || e.query != "rate=2000" {
		t.Errorf("clean %q, query %q", e.clean, e.query)
	}
	wantNotes := []string{
		`stall was given more than once ("1s,2s"), so neither value was taken and the key was removed from the address. The figure keeps the preset's value, 200ms.`,
		`Ignored "bogus": not a parameter of this page; it was removed from the address.`,
	}
	if len(e.notes) != 2 || e.notes[0].text != wantNotes[0] || e.notes[1].text != wantNotes[1] {
		t.Errorf("notes %q, want %q", e.notes, wantNotes)
	}
	e.read("figure=spectrum&figure=queue-depth&preset=tcp")
	if e.err != "" || e.kind != charts.Spectrum || e.clean != "preset=tcp" || len(e.notes) != 1 ||
		!strings.HasSuffix(e.notes[0].text, "The embed shows its first figure, spectrum.") {
		t.Errorf("a repeated figure: kind %s, clean %q, notes %q, err %q", e.kind, e.clean, e.notes, e.err)
	}
	// Invalid: marked, the rest taken, the preset's value run; the URL and
	// the visualiser's link keep the text as typed.
	e.read("figure=latency-time&rate=lots&stall=300ms")
	if e.err != "" || e.drop || e.query != "stall=300ms" || e.link != "rate=lots&stall=300ms" || len(e.notes) != 1 ||
		e.notes[0].field != "rate" || !strings.HasPrefix(e.notes[0].text, `rate: "lots" is not allowed: `) ||
		!strings.HasSuffix(e.notes[0].text, "(the figure runs with the preset's value, 5000, until it is fixed)") {
		t.Errorf("invalid rate: err %q, drop %v, query %q, link %q, notes %q", e.err, e.drop, e.query, e.link, e.notes)
	}
	// The invalid fields come first, then what was dropped.
	if e.read("zz=1&rate=lots"); len(e.notes) != 2 || e.notes[0].field != "rate" || !strings.HasPrefix(e.notes[1].text, `Ignored "zz"`) {
		t.Errorf("the order of the notes: %q", e.notes)
	}
	// Over a limit: refused, nothing is drawn.
	e.read("figure=spectrum&duration=24h&rate=1000000")
	if !strings.HasPrefix(e.err, "This figure is not drawn: ") {
		t.Errorf("over a limit: err %q, notes %q", e.err, e.notes)
	}
}

// TestArticleDrops: the article's address follows the visualiser's rule
// for keys: a key that is no section's slug.field (a field the section does
// not adjust, a section that does not exist, a simulator field) or a value
// given twice leaves the URL, with a notice in the visualiser's words; the
// rest is taken.
func TestArticleDrops(t *testing.T) {
	a := theArticle()
	st := a.compute(compute.NewCache(4, compute.FigureRequests), "closed.stall=300ms&closed.rate=9&nosuch.stall=1s&rate=9&paced.every=2s&paced.every=3s&anim=1")
	if !st.dropped || st.clean != "anim=1&closed.stall=300ms" {
		t.Errorf("clean %q (dropped %v)", st.clean, st.dropped)
	}
	if st.vals["closed"]["stall"] != "300ms" || len(st.vals["paced"]) != 0 {
		t.Errorf("values %v", st.vals)
	}
	want := []string{
		`Ignored "rate": not a parameter of this page; it was removed from the address.`,
		`Ignored "closed.rate": not a parameter of this page; it was removed from the address.`,
		`Ignored "nosuch.stall": not a parameter of this page; it was removed from the address.`,
		`paced.every was given more than once ("2s,3s"), so neither value was taken and the key was removed from the address. The section keeps the article's value, 5 s.`,
	}
	if strings.Join(st.notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(st.notes, "\n"), strings.Join(want, "\n"))
	}
	if st := a.compute(compute.NewCache(4, compute.FigureRequests), "closed.stall=300ms&figure=x"); st.dropped || len(st.notes) != 0 {
		t.Errorf("nothing to drop: %v %q", st.dropped, st.notes)
	}
}

// TestLandscapeBend: the section's bend (form.bend) is where the
// simulator's open loop stops draining between stalls: a stall a little
// shorter drains (claim drains), a little longer piles up (piles-up).
func TestLandscapeBend(t *testing.T) {
	c := newCache()
	for _, q := range []string{"duration=4s", "rate=2000&duration=4s", "rate=8000&duration=4s", "rate=3000&every=2s&duration=4s"} {
		res, err := c.Run(q)
		if err != nil {
			t.Fatal(err)
		}
		bend, err := articleNumber(res, "form.bend")
		if err != nil {
			t.Fatal(err)
		}
		margin := res.Config.Every / 50
		for _, s := range []struct {
			stall int64
			claim string
		}{{int64(bend.Value) - margin, "drains"}, {int64(bend.Value) + margin, "piles-up"}} {
			q2 := q + "&stall=" + sim.FormatDuration(s.stall)
			r, err := c.Run(q2)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := claimHolds(s.claim, r); !ok || err != nil {
				t.Errorf("%s (bend %s): %s does not hold (%v)", q2, bend.Text, s.claim, err)
			}
		}
	}
}

// TestEmbedLandscape: the embed takes figure=landscape with a sweep, and
// its figure draws the sweep's points, each its own query's; without a
// sweep it says what to add.
func TestEmbedLandscape(t *testing.T) {
	var e Embed
	if e.read("figure=landscape&duration=2s&sweep=stall:0s..900ms/4&metric=max"); e.err != "" || e.kind != charts.Landscape ||
		e.query != "duration=2s&sweep=stall:0s..900ms/4&metric=max" && e.query != "duration=2s&sweep=stall%3A0s..900ms%2F4&metric=max" {
		t.Fatalf("figure=landscape: kind %s, query %q, err %q", e.kind, e.query, e.err)
	}
	f := &chartFigure{IKind: e.kind, IQuery: e.query, IBare: true, ICache: newCache()}
	f.draw()
	if f.err != "" || f.chart == nil || len(f.chart.Spots) != 4 || !strings.HasPrefix(f.chart.Caption, "The max latency of each recording against stall") {
		t.Fatalf("drawn: err %q, chart %v", f.err, f.chart != nil)
	}
	f = &chartFigure{IKind: charts.Landscape, IQuery: "duration=2s", IBare: true, ICache: newCache()}
	if f.draw(); !strings.Contains(f.err, "add sweep=") {
		t.Errorf("no sweep: %q", f.err)
	}
}

// TestArticleNeverFails: the article's runs are the deterministic model's
// (no field the reader adjusts is an event engine field, and no query of
// the article sets one), so no call in them fails and every latency it
// shows is of every call sent: the rule of the headline under failures
// (view.Calls.Note) never has anything to add to its numbers.
func TestArticleNeverFails(t *testing.T) {
	for _, sec := range theArticle().sections {
		for _, adj := range sec.adjs {
			if f, ok := sim.LookupField(adj.field); !ok || f.Engine {
				t.Errorf("%s adjusts %s, an event engine field (or none)", adj.key(), adj.field)
			}
		}
	}
	for _, q := range articleQueries {
		cfg, err := sim.ParseQuery(q.q)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.EventDriven() {
			t.Errorf("the article's query %s (%s) runs on the event engine", q.name, q.q)
		}
	}
}
