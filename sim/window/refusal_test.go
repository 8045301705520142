package window

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// TestEngineAnimRefused: windows whose requests are not answered in order
// are refused, with the reason; every window a run allows is in order and
// counted right. Runs that break the order somewhere: several workers with
// random services, a timeout, a bounded queue, outages.
func TestEngineAnimRefused(t *testing.T) {
	for _, c := range []struct{ q, why string }{
		{"arrivals=poisson&dist=exponential&service=700us&workers=4&rate=5000&conns=8&stall=50ms&every=300ms&first=100ms&duration=1s&seed=3", "finish out of order"},
		{"arrivals=poisson&dist=exponential&service=180us&rate=5000&timeout=20ms&stall=60ms&every=400ms&first=100ms&duration=1s&seed=4", "timed out"},
		{"arrivals=poisson&service=150us&rate=5000&queue=20&stall=40ms&every=0s&first=200ms&duration=1s&conns=40&seed=5", "rejected"},
		{"arrivals=poisson&dist=lognormal&service=100us&service_p95=400us&rate=2000&outages=300ms-320ms,700ms-760ms&stall=0s&duration=1s&seed=6", "by an outage"},
	} {
		res := simtest.Run(t, c.q)
		refused, drawn, saw := 0, 0, false
		for k := 0; k < AnimWindows(res); k++ {
			m, err := Summarise(res, k)
			var e *Refusal
			switch {
			case errors.As(err, &e):
				refused++
				if e.Window != k || e.Windows != AnimWindows(res) || !strings.Contains(e.Error(), "cannot draw") {
					t.Errorf("%s window %d: %+v: %v", c.q, k, e, err)
				}
				saw = saw || strings.Contains(e.Error(), c.why)
				engineCheckBroken(t, res, e)
				refusalCheckInstants(t, res, e)
			case err != nil:
				t.Fatalf("%s window %d: %v", c.q, k, err)
			default:
				drawn++
				for _, at := range []int64{m.From, (m.From + m.To) / 2, m.Start, m.End, m.To} {
					engineCheckSummary(t, m, at)
				}
			}
		}
		if !saw {
			t.Errorf("%s: no window refused because the requests %s (%d refused, %d drawn)", c.q, c.why, refused, drawn)
		}
		if err := Animatable(res); err == nil {
			if _, err := Summarise(res, 0); err != nil {
				t.Errorf("%s: animatable, but window 0: %v", c.q, err)
			}
		}
	}
}

// engineCheckBroken: a refused window does break the order where the
// refusal says.
func engineCheckBroken(t *testing.T, res *sim.Result, e *Refusal) {
	t.Helper()
	cr, ec := &res.Clients[e.Client], &res.Engine.Clients[e.Client]
	i := int(e.Request)
	o := ec.Outcome[i]
	switch {
	case o != sim.OutcomeReply:
	case i > 0 && (cr.Done[i] < cr.Done[i-1] || ec.Start[i] < ec.Start[i-1]):
	default:
		t.Errorf("%s: refused at %s request %d, which keeps the order: %v", res.Query, e.Client, i, e)
	}
}

// refusalCheckInstants: a refusal's words write its instants, the request's
// outcome or the start of its service, with the formatter they are given
// and nothing else; Error writes them to the microsecond in FormatDuration's
// syntax.
func refusalCheckInstants(t *testing.T, res *sim.Result, e *Refusal) {
	t.Helper()
	i := int(e.Request)
	done, start := res.Clients[e.Client].Done[i], res.Engine.Clients[e.Client].Start[i]
	var wrote []int64
	text := e.Text(func(ns int64) string { wrote = append(wrote, ns); return fmt.Sprintf("<%d>", ns) })
	want := []int64{e.At}
	if e.why == breakWasted {
		want = []int64{e.GaveUp, e.At}
		if e.GaveUp != done || e.At != start {
			t.Errorf("%s: a wasted service refused with the give-up at %d and the service from %d, want %d and %d", res.Query, e.GaveUp, e.At, done, start)
		}
	} else if e.At != done && e.At != start {
		t.Errorf("%s: refused at %d, neither the request's outcome (%d) nor its service (%d)", res.Query, e.At, done, start)
	}
	if fmt.Sprint(wrote) != fmt.Sprint(want) {
		t.Errorf("%s: the words wrote the instants %v, want %v: %s", res.Query, wrote, want, text)
	}
	for _, ns := range want {
		if s := fmt.Sprintf("<%d>", ns); !strings.Contains(text, s) {
			t.Errorf("%s: %q lacks %s", res.Query, text, s)
		}
		if s := sim.FormatDuration(int64(time.Duration(ns).Round(time.Microsecond))); !strings.Contains(e.Error(), " at "+s) && !strings.Contains(e.Error(), " from "+s) {
			t.Errorf("%s: %q lacks %s", res.Query, e.Error(), s)
		}
	}
}
