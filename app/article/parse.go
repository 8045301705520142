//go:build !wasm

package article

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"omission/app/charts"
	"omission/sim/sweep"
)

// The article's source, read natively: by TestArticleGenerated, which
// writes article_gen.go from it, and by the tests of the format.
//
//go:embed article.txt
var articleSource string

// The real files of [printout NAME] and {NAME:group.metric}: read only
// where the article's source is parsed, in its tests (fixed_read_test.go
// sets these), and written into article_gen.go.
var (
	isPrintout   = func(name string) bool { return false }
	readPrintout = func(name string) (*printoutRef, error) {
		return nil, fmt.Errorf("no printout %q: the printouts are read where article_gen.go is written", name)
	}
	readFixed = func(name, metric string) (*fixedNum, error) {
		return nil, fmt.Errorf("no printout %q: the printouts are read where article_gen.go is written", name)
	}
)

// parseArticle reads the article's source; an error names the line.
func parseArticle(src string) (*article, error) {
	a := &article{sections: []*section{{}}}
	sec := a.sections[0]
	var para []string
	lineOf := 0
	flush := func() error {
		if len(para) == 0 {
			return nil
		}
		segs, err := parseInline(strings.Join(para, " "), true)
		para = nil
		if err == nil {
			err = sec.bind(segs)
		}
		if err != nil {
			return fmt.Errorf("article.txt:%d: %v", lineOf, err)
		}
		sec.blocks = append(sec.blocks, block{para: segs})
		return nil
	}
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, " \t\r")
		var err error
		switch {
		case line == "":
			err = flush()
		case strings.HasPrefix(line, "## "):
			if err = flush(); err == nil {
				sec, err = newSection(strings.TrimPrefix(line, "## "), a.sections)
				a.sections = append(a.sections, sec)
			}
		case strings.HasPrefix(line, "# "):
			a.title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "[printout "):
			if err = flush(); err == nil {
				var p *printoutRef
				if p, err = readPrintout(strings.TrimSuffix(strings.TrimPrefix(line, "[printout "), "]")); err == nil {
					sec.blocks = append(sec.blocks, block{printout: p})
				}
			}
		case strings.HasPrefix(line, "[figure "):
			if err = flush(); err == nil {
				f := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(line, "[figure "), "]"))
				k, _ := charts.ParseKind(f[0])
				landscape := len(f) > 0 && k.DrawsSweep() && f[0] == k.String()
				want := 2
				if landscape {
					want = 3 // [figure landscape QUERY-NAME SWEEP]
				}
				if len(f) != want {
					err = fmt.Errorf("want [figure KIND QUERY-NAME] (the landscape: [figure landscape QUERY-NAME SWEEP]), got %q", line)
				} else if _, ok := queryOf(f[1]); !ok {
					err = fmt.Errorf("want [figure KIND QUERY-NAME], got %q", line)
				} else if !slices.Contains(figures(), f[0]) {
					err = errors.New(figureError(f[0]))
				} else if _, serr := sweep.Parse(f[len(f)-1]); landscape && serr != nil {
					err = serr
				} else {
					ref := &figureRef{kind: f[0], name: f[1]}
					if landscape {
						ref.sweep = f[2]
					}
					sec.blocks = append(sec.blocks, block{figure: ref})
				}
			}
		default:
			if len(para) == 0 {
				lineOf = i + 1
			}
			para = append(para, line)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "article.txt:") {
				err = fmt.Errorf("article.txt:%d: %v", i+1, err)
			}
			return nil, err
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return a, nil
}

// newSection reads a heading line, "Text {#slug}", and checks that its
// slug is new.
func newSection(line string, before []*section) (*section, error) {
	s := &section{heading: line}
	if i := strings.LastIndex(line, " {#"); i >= 0 && strings.HasSuffix(line, "}") {
		s.heading, s.slug = line[:i], line[i+3:len(line)-1]
		if s.slug == "" || strings.ContainsAny(s.slug, ".&=# ") {
			return nil, fmt.Errorf("slug %q: letters, digits and dashes", s.slug)
		}
		for _, o := range before {
			if o.slug == s.slug {
				return nil, fmt.Errorf("slug %q is used twice", s.slug)
			}
		}
	}
	return s, nil
}

// bind records a paragraph's adjustable numbers in the section: each
// needs the section's slug, and a field is adjusted once a section.
func (s *section) bind(segs []seg) error {
	for _, g := range segs {
		if g.num == nil || g.num.adj == nil {
			continue
		}
		adj := g.num.adj
		if s.slug == "" {
			return fmt.Errorf("{%s:%s}: an adjustable number needs a section with a slug", adj.name, g.num.metric)
		}
		for _, o := range s.adjs {
			if o.field == adj.field {
				return fmt.Errorf("the section %q adjusts %s twice", s.slug, adj.field)
			}
		}
		adj.section = s.slug
		s.adjs = append(s.adjs, adj)
	}
	return nil
}

// parseInline cuts a paragraph into text, *emphasis*, {name:metric}
// numbers and (when claims is set) [if claim name: then | else] claims.
func parseInline(p string, claims bool) ([]seg, error) {
	var out []seg
	for p != "" {
		i := strings.IndexAny(p, "*{[")
		if i < 0 {
			out = append(out, seg{text: p})
			break
		}
		if i > 0 {
			out = append(out, seg{text: p[:i]})
		}
		closer := map[byte]string{'*': "*", '{': "}", '[': "]"}[p[i]]
		j := strings.Index(p[i+1:], closer)
		if j < 0 {
			return nil, fmt.Errorf("%q opened and not closed", p[i:i+1])
		}
		inner := p[i+1 : i+1+j]
		switch p[i] {
		case '*':
			out = append(out, seg{text: inner, emph: true})
		case '{':
			if name, metric, _ := strings.Cut(inner, ":"); isPrintout(name) {
				f, err := readFixed(name, metric)
				if err != nil {
					return nil, fmt.Errorf("number {%s}: %v", inner, err)
				}
				out = append(out, seg{fixed: f})
				break
			}
			s, err := parseSlot(inner)
			if err != nil {
				return nil, err
			}
			out = append(out, seg{num: s})
		case '[':
			if !claims {
				return nil, fmt.Errorf("[%s]: a claim may not hold another", inner)
			}
			c, err := parseClaim(inner)
			if err != nil {
				return nil, err
			}
			out = append(out, seg{claim: c})
		}
		p = p[i+2+j:]
	}
	return out, nil
}

// parseSlot reads "name:metric" or "name:metric MIN..MAX".
func parseSlot(inner string) (*slot, error) {
	ref, rng, adjustable := strings.Cut(inner, " ")
	name, metric, ok := strings.Cut(ref, ":")
	if _, known := queryOf(name); !ok || !known {
		return nil, fmt.Errorf("number {%s}: want {QUERY-NAME:metric} with a query of articleQueries", inner)
	}
	s := &slot{name: name, metric: metric}
	if adjustable {
		adj, err := parseAdjustable(name, metric, rng)
		if err != nil {
			return nil, fmt.Errorf("number {%s}: %v", inner, err)
		}
		s.adj = adj
	}
	return s, nil
}

// parseClaim reads "if id name: then | else" (name absent for a claim on
// the section as a whole, such as as-published).
func parseClaim(inner string) (*claim, error) {
	head, body, ok := strings.Cut(inner, ":")
	f := strings.Fields(head)
	if !ok || len(f) < 2 || len(f) > 3 || f[0] != "if" {
		return nil, fmt.Errorf("[%s]: want [if CLAIM QUERY-NAME: then | else]", inner)
	}
	c := &claim{id: f[1]}
	known := false
	for _, id := range claimIDs {
		known = known || id == c.id
	}
	if !known {
		return nil, fmt.Errorf("[%s]: no claim %q in claims.go", inner, c.id)
	}
	if len(f) == 3 {
		c.name = f[2]
		if _, ok := queryOf(c.name); !ok {
			return nil, fmt.Errorf("[%s]: no query %q in articleQueries", inner, c.name)
		}
	}
	if (c.name == "") != claimOnSection(c.id) {
		return nil, fmt.Errorf("[%s]: the claim %q %s", inner, c.id, map[bool]string{true: "needs a query name", false: "takes no query name"}[c.name == ""])
	}
	then, els, ok := strings.Cut(body, "|")
	if !ok {
		return nil, fmt.Errorf("[%s]: a claim says what holds otherwise too: [if … : then | else]", inner)
	}
	var err error
	if c.then, err = parseInline(strings.TrimSpace(then), false); err != nil {
		return nil, err
	}
	if c.els, err = parseInline(strings.TrimSpace(els), false); err != nil {
		return nil, err
	}
	for _, part := range [][]seg{c.then, c.els} {
		for _, g := range part {
			if g.num != nil && g.num.adj != nil {
				return nil, fmt.Errorf("[%s]: an adjustable number may not sit inside a claim", inner)
			}
		}
	}
	return c, nil
}
