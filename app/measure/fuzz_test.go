package measure

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"omission/sim"
)

// seeds adds every sample file to a fuzz target's corpus (the committed
// corpus under testdata/fuzz/ adds the inputs fuzzing found worth keeping).
func seeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, p := range files {
		if filepath.Ext(p) == ".md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkParsed is what every parser promises: an error is a *ParseError
// with a position, a result holds named percentiles with ascending points.
func checkParsed(t *testing.T, file *File, err error) {
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 0 || pe.Col < 0 || pe.Msg == "" {
			t.Fatalf("error %v (%T) is not a positioned ParseError", err, err)
		}
		return
	}
	if len(file.Dists) == 0 {
		t.Fatal("no distribution and no error")
	}
	for _, d := range file.Dists {
		if d.Count < -1 {
			t.Fatalf("count %d", d.Count)
		}
		for i, p := range d.P {
			if p.Name != sim.Percentiles()[i].Name || p.How == "" || p.Ns < 0 {
				t.Fatalf("percentile %d: %+v", i, p)
			}
		}
		for i := 1; i < len(d.Points); i++ {
			if d.Points[i].Percentile < d.Points[i-1].Percentile {
				t.Fatalf("points out of order: %+v", d.Points)
			}
		}
	}
	for i := range file.Dists {
		file.Summary(i)
	}
}

// FuzzParse: no input makes Parse panic or hang.
func FuzzParse(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz", data)
		checkParsed(t, file, err)
	})
}

// FuzzHlog drives the interval-log reader (and its V2 decoder) directly.
func FuzzHlog(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := parseHlog("fuzz", SplitLines(data))
		checkParsed(t, file, err)
	})
}

// FuzzHgrm drives the percentile-distribution reader directly, in each
// layout.
func FuzzHgrm(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		ls := append([]Line{{1, hgrmHeaderJava}}, SplitLines(data)...)
		for _, fm := range []Format{FormatHgrmJava, FormatHgrmC, FormatHgrmGo} {
			file, err := parseHgrm("fuzz", fm, ls, 0)
			checkParsed(t, file, err)
		}
	})
}
