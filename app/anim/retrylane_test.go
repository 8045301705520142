package anim

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/sim"
	"omission/sim/window"
)

// stormRefusal runs the retry storm and returns its first window's refusal.
func stormRefusal(t *testing.T) (*sim.Result, *window.Refusal) {
	t.Helper()
	res := animRun(t, "preset=retry-storm")
	_, err := window.NewSummaryBuilder(res, 0)
	refusal, ok := err.(*window.Refusal)
	if !ok {
		t.Fatalf("the storm's first window: %v, not a refusal", err)
	}
	return res, refusal
}

// overlapNs is how much of [a0, a1) lies in [b0, b1).
func overlapNs(a0, a1, b0, b1 int64) int64 { return max(0, min(a1, b1)-max(a0, b0)) }

// laneWant is what a lane's columns must hold, worked out from the attempt
// trace directly (each attempt against each column, by the definitions of
// sim.Attempt), not through the lane's own code.
type laneWant struct {
	queued, serving, backoff [retryCols]int64
	failed, gaveUp           [retryCols]int32
}

func wantLane(tr *window.AttemptTrace, edges [retryCols + 1]int64) laneWant {
	var w laneWant
	for _, a := range tr.Tries {
		start := a.Start
		if start < 0 {
			start = a.End // no worker took it: it waited until it ended
		}
		retried := a.Outcome != sim.OutcomeReply && int(a.N) < tr.Attempts
		for b := 0; b < retryCols; b++ {
			e0, e1 := edges[b], edges[b+1]
			w.queued[b] += overlapNs(a.Send, start, e0, e1)
			w.serving[b] += overlapNs(start, a.End, e0, e1)
			if retried {
				w.backoff[b] += overlapNs(a.End, a.End+tr.Backoff, e0, e1)
			}
			if a.Outcome != sim.OutcomeReply && a.End >= e0 && a.End < e1 {
				w.failed[b]++
				if !retried {
					w.gaveUp[b]++
				}
			}
		}
	}
	return w
}

// TestAnimRetryLane holds the retry lane of the storm's outage window to
// the attempt trace: every column of every state, the failures, a closed
// form for the calls backing off in the outage, and every bar drawn.
func TestAnimRetryLane(t *testing.T) {
	res, refusal := stormRefusal(t)
	from, to := refusal.From, refusal.To
	lanes := retryLanes(res, from, to)
	if len(lanes) != len(refusal.Retries) || len(lanes) == 0 {
		t.Fatalf("%d lanes, the refusal counts retries of %d clients", len(lanes), len(refusal.Retries))
	}
	var open *retryLane
	for k, l := range lanes {
		if l.Counts != refusal.Retries[k] {
			t.Errorf("%s: the lane counts %+v, the refusal %+v", l.Client, l.Counts, refusal.Retries[k])
		}
		if l.Edges[0] != from || l.Edges[retryCols] != to {
			t.Fatalf("%s: the columns span [%d, %d], the window [%d, %d]", l.Client, l.Edges[0], l.Edges[retryCols], from, to)
		}
		tr := window.AttemptsWindow(res, l.Client, from, to)
		if l.Cut || tr.Cut {
			t.Fatalf("%s: the storm's trace is cut", l.Client)
		}
		w := wantLane(tr, l.Edges)
		var total int64
		for b := 0; b < retryCols; b++ {
			if l.Queued[b] != w.queued[b] || l.Serving[b] != w.serving[b] || l.Backoff[b] != w.backoff[b] {
				t.Errorf("%s column %d: queued/serving/backoff %d/%d/%d ns, the trace %d/%d/%d", l.Client, b,
					l.Queued[b], l.Serving[b], l.Backoff[b], w.queued[b], w.serving[b], w.backoff[b])
			}
			if l.Failed[b] != w.failed[b] || l.GaveUp[b] != w.gaveUp[b] {
				t.Errorf("%s column %d: %d failed, %d gave up; the trace %d, %d", l.Client, b, l.Failed[b], l.GaveUp[b], w.failed[b], w.gaveUp[b])
			}
			total += l.Backoff[b]
		}
		if total == 0 {
			t.Errorf("%s: no call backs off in the window: the lane checks nothing", l.Client)
		}
		if l.Client == sim.OpenClient {
			open = l
		}
	}
	if open == nil {
		t.Fatal("no lane for the open client")
	}

	// A closed form: the open loop sends every 1 ms whatever happens, and in
	// the outage (4 s to 4.5 s) every attempt fails at once and backs off
	// 100 ms; its third attempt is its last. From 4.3 s on, at every instant
	// the calls backing off are those sent in the last 100 ms (after their
	// first attempt) and those sent 100 to 200 ms ago (after their second):
	// 200, exactly, so every column wholly in [4.3 s, 4.5 s) means 200, and
	// none of those calls is queued or in service.
	outage := res.Config.Outages.At(0)
	checked := 0
	for b := 0; b < retryCols; b++ {
		if open.Edges[b] < outage.From+300e6 || open.Edges[b+1] > outage.To {
			continue
		}
		checked++
		if got := open.mean(&open.Backoff, b); math.Abs(got-200) > 1e-9 {
			t.Errorf("open column %d [%d, %d): %v calls backing off, want 200", b, open.Edges[b], open.Edges[b+1], got)
		}
		if open.Queued[b] != 0 || open.Serving[b] != 0 {
			t.Errorf("open column %d: %d ns queued, %d in service in the outage", b, open.Queued[b], open.Serving[b])
		}
		if open.Failed[b] == 0 {
			t.Errorf("open column %d: no attempt fails in the outage", b)
		}
	}
	if checked == 0 {
		t.Fatalf("no column of [%d, %d] lies in the outage's last 200 ms", from, to)
	}

	// Every bar drawn is a column's value over its lane's scale, and every
	// non-zero value is drawn.
	svg := retryLaneSVG(lanes)
	rect := regexp.MustCompile(`<rect class="([a-z -]+)" x="([0-9.]+)" y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)"/>`)
	block := float64(rlHead + rlRows*rlRow)
	drawn := map[[3]int]float64{}
	for _, m := range rect.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[2], 64)
		y, _ := strconv.ParseFloat(m[3], 64)
		h, _ := strconv.ParseFloat(m[4], 64)
		bottom := y + h
		k := int(bottom / block)
		r := int(math.Round((bottom-block*float64(k)-rlHead+2)/rlRow)) - 1
		b := int(math.Round((x - rlX0) / rlColumn))
		if k >= len(lanes) || r < 0 || r >= rlRows || b < 0 || b >= retryCols {
			t.Fatalf("a bar outside the lanes: %s", m[0])
		}
		drawn[[3]int{k, r, b}] = h
	}
	full := float64(rlRow - 4)
	for k, l := range lanes {
		var tops [rlRows]float64
		for b := 0; b < retryCols; b++ {
			want := [rlRows]float64{l.mean(&l.Queued, b), l.mean(&l.Serving, b), l.mean(&l.Backoff, b), float64(l.Failed[b])}
			for r, v := range want {
				tops[r] = max(tops[r], v)
			}
		}
		// Each row's scale is written at its end: the open loop's backing
		// off tops out at the closed form's 200.
		for r, top := range tops {
			if label := ">max " + scaleText(top) + "<"; !strings.Contains(svg, label) {
				t.Errorf("%s %s: the drawing does not write its scale %q", l.Client, retryRowNames[r], label)
			}
		}
		if l.Client == sim.OpenClient && tops[2] != 200 {
			t.Errorf("open: at most %v calls back off over a column, want 200", tops[2])
		}
		for b := 0; b < retryCols; b++ {
			want := [rlRows]float64{l.mean(&l.Queued, b) / tops[0], l.mean(&l.Serving, b) / tops[1], l.mean(&l.Backoff, b) / tops[2], float64(l.Failed[b]) / tops[3]}
			for r, v := range want {
				if tops[r] == 0 {
					v = 0
				}
				h, ok := drawn[[3]int{k, r, b}]
				switch {
				case v == 0 && ok:
					t.Errorf("%s %s column %d: a bar for nothing", l.Client, retryRowNames[r], b)
				case v > 0 && !ok:
					t.Errorf("%s %s column %d: %v of the scale, not drawn", l.Client, retryRowNames[r], b, v)
				case ok && math.Abs(h-max(full*v, 0.5)) > 0.006:
					t.Errorf("%s %s column %d: a bar %v high, want %v", l.Client, retryRowNames[r], b, h, full*v)
				}
			}
		}
	}
	if len(drawn) == 0 {
		t.Fatal("no bar drawn")
	}
}

// TestAnimRetryScaleText: a row's scale keeps its digits, a sliver too.
func TestAnimRetryScaleText(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 2: "2", 123: "123", 200: "200", 150.4: "150", 0.7: "0.7", 1.25: "1.2", 0.0213: "0.021", 3.96: "4.0"} {
		if got := scaleText(v); got != want {
			t.Errorf("scaleText(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestAnimPanelRetryLane: the panel shows the lane under a refused window
// of the storm, and nothing of it for a run without retries.
func TestAnimPanelRetryLane(t *testing.T) {
	res, _ := stormRefusal(t)
	a, h := mountPanel(t, res)
	a.load(h.ctx)
	html := app.HTMLString(a.Render())
	if a.p.model == nil || a.p.model.Retry == nil || !strings.Contains(html, `data-anim-retries="1"`) || !regexp.MustCompile(`<img [^>]*class="anim-retry-svg"`).MatchString(html) {
		t.Fatalf("the storm's window by calls shows no retry lane: %s", html)
	}
	if !strings.Contains(html, "Not drawn") || !strings.Contains(html, "wasted work") {
		t.Error("the lane does not say what it leaves out")
	}
	b, _ := mountPanel(t, animRun(t, "preset=tcp"))
	b.load(h.ctx)
	if html := app.HTMLString(b.Render()); strings.Contains(html, "anim-retry") || b.retries != "" {
		t.Errorf("a run without retries shows a retry lane: %s", html)
	}
}
