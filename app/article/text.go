package article

// The article's prose is article.txt, read as prose and edited as prose:
//
//	# Title
//	## A section heading {#slug}
//	A paragraph, wrapped at will; its lines join with a space. *Emphasis*,
//	a number computed by the simulator, {bench:open.p99} (a query's name
//	from articleQueries, then the metric), and one the reader may change,
//	{bench:config.stall 1ms..800ms} (a config metric and its range). A
//	sentence that holds only for some values is a claim:
//	[if one-slow-per-stall bench: said when it holds | said when it does not]
//	(a claim of claims.go, and the query it reads).
//	[figure spectrum bench]   (a chart kind or animation, and a query name)
//
// A section with adjustable numbers has a slug: the reader's values go in
// the URL as slug.field. An adjustable number may not sit inside a claim
// (a claim's text is replaced when its verdict changes, and the reader's
// focus must not go with it), and a section adjusts each field once.
//
//
// The parsed text is article_gen.go, written from article.txt by
// TestArticleGenerated -update (gen_test.go), so that the browser's build
// carries the article as data and not its parser (parse.go, native only);
// the test fails when the two differ.

// article is the parsed text.
type article struct {
	title    string
	sections []*section
}

// section is a heading and what follows it up to the next one; the first
// section, before any heading, has none.
type section struct {
	slug, heading string
	blocks        []block
	adjs          []*adjustable // its adjustable numbers, in reading order
}

// block is a paragraph or a figure.
type block struct {
	para     []seg
	figure   *figureRef
	printout *printoutRef
}

// printoutRef is a real tool's printout shown as it was printed: its file
// name and text, read from the repository when article_gen.go is written.
type printoutRef struct {
	name, file, text string
}

// seg is a piece of a paragraph: literal text (emphasised or not), a
// computed number, or a claim.
type seg struct {
	text  string
	emph  bool
	num   *slot
	claim *claim
	fixed *fixedNum
}

// fixedNum is a number read from a real file when article_gen.go is
// written (fixed.go): the file's own numbers, what the fit made of it, or
// what a real client measured beside it. TestArticleGenerated fails when
// the file and the number part.
type fixedNum struct {
	printout, metric string
	text             string
	value            float64
	ns               bool
}

// slot is a number of the text: a query name of articleQueries and a
// metric (metrics.go); adj is set when the reader may change it.
type slot struct {
	name, metric string
	adj          *adjustable
}

// claim is a sentence bound to a claim of claims.go on one of the
// section's queries: then is shown when it holds, otherwise els.
type claim struct {
	id, name  string
	then, els []seg
}

// figureRef is a figure bound to a query name.
type figureRef struct {
	kind  string // a charts kind name, or "animation"
	name  string
	sweep string // the landscape's sweep over the query (sweep.Parse)
}

// theArticle is the article (article_gen.go).
func theArticle() *article { return &articleText }

// walk calls f for every segment of a paragraph, those inside claims
// included.
func walk(segs []seg, f func(g seg)) {
	for _, g := range segs {
		f(g)
		if g.claim != nil {
			walk(g.claim.then, f)
			walk(g.claim.els, f)
		}
	}
}
