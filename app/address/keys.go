package address

// Page keys: what the pages keep in the URL beside the simulator's query.
const (
	KeyAnim   = "anim"   // the animation's stall, counted from 0
	KeyAnimT  = "anim_t" // the animation's moment, a Go duration
	KeyFigure = "figure" // the embed's figure
	KeyAxis   = "axis"   // the charts' latency axes: linear (default log)
	KeyCDF    = "cdf"    // 1: the distribution chart as a CDF
	KeyTools  = "tools"  // load generators to play beside the model: wrk,wrk2,…
	KeyVs     = "vs"     // a second query to compare with (URL-encoded)
	KeySweep  = "sweep"  // a sweep of one field (sweep.Parse): field:from..to/n
	KeyMetric = "metric" // the landscape's metric (charts.LandscapeMetrics; default p99)
	// KeyShow lists the page's folds the reader opened (comma-separated:
	// cases, params, more), so that a shared link shows what its sender saw.
	KeyShow = "show"
)

// articleKeys are the article's own keys: the reader's values of its
// adjustable numbers, one per section and field (section.field). The
// article's text declares them; app/article's TestArticleKeys holds this
// list to be the same.
var articleKeys = []string{
	"schedule.service", "schedule.stall", "schedule.every", "schedule.rate",
	"closed.stall", "closed.every",
	"paced.stall", "paced.every", "paced.rate",
	"note.stall",
	"clients.conns", "clients.stall",
	"fixes.stall", "fixes.interval",
	"landscape.rate", "landscape.every",
}

// ArticleKeys returns the article's URL keys (articleKeys), in reading order.
func ArticleKeys() []string { return append([]string(nil), articleKeys...) }

// PageKeys returns every URL key a page keeps beside the simulator's query
// (sim.Fields), in the order the pages write them: the tools', the
// comparison's, the sweep's and its metric, the charts', the animation's, the embed's, the
// open folds' and the article's.
func PageKeys() []string {
	return append([]string{KeyTools, KeyVs, KeySweep, KeyMetric, KeyAxis, KeyCDF, KeyAnim, KeyAnimT, KeyFigure, KeyShow}, articleKeys...)
}
