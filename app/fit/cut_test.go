package fit

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"omission/sim"
)

// cutFiles are the printouts TestCutPrintouts cuts: the real ones kept in
// testdata, and the model's printout of each tool for two queries.
func cutFiles(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, glob := range []string{"../measure/testdata/real/*.txt", "../measure/testdata/real/*.json", "testdata/real/wrk.out"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			if strings.HasSuffix(n, "README.md") {
				continue
			}
			d, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			files[n] = d
		}
	}
	for _, q := range []string{"preset=tcp&duration=5s", "rate=500&service=300us&stall=120ms&every=1300ms&first=100ms&duration=4s&conns=2"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"wrk", "wrk2", "hey", "ab", "fortio", "locust", "vegeta", "oha", "k6-vus", "hgrm-closed", "hgrm-open"} {
			n, d := fileFor(t, cfg, f)
			files[q+" "+n] = d
		}
	}
	return files
}

// TestCutPrintouts fits every prefix of each printout, line by line: a
// prefix is refused, or it holds all the fit reads (its fit is the whole
// file's). Never a headline number from a cut file without the word that it
// is incomplete.
func TestCutPrintouts(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("fits every prefix of 30 files: make test runs it without the race detector (test-truth), which slows it tenfold")
	}
	// Each file on its own: the fit keeps no state between calls, so the
	// files are cut in parallel (two at once on this 2-core machine).
	for name, data := range cutFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Parallel()
			cutOne(t, name, data)
		})
	}
}

// cutOne fits every prefix of one printout against its whole.
func cutOne(t *testing.T, name string, data []byte) {
	whole, err := Fit(name, data, Options{NoTools: true})
	var noCount *NoCountError
	var noFit *NoFitError
	var unmodelled *UnmodelledError
	if errors.As(err, &noCount) || errors.As(err, &noFit) || errors.As(err, &unmodelled) {
		// A printout the fit refuses whole (autocannon's tables, whose
		// count is rounded; autocannon -R's corrected -j output; a run
		// that ramped its load): so is every part of it.
		refusal := err
		for i, ls := 1, strings.SplitAfter(string(data), "\n"); i < len(ls); i++ {
			if _, err := Fit(name, []byte(strings.Join(ls[:i], "")), Options{NoTools: true}); err == nil {
				t.Errorf("%s cut after line %d: fitted, where the whole file is refused (%v)", name, i, refusal)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: the whole file: %v", name, err)
	}
	ls := strings.SplitAfter(string(data), "\n")
	refused := 0
	for i := 1; i < len(ls); i++ {
		prefix := strings.Join(ls[:i], "")
		r, err := Fit(name, []byte(prefix), Options{NoTools: true})
		// The page's word on the same bytes (it shows a file's numbers
		// before any fit, and asks Lacks): what the fit refuses as
		// incomplete it names incomplete, lacking the same; what the fit
		// takes whole it finds whole.
		lacks, lerr := Lacks(name, []byte(prefix))
		var inc *IncompleteError
		switch {
		case errors.As(err, &inc) && (lerr != nil || !slices.Equal(lacks, inc.Lacks)):
			t.Errorf("%s cut after line %d: the fit says it lacks %q, Lacks says %q (%v)", name, i, inc.Lacks, lacks, lerr)
		case err == nil && (lerr != nil || len(lacks) > 0):
			t.Errorf("%s cut after line %d: fitted whole, but Lacks says %q (%v)", name, i, lacks, lerr)
		}
		if err != nil {
			refused++
			continue
		}
		if r.Query != whole.Query || r.Hidden.OpenP99Ns != whole.Hidden.OpenP99Ns || r.Hidden.RecordedP99Ns != whole.Hidden.RecordedP99Ns {
			t.Errorf("%s cut after line %d of %d: fitted as a whole file (%s, open p99 %d ns) where the whole file gives %s, open p99 %d ns",
				name, i, len(ls), r.Query, r.Hidden.OpenP99Ns, whole.Query, whole.Hidden.OpenP99Ns)
		}
	}
	if refused == 0 && len(ls) > 2 {
		t.Errorf("%s: no prefix refused", name)
	}
}

// TestHlogGap removes a random run of intervals from the model's .hlog (and
// from the real one) and from its start: the fit refuses the log and says
// it is incomplete.
func TestHlogGap(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("fits many cut logs: make test runs it without the race detector (test-truth)")
	}
	r := rand.New(rand.NewPCG(39, 3))
	logs := map[string][]byte{}
	for _, q := range []string{"preset=tcp", "rate=500&service=300us&stall=120ms&every=1300ms&first=100ms&duration=9s&conns=2"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		n, d := fileFor(t, cfg, "hlog")
		logs[q+" "+n] = d
	}
	real, err := os.ReadFile("testdata/real/closed.hlog")
	if err != nil {
		t.Fatal(err)
	}
	logs["testdata/real/closed.hlog"] = real
	for name, data := range logs {
		ls := strings.SplitAfter(string(data), "\n")
		// The interval lines, by their start.
		var starts []string
		line := map[string][]int{}
		for i, l := range ls {
			f := strings.Split(strings.TrimPrefix(l, "Tag="), ",")
			if len(f) == 5 {
				if _, ok := line[f[1]]; !ok {
					starts = append(starts, f[1])
				}
				line[f[1]] = append(line[f[1]], i)
			}
		}
		for trial := 0; trial < 6; trial++ {
			// A run of 1 to 3 intervals, from the first (0) or from inside,
			// never the last: a log cut at its end reads as a shorter run's.
			k := 1 + r.IntN(3)
			from := r.IntN(len(starts) - k)
			if trial == 0 {
				from = 0
			}
			drop := map[int]bool{}
			for _, s := range starts[from : from+k] {
				for _, i := range line[s] {
					drop[i] = true
				}
			}
			var b bytes.Buffer
			for i, l := range ls {
				if !drop[i] {
					b.WriteString(l)
				}
			}
			_, err := Fit(name, b.Bytes(), Options{NoTools: true})
			var inc *IncompleteError
			if !errors.As(err, &inc) {
				t.Errorf("%s without the intervals from %s s (%d of them): %v, want the file named incomplete", name, starts[from], k, err)
				continue
			}
			if !strings.Contains(err.Error(), "incomplete") {
				t.Errorf("%s: %v does not say incomplete", name, err)
			}
			if lacks, err := Lacks(name, b.Bytes()); err != nil || !slices.Equal(lacks, inc.Lacks) {
				t.Errorf("%s without the intervals from %s s: the page's check (Lacks) says %q (%v), the fit %q", name, starts[from], lacks, err, inc.Lacks)
			}
		}
	}
}
