package anim

import (
	"math"
	"omission/sim/window"
	"sync"
)

// animPlayer is the animation's clock and frame: the simulated instant
// shown, whether it plays and how fast. The frame callback (from
// requestAnimationFrame, in JavaScript's turn) and the controls (on the UI
// goroutine) both use it, under its mutex; neither ever blocks while holding
// it.
type animPlayer struct {
	mu      sync.Mutex
	model   *window.Summary
	frame   *animFrame
	t       int64 // the instant shown, ns
	playing bool
	speed   int  // the speed slider's position, 0 (slowest) to speedSteps
	reduced bool // prefers-reduced-motion: steps instead of motion
	width   float32
	lastNow float64 // the last frame's time while playing (ms); 0: none
	acc     float64 // reduced motion: real ms since the last step
	dirty   bool    // the next frame must be drawn
	frames  int     // frames built
}

const (
	speedSteps   = 100
	slowestSpeed = 1000.0 // real ms per simulated ms at speed 0
	stepEvery    = 1000.0 // reduced motion: real ms between steps
	maxFrameGap  = 100.0  // real ms: a longer gap (a hidden tab) is not played through
)

func newAnimPlayer() *animPlayer {
	return &animPlayer{frame: newAnimFrame(), speed: -1}
}

// setModel shows a new model at instant t (clamped to its window).
func (p *animPlayer) setModel(m *window.Summary, t int64) {
	p.model = m
	p.t = min(max(t, m.From), m.To)
	if p.speed < 0 {
		p.speed = defaultSpeed(m)
	}
	if p.width > 0 {
		p.frame.setLayout(m, p.width)
	}
	p.lastNow, p.acc, p.dirty = 0, 0, true
}

// fastest returns the real ms a simulated ms takes at the fastest speed:
// 10, or faster when the window is long, so that any window can be played
// in about six seconds.
func fastest(m *window.Summary) float64 {
	ms := float64(m.To-m.From) / 1e6
	return min(10, 6000/ms)
}

// realPerSim returns the real ms one simulated ms takes at speed s.
func realPerSim(m *window.Summary, s int) float64 {
	return slowestSpeed * math.Pow(fastest(m)/slowestSpeed, float64(s)/speedSteps)
}

// defaultSpeed plays the window in about twelve seconds.
func defaultSpeed(m *window.Summary) int {
	ms := float64(m.To-m.From) / 1e6
	want := min(max(12000/ms, fastest(m)), slowestSpeed)
	s := math.Log(want/slowestSpeed) / math.Log(fastest(m)/slowestSpeed)
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return speedSteps
	}
	return int(math.Round(s * speedSteps))
}

// flight returns how long, in simulated ns, a mark takes to fly at the
// current speed: flightMs of real time, none when motion is reduced.
func (p *animPlayer) flight() int64 {
	if p.reduced || p.model == nil {
		return 0
	}
	return int64(flightMs / realPerSim(p.model, p.speed) * 1e6)
}

// tick advances the clock to the frame time now (ms) and builds the frame
// when something changed. It reports whether a frame was built, whether the
// loop should go on, and whether playing just ended.
func (p *animPlayer) tick(now float64, width float32) (drawn, more, ended bool) {
	m := p.model
	if m == nil {
		return false, false, false
	}
	if width > 0 && width != p.width {
		p.width = width
		p.frame.setLayout(m, width)
		p.dirty = true
	}
	if p.width == 0 {
		return false, p.playing, false
	}
	if p.playing {
		if p.lastNow > 0 {
			dt := min(max(now-p.lastNow, 0), maxFrameGap)
			if p.reduced {
				p.acc += dt
				if p.acc >= stepEvery {
					p.acc -= stepEvery
					ended = p.advance(stepEvery)
				}
			} else {
				ended = p.advance(dt)
			}
		}
		p.lastNow = now
	}
	if p.dirty {
		p.frame.build(m, frameParams{t: p.t, flight: p.flight(), playing: p.playing})
		p.frames++
		p.dirty = false
		drawn = true
	}
	return drawn, p.playing, ended
}

// advance plays dt real ms; it reports whether the window's end was reached.
func (p *animPlayer) advance(dt float64) bool {
	m := p.model
	step := int64(dt / realPerSim(m, p.speed) * 1e6)
	if step <= 0 {
		return false
	}
	p.t += step
	p.dirty = true
	if p.t >= m.To {
		p.t = m.To
		p.playing = false
		p.lastNow = 0
		return true
	}
	return false
}

// play starts or stops; playing from the end starts over.
func (p *animPlayer) play(on bool) {
	if p.model == nil {
		return
	}
	if on && p.t >= p.model.To {
		p.t = p.model.From
	}
	p.playing = on
	p.lastNow, p.acc, p.dirty = 0, 0, true
}

// seek shows instant t, clamped to the window.
func (p *animPlayer) seek(t int64) {
	if p.model == nil {
		return
	}
	p.t = min(max(t, p.model.From), p.model.To)
	p.dirty = true
}
