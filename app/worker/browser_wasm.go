//go:build wasm

package worker

import (
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"

	"omission/app/compute"
	"omission/app/wire"
	"omission/app/yield"
)

// Serve runs requests from the page that started this worker, posting each
// response back as JSON; it never returns. web/page.js gives it the query
// of the address the page was loaded with (page keys allowed, "" for the
// default: wire.Warm), which the worker runs at once, before the page
// asks; the page's first request of the same query takes its view
// (server.run). A query that does not parse runs nothing: the page says
// why.
func Serve(s compute.Settings) {
	post := func(r Response) {
		b, err := json.Marshal(r)
		if err != nil {
			b, _ = json.Marshal(Response{ID: r.ID, Err: "the worker could not encode its answer: " + err.Error(), Done: true})
		}
		if f := r.Export; f != nil && f.Data != nil {
			// The file goes as a Blob beside the JSON, not inside it.
			wire.PostWith(string(b), blobOf(f))
			return
		}
		wire.Post(string(b))
	}
	// Between slices the worker's event loop delivers the messages that
	// arrived (a newer request): yield.Yield, a task of its own.
	srv := newServer(s, post, yield.Yield)
	if q, ok := wire.Warm(); ok {
		srv.warmUp(q)
	}
	// The protocol's boot and ready (package wire); requests that came
	// while the program was starting first.
	wire.Listen(func(msg string) {
		var req Request
		if json.Unmarshal([]byte(msg), &req) == nil {
			srv.in <- req
		}
	})
	srv.loop()
}

// Browser is a client whose requests run in a Web Worker.
type Browser struct {
	w       js.Value
	deliver func(Response)
	onMsg   js.Func
	onErr   js.Func
	failed  func(error) // the worker stopped
	where   string      // "worker", or "page" for web/page.js's stand-in
	// answered: the worker's first answer came (marked for make bench);
	// replaying: the page hands on what the worker said before it was
	// taken (NewBrowser)
	answered, replaying bool
}

// NewBrowser takes the simulation worker web/page.js starts
// (omissionStartSim: as soon as app.wasm is compiled, on the visualiser),
// with what the worker said before this call: a Web Worker running the
// page's module, or,
// where the browser has no Web Workers, page.js's stand-in, which runs the
// same program on the page's thread. deliver runs in the page's
// JavaScript turn: it must hand the response to the UI goroutine. failed
// is called once if the worker stops working.
func NewBrowser(deliver func(Response), failed func(error)) (*Browser, error) {
	g := js.Global()
	if !g.Get("omissionStartSim").Truthy() {
		return nil, errors.New("the page's script (web/page.js) did not load")
	}
	sim := g.Call("omissionStartSim")
	if !sim.Truthy() {
		return nil, errors.New("this site has no simulation worker")
	}
	w, held, where := sim.Get("worker"), sim.Call("take"), sim.Get("where").String()
	b := &Browser{w: w, deliver: deliver, failed: failed, where: where}
	var once sync.Once
	fail := func(err error) { once.Do(func() { b.stop(); failed(err) }) }
	b.onMsg = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		d := args[0].Get("data")
		var blob js.Value
		if d.Type() == js.TypeObject && d.Get("blob").Truthy() {
			d, blob = d.Get("json"), d.Get("blob")
		}
		if d.Type() != js.TypeString {
			return nil
		}
		r, err := DecodeResponse([]byte(d.String()))
		if err == nil && r.Export != nil && blob.Truthy() {
			r.Export.blob = blob
		}
		if err != nil {
			fail(errors.New("the worker's answer could not be read: " + err.Error()))
			return nil
		}
		if r.ID == 0 {
			// ready: a mark of the startup's parts, for make bench (web/page.js,
			// which marks it itself when it holds the message); the times
			// the worker posts of itself, page.js marks.
			if !b.replaying && d.String() == wire.Ready {
				g.Get("performance").Call("mark", "omission:worker-ready")
			} else if m := g.Get("omissionWorkerMark"); m.Truthy() {
				m.Invoke(d)
			}
			return nil
		}
		if r.ID < 0 {
			fail(errors.New(r.Err))
			return nil
		}
		if !b.answered {
			b.answered = true
			g.Get("performance").Call("mark", "omission:worker-first")
		}
		deliver(r)
		return nil
	})
	b.onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the simulation worker stopped"
		if len(args) > 0 && args[0].Get("message").Truthy() {
			msg += ": " + args[0].Get("message").String()
		}
		fail(errors.New(msg))
		return nil
	})
	w.Call("addEventListener", "message", b.onMsg)
	w.Call("addEventListener", "error", b.onErr)
	b.replaying = true
	defer func() { b.replaying = false }()
	for i := 0; i < held.Length(); i++ {
		e := held.Index(i)
		if e.Get("type").String() == "error" {
			b.onErr.Invoke(e)
		} else {
			b.onMsg.Invoke(e)
		}
	}
	return b, nil
}

// Send posts a request to the worker.
func (b *Browser) Send(req Request) {
	if !b.w.Truthy() {
		return
	}
	b.w.Call("postMessage", string(EncodeRequest(req)))
}

// Where is "worker", or "page" where page.js's stand-in runs the program on
// the page's thread.
func (b *Browser) Where() string { return b.where }

func (b *Browser) stop() {
	if b.w.Truthy() {
		b.w.Call("terminate")
		b.w = js.Undefined()
	}
}

// blobOf is the file's bytes as a Blob of its media type.
func blobOf(f *ExportFile) js.Value {
	if b, ok := f.blob.(js.Value); ok {
		return b
	}
	g := js.Global()
	arr := g.Get("Uint8Array").New(len(f.Data))
	js.CopyBytesToJS(arr, f.Data)
	return g.Get("Blob").New([]any{arr}, map[string]any{"type": f.Type})
}

// Save hands the file to the browser's downloads: an object URL clicked
// through a download link, revoked a minute later.
func Save(f *ExportFile) {
	g := js.Global()
	doc := g.Get("document")
	u := g.Get("URL").Call("createObjectURL", blobOf(f))
	a := doc.Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", f.Name)
	a.Set("hidden", true)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		g.Get("URL").Call("revokeObjectURL", u)
		revoke.Release()
		return nil
	})
	g.Call("setTimeout", revoke, 60000)
}
