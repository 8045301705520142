package anim

import (
	"omission/app/address"
	"omission/app/ui"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/charts"
)

// animJS is the panel's browser side: the drawing object of web/anim.js, the
// buffer frames are copied into, and the callbacks JavaScript makes. Outside
// the browser every method does nothing.
type animJS struct {
	handle app.Value
	buf    app.Value
	tick   app.Func
	shown  app.Func
	tries  int
}

// reducedMotion reports the reader's prefers-reduced-motion.
func (j *animJS) reducedMotion() bool {
	if !app.IsClient || !app.Window().Get("matchMedia").Truthy() {
		return false
	}
	return app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Bool()
}

// start creates the drawing object once the panel's canvases exist and
// web/anim.js has run. It runs on the UI goroutine.
func (j *animJS) start(ctx app.Context, a *Panel) {
	if !app.IsClient || j.handle != nil {
		return
	}
	lib := app.Window().Get("omissionAnim")
	root := a.JSValue()
	if !lib.Truthy() || root == nil || !root.Truthy() {
		if j.tries < 100 {
			j.tries++
			ctx.After(100*time.Millisecond, func(ctx app.Context) {
				defer ui.Recover(ctx, "animation")
				ctx.PreventUpdate()
				j.start(ctx, a)
			})
		} else {
			app.Log("omission: the animation's script (web/anim.js) did not load")
		}
		return
	}
	p := a.p
	j.buf = app.Window().Get("Uint8Array").New(animBufSize)
	j.tick = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) < 2 {
			return 0
		}
		now, width := args[0].Float(), float32(args[1].Float())
		p.mu.Lock()
		drawn, more, ended := p.tick(now, width)
		var labels []any
		if drawn {
			app.CopyBytesToJS(j.buf, p.frame.bytes())
			if p.frame.bgBuilt {
				labels = make([]any, 0, numLabels+len(p.frame.labels))
				for _, s := range animLabels {
					labels = append(labels, s)
				}
				for _, s := range p.frame.labels {
					labels = append(labels, s)
				}
			}
		}
		p.mu.Unlock()
		if labels != nil {
			j.handle.Call("setLabels", labels)
		}
		if ended {
			ctx.Dispatch(func(ctx app.Context) {
				defer ui.Recover(ctx, "animation")
				a.ended(ctx)
			})
		}
		flags := 0
		if drawn {
			flags |= 1
		}
		if more {
			flags |= 2
		}
		return flags
	})
	j.shown = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			defer ui.Recover(ctx, "animation")
			if !a.autoplay {
				ctx.PreventUpdate()
			}
			a.shown(ctx)
		})
		return nil
	})
	styles := map[string]any{"light": toAny(animStyles(charts.Light)), "dark": toAny(animStyles(charts.Dark))}
	canvases := root.Call("querySelectorAll", "canvas.anim-canvas")
	j.handle = lib.Call("create", root, canvases, j.buf, map[string]any{"tick": j.tick, "shown": j.shown}, styles)

	j.request()
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// onScreen reports whether the animation is visible: in view, tab shown.
func (j *animJS) onScreen() bool {
	return j.handle != nil && j.handle.Call("active").Bool()
}

// request asks for a frame.
func (j *animJS) request() {
	if j.handle != nil {
		j.handle.Call("request")
	}
}

// stop ends the frame loop and releases the callbacks.
func (j *animJS) stop() {
	if j.handle != nil {
		j.handle.Call("destroy")
		j.handle = nil
	}
	for _, f := range []app.Func{j.tick, j.shown} {
		if f != nil {
			f.Release()
		}
	}
	j.tick, j.shown = nil, nil
}

// followURL applies the URL's stall and moment when the page that owns the
// URL publishes it (a load, back or forward): at once when the result on
// show is the URL's, else with the next result. The keys the panel wrote
// itself are already on show.
func (a *Panel) followURL(ctx app.Context) {
	w := parseAnimURL(a.url)
	vals := address.ParseAddress(a.url)
	if !w.set || vals.Get(animKey) == a.wrote.Get(animKey) && vals.Get(animTKey) == a.wrote.Get(animTKey) {
		return
	}
	if a.res != nil && stripAnimKeys(a.url) == a.res.Query {
		a.show(ctx, w.stall, w.t, w.hasT)
		return
	}
	a.want = w
}
