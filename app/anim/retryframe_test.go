package anim

import (
	"bytes"
	"testing"

	"omission/sim"
	"omission/sim/window"
)

// stormByCalls returns the storm's outage window drawn by calls.
func stormByCalls(t *testing.T) (*sim.Result, *window.Summary) {
	t.Helper()
	res := animRun(t, "preset=retry-storm")
	m, err := window.NewRetryWindow(res, 0)
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}

// TestAnimRetryFrame: a frame of the storm's window by calls carries each
// client's counts at its instant (the model's, and every call in one
// state), draws in each box a mark per call standing there (up to the box's
// room) with its count, flies at most maxFlights marks a stage, fits its
// buffer, and changes as time moves.
func TestAnimRetryFrame(t *testing.T) {
	_, m := stormByCalls(t)
	o := m.Retry.Outages
	if len(o) != 1 {
		t.Fatalf("the storm's window meets %d outages", len(o))
	}
	instants := []int64{m.From, o[0].From + 1, o[0].From + 150e6, o[0].To - 1, o[0].To + 50e6, m.To}
	// The frame flies a mark for at most a quarter of the backoff (25 ms
	// in the storm): asked for 30 ms, it flies 25.
	const asked = 30e6
	flight := min(int64(asked), m.Retry.Backoff/4)
	if m.Retry.Backoff != 100e6 || flight != 25e6 {
		t.Fatalf("the storm's backoff is %d ns", m.Retry.Backoff)
	}
	var prev []byte
	wastedSeen := int64(0)
	for _, w := range []float32{960, 600, 300} {
		for _, at := range instants {
			f := newAnimFrame()
			f.setLayout(m, w)
			f.build(m, frameParams{t: at, flight: asked, playing: true})
			if f.dropped != 0 {
				t.Fatalf("width %v at %d: %d operations dropped", w, at, f.dropped)
			}
			hdr, stages, bg := decodeFrame(f)
			if hdr[hdrMode] != 1 || len(bg) == 0 {
				t.Fatalf("mode %v, %d background operations", hdr[hdrMode], len(bg))
			}
			for i, rc := range m.Retry.Clients {
				k := rc.CountsAt(at)
				base := hdrCount + i*hdrPer
				var sum int64
				for s, v := range k.In {
					if hdr[base+s] != float64(v) {
						t.Errorf("%s at %d: %v counter %v, the model %d", rc.Client, at, window.CallState(s), hdr[base+s], v)
					}
					sum += v
				}
				if sum != int64(rc.N) || hdr[base+rcAttempts] != float64(k.Attempts) || hdr[base+rcRetries] != float64(k.Retries) {
					t.Errorf("%s at %d: %d calls in states of %d; attempts %v (%d), retries %v (%d)", rc.Client, at, sum, rc.N,
						hdr[base+rcAttempts], k.Attempts, hdr[base+rcRetries], k.Retries)
				}
				// Each box: its count, and a mark per call standing in it.
				marks := make([]int64, window.NumCallStates)
				counted := make([]bool, window.NumCallStates)
				flights, hollow, wastedCounted := 0, int64(0), false
				for _, op := range stages[i] {
					switch op.code {
					case opDot:
						flights++
					case opCount:
						s := -1
						for j, lb := range retryBoxLabels {
							if float32(4*lb) == op.d {
								s = j
							}
						}
						if op.d == 0 { // a narrow box: its count alone, found by its place
							for j, b := range f.rlayout.boxes {
								if op.a > b.x && op.a < b.x+b.w && op.b > b.y && op.b < b.y+b.h {
									s = j
								}
							}
						}
						if op.d == float32(2+4*lbWasted) {
							if op.c != float32(k.Wasted) || k.Wasted == 0 {
								t.Errorf("%s at %d: wasted work %v drawn, the model %d", rc.Client, at, op.c, k.Wasted)
							}
							wastedCounted = true
							continue
						}
						if s < 0 || op.c != float32(k.In[s]) {
							t.Errorf("%s at %d: a count %v labelled %v", rc.Client, at, op.c, op.d)
						} else {
							counted[s] = true
						}
					case opRect:
						for s, b := range f.rlayout.boxes {
							if op.a > b.x && op.a < b.x+b.w && op.b > b.y && op.b < b.y+b.h && op.c == markCell-2 {
								marks[s]++
							}
						}
					case opStroke:
						if b := f.rlayout.boxes[window.CallServing]; op.a > b.x && op.a < b.x+b.w && op.b > b.y && op.b < b.y+b.h && op.c == markCell-2 {
							hollow++
						}
					}
				}
				if hdr[base+rcWasted] != float64(k.Wasted) || wastedCounted != (k.Wasted > 0) {
					t.Errorf("%s at %d: wasted work %v in the header (labelled %v), the model %d", rc.Client, at, hdr[base+rcWasted], wastedCounted, k.Wasted)
				}
				sv := f.rlayout.boxes[window.CallServing]
				_, svRoom := sv.cells()
				svDrawn := min(max(k.In[window.CallServing]-rc.Entered(window.CallServing, at-flight, at), 0), svRoom)
				if want := min(k.Wasted, svRoom-svDrawn); hollow != want {
					t.Errorf("%s at %d: %d hollow marks of wasted work, want %d", rc.Client, at, hollow, want)
				}
				wastedSeen += k.Wasted
				for s, b := range f.rlayout.boxes {
					_, room := b.cells()
					want := min(max(k.In[s]-rc.Entered(window.CallState(s), at-flight, at), 0), room)
					if marks[s] != want || !counted[s] {
						t.Errorf("width %v %s at %d: %v box draws %d marks (counted %v), want %d", w, rc.Client, at, window.CallState(s), marks[s], counted[s], want)
					}
					if b.x < 0 || b.x+b.w > f.layout.w {
						t.Errorf("width %v: the %v box [%v, %v] leaves the canvas", w, window.CallState(s), b.x, b.x+b.w)
					}
				}
				lo, hi := rc.MovesIn(at-flight, at)
				if flights > maxFlights || hi > lo && flights == 0 {
					t.Errorf("%s at %d: %d marks in flight for %d moves", rc.Client, at, flights, hi-lo)
				}
			}
			if prev != nil && bytes.Equal(prev, f.bytes()) {
				t.Errorf("width %v: the frame at %d is the one before it", w, at)
			}
			prev = append(prev[:0], f.bytes()...)
		}
	}
	if wastedSeen == 0 {
		t.Errorf("no instant of the storm shows wasted work")
	}
	if got := frameTextOf(m, o[0].From+100e6); got != "4.1 s (outage + 100 ms)" {
		t.Errorf("the moment reads %q", got)
	}
}

func frameTextOf(m *window.Summary, at int64) string {
	f := newAnimFrame()
	f.setLayout(m, 900)
	f.build(m, frameParams{t: at})
	return frameText(f, txTime)
}

// TestAnimRetryPlayer: the player steps a window by calls from move to
// move, and plays it to its end.
func TestAnimRetryPlayer(t *testing.T) {
	_, m := stormByCalls(t)
	p := newAnimPlayer()
	p.setModel(m, m.From)
	if drawn, _, _ := p.tick(1, 800); !drawn {
		t.Fatal("no first frame")
	}
	steps, last := 0, m.From
	for at, ok := m.NextEvent(m.From); ok && steps < 200; at, ok = m.NextEvent(at) {
		if at <= last || at > m.To {
			t.Fatalf("step %d: %d after %d", steps, at, last)
		}
		moved := false
		for _, rc := range m.Retry.Clients {
			lo, hi := rc.MovesIn(at-1, at)
			moved = moved || hi > lo
		}
		if !moved {
			t.Fatalf("step %d: no call moves at %d", steps, at)
		}
		if back, ok := m.PrevEvent(at); steps > 0 && (!ok || back != last) {
			t.Fatalf("back from %d: %d, want %d", at, back, last)
		}
		last = at
		steps++
	}
	if steps < 200 {
		t.Fatalf("%d steps", steps)
	}
	p.play(true)
	now := 2.0
	for k := 0; k < 100000 && p.playing; k++ {
		now += 16
		p.tick(now, 800)
	}
	if p.t != m.To || p.playing {
		t.Fatalf("played to %d (playing %v), the window ends at %d", p.t, p.playing, m.To)
	}
}

// TestAnimRetryBackoffStands: at the default speed a flight lasts longer
// than the storm's backoff; the frame still draws the calls backing off as
// marks standing in their box (most of them: those that entered in the
// last quarter of the backoff are in the air), not only in flight.
func TestAnimRetryBackoffStands(t *testing.T) {
	_, m := stormByCalls(t)
	at := m.Retry.Outages[0].From + 350e6
	f := newAnimFrame()
	f.setLayout(m, 960)
	f.build(m, frameParams{t: at, flight: 128e6, playing: true})
	_, stages, _ := decodeFrame(f)
	rc := m.Retry.Clients[2]
	b := f.rlayout.boxes[window.CallBackoff]
	_, room := b.cells()
	n := rc.CountsAt(at).In[window.CallBackoff]
	if n < 100 {
		t.Fatalf("the open client has %d calls backing off at %d", n, at)
	}
	marks := int64(0)
	for _, op := range stages[2] {
		if op.code == opRect && op.c == markCell-2 && op.a > b.x && op.a < b.x+b.w && op.b > b.y && op.b < b.y+b.h {
			marks++
		}
	}
	if want := min(n, room) / 2; marks < want {
		t.Errorf("the backing off box draws %d marks for %d calls (room %d), want at least %d standing", marks, n, room, want)
	}
}
