package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README is a user's document (issue 38): short, in short paragraphs.
// The reference lives beside the code it describes (each package's doc.go,
// sim/QUERY.md).
const (
	readmeMaxLines     = 200
	readmeMaxParagraph = 119 // words
)

// readmeParagraphs returns the README's paragraphs: its text between blank
// lines, outside fenced and indented code blocks and tables, with each list
// item a paragraph of its own.
func readmeParagraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	item := regexp.MustCompile(`^\s*([-*+]|\d+\.)\s`)
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			flush()
			fenced = !fenced
		case fenced, strings.HasPrefix(line, "    ") && len(cur) == 0, strings.HasPrefix(line, "|"):
			flush()
		case strings.TrimSpace(line) == "":
			flush()
		case strings.HasPrefix(line, "#"):
			flush()
			out = append(out, line)
		case item.MatchString(line):
			flush()
			cur = append(cur, line)
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}

// TestReadmeShort holds the README to at most 200 lines and every paragraph
// under 120 words.
func TestReadmeShort(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimRight(string(b), "\n")
	if n := strings.Count(text, "\n") + 1; n > readmeMaxLines {
		t.Errorf("README.md has %d lines; a user's document keeps within %d (move reference to the doc.go of the package it describes, or sim/QUERY.md)", n, readmeMaxLines)
	}
	paragraphs := readmeParagraphs(text)
	if len(paragraphs) < 10 {
		t.Fatalf("README.md: found only %d paragraphs", len(paragraphs))
	}
	for _, p := range paragraphs {
		if n := len(strings.Fields(p)); n > readmeMaxParagraph {
			t.Errorf("README.md: a paragraph of %d words (at most %d): %.80q…", n, readmeMaxParagraph, p)
		}
	}
}
