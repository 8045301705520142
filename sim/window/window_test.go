package window

import (
	"math/rand/v2"
	"testing"

	"omission/sim"
	"omission/sim/internal/simtest"
)

// animBenchStall1 is the model of the bench preset's stall 1 (it begins at 1.5 s).
func animBenchStall1(t testing.TB) (*sim.Result, *Summary) {
	t.Helper()
	res := simtest.Run(t, "preset=bench")
	m, err := Summarise(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}

// animCheckCounts compares the model's counters at t with the trace's.
func animCheckCounts(t *testing.T, m *Summary, traces [3]*Trace, at int64) {
	t.Helper()
	tally := make([]int32, 2*(len(m.Bins)-1))
	for i, a := range m.Clients {
		var got ClientCounts
		a.Counts(m, at, &got, tally)
		want := traces[i].CountsAt(at)
		if got.Counts != want {
			t.Fatalf("%s at %d: model %+v, trace %+v", a.Client, at, got.Counts, want)
		}
		// The tally holds every recorded sample and every corrected one.
		var rec, syn int64
		nb := len(m.Bins) - 1
		for k := 0; k < nb; k++ {
			rec += int64(tally[k])
			syn += int64(tally[nb+k])
		}
		if rec != want.Recorded || syn != want.Synthetic {
			t.Fatalf("%s at %d: tally holds %d samples and %d corrected, want %d and %d", a.Client, at, rec, syn, want.Recorded, want.Synthetic)
		}
		// Skipped slots passed so far.
		var never int64
		for _, s := range traces[i].NeverSent {
			if s <= at {
				never++
			}
		}
		if first, n := a.x.NeverSentTail(); n > 0 && at >= first {
			never += min(n, (at-first)/a.x.Slot()+1)
		}
		if got.NeverSent != never {
			t.Fatalf("%s at %d: %d skipped slots passed, trace %d", a.Client, at, got.NeverSent, never)
		}
		// States partition the requests due.
		var notSent, queued, serving int64
		for _, r := range traces[i].Requests {
			switch {
			case r.Due > at || r.Done <= at:
			case r.Send > at:
				notSent++
			case r.Start > at:
				queued++
			default:
				serving++
			}
		}
		if got.NotSent != notSent || got.Queued != queued || got.Serving != serving {
			t.Fatalf("%s at %d: not sent %d queued %d serving %d, trace %d %d %d", a.Client, at, got.NotSent, got.Queued, got.Serving, notSent, queued, serving)
		}
	}
}

func animTraces(m *Summary) [3]*Trace {
	var tr [3]*Trace
	for i, c := range sim.Clients() {
		tr[i] = TraceWindow(m.res, c, m.From, m.To)
	}
	return tr
}

// TestAnimBenchStall1 is the story the animation tells for the bench
// preset's stall 1, read from the model.
func TestAnimBenchStall1(t *testing.T) {
	res, m := animBenchStall1(t)
	if m.Start != 1500e6 || m.End != 1700e6 || m.From >= m.Start || m.To < m.End+200e6 {
		t.Fatalf("window [%d, %d] around the stall [%d, %d)", m.From, m.To, m.Start, m.End)
	}
	if m.Stalls != res.NumStalls() {
		t.Fatalf("%d stalls, want %d", m.Stalls, res.NumStalls())
	}
	closed, paced, open := m.Clients[0], m.Clients[1], m.Clients[2]

	// Open loop: 2000 requests delayed by the stall, 200100 µs down in
	// 100 µs steps, all recorded by the end of the window.
	var delayed []int64
	for j := 0; j < open.N; j++ {
		if r := open.x.At(j); r.Stall == 1 {
			delayed = append(delayed, r.Latency)
		}
	}
	if len(delayed) != 2000 {
		t.Fatalf("open: %d delayed requests, want 2000", len(delayed))
	}
	for j, v := range delayed {
		if want := int64(200100e3 - int64(j)*100e3); v != want {
			t.Fatalf("open delayed %d: %d, want %d", j, v, want)
		}
	}
	if open.Total.Recorded+open.Total.Waiting != int64(open.N) || open.Total.Recorded < 2000 || open.Total.Slowest != 200100e3 {
		t.Errorf("open at the end: %+v", open.Total)
	}
	// Above 1 ms: the delayed ones recording more than 1 ms, 200.1 ms down to 1.1 ms.
	var above int64
	for j := 0; j < open.N; j++ {
		if open.x.Latency(j) > 1e6 {
			above++
		}
	}
	if open.Total.Above != above || above != 1991 {
		t.Errorf("open above: %d, want %d (1991)", open.Total.Above, above)
	}

	// Closed loop: one 200100 µs sample, then 1999 late sends of 100 µs.
	var slow, late int
	for j := 0; j < closed.N; j++ {
		r := closed.x.At(j)
		switch {
		case r.Latency == 200100e3:
			slow++
		case r.Send > r.Due:
			late++
			if r.Latency != 100e3 {
				t.Fatalf("closed late request %d records %d", r.Index, r.Latency)
			}
		}
	}
	if slow != 1 || late != 1999 {
		t.Fatalf("closed: %d slow and %d late, want 1 and 1999", slow, late)
	}
	if closed.Total.Slowest != 200100e3 || closed.Total.Above != 1 {
		t.Errorf("closed at the end: %+v", closed.Total)
	}
	// The correction adds 999 samples 200 µs apart, from 199900 µs down to
	// 200 µs, when the slow reply arrives; the tally holds exactly those.
	if closed.Total.Synthetic != 999 {
		t.Fatalf("closed: %d corrected samples, want 999", closed.Total.Synthetic)
	}
	tally := make([]int32, 2*(len(m.Bins)-1))
	var c ClientCounts
	closed.Counts(m, m.To, &c, tally)
	nb := len(m.Bins) - 1
	want := make([]int32, nb)
	for k := int64(1); k <= 999; k++ {
		want[m.Bin(200100e3-k*200e3)]++
	}
	for k := 0; k < nb; k++ {
		if tally[nb+k] != want[k] {
			t.Fatalf("closed tally bin %d [%d, %d): %d corrected samples, want %d", k, m.Bins[k], m.Bins[k+1], tally[nb+k], want[k])
		}
	}
	// They appear when the slow reply arrives, not before.
	var slowDone int64
	for j := 0; j < closed.N; j++ {
		if r := closed.x.At(j); r.Latency == 200100e3 {
			slowDone = r.Done
		}
	}
	closed.Counts(m, slowDone-1, &c, nil)
	if c.Synthetic != 0 || c.Slowest != 100e3 {
		t.Errorf("closed just before the slow reply: %+v", c)
	}
	closed.Counts(m, slowDone, &c, nil)
	if c.Synthetic != 999 || c.Slowest != 200100e3 {
		t.Errorf("closed at the slow reply: %+v", c)
	}

	// In the middle of the stall: the open loop's requests wait in the queue,
	// the closed loop's are not sent yet, the paced client skips its slots.
	mid := m.Start + 100e6
	var o, cl, p ClientCounts
	open.Counts(m, mid, &o, nil)
	closed.Counts(m, mid, &cl, nil)
	paced.Counts(m, mid, &p, nil)
	if o.Queued < 490 || o.Queued > 510 || o.NotSent != 0 {
		t.Errorf("open mid-stall: %+v, want about 500 queued", o)
	}
	if cl.NotSent < 490 || cl.NotSent > 510 || cl.Queued+cl.Serving != 1 {
		t.Errorf("closed mid-stall: %+v, want about 500 not sent yet and one in service", cl)
	}
	if p.NeverSent < 490 || p.NeverSent > 510 {
		t.Errorf("paced mid-stall: %+v, want about 500 slots skipped", p)
	}
	paced.Counts(m, m.To, &p, nil)
	if p.NeverSent < 990 {
		t.Errorf("paced at the end: %d slots skipped, want about 1000", p.NeverSent)
	}
}

// TestAnimCountsMatchTrace: at every event of the bench window, and at
// random instants of random runs, the model's counters are the trace's.
func TestAnimCountsMatchTrace(t *testing.T) {
	_, m := animBenchStall1(t)
	traces := animTraces(m)
	for k, at := range animAllEvents(traces) {
		// Every event in and around the stall, one in five elsewhere.
		if k%5 == 0 || at >= m.Start-1e6 && at <= m.End+1e6 {
			animCheckCounts(t, m, traces, at)
			animCheckCounts(t, m, traces, at-1)
		}
	}
	r := rand.New(rand.NewPCG(3, 33))
	checked := 0
	for _, q := range animRandomQueries(r, 40) {
		res := simtest.Run(t, q)
		if Animatable(res) != nil {
			continue
		}
		checked++
		k := r.IntN(res.StallCount())
		m, err := Summarise(res, k)
		if err != nil {
			t.Fatalf("%s stall %d: %v", q, k, err)
		}
		traces := animTraces(m)
		for n := 0; n < 40; n++ {
			animCheckCounts(t, m, traces, m.From-1+r.Int64N(m.To-m.From+3))
		}
		animCheckCounts(t, m, traces, m.To)
	}
	if checked < 25 {
		t.Errorf("only %d random runs could be animated", checked)
	}
}

// animAllEvents merges the traces' events.
func animAllEvents(traces [3]*Trace) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, tr := range traces {
		for _, e := range tr.Events() {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	animSortInt64(out)
	return out
}

func animSortInt64(v []int64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// animRandomQueries returns valid queries across the page's parameters: one or
// many connections, one to unlimited workers, short to long stalls.
func animRandomQueries(r *rand.Rand, n int) []string {
	var out []string
	rates := []string{"200", "1000", "5000", "20000"}
	for len(out) < n {
		q := "rate=" + rates[r.IntN(len(rates))] +
			"&service=" + []string{"0s", "10us", "100us", "1ms", "3ms"}[r.IntN(5)] +
			"&stall=" + []string{"1ms", "20ms", "200ms", "1s"}[r.IntN(4)] +
			"&every=" + []string{"0s", "300ms", "1s", "2s"}[r.IntN(4)] +
			"&first=" + []string{"0s", "50ms", "400ms"}[r.IntN(3)] +
			"&duration=" + []string{"300ms", "1s", "3s"}[r.IntN(3)] +
			"&conns=" + []string{"1", "3", "10"}[r.IntN(3)] +
			"&workers=" + []string{"1", "2", "unlimited"}[r.IntN(3)]
		if _, err := sim.ParseQuery(q); err == nil {
			out = append(out, q)
		}
	}
	return out
}

// TestAnimEvents: stepping from event to event visits exactly the traces'
// events, forwards and backwards.
func TestAnimEvents(t *testing.T) {
	_, m := animBenchStall1(t)
	want := animAllEvents(animTraces(m))
	var got []int64
	for at, ok := m.NextEvent(m.From - 1); ok; at, ok = m.NextEvent(at) {
		got = append(got, at)
		if len(got) > len(want) {
			break
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d events stepping forwards, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("event %d at %d, want %d", i, got[i], want[i])
		}
	}
	var back []int64
	for at, ok := m.PrevEvent(m.To + 1); ok; at, ok = m.PrevEvent(at) {
		back = append(back, at)
		if len(back) > len(want) {
			break
		}
	}
	if len(back) != len(want) {
		t.Fatalf("%d events stepping backwards, want %d", len(back), len(want))
	}
	for i := range back {
		if back[i] != want[len(want)-1-i] {
			t.Fatalf("backwards event %d at %d, want %d", i, back[i], want[len(want)-1-i])
		}
	}
}

// TestAnimColumns: the columns group the requests by due instant without
// losing any, and the skipped slots by instant.
func TestAnimColumns(t *testing.T) {
	_, m := animBenchStall1(t)
	traces := animTraces(m)
	for i, a := range m.Clients {
		if a.ColAt[0] != 0 || a.ColAt[WindowColumns] != a.N {
			t.Fatalf("%s: columns hold [%d, %d) of %d requests", a.Client, a.ColAt[0], a.ColAt[WindowColumns], a.N)
		}
		for b := 0; b < WindowColumns; b++ {
			for j := a.ColAt[b]; j < a.ColAt[b+1]; j++ {
				if d := a.x.Due(j); b > 0 && (d < m.Edges[b] || d >= m.Edges[b+1]) {
					t.Fatalf("%s: request %d due %d in column %d [%d, %d)", a.Client, j, d, b, m.Edges[b], m.Edges[b+1])
				}
			}
		}
		_, tail := a.x.NeverSentTail()
		if got := a.NeverAt[WindowColumns]; got != int64(len(traces[i].NeverSent))+tail {
			t.Fatalf("%s: columns hold %d skipped slots, trace %d", a.Client, got, len(traces[i].NeverSent))
		}
		for _, s := range traces[i].NeverSent {
			b := m.Column(s)
			if a.NeverAt[b+1]-a.NeverAt[b] == 0 {
				t.Fatalf("%s: skipped slot %d not in its column %d", a.Client, s, b)
			}
		}
	}
	// Bench: 5000 requests a second over a window of about 0.44 s in 320
	// columns: each column is a group of a few requests.
	if m.ColMax < 5 || m.ColMax > 12 {
		t.Errorf("largest column: %d requests", m.ColMax)
	}
}

// largeWindows are queries whose windows hold a million requests and more,
// thousands of stalls, or a backlog that never drains.
var largeWindows = []string{
	"rate=10000&stall=30s&every=0s&first=1s&duration=40s&service=10us&conns=10&workers=unlimited",
	"rate=500&stall=1h&every=0s&first=1s&duration=30m&service=100us",
	"preset=note60-single",
	"preset=clients10",
	"rate=1000&stall=3ms&every=5ms&first=0s&duration=20s&service=900us", // thousands of stalls in one window
}

// TestWindowLarge: large windows are summarised with the trace's counters.
func TestWindowLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("long runs")
	}
	for _, q := range largeWindows {
		res := simtest.Run(t, q)
		if err := Animatable(res); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		m, err := Summarise(res, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Spot checks against the trace itself (a walk over every request).
		traces := animTraces(m)
		animCheckCountsNoTally(t, m, traces, m.Start+(m.End-m.Start)/3)
		animCheckCountsNoTally(t, m, traces, m.End+(m.To-m.End)/2)
		t.Logf("%s: %d, %d, %d requests in the window; a column holds up to %d", q, m.Clients[0].N, m.Clients[1].N, m.Clients[2].N, m.ColMax)
	}
}

func animCheckCountsNoTally(t *testing.T, m *Summary, traces [3]*Trace, at int64) {
	t.Helper()
	for i, a := range m.Clients {
		var got ClientCounts
		a.Counts(m, at, &got, nil)
		if want := traces[i].CountsAt(at); got.Counts != want {
			t.Fatalf("%s at %d: model %+v, trace %+v", a.Client, at, got.Counts, want)
		}
	}
}

// TestTraceResult: a run finished for the animation alone gives the same
// windows as the full result.
func TestTraceResult(t *testing.T) {
	for _, q := range []string{"", "preset=tcp", "conns=3&workers=2&duration=5s",
		"rate=100000&service=5us&stall=50ms&every=30s&first=10s&duration=1h", "rate=100000&service=40us&stall=50ms&every=30s&first=10s&duration=1h&conns=5&workers=4"} {
		cfg, err := sim.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		full := simtest.Run(t, q)
		r, err := sim.Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tr := r.TraceResult()
		if tr == nil || tr.StallCount() != full.StallCount() {
			t.Fatalf("%q: trace result %v", q, tr)
		}
		a, err1 := Summarise(full, 0)
		b, err2 := Summarise(tr, 0)
		if err1 != nil || err2 != nil {
			t.Fatalf("%q: %v %v", q, err1, err2)
		}
		if a.From != b.From || a.To != b.To || a.Clients[2].Total != b.Clients[2].Total || a.Clients[0].Total != b.Clients[0].Total {
			t.Errorf("%q: windows differ: %+v / %+v", q, a.Clients[0].Total, b.Clients[0].Total)
		}
	}
	// An event-driven run's holds its per-request data (TestEngineTraceResult).
	r, _ := sim.Start(sim.Config{Rate: sim.RateOf(1000), Service: 1e6, Duration: 1e9, Conns: 1, Workers: 1, Arrivals: sim.ArrivalsPoisson})
	if tr := r.TraceResult(); tr == nil || tr.Clients[sim.OpenClient].Done == nil || tr.Engine.Clients[sim.OpenClient].Start == nil {
		t.Error("an engine run has no trace result with its requests' times")
	}
}
