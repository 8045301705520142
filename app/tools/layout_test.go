package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// number is a number as the tools print them, with its unit when it has
// one ("12.4 MB", "0.97ms", "40k", "1,681.56").
var number = regexp.MustCompile(`[0-9][0-9.,]*(?:\s?(?:us|ms|s|m|h|kB|KB|MB|GB|B|k)\b)?`)

// shape is a printout's lines with what varies from run to run taken out:
// numbers and their units, spaces, and the table rules' lengths. What is
// left is the layout: the lines, their labels and their order.
func shape(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		l = strings.ReplaceAll(l, target, "$URL")
		l = number.ReplaceAllString(l, "#")
		l = strings.Join(strings.Fields(l), "")
		l = regexp.MustCompile("─+").ReplaceAllString(l, "─")
		out = append(out, l)
	}
	return out
}

// TestPrintoutLayoutIsReal holds the model's printouts of the tools added
// with real printouts at hand to their layout: the same lines in the same
// order, with the same labels, as the real tool printed against a stalling
// server (app/measure/testdata/real).
func TestPrintoutLayoutIsReal(t *testing.T) {
	for _, c := range []struct{ tool, query, real string }{
		{"autocannon", "stall=100ms&every=1s&first=500ms&duration=5s&conns=2", "autocannon-c2-d5.txt"},
		{"bombardier", "stall=100ms&every=1s&first=500ms&duration=5s&conns=2", "bombardier-c2-d5s.txt"},
	} {
		o, err := Run(mustConfig(t, c.query), c.tool)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(samples, "real", c.real))
		if err != nil {
			t.Fatal(err)
		}
		real := strings.ReplaceAll(string(data), "http://127.0.0.1:8099/", "http://127.0.0.1:8080/")
		real = strings.ReplaceAll(real, "http://127.0.0.1:8095/", "http://127.0.0.1:8080/")
		got, want := shape(o.Text), shape(real)
		if len(got) != len(want) {
			t.Errorf("%s: %d lines, the real printout %d:\n%s\n---\n%s", c.tool, len(got), len(want), o.Text, real)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s line %d: %q, the real printout's %q", c.tool, i+1, got[i], want[i])
			}
		}
	}
}
