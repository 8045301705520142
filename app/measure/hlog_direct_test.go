package measure

import (
	"bytes"
	"reflect"
	"testing"
)

// TestHlogFileIsParse: HlogFile gives what Parse reads from WriteHlog's
// log, number for number and interval for interval.
func TestHlogFileIsParse(t *testing.T) {
	for _, q := range []string{"preset=tcp&duration=6s", "duration=3s&stall=350ms&every=700ms&first=100ms", "rate=777&service=333us&duration=4s"} {
		res := run(t, q)
		set, err := FromResult(res)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := set.WriteHlog(&b); err != nil {
			t.Fatal(err)
		}
		want, err := Parse("x.hlog", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		got, err := set.HlogFile("x.hlog")
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Dists) != len(want.Dists) {
			t.Fatalf("%s: %d distributions, Parse reads %d", q, len(got.Dists), len(want.Dists))
		}
		for i := range want.Dists {
			g, w := &got.Dists[i], &want.Dists[i]
			gs, ws := got.Summary(i), want.Summary(i)
			gs.Notes, ws.Notes = nil, nil
			if !reflect.DeepEqual(gs, ws) {
				t.Errorf("%s %s: summary %+v, Parse reads %+v", q, w.Label, gs, ws)
			}
			if !reflect.DeepEqual(g.Points, w.Points) {
				t.Errorf("%s %s: spectrum differs from Parse's", q, w.Label)
			}
			if len(g.Intervals) != len(w.Intervals) || len(w.Intervals) == 0 {
				t.Fatalf("%s %s: %d intervals, Parse reads %d", q, w.Label, len(g.Intervals), len(w.Intervals))
			}
			for j := range w.Intervals {
				if !reflect.DeepEqual(g.Intervals[j], w.Intervals[j]) {
					t.Errorf("%s %s interval %d: %+v, Parse reads %+v", q, w.Label, j, g.Intervals[j], w.Intervals[j])
					break
				}
			}
		}
	}
}

// TestHlogFileOf: the fit's interval log of some recordings, built without
// their whole-run histograms, is the one FromResult, Select and HlogFile
// build, field for field, in the order the recordings are named.
func TestHlogFileOf(t *testing.T) {
	for _, q := range []string{"preset=tcp&duration=6s", "duration=3s&stall=350ms&every=700ms&first=100ms"} {
		res := run(t, q)
		for _, names := range [][]string{nil, {"corrected", "closed"}, {"open"}} {
			set, err := FromResult(res)
			if err != nil {
				t.Fatal(err)
			}
			if set, err = set.Select(names...); err != nil {
				t.Fatal(err)
			}
			want, err := set.HlogFile("x.hlog")
			if err != nil {
				t.Fatal(err)
			}
			got, err := HlogFileOf(res, "x.hlog", names...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %v: HlogFileOf differs from FromResult, Select and HlogFile", q, names)
			}
		}
	}
}
