package charts

import (
	"strings"
	"testing"

	"omission/app/units"
	"omission/sim"
)

// TestCaptionsSayFailed: where calls failed, the spectrum's and the
// distribution's captions, which give percentiles of answered calls, say
// how many of each client's calls failed; where none did, they say nothing
// of failures.
func TestCaptionsSayFailed(t *testing.T) {
	for _, q := range []string{"outages=4s-4500ms&attempts=10&backoff=0s&timeout=50ms", "preset=retry-storm&timeout=500us", "preset=tcp"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		oc := res.Calls(sim.Open)
		for _, kind := range []Kind{Spectrum, Distribution} {
			ch, err := Render(res, kind, Options{})
			if err != nil {
				t.Fatal(err)
			}
			has := strings.Contains(ch.Caption, "Failed calls have no latency")
			if f := oc.Failed(); f > 0 {
				want := units.Count(f) + " of the open loop's " + units.Plural(oc.Sent, "call")
				if !has || !strings.Contains(ch.Caption, want) {
					t.Errorf("%s, %s: %d of %d open-loop calls failed, and the caption does not say %q:\n%s", q, kind, f, oc.Sent, want, ch.Caption)
				}
			} else if has {
				t.Errorf("%s, %s: no call failed, and the caption says some did:\n%s", q, kind, ch.Caption)
			}
		}
	}
}
