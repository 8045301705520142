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

// FileName is the name a download of format and recording of the run
// named run (RunName) gets: omission-tcp-1a2b3c4d-open.hgrm, or
// omission-tcp-1a2b3c4d.hlog for every recording.
func FileName(run, format, recording string) string {
	name := "omission"
	if run != "" {
		name += "-" + run
	}
	if recording != "" {
		name += "-" + safeName(recording)
	}
	return name + "." + safeName(format)
}

// RunName names a run in a file name: its preset ("" is bench) and the
// first eight hex digits of its result's hash (sim.Result.Hash), so that
// two runs' files differ and one run's are always named alike. It is made
// of letters, digits and '-' only, whatever the preset's name holds.
func RunName(preset, hash string) string {
	if preset == "" {
		preset = "bench"
	}
	name := safeName(preset)
	if h := safeName(hash); h != "" {
		name += "-" + h[:min(len(h), 8)]
	}
	return name
}

// safeName keeps the letters, digits and '-' of s (ASCII only), for a
// file name.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MediaType is the media type of an exported file.
func MediaType(format string) string {
	if format == "csv" {
		return "text/csv"
	}
	return "text/plain"
}
