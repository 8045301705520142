package measure

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// exportFormats are the export formats, as the export command and the page
// name them.
var exportFormats = [...]string{"hgrm", "hlog", "csv"}

// ExportFormats returns the export formats, as the export command and the
// page name them (a copy: the table is the package's).
func ExportFormats() []string { return slices.Clone(exportFormats[:]) }

// Export writes the set in format (one of ExportFormats()): an .hgrm of the
// recording named (an .hgrm holds one), an .hlog of every recording or the
// one named, a CSV within maxRows samples. The errors name what to change.
func (s *Set) Export(w io.Writer, format, recording string, maxRows int64) error {
	sel, err := s.ForExport(format, recording)
	if err != nil {
		return err
	}
	switch format {
	case "hgrm":
		return WriteHgrm(w, sel.Sources[0].Hist)
	case "hlog":
		return sel.WriteHlog(w)
	}
	return sel.WriteCSVWithin(w, maxRows)
}

// CheckFormat says what is wrong with an export format, if anything.
func CheckFormat(format string) error {
	switch {
	case slices.Contains(exportFormats[:], format):
		return nil
	case format == "":
		return errors.New("the format is required (" + strings.Join(exportFormats[:], ", ") + ")")
	}
	return fmt.Errorf("format %q: allowed %s", format, strings.Join(exportFormats[:], ", "))
}

// ForExport is the set an export of format and recording writes, or what
// is wrong with them.
func (s *Set) ForExport(format, recording string) (*Set, error) {
	if err := CheckFormat(format); err != nil {
		return nil, err
	}
	var names []string
	if recording != "" {
		names = []string{recording}
	} else if format == "hgrm" {
		return nil, fmt.Errorf("an .hgrm holds one recording: name one (%s)", strings.Join(s.Names(), ", "))
	}
	return s.Select(names...)
}

// FileName is the name a download of format and recording gets.
func FileName(format, recording string) string {
	if recording == "" {
		return "omission." + format
	}
	return "omission-" + recording + "." + format
}

// MediaType is the media type of an exported file.
func MediaType(format string) string {
	if format == "csv" {
		return "text/csv"
	}
	return "text/plain"
}
