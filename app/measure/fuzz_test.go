package measure

import (
	"os"
	"path/filepath"
	"testing"
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

// checkParsed fails t when a reader broke what every reader promises
// (CheckRead).
func checkParsed(t *testing.T, file *File, err error) {
	t.Helper()
	if err := CheckRead(file, err); err != nil {
		t.Fatal(err)
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
