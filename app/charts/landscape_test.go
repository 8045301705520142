package charts

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"

	"omission/sim"
	"omission/sim/sweep"
)

var (
	sweepOnce sync.Once
	sweepRes  *sweep.Result
)

// benchSweep is the bench preset (2 s) swept over the stall length: its
// last point (stall = every) is refused.
func benchSweep(t testing.TB) *sweep.Result {
	sweepOnce.Do(func() { sweepRes = sweepOf(t, "duration=2s", "stall:0..1s/9") })
	return sweepRes
}

func sweepOf(t testing.TB, q, spec string) *sweep.Result {
	t.Helper()
	base, err := sim.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sweep.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s.Run(base, nil)
}

// TestLandscapeGolden pins the bench sweep's landscape (go test -update).
func TestLandscapeGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"landscape", Options{}},
		{"landscape-max-dark-narrow", Options{Metric: "max", Theme: Dark, Width: 320}},
	} {
		c.o.Sweep = benchSweep(t)
		got := render(t, bench(t), Landscape, c.o).SVG
		path := filepath.Join("testdata", c.name+".golden.svg")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s: %s; run go test ./app/charts -update if the change is meant", c.name, path, firstDiff(got, string(want)))
		}
	}
}

// TestLandscape checks every metric at several widths: the chart's text,
// its table (a row per point, the points' own numbers), the mark of the
// query, the refused point and the closed forms' words.
func TestLandscape(t *testing.T) {
	sw := benchSweep(t)
	for _, m := range LandscapeMetrics() {
		for _, o := range []Options{{Metric: m}, {Metric: m, Width: MinWidth, Theme: Dark}, {Metric: m, Width: 1400, Y: YLinear}, {Metric: m, Y: YLog}} {
			o.Sweep = sw
			ch := render(t, bench(t), Landscape, o)
			checkChart(t, "landscape "+m, ch)
			checkWithin(t, m, ch)
			if !ch.Available || len(ch.Table.Rows) != len(sw.Points) {
				t.Fatalf("%s: available %v, %d rows for %d points", m, ch.Available, len(ch.Table.Rows), len(sw.Points))
			}
			for _, s := range []string{"stall:0s..1s/9", "200 ms", "1 point refused", "must be shorter than every"} {
				if !strings.Contains(ch.Caption, s) {
					t.Errorf("%s: caption lacks %q: %s", m, s, ch.Caption)
				}
			}
			last := ch.Table.Rows[len(ch.Table.Rows)-1]
			if !strings.Contains(last[len(last)-1], "must be shorter than every") || last[1] != "—" {
				t.Errorf("%s: refused row %q", m, last)
			}
		}
	}
	ch := render(t, bench(t), Landscape, Options{Sweep: sw, Metric: "p99"})
	// The p99 column is each point's own p99: stall 250 ms, open loop.
	p := sw.Points[2]
	if ch.Table.Rows[2][0] != "250 ms" || ch.Table.Rows[2][3] != durationCell(p.Recordings["open"].P99Ns) {
		t.Errorf("row %q, point %s open p99 %d", ch.Table.Rows[2], p.Value, p.Recordings["open"].P99Ns)
	}
	// One connection, one worker, stalls on the schedule: the closed forms
	// hold where each stall's backlog drains inside the run, and where they
	// hold their columns are the simulation's.
	if !strings.Contains(ch.Caption, "hold at 3 of the 8 points that ran") || !strings.Contains(ch.Caption, "elsewhere: the last stall's backlog runs past the end") {
		t.Errorf("closed forms: %s", ch.Caption)
	}
	held := 0
	for _, row := range ch.Table.Rows {
		for col, sim := range map[int]int{6: 1, 7: 3} { // closed form: closed, open
			if row[col] != "—" {
				held++
				if row[col] != row[sim] {
					t.Errorf("row %q: closed form %s, simulated %s", row, row[col], row[sim])
				}
			}
		}
	}
	if held != 6 {
		t.Errorf("%d closed-form cells, want 3 points × 2", held)
	}
}

func durationCell(ns int64) string { r := sim.Recording{Count: 1}; return cell(&r, ns) }

// TestLandscapeAxes: a geometric sweep of counts outside the closed forms'
// regime: a log x axis, no closed form drawn and the caption says why; a
// word for the base value is not marked.
func TestLandscapeAxes(t *testing.T) {
	sw := sweepOf(t, "duration=1s&service=300us", "conns:1..16/x2")
	ch := render(t, bench(t), Landscape, Options{Sweep: sw})
	checkChart(t, "conns", ch)
	for _, s := range []string{"on log axes", "The dashed line marks this query's conns, 1.", "No closed form of closed and open holds at these points, so none is drawn: service 300us ≥ interval 200us"} {
		if !strings.Contains(ch.Caption, s) {
			t.Errorf("caption lacks %q: %s", s, ch.Caption)
		}
	}
	if strings.Contains(ch.SVG, ">closed form</text>") {
		t.Errorf("a closed form in the legend of a sweep outside the regime")
	}
	w := sweepOf(t, "duration=1s&workers=unlimited", "workers:1..4/4")
	ch = render(t, bench(t), Landscape, Options{Sweep: w, Metric: "never_sent"})
	checkChart(t, "workers", ch)
	if !strings.Contains(ch.Caption, "This query's workers is unlimited, not a number, and is not marked.") || len(ch.Table.Header) != 4 {
		t.Errorf("caption %s, header %q", ch.Caption, ch.Table.Header)
	}
}

// TestLandscapePlaceholder: without a sweep, or with an unknown metric,
// the landscape says so instead of drawing.
func TestLandscapePlaceholder(t *testing.T) {
	for _, o := range []Options{{}, {Sweep: benchSweep(t), Metric: "p42"}} {
		ch := render(t, bench(t), Landscape, o)
		checkChart(t, "placeholder", ch)
		if ch.Available || !strings.Contains(ch.Caption, "landscape") {
			t.Errorf("placeholder: available %v, caption %q", ch.Available, ch.Caption)
		}
	}
}

// checkWithin fails when a text of the chart runs outside its width or
// height (gonum writes a text at x, −y under scale(1, −1), its x the start
// of the text): the legend wraps and the labels are laid out for the width
// given. The rotated y label is left out.
func checkWithin(t *testing.T, where string, ch *Chart) {
	t.Helper()
	m := newMeasurer()
	d := xml.NewDecoder(strings.NewReader(ch.SVG))
	rotated := 0
	var x, y, size float64
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range e.Attr {
				attr[a.Name.Local] = a.Value
			}
			if e.Name.Local == "g" && strings.Contains(attr["transform"], "rotate") {
				rotated++
			}
			if e.Name.Local == "text" && rotated == 0 {
				inText = true
				x, _ = strconv.ParseFloat(attr["x"], 64)
				y, _ = strconv.ParseFloat(attr["y"], 64)
				fs := attr["style"][strings.Index(attr["style"], "font-size:")+len("font-size:"):]
				size, _ = strconv.ParseFloat(fs[:strings.Index(fs, "px")], 64)
			}
		case xml.EndElement:
			if e.Name.Local == "g" && rotated > 0 {
				rotated--
			}
			if e.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if !inText {
				continue
			}
			sty := text.Style{Font: font.From(sans, vg.Length(size)), Handler: m}
			end := x + float64(sty.Width(string(e)))
			if x < 0 || end > float64(ch.Width)+0.5 || -y < 0 || -y > float64(ch.Height) {
				t.Errorf("%s at width %d: %q from x %.1f to %.1f at y %.1f", where, ch.Width, string(e), x, end, -y)
			}
		}
	}
}

// TestLandscapeSpots: a spot per point, in order, inside the data area,
// left to right, the refused one flagged; a point whose highest value is
// larger sits higher (a smaller y from the top).
func TestLandscapeSpots(t *testing.T) {
	sw := benchSweep(t)
	for _, o := range []Options{{Metric: "p99"}, {Metric: "max", Width: MinWidth}, {Metric: "p99", Y: YLinear}} {
		o.Sweep = sw
		ch := render(t, bench(t), Landscape, o)
		if len(ch.Spots) != len(sw.Points) {
			t.Fatalf("%d spots for %d points", len(ch.Spots), len(sw.Points))
		}
		top := func(i int) float64 {
			v := 0.0
			for _, r := range sw.Points[i].Recordings {
				v = max(v, float64(map[string]int64{"p99": r.P99Ns, "max": r.MaxNs}[o.Metric]))
			}
			return v
		}
		for i, s := range ch.Spots {
			if s.Index != i || s.X <= 0 || s.X >= float64(ch.Width) || s.Y <= 0 || s.Y >= float64(ch.Height) {
				t.Errorf("%s: spot %d %+v outside %d×%d", o.Metric, i, s, ch.Width, ch.Height)
			}
			if s.Refused != (sw.Points[i].Refused != "") {
				t.Errorf("%s: spot %d refused %v, point %q", o.Metric, i, s.Refused, sw.Points[i].Refused)
			}
			if i > 0 && s.X <= ch.Spots[i-1].X {
				t.Errorf("%s: spot %d at x %.1f, left of %.1f", o.Metric, i, s.X, ch.Spots[i-1].X)
			}
			for j := 0; j < i; j++ {
				if s.Refused || ch.Spots[j].Refused {
					continue
				}
				if a, b := top(j), top(i); a < b && !(s.Y < ch.Spots[j].Y) || a > b && !(s.Y > ch.Spots[j].Y) {
					t.Errorf("%s: points %d (%g, y %.1f) and %d (%g, y %.1f) out of order", o.Metric, j, a, ch.Spots[j].Y, i, b, s.Y)
				}
			}
		}
	}
}

// TestLandscapePending: a sweep drawn while its points arrive keeps its
// x axis, draws and spots only the points that came, and says how many
// are still to run.
func TestLandscapePending(t *testing.T) {
	full := benchSweep(t)
	part := *full
	part.Points = append([]sweep.Point(nil), full.Points...)
	for i := 3; i < len(part.Points); i++ {
		part.Points[i].PointReport, part.Points[i].Refused = nil, ""
	}
	ch := render(t, bench(t), Landscape, Options{Sweep: &part})
	checkChart(t, "pending", ch)
	if len(ch.Spots) != 3 || !strings.Contains(ch.Caption, "6 points still to run.") || strings.Contains(ch.Caption, "refused") {
		t.Errorf("%d spots, caption %s", len(ch.Spots), ch.Caption)
	}
	if row := ch.Table.Rows[5]; row[len(row)-1] != "not run yet" {
		t.Errorf("pending row %q", row)
	}
	all := render(t, bench(t), Landscape, Options{Sweep: full})
	for i, s := range ch.Spots {
		if s.X != all.Spots[i].X {
			t.Errorf("spot %d at x %.2f, %.2f once every point ran", i, s.X, all.Spots[i].X)
		}
	}
}
