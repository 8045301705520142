package measure

import (
	"slices"
	"strings"
	"testing"
)

// TestTablesAreCopies: the package's lists are handed out as copies, so an
// importer changing what it was given changes nothing here.
func TestTablesAreCopies(t *testing.T) {
	f := Formats()
	f[0] = "changed"
	if Formats()[0] != FormatHgrmJava {
		t.Errorf("Formats()[0] = %q after a caller changed its copy", Formats()[0])
	}
	e := ExportFormats()
	e[0] = "pdf"
	if err := CheckFormat("pdf"); err == nil {
		t.Errorf("CheckFormat(pdf) accepted after a caller changed its copy of ExportFormats")
	}
	p := CSVPercentiles()
	p[0] = 1
	if CSVPercentiles()[0] != 50 {
		t.Errorf("CSVPercentiles()[0] = %v after a caller changed its copy", CSVPercentiles()[0])
	}
}

// TestCheckFormat: every export format is accepted, and the errors name
// them all.
func TestCheckFormat(t *testing.T) {
	for _, f := range ExportFormats() {
		if err := CheckFormat(f); err != nil {
			t.Errorf("CheckFormat(%q): %v", f, err)
		}
	}
	if err := CheckFormat(""); err == nil || err.Error() != "the format is required (hgrm, hlog, csv)" {
		t.Errorf(`CheckFormat(""): %v`, err)
	}
	if err := CheckFormat("pdf"); err == nil || err.Error() != `format "pdf": allowed hgrm, hlog, csv` {
		t.Errorf("CheckFormat(pdf): %v", err)
	}
	// The interval rows have a column per percentile, named in the header.
	if n := strings.Count(CSVIntervalsHeader, ",p"); n != len(CSVPercentiles()) || !slices.Equal(CSVPercentiles(), []float64{50, 90, 99, 99.9, 99.99}) {
		t.Errorf("CSVPercentiles() = %v, the header %q has %d percentile columns", CSVPercentiles(), CSVIntervalsHeader, n)
	}
}
