//go:build !wasm

package article

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"omission/app/fit"
	"omission/app/measure"
	"omission/app/units"
	"omission/sim"
)

// percent is a relative difference as the article writes it: "+1.6 %".
func percent(name, metric string, d float64) (*fixedNum, error) {
	return &fixedNum{printout: name, metric: metric, text: fmt.Sprintf("%+.1f %%", d*100), value: d}, nil
}

// The real files the article reads when article_gen.go is written
// (parseArticle runs only in tests, in this package's directory):
// [printout NAME] shows one as it was printed, {NAME:group.metric} quotes
// one of its numbers. The groups:
//   - file.*: the file's own numbers, as the page's import reads them
//     (count, mean, max, p50, p90, p99, p99_9);
//   - fit.*: what app/fit makes of it (report -fit FILE rate=R): the fitted
//     service, stall and every, recorded_p99 (the fitted model's p99 as the
//     tool prints it), open_p99 (an open loop's on the fitted server),
//     stalls (how many the fit put in the run) and worst (its largest
//     difference from a number of the file);
//     diff_<metric> (diff_p99, diff_max, diff_count …) is the fit's
//     difference from one of the file's numbers;
//   - real.*: from the file's notes (the .txt beside it): open_p99, the p99
//     a real open-loop client measured on the same server schedule in the
//     same run ("p99 = N ns"), and the server's schedule (service, stall,
//     every: the query after "schedule:").
var printoutFiles = map[string]struct{ path, rate, query string }{
	// Debian's wrk 4.1 against the experiment's stalling server, made by
	// TestFitReal (app/experiment); hid is the query the fit gives it.
	"wrk": {path: "../fit/testdata/real/wrk.out", rate: "1000", query: "hid"},
}

// The parser reads the files through these (parse.go): only the tests
// parse article.txt (TestArticleGenerated writes article_gen.go), so only
// they link the fit and the file readers; app/article itself imports
// neither (TestPackageDoors).
func init() {
	isPrintout = func(name string) bool { _, ok := printoutFiles[name]; return ok }
	readPrintout, readFixed = readPrintoutFile, readFixedNumber
}

func readPrintoutFile(name string) (*printoutRef, error) {
	p, ok := printoutFiles[name]
	if !ok {
		return nil, fmt.Errorf("want [printout NAME] with a NAME of printoutFiles, got %q", name)
	}
	b, err := os.ReadFile(p.path)
	if err != nil {
		return nil, err
	}
	return &printoutRef{name: name, file: filepath.Base(p.path), text: strings.TrimRight(string(b), "\n")}, nil
}

// fitOf fits a printout as report -fit does, with its stated rate, once
// for all the numbers and tests that ask.
func fitOf(name string) (*fit.Result, error) {
	if r, ok := fitCache[name]; ok {
		return r, nil
	}
	p := printoutFiles[name]
	b, err := os.ReadFile(p.path)
	if err != nil {
		return nil, err
	}
	rate, err := fit.ParseRate(p.rate)
	if err != nil {
		return nil, err
	}
	r, err := fit.Fit(filepath.Base(p.path), b, fit.Options{Rate: rate})
	if err == nil {
		fitCache[name] = r
	}
	return r, err
}

var fitCache = map[string]*fit.Result{}

// parsed is a printout as the page's import reads it and the words of the
// notes beside it (whitespace folded), read once.
type parsed struct {
	dist  *measure.Dist
	notes string
}

var parsedCache = map[string]*parsed{}

var (
	spaces     = regexp.MustCompile(`\s+`)
	openP99Re  = regexp.MustCompile(`open client[^:]*: p99 = (\d+) ns`)
	scheduleRe = regexp.MustCompile(`schedule: [^:]*: (\S+)`)
)

func parsedOf(name string) (*parsed, error) {
	if p, ok := parsedCache[name]; ok {
		return p, nil
	}
	path := printoutFiles[name].path
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := measure.Parse(filepath.Base(path), b)
	if err != nil {
		return nil, err
	}
	notes, err := os.ReadFile(path + ".txt")
	if err != nil {
		return nil, err
	}
	p := &parsed{dist: &f.Dists[0], notes: spaces.ReplaceAllString(string(notes), " ")}
	parsedCache[name] = p
	return p, nil
}

func readFixedNumber(name, metric string) (*fixedNum, error) {
	group, m, _ := strings.Cut(metric, ".")
	ns := func(v int64) (*fixedNum, error) {
		return &fixedNum{printout: name, metric: metric, text: units.Duration(float64(v)), value: float64(v), ns: true}, nil
	}
	count := func(v int64) (*fixedNum, error) {
		return &fixedNum{printout: name, metric: metric, text: units.Count(v), value: float64(v)}, nil
	}
	p := printoutFiles[name]
	switch group {
	case "file":
		pf, err := parsedOf(name)
		if err != nil {
			return nil, err
		}
		d := pf.dist
		switch m {
		case "count":
			if d.Count >= 0 {
				return count(d.Count)
			}
		case "mean":
			if d.HasMean {
				return ns(int64(d.MeanNs + 0.5))
			}
		case "max":
			if d.MaxNs >= 0 {
				return ns(d.MaxNs)
			}
		default:
			for _, q := range d.P {
				if q.Name == m && q.How != measure.Missing {
					return ns(q.Ns)
				}
			}
		}
	case "fit":
		r, err := fitOf(name)
		if err != nil {
			return nil, err
		}
		switch m {
		case "service":
			return ns(r.Config.Service)
		case "stall":
			return ns(r.Config.Stall)
		case "every":
			return ns(r.Config.Every)
		case "stalls":
			return count(stallsOf(r.Config))
		case "recorded_p99":
			return ns(r.Hidden.FittedP99Ns)
		case "open_p99":
			return ns(r.Hidden.OpenP99Ns)
		case "worst":
			return percent(name, metric, r.Worst)
		}
		if key, ok := strings.CutPrefix(m, "diff_"); ok {
			for _, x := range r.Residuals {
				if x.Metric == key || x.Metric == key+"_ns" {
					return percent(name, metric, x.Diff)
				}
			}
		}
	case "real":
		pf, err := parsedOf(name)
		if err != nil {
			return nil, err
		}
		if m == "open_p99" {
			sub := openP99Re.FindStringSubmatch(pf.notes)
			if sub == nil {
				return nil, fmt.Errorf("%s.txt gives no real open client's p99", p.path)
			}
			v, _ := strconv.ParseInt(sub[1], 10, 64)
			return ns(v)
		}
		// The server's schedule, the query after "schedule:".
		sub := scheduleRe.FindStringSubmatch(pf.notes)
		if sub == nil {
			return nil, fmt.Errorf("%s.txt gives no schedule", p.path)
		}
		cfg, err := sim.ParseQuery(sub[1])
		if err != nil {
			return nil, fmt.Errorf("%s.txt: schedule: %v", p.path, err)
		}
		switch m {
		case "service":
			return ns(cfg.Service)
		case "stall":
			return ns(cfg.Stall)
		case "every":
			return ns(cfg.Every)
		case "stalls":
			return count(stallsOf(cfg))
		}
	}
	return nil, fmt.Errorf("%s has no number %s", name, metric)
}

// stallsOf counts the stalls that begin inside a run, by sim's own stall
// schedule (StallsIn over the run).
func stallsOf(cfg sim.Config) int64 {
	first, last := (&sim.Result{Config: cfg}).StallsIn(0, cfg.Duration)
	return last - first
}
