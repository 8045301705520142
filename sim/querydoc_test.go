package sim

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fieldsHeader is the header row of QUERY.md's two field tables: the
// deterministic model's fields, then the event engine's.
const fieldsHeader = "| field | meaning | default | allowed | canonical form |"

// queryDocTables returns the rows of each table in QUERY.md whose header is
// fieldsHeader, each row split into its cells (trimmed, backticks kept).
func queryDocTables(t *testing.T, doc string) [][][]string {
	t.Helper()
	var tables [][][]string
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != fieldsHeader {
			continue
		}
		var rows [][]string
		for i += 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			cells := strings.Split(strings.Trim(strings.TrimSpace(lines[i]), "|"), " | ")
			for k := range cells {
				cells[k] = strings.TrimSpace(cells[k])
			}
			rows = append(rows, cells)
		}
		tables = append(tables, rows)
	}
	return tables
}

// docSection returns the text of QUERY.md's "## title" section.
func docSection(doc, title string) string {
	_, after, ok := strings.Cut(doc, "\n## "+title+"\n")
	if !ok {
		return ""
	}
	if end := strings.Index(after, "\n## "); end >= 0 {
		after = after[:end]
	}
	return after
}

// TestQueryDocFields holds QUERY.md, the query language's reference, to the
// field table (fields.go): its first field table lists the deterministic
// model's fields and its second the event engine's, each field once, in
// canonical order, with every choice of a choice field (the presets
// included) in its "allowed" cell; and the Presets section names every
// preset. (sim/sweep's TestQueryDocSweepFields holds the Sweeps section's
// list of fields.)
func TestQueryDocFields(t *testing.T) {
	b, err := os.ReadFile("QUERY.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	tables := queryDocTables(t, doc)
	if len(tables) != 2 {
		t.Fatalf("QUERY.md has %d tables headed %q; want 2: the model's fields, then the event engine's", len(tables), fieldsHeader)
	}
	name := regexp.MustCompile("^`([a-z0-9_]+)`$")
	var documented []string
	cells := map[string][]string{}
	for ti, rows := range tables {
		for _, row := range rows {
			if len(row) != 5 {
				t.Errorf("QUERY.md field table %d: row %q has %d cells; want 5", ti+1, strings.Join(row, " | "), len(row))
				continue
			}
			m := name.FindStringSubmatch(row[0])
			if m == nil {
				t.Errorf("QUERY.md field table %d: %q is not a field name in backticks", ti+1, row[0])
				continue
			}
			f, ok := LookupField(m[1])
			switch {
			case !ok:
				t.Errorf("QUERY.md documents %s, which is not a query field (fields.go)", m[1])
			case f.Engine != (ti == 1):
				t.Errorf("QUERY.md lists %s in field table %d; fields.go says engine=%v (table 1: the model's, table 2: the engine's)", m[1], ti+1, f.Engine)
			}
			documented = append(documented, m[1])
			cells[m[1]] = row
		}
	}
	if want := Fields(); !slices.Equal(documented, want) {
		t.Errorf("QUERY.md's field tables list, in order:\n  %v\nthe field table (fields.go) has:\n  %v", documented, want)
	}
	for _, f := range FieldTable() {
		row, ok := cells[f.Name]
		if !ok {
			continue
		}
		for _, c := range f.Choices {
			if !strings.Contains(row[3], "`"+c+"`") {
				t.Errorf("QUERY.md: %s's allowed cell %q does not name %s", f.Name, row[3], "`"+c+"`")
			}
		}
	}

	presets := docSection(doc, "Presets")
	if presets == "" {
		t.Fatal("QUERY.md has no Presets section")
	}
	for _, p := range Presets() {
		if !strings.Contains(presets, "`"+p.Name+"`") {
			t.Errorf("QUERY.md's Presets section does not name the preset %s", p.Name)
		}
	}
}
