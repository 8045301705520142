package article

import (
	"omission/app/compute"
	"strings"
	"testing"
	"unicode"

	"omission/sim"
)

// wordsWithDigits are the only words with digits the article's literal text
// may hold: names, not numbers.
var wordsWithDigits = map[string]bool{"p50": true, "p90": true, "p99": true, "p99.9": true, "wrk2": true}

// TestArticleTypesNoNumber: every number in the article is computed; a digit
// in its literal text (outside a few names) fails.
func TestArticleTypesNoNumber(t *testing.T) {
	for _, p := range articleText() {
		for _, s := range p {
			for _, w := range strings.FieldsFunc(s.text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:()", r) }) {
				w = strings.TrimRight(w, ".")
				if strings.IndexFunc(w, unicode.IsDigit) >= 0 && !wordsWithDigits[w] {
					t.Errorf("typed number %q in %q", w, s.text)
				}
			}
		}
	}
}

// TestArticleNumbers computes every number and holds the text's claims to
// them, so the prose can never disagree with the simulator.
func TestArticleNumbers(t *testing.T) {
	cache := compute.NewCache(16, compute.FigureRequests)
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
	// "only its maximum admits that anything happened": p99.9 is still the service time.
	if res, _ := cache.Run(qBench); res.Recordings[sim.Closed].P[3] != res.Config.Service {
		t.Error("closed p99.9 is not the service time")
	}
	// "close to the open loop's": within 5 %.
	if c, o := get(qBench, "corrected.p99"), get(qBench, "open.p99"); c < 0.95*o || c > o {
		t.Errorf("corrected p99 %v not close below open %v", c, o)
	}
	// "Lower in the distribution it misses".
	if get(qBench, "corrected.p90") >= get(qBench, "open.p90") {
		t.Error("corrected p90 not below open p90")
	}
	// The paced client: never-sent slots are "almost one for one" the stalled slots.
	stalled := 4 * 500e6 / 1e6 // four 500 ms stalls at one slot a millisecond
	if ns := get(qTCP, "paced.never_sent"); ns < 0.95*stalled || ns > 1.05*stalled {
		t.Errorf("paced never sent %v, about %v stalled slots", ns, stalled)
	}
	if get(qTCP100, "closed.above") != 4 {
		t.Error("tcp closed above 100 ms is not one per stall")
	}
	// The note holds with spare workers: p99 near 400 ms, mean near 9.3 ms, p99.9 near 940 ms.
	for m, want := range map[string]float64{"open.p99": 400e6, "open.mean": 9.3e6, "open.p99_9": 940e6} {
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

// TestArticleSource: article.txt parses, every slot names a known query,
// and a malformed slot is refused with its line.
func TestArticleSource(t *testing.T) {
	a, err := parseArticle(articleSource)
	if err != nil {
		t.Fatal(err)
	}
	if a.title == "" || len(a.paras) < 20 {
		t.Fatalf("title %q, %d paragraphs", a.title, len(a.paras))
	}
	headings, figures, numbers := 0, 0, 0
	for _, p := range a.paras {
		switch {
		case isHeading(p):
			headings++
		case len(p) == 1 && p[0].figure != nil:
			figures++
		}
		for _, s := range p {
			if s.num != nil {
				numbers++
			}
		}
	}
	if headings < 6 || figures < 3 || numbers < 50 {
		t.Errorf("%d headings, %d figures, %d numbers", headings, figures, numbers)
	}
	for src, want := range map[string]string{
		"# T\n\nA {nope:open.p99} slot.":    "article.txt:3",
		"# T\n\nAn *open emphasis.":         "not closed",
		"# T\n\n[figure spectrum]":          "article.txt:3",
		"# T\n\nA {open.p99} without query": "QUERY-NAME",
	} {
		if _, err := parseArticle(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", src, err, want)
		}
	}
}
