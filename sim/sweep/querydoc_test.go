package sweep

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestQueryDocSweepFields holds the Sweeps section of sim's QUERY.md, the
// query language's reference, to Fields: its list of the fields a sweep
// takes is Fields, in order.
func TestQueryDocSweepFields(t *testing.T) {
	b, err := os.ReadFile("../QUERY.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sweeps, ok := strings.Cut(string(b), "\n## Sweeps\n")
	if !ok {
		t.Fatal("QUERY.md has no Sweeps section")
	}
	if end := strings.Index(sweeps, "\n## "); end >= 0 {
		sweeps = sweeps[:end]
	}
	m := regexp.MustCompile(`a duration, rate or count field of the table: ([^(]*)\(` + "`sweep.Fields`").FindStringSubmatch(sweeps)
	if m == nil {
		t.Fatal("QUERY.md's Sweeps section has no list of the fields a sweep takes (… (`sweep.Fields`))")
	}
	var swept []string
	for _, s := range regexp.MustCompile("`([a-z0-9_]+)`").FindAllStringSubmatch(m[1], -1) {
		swept = append(swept, s[1])
	}
	if want := Fields(); !slices.Equal(swept, want) {
		t.Errorf("QUERY.md's Sweeps section lists the fields\n  %v\nFields has\n  %v", swept, want)
	}
}
